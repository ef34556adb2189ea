"""The engine end to end, on the lexical baseline (fast, deterministic) and a tiny real model."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from conftest import build_tiny_nli
from verifier import Verifier, VerifyRequest

REFUND_SOURCE = {
    "id": "1",
    "text": "Refund policy. Once the returned item arrives, we issue the refund within 1 to 5 business days. "
            "The refund is credited to the original payment method. Shipping takes 7 days.",
    "metadata": {"status": "active"},
}


def _check_offsets(request: dict, report) -> None:
    answer = request["answer"]
    texts = {s["id"]: s["text"] for s in request["sources"]}
    for claim in report.claims:
        assert 0 <= claim.start < claim.end <= len(answer)
        for fact in claim.facts:
            assert answer[fact.start : fact.end] == fact.text
        for ev in claim.evidence:
            assert texts[ev.source_id][ev.start : ev.end] == ev.text


def test_supported_answer_goes_out(lexical):
    request = {"answer": "We issue the refund within 1-5 business days.", "sources": [REFUND_SOURCE]}
    report = lexical.verify_request(request)
    assert [c.label for c in report.claims] == ["supported"]
    assert report.claims[0].facts[0].status == "matched"
    assert report.decision.action == "answer"
    assert report.coverage.supported_ratio == 1.0
    assert report.model.name == "lexical-recall"
    _check_offsets(request, report)


def test_number_mismatch_is_contradicted_with_both_values(lexical):
    request = {"answer": "We issue the refund within 7 business days [1].", "sources": [REFUND_SOURCE]}
    report = lexical.verify_request(request)
    claim = report.claims[0]
    assert claim.label == "contradicted"
    assert claim.citations == ["1"]
    fact = next(f for f in claim.facts if f.kind == "number")
    assert fact.status == "mismatched"
    assert "7 business days" in fact.text
    assert "1 to 5" in fact.evidence_text
    assert "7" in claim.reason and "1" in claim.reason and "5" in claim.reason
    assert report.decision.action == "abstain"
    _check_offsets(request, report)


def test_chinese_mismatch_reason_is_in_chinese(lexical):
    request = {
        "answer": "退货入库后，退款将在 7 个工作日内退回原支付账户。",
        "sources": [{"id": "1", "text": "退货商品入库后，我们将在 1-5 个工作日内完成退款，款项原路退回至原支付账户。"}],
    }
    report = lexical.verify_request(request)
    assert report.language == "zh-Hans"
    contradicted = [c for c in report.claims if c.label == "contradicted"]
    assert contradicted, [c.model_dump() for c in report.claims]
    assert contradicted[0].reason.startswith("答案说")
    assert report.decision.action == "abstain"
    _check_offsets(request, report)


def test_empty_answer_abstains_with_reason(lexical):
    report = lexical.verify("   ", [REFUND_SOURCE])
    assert report.claims == []
    assert report.decision.action == "abstain"
    assert report.decision.reason


def test_no_sources_leaves_every_claim_unsupported(lexical):
    report = lexical.verify("Refunds take 5 business days. Shipping is free.", [])
    assert len(report.claims) == 2
    assert {c.label for c in report.claims} == {"unsupported"}
    assert report.decision.action == "abstain"


@pytest.mark.parametrize(
    "request_data, field",
    [
        ({"answer": "x", "sources": [{"id": "a", "text": "t"}, {"id": "a", "text": "u"}]}, "duplicate"),
        ({"answer": "x", "sources": [{"id": "a"}]}, "text"),
        ({"answer": 42, "sources": []}, "answer"),
        ({"answer": "x", "sources": [{"id": "a", "text": "t", "metadata": {"status": "old"}}]}, "status"),
        ({"answer": "x", "context": {"as_of": "yesterday"}}, "as_of"),
    ],
)
def test_bad_input_names_the_field(request_data, field):
    with pytest.raises(ValidationError) as err:
        VerifyRequest.model_validate(request_data)
    assert field in str(err.value)


def test_one_megabyte_source_is_read_to_the_end(lexical):
    filler = "The cafeteria opens at the usual hour and serves lunch to staff. " * 16_000
    source = {"id": "big", "text": filler + "Hotel stays are reimbursed up to $250 per night in Shanghai."}
    assert len(source["text"]) > 1_000_000
    report = lexical.verify("Hotel stays are reimbursed up to $250 per night in Shanghai.", [source])
    claim = report.claims[0]
    assert claim.label == "supported"
    assert claim.evidence[0].start > 1_000_000


def test_superseded_evidence_is_not_current(lexical):
    sources = [{"id": "old", "text": "Refunds are issued within 7 business days.",
                "metadata": {"status": "superseded"}}]
    report = lexical.verify("Refunds are issued within 7 business days.", sources)
    claim = report.claims[0]
    assert claim.label == "unsupported"
    assert "old" in claim.reason and "superseded" in claim.reason
    assert claim.evidence and claim.evidence[0].current is False
    assert report.decision.action == "abstain"


def test_conflicting_active_sources_are_shown_not_resolved(lexical):
    sources = [
        {"id": "A", "text": "Refunds are issued within 5 business days."},
        {"id": "B", "text": "Refunds are issued within 10 business days."},
    ]
    report = lexical.verify("Refunds are issued within 5 business days.", sources)
    # One in-force source says otherwise: the claim as stated is contradicted, and its reason
    # shows both sides.
    assert report.claims[0].label == "contradicted"
    assert "5 business days" in report.claims[0].reason and "10 business days" in report.claims[0].reason
    assert report.conflicts
    conflict = report.conflicts[0]
    assert {conflict.source_a, conflict.source_b} == {"A", "B"}
    assert conflict.winner is None
    assert report.decision.action != "answer"
    # Each reason once: the deciding conflict is not repeated among the listed ones.
    assert len(report.decision.reasons) == len(set(report.decision.reasons))
    assert any("5 business days" in r and "10 business days" in r for r in report.decision.reasons)


@pytest.mark.parametrize("ranges", [("1 to 5", "2 to 3"), ("2 to 3", "1 to 5")])
def test_a_narrower_range_in_another_active_source_is_a_conflict(lexical, ranges):
    # A claim may narrow a source's range; two sources that state different ranges disagree,
    # whichever comes first.
    sources = [{"id": "A", "text": f"Refunds are issued within {ranges[0]} business days."},
               {"id": "B", "text": f"Refunds are issued within {ranges[1]} business days."}]
    report = lexical.verify("Refunds are issued within 2 to 3 business days.", sources)
    assert report.conflicts and {report.conflicts[0].source_a, report.conflicts[0].source_b} == {"A", "B"}
    assert report.claims[0].label != "supported"


def test_a_month_of_every_year_is_no_other_years_date(lexical):
    sources = [{"id": "A", "text": "Twice a year, in June and November, Colleague Week adds an extra 10% off."},
               {"id": "B", "text": "Our next Colleague Week runs from Monday 7 to Sunday 13 June 2027."}]
    report = lexical.verify("The next Colleague Week runs from Monday 7 to Sunday 13 June next year.", sources,
                            context={"as_of": "2026-12-10"})
    assert not report.conflicts, report.conflicts


def test_a_value_in_a_source_about_something_else_is_no_conflict(lexical):
    sources = [
        {"id": "FAQ", "text": "Transfers usually post to the other account within 7 to 14 days."},
        {"id": "Fees", "text": "The Classic card has no annual fee. Balance transfers made within 60 days of "
                               "account opening carry a 3% fee."},
    ]
    report = lexical.verify("Transfers usually take 7 to 14 days to post.", sources)
    assert not report.conflicts
    assert report.claims[0].label == "supported"


def test_a_limit_is_not_confirmed_by_a_value_it_merely_bounds(lexical):
    source = {"id": "S1", "text": "Annual subscriptions cancelled within 14 days of purchase receive a full refund; "
                                  "after 14 days, annual plans are not refundable."}
    claim = lexical.verify("Annual plans can be refunded in full within 30 days of purchase.", [source]).claims[0]
    assert claim.label == "contradicted"
    assert "30 days" in claim.reason and "14 days" in claim.reason
    same = lexical.verify("Annual plans can be refunded in full within 14 days of purchase.", [source]).claims[0]
    assert same.label == "supported"


def test_newer_source_wins_and_says_why(lexical):
    sources = [
        {"id": "v2025", "text": "Refunds are issued within 10 business days.",
         "metadata": {"status": "superseded"}},
        {"id": "v2026", "text": "Refunds are issued within 5 business days.", "metadata": {"status": "active"}},
    ]
    report = lexical.verify("Refunds are issued within 5 business days.", sources)
    assert report.claims[0].label == "supported"
    assert report.conflicts and report.conflicts[0].winner == "v2026"
    assert "superseded" in report.conflicts[0].issue


def test_batch_equals_one_by_one(lexical):
    requests = [
        {"id": "a", "answer": "We issue the refund within 1-5 business days.", "sources": [REFUND_SOURCE]},
        {"id": "b", "answer": "Shipping takes 9 days.", "sources": [REFUND_SOURCE]},
    ]
    batch = lexical.verify_batch(requests)
    single = [lexical.verify_request(r) for r in requests]
    strip = lambda r: {k: v for k, v in r.model_dump().items() if k != "timing_ms"}  # noqa: E731
    assert [strip(r) for r in batch] == [strip(r) for r in single]
    assert [r.id for r in batch] == ["a", "b"]


def test_real_transformers_model_through_the_engine(tmp_path, analyzer):
    folder = build_tiny_nli(tmp_path / "nli", {0: "entailment", 1: "neutral", 2: "contradiction"})
    verifier = Verifier(str(folder), device="cpu", analyzer=analyzer)
    request = {"answer": "We issue the refund within 1-5 business days.", "sources": [REFUND_SOURCE]}
    report = verifier.verify_request(request)
    assert report.model.name == "nli"
    assert len(report.claims) == 1 and report.claims[0].evidence
    _check_offsets(request, report)
    # The tiny model is random; the fact check still agrees with the source.
    assert report.claims[0].facts[0].status == "matched"


def test_cli_check_and_audit(tmp_path, capsys):
    from verifier.cli import main

    request = {"id": "r1", "answer": "We issue the refund within 7 business days.", "sources": [REFUND_SOURCE]}
    path = tmp_path / "req.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    assert main(["check", str(path), "--model", "lexical"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["id"] == "r1" and report["decision"]["action"] == "abstain"

    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps(request) + "\n{not json\n" + json.dumps({"id": "r3", "answer": 5}) + "\n",
                     encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["audit", str(lines), "-o", str(out), "--model", "lexical", "--no-progress"]) == 1
    records = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 3
    assert records[0]["id"] == "r1" and "claims" in records[0]
    assert records[1]["line"] == 2 and "not valid JSON" in records[1]["error"]
    assert records[2]["line"] == 3 and "answer" in records[2]["error"]


def test_a_span_grounds_a_claim_in_the_words_the_model_reads(analyzer):
    """"头三笔" and "前3笔" share their 3 once numerals are digits, as the model reads them."""
    from extractors.claims import split_claims
    from extractors.tokens import token_recall
    from models.base import NLIScores
    from verifier.candidates import Candidate
    from verifier.schema import Source
    from verifier.segment import segment_source
    from verifier.verdict import ScoredCandidate, overlap

    claim = split_claims("每个月头三笔不收费。", analyzer=analyzer)[0]
    span = segment_source(Source(id="S1", text="每月前3笔免费。")).sentences[0]
    scored = ScoredCandidate(Candidate(span, 0.5, 0), NLIScores(0.6, 0.3, 0.1), True, None)
    assert token_recall(claim.text, span.text) < 0.3 <= overlap(claim, scored)


def test_a_claim_citing_its_source_by_title_reads_the_title_with_the_evidence():
    """"依照《差旅管理辦法 2026》" cites the source: its 2026 is in the title, not a value the span lacks."""
    from verifier.canonical import model_pair
    from verifier.schema import Source
    from verifier.segment import segment_source

    source = Source(id="T1", title="差旅管理辦法 2026", text="住宿費每晚上限新台幣 3,200 元。交通費另計。")
    sentence = segment_source(source).sentences[0]
    window = segment_source(source).window(0, 1)
    cited = "依照《差旅管理辦法 2026》，住宿上限為每晚新台幣 3,200 元"
    assert model_pair(sentence, cited, [])[0] == "差旅管理辦法 2026：住宿費每晚上限新台幣 3,200 元。"
    assert model_pair(window, cited, [])[0].startswith("差旅管理辦法 2026：住宿費")
    assert model_pair(sentence, "住宿上限為每晚新台幣 3,200 元", [])[0] == "住宿費每晚上限新台幣 3,200 元。"
    english = segment_source(Source(id="P", title="Refund Policy", text="Refunds take 5 days.")).sentences[0]
    assert model_pair(english, "Under the Refund  Policy, refunds take 5 days", [])[0] == "Refund Policy: Refunds take 5 days."


def test_a_value_in_a_clause_about_the_claim_is_its_slot(lexical):
    """Two durations in one sentence: the one whose clause shares the claim's words is the slot."""
    source = {"id": "S1", "text": "Standard processing time for building permits is 15 business days; expedited "
                                  "review is available for an additional $300 and takes 5 business days."}
    report = lexical.verify("Standard processing takes 15 business days, or you can pay $300 extra for "
                            "expedited review in 3 business days.", [source])
    assert [c.label for c in report.claims] == ["supported", "contradicted"]
    fact = next(f for f in report.claims[1].facts if f.status == "mismatched")
    assert (fact.text, fact.evidence_text) == ("3 business days", "5 business days")

"""Policy engine, rewrite, user messages, hand-off package and decision log."""

from __future__ import annotations

import io
import json

import pytest

from verifier.errors import InputError
from verifier.policy import Condition, load_policy

BASE_SIGNALS = {
    "claims": 2, "supported": 2, "partial": 0, "unsupported": 0, "contradicted": 0, "supported_ratio": 1.0,
    "contradicted_facts": 0, "key_contradicted": 0, "conflicts": 0, "resolved_conflicts": 0, "not_current": 0, "sources": 1,
    "risk_level": "low", "retrieval_ok": True, "permission_ok": True, "missing_slots": 0,
    "requires_approval": False,
}


def signals(**changes):
    return dict(BASE_SIGNALS, **changes)


def test_conditions_parse_and_compare():
    assert Condition.parse("supported_ratio >= 0.8").holds({"supported_ratio": 0.8})
    assert not Condition.parse("supported_ratio >= 0.8").holds({"supported_ratio": 0.5})
    assert Condition.parse("permission_ok == false").holds({"permission_ok": False})
    assert Condition.parse("risk_level in high,critical").holds({"risk_level": "critical"})
    assert not Condition.parse("risk_level in high,critical").holds({"risk_level": "low"})
    with pytest.raises(ValueError, match="signal"):
        Condition.parse("supported is many")


@pytest.mark.parametrize(
    "changes, action, reason",
    [
        ({}, "answer", "all_supported"),
        ({"permission_ok": False, "missing_slots": 1}, "handoff", "permission_denied"),  # access comes first
        ({"retrieval_ok": False, "contradicted": 1}, "abstain", "retrieval_failed"),
        ({"missing_slots": 1, "contradicted": 1}, "clarify", "missing_slots"),  # slots before evidence
        ({"supported": 1, "unsupported": 1, "supported_ratio": 0.5}, "rewrite", "some_supported"),
        ({"supported": 0, "unsupported": 2, "supported_ratio": 0.0}, "abstain", "none_supported"),
        ({"supported": 1, "contradicted": 1, "contradicted_facts": 1, "supported_ratio": 0.5}, "abstain",
         "contradicted"),
        # a contradicted claim that answers the question holds the answer back; a side detail is dropped
        ({"supported": 1, "contradicted": 1, "key_contradicted": 1, "supported_ratio": 0.5}, "abstain",
         "contradicted_key"),
        ({"supported": 1, "contradicted": 1, "supported_ratio": 0.5}, "rewrite", "some_supported"),
        # ... unless a person has to approve the answer anyway
        ({"supported": 1, "contradicted": 1, "key_contradicted": 1, "supported_ratio": 0.5, "requires_approval": True},
         "handoff", "requires_approval"),
        ({"conflicts": 1, "supported": 1, "partial": 1, "supported_ratio": 0.5}, "handoff", "conflict"),
        ({"supported": 0, "unsupported": 2, "supported_ratio": 0.0, "not_current": 2}, "abstain",
         "superseded_only"),
        ({"requires_approval": True}, "handoff", "requires_approval"),
        ({"claims": 0, "supported": 0, "supported_ratio": 0.0}, "abstain", "empty_answer"),
    ],
)
def test_default_policy_order(changes, action, reason):
    got, reasons = load_policy("default").decide(signals(**changes))
    assert got == action
    assert reason in reasons


def _claim(cid: str, text: str, label: str):
    from verifier.schema import ClaimReport

    return ClaimReport(id=cid, text=text, start=0, end=len(text), label=label, score=0.9, reason=f"{cid} {label}")


ZH_CLAIMS = [("c1", "设备入场要提前一个工作日在客户门户提交申请", "supported"), ("c2", "由数据中心的安保部审批", "contradicted")]
EN_CLAIMS = [("c1", "Apply through the portal one working day ahead", "supported"),
             ("c2", "The security team approves it", "contradicted")]


@pytest.mark.parametrize(
    "claims, question, key",
    [
        (ZH_CLAIMS, "入场申请由谁审批？", ["c2"]),  # the wrong approver is the answer asked for
        (EN_CLAIMS, "Who approves equipment access?", ["c2"]),
        (EN_CLAIMS, "How many days ahead must I apply through the portal?", []),  # a side detail here
        (EN_CLAIMS, None, ["c2"]),  # no question to go by: every contradicted claim counts
    ],
)
def test_a_contradicted_claim_is_key_when_it_answers_the_question(claims, question, key):
    from verifier.decide import _key_contradicted

    assert [c.id for c in _key_contradicted([_claim(*c) for c in claims], question)] == key


def test_strict_policy_holds_back_partial_answers_at_high_risk():
    partial = signals(supported=1, unsupported=1, supported_ratio=0.5, risk_level="high")
    assert load_policy("default").decide(partial)[0] == "rewrite"
    assert load_policy("strict").decide(partial)[0] == "handoff"
    assert load_policy("strict").thresholds.support > load_policy("default").thresholds.support


def test_policy_file_errors_name_the_problem(tmp_path):
    bad = tmp_path / "p.toml"
    bad.write_text('version = "x"\n[[stages]]\nname = "s"\n[[stages.rules]]\naction = "maybe"\nreason = "r"\n',
                   encoding="utf-8")
    with pytest.raises(InputError, match="action"):
        load_policy(bad)
    with pytest.raises(InputError, match="strict"):
        load_policy("no-such-policy")


SOURCE = {"id": "S1", "text": "We issue the refund within 1 to 5 business days. The refund goes back to the "
                              "original payment method."}


def test_rewrite_keeps_only_supported_claims_with_citations(lexical):
    report = lexical.verify(
        "We issue the refund within 1-5 business days. The refund goes back to the original payment method. "
        "You also get a free gift card worth $20.",
        [SOURCE],
    )
    assert report.decision.action == "rewrite"
    rewrite = report.decision.rewrite
    assert "1-5 business days" in rewrite and "[S1]" in rewrite
    assert "gift card" not in rewrite and "$20" not in rewrite
    assert "could not be confirmed" in rewrite


def test_chinese_rewrite_and_clarify_messages(lexical):
    zh = {"id": "S1", "text": "退货商品入库后，我们将在 1-5 个工作日内完成退款。"}
    report = lexical.verify("退货商品入库后，我们将在 1-5 个工作日内完成退款。另外还会赠送 20 元优惠券。", [zh])
    assert report.decision.action == "rewrite"
    assert "优惠券" not in report.decision.rewrite
    assert "未在检索到的资料中找到依据" in report.decision.rewrite

    ask = lexical.verify("退货商品入库后，我们将在 1-5 个工作日内完成退款。", [zh],
                         context={"missing_slots": ["customer_type", "product", "region"]})
    assert ask.decision.action == "clarify"
    assert ask.decision.message.count("？") == 2  # at most two questions
    assert "个人客户还是企业客户" in ask.decision.message


def test_reasons_name_the_claim_values_and_sources(lexical):
    report = lexical.verify("We issue the refund within 7 business days.", [SOURCE])
    joined = " ".join(report.decision.reasons)
    assert "c1" in joined and "7 business days" in joined and "S1" in joined and "1 to 5" in joined
    assert report.decision.policy_version.startswith("default-")
    assert report.decision.evidence_status == "conflicting"


def test_handoff_package_has_everything_a_person_needs(lexical):
    report = lexical.verify("We issue the refund within 1-5 business days.", [SOURCE],
                            question="How fast are refunds?", context={"permission_ok": False})
    assert report.decision.action == "handoff"
    package = report.decision.handoff
    assert package["question"] == "How fast are refunds?"
    assert package["draft_answer"].startswith("We issue")
    assert package["claims"][0]["evidence"]
    assert package["team"]


def test_decision_log_leaves_text_out_unless_asked(lexical, analyzer):
    from verifier import Verifier
    from verifier.decision_log import DecisionLog

    answer = "We issue the refund within 7 business days."
    quiet, loud = io.StringIO(), io.StringIO()
    for stream, include in ((quiet, False), (loud, True)):
        v = Verifier(lexical.model, analyzer=analyzer, decision_log=DecisionLog(stream, include_text=include))
        v.verify(answer, [SOURCE], id="req-1")
    record = json.loads(quiet.getvalue())
    assert record["request_id"] == "req-1" and record["action"] == "abstain"
    assert record["policy_version"] and record["model"]["name"] == "lexical-recall"
    assert "business days" not in quiet.getvalue() and "refund" not in quiet.getvalue().lower()
    assert answer in loud.getvalue()

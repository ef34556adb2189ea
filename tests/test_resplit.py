"""A contradicted claim read again clause by clause (`verifier.resplit`)."""

from __future__ import annotations

import io
import json

from verifier import Verifier
from verifier.decision_log import DecisionLog

LASHES = {"id": "S1", "text": "A lash lift with tint costs £42. Aftercare: keep lashes dry for 24 hours and avoid "
                              "steam, saunas and mascara for 48 hours."}


def test_the_true_clause_of_a_contradicted_claim_is_labelled_on_its_own(lexical):
    answer = "Keep your lashes dry for 48 hours afterwards, and skip mascara for two days."
    report = lexical.verify(answer, [LASHES])
    got = [(c.text, c.label) for c in report.claims]
    assert got == [("Keep your lashes dry for 48 hours afterwards", "contradicted"),
                   ("skip mascara for two days", "supported")]
    assert all(answer[c.start:c.end] == c.text for c in report.claims)
    wrong = next(f for f in report.claims[0].facts if f.status == "mismatched")
    assert (wrong.text, wrong.evidence_text) == ("48 hours", "24 hours")
    assert report.coverage.claims == 2 and report.coverage.supported == 1
    assert [c.id for c in report.claims] == ["c1", "c2"]


def test_a_condition_stays_with_what_it_conditions(lexical):
    source = {"id": "1", "text": "网上订单退款说明：退货商品入库后，我们将在 1-5 个工作日内完成退款，款项原路退回至原支付账户。"}
    report = lexical.verify("退货商品入库后，退款将在 7 个工作日内退回原支付账户。", [source])
    assert [(c.text, c.label) for c in report.claims] == [("退货商品入库后，退款将在 7 个工作日内退回原支付账户", "contradicted")]


def test_a_cut_that_loses_the_contradiction_is_not_kept(lexical):
    """Read whole, "24小時車票已經包埋綠線" after "去山頂要搭綠線" gives the 24-hour ticket the Green Line
    that only the 48-hour one has; cut off, neither piece says anything wrong: the claim stays whole."""
    source = {"id": "S1", "text": "觀光巴士設紅線、藍線及綠線（山頂及淺水灣）。24小時車票成人港幣200元，可乘搭紅線及藍線；"
                                  "如要乘搭綠線，須購買48小時車票。48小時車票成人港幣300元，可乘搭全部三條路線。"}
    report = lexical.verify("去山頂要搭綠線，24小時車票已經包埋綠線。", [source])
    (claim,) = report.claims
    assert (claim.text, claim.label) == ("去山頂要搭綠線，24小時車票已經包埋綠線", "contradicted")
    assert [(f.text, f.status, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [
        ("24小時", "mismatched", "48小時")]


def test_one_decision_record_per_verification_when_a_claim_is_cut(analyzer, lexical):
    stream = io.StringIO()
    v = Verifier(lexical.model, analyzer=analyzer, decision_log=DecisionLog(stream))
    report = v.verify("Keep your lashes dry for 48 hours afterwards, and skip mascara for two days.", [LASHES])
    (line,) = stream.getvalue().splitlines()
    assert json.loads(line)["action"] == report.decision.action

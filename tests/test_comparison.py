"""Claims that set the asker's value against a limit the source gives (verifier.comparison)."""

from __future__ import annotations

import pytest

from extractors.claims import split_claims
from models.base import NLIScores
from verifier.candidates import SpanIndex
from verifier.factcheck import check_facts
from verifier.schema import Source
from verifier.segment import segment_source
from verifier.verdict import ScoredCandidate, Thresholds, label_claim

# What a small model gives a comparison it does not compute.
LOW = NLIScores(entailment=0.2, neutral=0.7, contradiction=0.1)


def _label(analyzer, answer: str, text: str, question: str, language: str = "en"):
    claim = split_claims(answer, analyzer=analyzer)[0]
    thresholds = Thresholds()
    candidates = SpanIndex([segment_source(Source(id="S1", text=text))]).candidates(claim)
    scored = [ScoredCandidate(c, LOW, True, None) for c in candidates]
    facts = check_facts(claim, candidates, min_relevance=thresholds.relevance, question=question)
    return label_claim("c1", claim, scored, facts, thresholds, language)


@pytest.mark.parametrize("answer, text, question, language", [
    ("你们十五个人超过了十人起购的要求。", "基础版每用户每月25元。起购人数为10人。", "我们公司15个人，基础版多少钱？", "zh-Hans"),
    ("你們八個人已經超過五個帳號的最低門檻。", "標準版每位使用者每月新台幣150元。最低購買5個帳號。", "我們公司8個人，怎麼收費？", "zh-Hant"),
    ("Your twelve users are comfortably above the five-seat minimum.",
     "The Essentials tier costs €7 per user per month. The minimum purchase is 5 seats.",
     "We're a 12-person company. What would it cost?", "en"),
    ("14岁属于8到16岁这一档。", "8周岁以上未满16周岁的用户，单次充值不超过50元，每月累计不超过200元。", "我儿子14岁，能充多少？",
     "zh-Hans"),
])
def test_a_value_above_the_stated_minimum_is_supported_by_the_numbers(analyzer, answer, text, question, language):
    report = _label(analyzer, answer, text, question, language)
    assert report.label == "supported", report.reason
    assert report.evidence[0].relation == "supports" and ("10" in report.evidence[0].text or "5" in report.evidence[0].text)


@pytest.mark.parametrize("answer, text, question, values", [
    ("你们八个人超过了十人起购的要求。", "基础版每用户每月25元。起购人数为10人。", "我们公司8个人，基础版多少钱？", ("八个人", "十人")),
    ("Your four users are above the five-seat minimum.", "The minimum purchase is 5 seats.",
     "We're a 4-person company.", ("four users", "five-seat")),
    ("18岁属于8到16岁这一档。", "8周岁以上未满16周岁的用户，单次充值不超过50元。", "我儿子18岁，能充多少？", ("18岁", "8到16岁")),
])
def test_a_comparison_the_numbers_do_not_bear_out_is_contradicted_and_says_so(analyzer, answer, text, question, values):
    report = _label(analyzer, answer, text, question, "zh-Hans" if "人" in answer else "en")
    assert report.label == "contradicted"
    assert all(v in report.reason for v in values)


@pytest.mark.parametrize("answer, text", [
    # The sentence gives the number, but not as a minimum.
    ("Your twelve users are above the five-seat minimum.", "Each plan includes 5 seats."),
    # The claim says more than the comparison.
    ("Your twelve users are above the five-seat minimum for every plan on offer.",
     "The minimum purchase is 5 seats."),
])
def test_only_a_bare_comparison_with_a_named_limit_is_decided_by_the_numbers(analyzer, answer, text):
    report = _label(analyzer, answer, text, "We're a 12-person company.")
    assert report.label != "supported"


LUGGAGE = "普通行李（20寸以下）每件每天20元，大件行李（20寸及以上）每件每天30元。"
GROOMING = ("A full groom for a small dog (under 10 kg) is $55, medium dogs (10 to 25 kg) are $70 and large dogs "
            "(over 25 kg) are $90.")


@pytest.mark.parametrize("answer, text, language, evidence", [
    ("二十八寸的箱子算大件。", LUGGAGE, "zh-Hans", "20寸及以上"),
    ("十八寸的箱子算普通行李。", LUGGAGE, "zh-Hans", "20寸以下"),
    ("An 18-kilo dog falls in the medium band.", GROOMING, "en", "10 to 25 kg"),
])
def test_a_value_inside_the_range_the_source_gives_its_category_is_supported(analyzer, answer, text, language,
                                                                           evidence):
    report = _label(analyzer, answer, text, "", language)
    assert report.label == "supported", report.reason
    (fact,) = [f for f in report.facts if f.kind == "number"]
    assert (fact.status, fact.evidence_text) == ("matched", evidence)


@pytest.mark.parametrize("answer, text, language, values", [
    ("二十八寸的箱子算普通行李。", LUGGAGE, "zh-Hans", ("二十八寸", "20寸以下")),
    ("A 30-kilo dog falls in the medium band.", GROOMING, "en", ("30-kilo", "10 to 25 kg")),
])
def test_a_value_outside_its_categorys_range_is_contradicted_with_both_values(analyzer, answer, text, language,
                                                                              values):
    report = _label(analyzer, answer, text, "", language)
    assert report.label == "contradicted"
    assert all(v in report.reason for v in values)

"""same_slot / compare_facts / describe on hand-written pairs of facts."""

from __future__ import annotations

import importlib.util
from decimal import Decimal

import pytest

from extractors.compare import compare_facts, describe, same_slot
from extractors.numbers import extract_numbers
from extractors.schema import DateValue, EntityValue, Fact, IdentifierValue, Quantity


def one(text: str) -> Fact:
    (fact,) = extract_numbers(text)
    return fact


def qfact(context: str = "", **kw) -> Fact:
    return Fact(kind="number", text="x", start=0, end=1, value=Quantity(**kw), context=context)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1-5 个工作日", "1 到 5 个工作日"),
        ("1-5 business days", "1 to 5 business days"),
        ("1–5 個工作天", "1至5个工作日"),
        ("三百元", "300 元"),
        ("3.2 billion yuan", "三十二亿元"),
        ("32 亿元", "RMB 3.2 billion"),
        ("$3.2B", "3.2 billion dollars"),
        ("12.5%", "百分之十二点五"),
        ("12.5％", "12.5 percent"),
        ("每晚不超过 500 元", "每晚最多500元"),
        ("up to $300 per night", "no more than US$300 a night"),
        ("2 hours", "120 minutes"),
        ("1.5 km", "1,500 meters"),
        ("a seven-mile line", "the 7-mile line"),
        ("两千元", "2,000元"),
        ("兩千元", "2000 元"),
        ("ten cents", "A$0.10"),                  # a bare dollar agrees with any dollar currency
        ("$210", "NZ$210"),
        ("seven hundred yen", "¥700"),             # ¥ is a yen or a yuan
        ("700元", "¥700"),
        ("one hundred and twenty pounds", "£120"),
        ("within two working weeks", "within 10 working days"),   # a working week is five working days
        ("两个工作周", "10个工作日"),
    ],
)
def test_equal_across_formats_and_scripts(a, b):
    assert compare_facts(one(a), one(b)) == "equal"
    assert compare_facts(one(b), one(a)) == "equal"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("3 business days", "1-5 business days"),  # value inside a range
        ("3 个工作日", "1-5个工作日内"),  # 内 on a range adds no bound
        ("within 5 business days", "within 1-5 business days"),  # the same limit
        ("up to $500", "$300"),  # value satisfies the bound
        ("at least 5 years", "7 years"),
        ("不超过 500 元", "300-450 元"),  # range satisfies the bound
        ("about 1.2 km", "1,247 meters"),  # approximation within tolerance
        ("约300人", "320人"),
        ("1.2 km", "1,247 meters"),  # rounding to the coarser stated digit
        ("$3.2B", "$3.21 billion"),
        ("12.5%", "12.46%"),
        ("5 business days", "5 days"),  # same slot family, not convertible
        ("大概一周", "约7个工作日"),  # a week is read as 7 days against business days
        ("$300 per night", "$300"),  # rate stated on one side only
        ("300元", "300"),  # currency stated on one side only
        ("at least 16", "at least 16 years old"),  # unit implied on one side: compared as stated
    ],
)
def test_compatible(a, b):
    assert compare_facts(one(a), one(b)) == "compatible"
    assert compare_facts(one(b), one(a)) == "compatible"


@pytest.mark.parametrize(
    ("narrow", "wide"),
    [("2-3 个工作日", "1-5 个工作日"), ("18到55周岁", "18至60周岁"), ("3 to 5 days", "1-5 days")],
)
def test_a_claim_range_may_narrow_the_source_range_but_not_widen_it(narrow, wide):
    assert compare_facts(one(narrow), one(wide)) == "compatible"
    assert compare_facts(one(wide), one(narrow)) == "different"


def test_ranges_with_another_edge_differ():
    # The claim widens the source's age range: 18 is not 22.
    assert compare_facts(one("18周岁到55周岁"), one("22周岁至55周岁")) == "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("300元", "320元"),
        ("$3.2B", "$3.5B"),
        ("up to $500", "$600"),
        ("at least 5 years", "3 years"),
        ("1-5 business days", "7 business days"),
        ("1-5 business days", "3-7 business days"),  # overlap is not containment
        ("1-5个工作日内", "半个工作日"),  # below the stated range
        ("within 7 business days", "within 1 to 5 business days"),  # two different limits
        ("up to 500", "up to 300"),  # two different limits
        ("about 300 people", "400 people"),
        ("12%", "$12"),  # percent vs money
        ("$300", "€300"),
        ("US$25", "A$25"),  # two named dollars
        ("twenty dollars", "€20"),
        ("¥700", "NT$700"),
        ("$300 per night", "$300 per person"),
        ("5 business days", "6 days"),
        ("一周", "5个工作日"),  # stated exactly, 7 is not 5
        ("1.2 km", "1,300 meters"),
        ("7 miles", "7 km"),
        ("$2", "$1.50"),  # a plain price is exact: no rounding
        ("$15", "$14.99"),
    ],
)
def test_different(a, b):
    assert compare_facts(one(a), one(b)) == "different"
    assert compare_facts(one(b), one(a)) == "different"


def test_same_slot_by_dimension():
    assert same_slot(one("5 business days"), one("3 天"))
    assert same_slot(one("12.5%"), one("百分之八"))
    assert same_slot(one("$300"), one("三百元以内"))  # money vs money; currencies compared later
    assert not same_slot(one("12.5%"), one("$12.5"))
    assert not same_slot(one("$300 per night"), one("$300 per person"))
    assert not same_slot(one("5 km"), one("5 kg"))


def test_same_slot_uses_context_words():
    hotel, refund = extract_numbers("Hotel stays are capped at $300 per night; refunds take 5 business days.")
    assert same_slot(hotel, one("hotel rate is $280 per night"))
    assert not same_slot(qfact("hotel", value=Decimal(1), currency="USD"), qfact("flight", value=Decimal(1), currency="USD"))
    zh_hotel = extract_numbers("酒店住宿每晚不超过500元")[0]
    assert same_slot(zh_hotel, extract_numbers("住宿标准为每晚 450 元")[0])  # shares 住宿
    assert same_slot(refund, extract_numbers("退款3个工作日到账")[0])  # different scripts: not compared


def test_one_shared_noun_under_two_verbs_is_two_slots():
    (request,) = extract_numbers("Enterprise customers can request a refund within 60 days.")
    (issue,) = extract_numbers("Once the item arrives at our warehouse, we issue the refund within 1 to 5 business days.")
    assert not same_slot(request, issue)  # only "refund" in common: a deadline to ask, a time to pay
    (issue_2,) = extract_numbers("For enterprise customers we issue the refund within 10 business days.")
    assert same_slot(issue_2, issue)  # "issue" and "refund": the same slot
    assert same_slot(qfact("fee", value=Decimal(15), currency="USD"),
                     qfact("restocking fee electronics", value=Decimal(25), currency="USD"))  # short contexts: one word is enough


def test_bare_number_needs_matching_words_to_share_a_slot():
    assert same_slot(qfact("score", value=Decimal("0.1")), qfact("score", value=Decimal("0.1"), unit="percent"))
    assert not same_slot(qfact("", value=Decimal("0.1")), qfact("score", value=Decimal("0.1"), unit="percent"))


def test_different_kinds_never_share_a_slot():
    assert not same_slot(one("E7782"), one("7782 元"))
    assert compare_facts(one("E7782"), one("7782 元")) == "different"


def _ident(key: str, scheme: str = "code") -> Fact:
    return Fact(kind="identifier", text=key, start=0, end=len(key), value=IdentifierValue(scheme=scheme, key=key))


def _entity(key: str, label: str = "ORG") -> Fact:
    return Fact(kind="entity", text=key, start=0, end=len(key), value=EntityValue(label=label, key=key))


def test_identifiers_and_entities_compare_by_key():
    assert compare_facts(one("Section 4.2"), one("第4.2条")) == "equal"
    assert compare_facts(one("E7782 报错"), one("error E7782")) == "equal"
    assert compare_facts(_ident("e7782"), _ident("e7783")) == "different"
    assert compare_facts(_entity("acme"), _entity("acmecorp")) == "compatible"
    assert compare_facts(_entity("acme"), _entity("globex")) == "different"
    assert same_slot(_entity("北京", "GPE"), _entity("beijing", "LOC"))
    assert not same_slot(_entity("acme", "ORG"), _entity("acme", "PERSON"))
    assert not same_slot(_ident("4.2", "section"), _ident("4.2", "code"))


@pytest.mark.skipif(importlib.util.find_spec("extractors.dates") is None, reason="date extractor not present")
def test_dates_delegate_to_compare_dates():
    def d(**kw) -> Fact:
        return Fact(kind="date", text="d", start=0, end=1, value=DateValue(**kw))

    march = d(granularity="month", year=2026, month=3, iso="2026-03")
    day = d(granularity="day", year=2026, month=3, day=15, iso="2026-03-15")
    april = d(granularity="month", year=2026, month=4, iso="2026-04")
    assert same_slot(march, day)
    assert compare_facts(march, march) == "equal"
    assert compare_facts(march, day) == "compatible"
    assert compare_facts(march, april) == "different"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1-5 个工作日", "1 to 5 business days"),
        ("每晚 300 元", "¥300 per night"),
        ("32 亿元", "3.2 billion CNY"),
        ("up to $300 per night", "up to $300 per night"),
        ("约 1.2 公里", "about 1.2 km"),
        ("百分之十二点五", "12.5%"),
        ("at least 1 year", "at least 1 year"),
        ("1,247 people", "1,247 people"),
        ("2 个百分点", "2 percentage points"),
    ],
)
def test_describe(text, expected):
    assert describe(one(text)) == expected


@pytest.mark.parametrize("a, b, verdict", [
    # Month/day do not convert (tolerance is formats and approximations only), but a count of
    # days that fits the months is no contradiction either.
    ("3 months", "90 days", "close"),
    ("1 month", "30 days", "close"),
    ("一个月内", "30天内", "close"),
    ("6 months", "180 days", "close"),
    ("半年", "180天", "close"),
    ("1 month", "4 weeks", "close"),
    ("1 year", "365 days", "close"),
    ("1 month", "14 days", "different"),
    ("within 1 month", "within 60 days", "different"),
    ("1 year", "300 days", "different"),
])
def test_months_against_days_fit_the_calendar(a, b, verdict):
    assert compare_facts(one(a), one(b)) == verdict
    assert compare_facts(one(b), one(a)) == verdict


def test_limits_on_the_same_side_differ_only_at_the_edge():
    assert compare_facts(one("超过4800度"), one("4800千瓦时以上")) == "compatible"
    assert compare_facts(one("over 500"), one("at least 600")) == "different"
    assert compare_facts(one("under 18"), one("18 or younger")) == "compatible"


@pytest.mark.parametrize("a, b, same", [
    # Durations hundreds of times apart measure different things.
    ("The course lasts 12 weeks.", "Each class lasts 75 minutes.", False),
    ("课程为期3个月。", "每节课45分钟。", False),
    # A deadline of hours against one of days still disagrees on one slot.
    ("Refunds are issued within 24 hours.", "Refunds are issued within 30 days.", True),
    ("Refunds are issued within 2 business days.", "Refunds are issued within 90 minutes.", True),
])
def test_durations_far_apart_are_different_slots(a, b, same):
    (fa,), (fb,) = extract_numbers(a), extract_numbers(b)
    assert same_slot(fa, fb) is same


@pytest.mark.parametrize(("a", "b", "verdict"), [
    ("半年", "一年", "different"),          # a one-digit count is not a rounded figure
    ("3 years", "2.5 years", "different"),
    ("1.2 km", "1,247 m", "compatible"),     # rounding to the stated digits still holds
    ("$3.2 billion", "$3.21 billion", "compatible"),
])
def test_rounding_needs_more_than_one_digit(a, b, verdict):
    assert compare_facts(one(a), one(b)) == verdict


@pytest.mark.parametrize("a, b, verdict", [
    ("two years", "within 3 working days", "different"),  # durations, but nowhere near
    ("1 month", "22 working days", "close"),
    ("2 MW", "2,000 kW", "equal"), ("2兆瓦", "2000000瓦", "equal"),
])
def test_months_against_working_days_and_watts(a, b, verdict):
    assert compare_facts(extract_numbers(a)[0], extract_numbers(b)[0]) == verdict

"""Model input with Chinese numerals and English number words written as digits.

The cross-encoder learned numbers mostly from digits, so "三百元" against "300元" (or "thirty
days" against "30 days") looks like a different amount to it. Inside the number facts the extractor already found (and only
there: 一 is also part of ordinary words), numeral runs are rewritten as digits before the
pair reaches the model. Reports keep the original text.

`claim_for_span` goes one step further for a given evidence span: a claim's number or date
that the span states with the same value in other words ("two weeks" / "within 14 days",
"一週內" / "7天內", "半个月内" / "15天内", "15 January 2027" / "January 15, 2027") is written as the
span writes it.
The fact check has already proved the values equal; the model should judge the rest of the
claim, not the wording of a value.
"""

from __future__ import annotations

import calendar
import re
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable

from extractors import Fact
from extractors.chinese_numerals import NUMERAL_CHARS, parse_chinese_number
from extractors.compare import compare_facts, same_currency
from extractors.numbers import english_number_words
from extractors.schema import DateValue, Quantity
from extractors.text import is_cjk, match_key

if TYPE_CHECKING:
    from verifier.segment import Span


_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])")


@lru_cache(maxsize=1)
def _numeral_run() -> re.Pattern[str]:
    return re.compile(f"[{NUMERAL_CHARS}0-9.点]*[{NUMERAL_CHARS}][{NUMERAL_CHARS}0-9.点]*")


# 千 before these is the unit prefix "kilo" (千瓦时, 千克, 千米), not "thousand".
_KILO_UNITS = frozenset("瓦克米卡焦帕伏")


def _digits(match: re.Match[str]) -> str:
    text, kilo = match.group(), ""
    if text.endswith("千") and match.string[match.end() : match.end() + 1] in _KILO_UNITS:
        text, kilo = text[:-1], "千"
    value = parse_chinese_number(text) if text else None
    return match.group() if value is None else format(value.normalize(), "f") + kilo


def _digits_unless_single(match: re.Match[str]) -> str:
    # A lone numeral character reads as a word, not an amount: "兌換一晚" is how the sources
    # write it too, while "兌換1晚" reads to the model as a different, odd claim.
    return match.group() if len(match.group()) == 1 else _digits(match)


# "No charge" reads to the model as a negation of something: it says "free" in other words, and
# the model reads "free" right ("no charge" against "free of charge" scored 0.98 contradiction).
_FREE = [(re.compile(p, re.IGNORECASE), r) for p, r in (
    (r"\bthere(?:'s|’s| is) no (?:extra |additional )?(?:charge|fee|cost)\b", "it is free"),
    (r"\b(?:free of charge|at no (?:extra |additional )?(?:cost|charge)|without (?:any )?charge)\b", "free"),
    (r"\bno (?:extra |additional )?(?:charge|cost)\b", "free"),
    (r"(?:costs? nothing|doesn['’]t cost anything|does not cost anything)", "is free"),
    (r"不用钱|不收钱|不收费|无需付费|免收费用|分文不取", "免费"),
    (r"不用錢|不收錢|不收費|無需付費|免收費用", "免費"),
)]


def _free(text: str) -> str:
    for pattern, replacement in _FREE:
        text = pattern.sub(lambda m: replacement.capitalize() if m.group()[0].isupper() else replacement, text)
    return text


def model_text(text: str, facts: Iterable[Fact]) -> str:
    """`text` with the numerals and number words of its number facts replaced by digits, and
    "free" said in one way."""
    for fact in facts:
        if fact.kind != "number":
            continue
        rewritten = fact.text
        if any(ch in NUMERAL_CHARS for ch in rewritten):
            rewritten = _numeral_run().sub(_digits_unless_single, rewritten)
        rewritten = english_number_words(rewritten)
        if rewritten != fact.text:
            text = text.replace(fact.text, rewritten)
    return _free(text)


def claim_for_span(claim_text: str, claim_facts: Iterable[Fact], span_facts: Iterable[Fact],
                   span_text: str = "") -> str:
    """The claim's model text with each value the span states equally in the span's words.

    A bare English number word outside any fact ("your previous ten") is written as digits
    too, but only when the span states exactly those digits ("the last 10")."""
    digits = english_number_words(claim_text)
    if digits != claim_text and span_text:
        added = set(_NUMBER.findall(digits)) - set(_NUMBER.findall(claim_text))
        if added <= set(_NUMBER.findall(span_text)):
            claim_text = digits
    span_facts = [f for f in span_facts if f.kind in ("number", "date")]
    rewritten = []
    for fact in claim_facts:
        if fact.kind not in ("number", "date"):
            rewritten.append(fact)
            continue
        twin = next((f for f in span_facts if f.text != fact.text and _same_value(fact, f)), None)
        bound = None if twin is not None else next(
            (f for f in span_facts if _bound_said_before(fact, f, claim_text)), None)
        if twin is not None and fact.text in claim_text:
            claim_text = claim_text.replace(fact.text, model_text(twin.text, [twin]), 1)
        elif bound is not None:
            claim_text = claim_text.replace(fact.text, model_text(_BOUND_LEAD.sub("", bound.text), [bound]), 1)
        else:
            rewritten.append(fact)
    return model_text(claim_text, rewritten)


# A bound word the extractor left apart from its value: "至少守半个小时", "at least stay for half an hour"
_BOUND_LEAD = re.compile(r"^(?:至少|最少|不少于|不低于|最多|至多|不超过|at least|at most|no more than|no less than|"
                         r"up to|a minimum of|a maximum of)\s*", re.IGNORECASE)
_BOUND_BEFORE = {"ge": re.compile(r"(?:至少|最少|不少于|at least|a minimum of)\W{0,2}\w{0,3}\W?$", re.IGNORECASE),
                 "le": re.compile(r"(?:最多|至多|不超过|at most|no more than|up to)\W{0,2}\w{0,3}\W?$", re.IGNORECASE)}


def _bound_said_before(fact: Fact, bound: Fact, claim_text: str) -> bool:
    """Whether the span's bound ("至少30分钟") is the claim's value ("半个小时") with the bound word
    said a few words before it ("至少守半个小时"), so the claim's value reads as the span's number."""
    if fact.kind != "number" or bound.kind != "number" or fact.text not in claim_text:
        return False
    qa, qb = fact.value, bound.value
    if not isinstance(qa, Quantity) or not isinstance(qb, Quantity) or qa.comparator != "eq" \
            or qb.comparator not in _BOUND_BEFORE or not _BOUND_LEAD.match(bound.text):
        return False
    plain = bound.model_copy(update={"value": qb.model_copy(update={"comparator": "eq"})})
    before = claim_text[: claim_text.index(fact.text)]
    return _same_value(fact, plain) and _BOUND_BEFORE[qb.comparator].search(before) is not None


def model_pair(span: Span, claim_text: str, claim_facts: Iterable[Fact]) -> tuple[str, str]:
    """(evidence, claim) as the model reads them for this span.

    A claim that cites the span's source by its title ("依照《差旅管理辦法 2026》，……") reads the
    title with the evidence: without it the title's year is a value the span lacks, which the
    model takes for a contradiction."""
    evidence = model_text(span.text, span.facts)
    if span.title and "".join(span.title.split()) in "".join(claim_text.split()):
        evidence = span.title + ("：" if any(is_cjk(ch) for ch in span.title) else ": ") + evidence
    return _speaker_named(evidence, claim_facts, span), claim_for_span(claim_text, claim_facts, span.facts, span.text)


# The source's own voice: "Most local vets work with us" on Willowmere's page.
_WE = [(re.compile(r"\b(?:we|us)\b", re.IGNORECASE), "{}"), (re.compile(r"\bour\b", re.IGNORECASE), "{}'s"),
       (re.compile(r"我们|我們|我司|本公司|本店"), "{}")]


def _speaker_named(evidence: str, claim_facts: Iterable[Fact], span: Span) -> str:
    """The evidence with the source's "we"/"us"/"我们" written as the name the claim gives it, when
    the source's title names that party and the span does not: the model reads "work with
    Willowmere" against "work with us" as two parties."""
    if not span.title:
        return evidence
    title, text = match_key(span.title), match_key(span.text)
    name = next((f.text for f in claim_facts if f.kind == "entity" and (key := match_key(f.text))
                 and title.startswith(key) and key not in text), None)
    if name is None:
        return evidence
    for pattern, replacement in _WE:
        evidence = pattern.sub(replacement.format(name), evidence)
    return evidence


# How many days or weeks people write for one month or year.
_USUAL = {("month", "day"): Decimal(30), ("month", "week"): Decimal(4), ("year", "day"): Decimal(365),
          ("year", "week"): Decimal(52)}


def _usual_count(months: Quantity, time: Quantity) -> bool:
    per = _USUAL.get((months.unit or "", time.unit or ""))
    ends = [(months.value, time.value), (months.low, time.low), (months.high, time.high)]
    return per is not None and months.comparator == time.comparator and all(
        (x is None) == (y is None) and (x is None or x * per == y) for x, y in ends)  # type: ignore[operator]


def _month_end(a: Fact, b: Fact) -> bool:
    """Whether `a` is a month and `b` its first or last day, as the ends of a period are written:
    "between May and August" is "between 1 May and 31 August" (the model reads a changed date)."""
    da, db = a.value, b.value
    if a.kind != "date" or b.kind != "date" or not isinstance(da, DateValue) or not isinstance(db, DateValue) \
            or da.granularity != "month" or db.granularity != "day" or da.month != db.month or db.day is None \
            or (da.year is not None and da.year != db.year):
        return False
    last = calendar.monthrange(db.year or 2001, db.month)[1]  # type: ignore[arg-type]  (2001: no leap year)
    return db.day in (1, last) or (db.month == 2 and db.day == 29)


def _same_value(a: Fact, b: Fact) -> bool:
    if _month_end(a, b):
        return True
    verdict = compare_facts(a, b)
    if verdict == "close":
        # "半个月内" / "15天内", "a month" / "4 weeks": the usual count of days or weeks for it
        return _usual_count(a.value, b.value) or _usual_count(b.value, a.value)  # type: ignore[arg-type]
    if verdict != "compatible" or a.kind != "number":
        return verdict == "equal"
    # "two weeks" against "within 14 days": one side a plain value, the other "within" it.
    qa, qb = a.value, b.value
    assert isinstance(qa, Quantity) and isinstance(qb, Quantity)
    return ({qa.comparator, qb.comparator} == {"eq", "le"} and same_currency(qa.currency, qb.currency) and qa.per == qb.per
            and compare_facts(a.model_copy(update={"value": qa.model_copy(update={"comparator": "le"})}), b) == "equal")

"""A claim's day against a period a span states: "on weekends only from 7 November to 27 December"
holds "12 December"; "活动到12月5日结束" names the period's end, which must then be its last day."""

from __future__ import annotations

import datetime as dt
import re

from extractors import Claim, Fact
from extractors.schema import DateValue
from verifier.segment import Span

_PERIOD_JOIN = re.compile(r"\s*(?:to|until|till|through|[-–—~～至到])\s*", re.IGNORECASE)

# The claim gives the day a period ends ("到12月5日结束", "runs until 5 December") or starts.
_ENDS_BEFORE = re.compile(r"(?:到|至|截至|截止到?|直到|\b(?:until|till|through|ends?\s+(?:on\s+)?|closes?\s+(?:on\s+)?))\s*$",
                          re.IGNORECASE)
_ENDS_AFTER = re.compile(r"\s*(?:结束|結束|截止|为止|為止|止)")
_STARTS_BEFORE = re.compile(r"(?:从|從|自|\b(?:starts?\s+(?:on\s+)?|begins?\s+(?:on\s+)?))\s*$", re.IGNORECASE)
_STARTS_AFTER = re.compile(r"\s*(?:开始|開始|起)")


def _offset_in(claim: Claim | None, fact: Fact) -> int | None:
    """Where the fact stands in the claim's text, or None (a claim's text may carry a subject its
    answer text lacks, and facts carry answer offsets)."""
    if claim is None:
        return None
    at = fact.start - claim.start
    return at if 0 <= at <= len(claim.text) and claim.text[at:at + len(fact.text)] == fact.text else None


def period_edge(fact: Fact, claim: Claim | None) -> str | None:
    """"end" or "start" when the claim states its day as the end or start of a period."""
    at = _offset_in(claim, fact)
    if at is None:
        return None
    before, after = claim.text[:at], claim.text[at + len(fact.text):]
    if _ENDS_BEFORE.search(before) or _ENDS_AFTER.match(after):
        return "end"
    if _STARTS_BEFORE.search(before) or _STARTS_AFTER.match(after):
        return "start"
    return None


def within_period(fact: Fact, span: Span, claim: Claim | None = None) -> tuple[Fact, str, bool] | None:
    """(the period's first date, the period as written, True) when the span gives a period from
    one day to another that holds the claim's day: "on weekends only from 7 November to 27
    December" holds "12 December". When the claim gives its day as the period's end or start
    ("活动到12月5日结束") and the period's own end or start is another day: (that day, the
    period, False), a mismatch."""
    v = fact.value
    if not isinstance(v, DateValue) or v.granularity != "day" or v.month is None or v.day is None:
        return None
    days = [o for o in span.facts if o.kind == "date" and isinstance(o.value, DateValue)
            and o.value.granularity == "day" and o.value.month and o.value.day]
    for a, b in zip(days, days[1:]):
        if not _PERIOD_JOIN.fullmatch(span.text[a.end - span.start : b.start - span.start]):
            continue
        first, last = a.value, b.value
        assert isinstance(first, DateValue) and isinstance(last, DateValue)
        year = first.year or last.year or v.year
        if year is None:
            continue
        try:
            start, end = dt.date(year, first.month, first.day), dt.date(last.year or year, last.month, last.day)  # type: ignore[arg-type]
            if end < start and last.year is None:
                end = end.replace(year=end.year + 1)  # "from 1 December to 31 January"
            day = dt.date(v.year or year, v.month, v.day)
        except ValueError:  # 29 February outside a leap year
            continue
        if start <= day <= end:
            period = span.text[a.start - span.start : b.end - span.start]
            edge = period_edge(fact, claim)
            if edge is not None and day != (end if edge == "end" else start):
                return (b if edge == "end" else a), period, False
            return a, period, True
    return None


_MINUTES = {"hour": 60, "minute": 1}


def time_span(fact: Fact, span: Span) -> Fact | None:
    """The span's clock times whose difference is the claim's duration: "two hours each time"
    against "10 am to noon", "三个小时" against "上午9点至12点". The times as one fact, or None."""
    q = fact.value
    if fact.kind != "number" or q.unit not in _MINUTES or q.value is None or q.comparator != "eq":  # type: ignore[union-attr]
        return None
    wanted = q.value * _MINUTES[q.unit]  # type: ignore[union-attr, index]
    times = [o for o in span.facts if o.kind == "date" and isinstance(o.value, DateValue)
             and o.value.granularity == "time" and o.value.hour is not None]
    for a, b in zip(times, times[1:]):
        if not _PERIOD_JOIN.fullmatch(span.text[a.end - span.start : b.start - span.start]):
            continue
        start = a.value.hour * 60 + (a.value.minute or 0)  # type: ignore[union-attr, operator]
        end = b.value.hour * 60 + (b.value.minute or 0)  # type: ignore[union-attr, operator]
        if end - start == wanted:
            text = span.text[a.start - span.start : b.end - span.start]
            return fact.model_copy(update={"text": text, "start": a.start, "end": b.end, "context": ""})
    return None


# Paying for a year: "pay for a year up front", "一年一缴"; and a span's word for paying by the year.
_PAY_NEAR = re.compile(r"\b(?:pay|pays|paid|paying|billed|billing|prepay|prepaid)\b[\w\s]{0,12}$", re.IGNORECASE)
_PAY_AFTER = re.compile(r"\s*(?:up ?front|in advance|in one go|一[缴繳付交])", re.IGNORECASE)
_BY_THE_YEAR = re.compile(r"\b(?:annually|annual (?:plan|billing|payment|subscription)|billed yearly|yearly billing|"
                          r"paid yearly|pay(?:ing)? yearly)\b|年缴|年繳|年付|按年(?:缴|繳|付|支付|计费|計費)|包年",
                          re.IGNORECASE)


def paid_by_the_year(fact: Fact, span: Span, claim: Claim | None) -> Fact | None:
    """The span's word for paying by the year ("Paying annually", "年繳") when the claim pays
    for one year ("pay for a year up front", "一年一繳"): the year is the billing period, not a
    number the span must state. As one fact, or None."""
    q = fact.value
    if fact.kind != "number" or getattr(q, "unit", None) != "year" or q.value != 1 \
            or q.comparator != "eq":  # type: ignore[union-attr]
        return None
    at = _offset_in(claim, fact)
    if at is None:
        return None
    if not (_PAY_NEAR.search(claim.text[:at]) or _PAY_AFTER.match(claim.text[at + len(fact.text):])):
        return None
    return _said_in(fact, span, _BY_THE_YEAR.search(span.text))


# How often, in one word: "once a year" is what "paid annually" says.
_ONCE_PER = {
    "year": re.compile(r"\b(?:annual|annually|yearly|per annum|every year|each year)\b|一年一次|每年一次|一年一[缴繳付交]",
                       re.IGNORECASE),
    "month": re.compile(r"\b(?:monthly|every month|each month)\b|每月一次|一月一次|每个月一次|每個月一次", re.IGNORECASE),
    "week": re.compile(r"\b(?:weekly|every week|each week)\b|每周一次|每週一次|一周一次|一週一次", re.IGNORECASE),
    "day": re.compile(r"\b(?:daily|every day|each day)\b|每天一次|每日一次|一天一次", re.IGNORECASE),
}


def once_per(fact: Fact, span: Span) -> Fact | None:
    """The span's word for "once a period" ("annually", "monthly") when the claim says once a
    year, month, week or day: "paid once a year in arrears" against "paid annually in arrears";
    or the days of the week it lists for "twice a week" ("delivered on Mondays and Thursdays").
    As one fact, or None."""
    q = fact.value
    if fact.kind != "number" or getattr(q, "unit", None) != "times" or q.comparator != "eq":
        return None
    if q.per == "week" and q.value is not None and q.value > 1:  # type: ignore[union-attr]
        listed = next((m for m in _DAYS_LISTED.finditer(span.text)
                       if len(set(_DAY_NAME.findall(m.group(0).lower()))) == q.value), None)  # type: ignore[union-attr]
        return _said_in(fact, span, listed)
    if q.value != 1 or q.per not in _ONCE_PER:  # type: ignore[union-attr]
        return None
    return _said_in(fact, span, _ONCE_PER[q.per].search(span.text))  # type: ignore[union-attr, index]


_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_DAY_NAME = re.compile(r"(mon|tues|wednes|thurs|fri|satur|sun)days?|(?:周|週|星期|礼拜|禮拜)?([一二三四五六日天])")
_DAYS_LISTED = re.compile(rf"\b{_DAY}(?:\s*(?:,|and|&)\s*{_DAY})+\b"
                          r"|(?:周|週|星期|礼拜|禮拜)[一二三四五六日天](?:\s*[、和及与與]\s*(?:周|週|星期|礼拜|禮拜)?[一二三四五六日天])+",
                          re.IGNORECASE)


def _said_in(fact: Fact, span: Span, m: re.Match[str] | None) -> Fact | None:
    """The claim's fact as the span's words `m` state it (its text and offsets), or None."""
    if m is None:
        return None
    return fact.model_copy(update={"text": m.group(0), "start": span.start + m.start(), "end": span.start + m.end(),
                                   "context": ""})


# A deadline stated before its time ("by 1 p.m.") or, in Chinese, after it ("下午1点前").
_DEADLINE_BEFORE = re.compile(r"\b(?:by|before|until|till|no later than)\s*$", re.IGNORECASE)
_DEADLINE_AFTER = re.compile(r"\s*(?:之前|以前|前)")


def _deadline(text: str, start: int, end: int) -> bool:
    """Whether the time at text[start:end] is stated as a deadline ("by noon", "中午前")."""
    return bool(_DEADLINE_BEFORE.search(text[:start]) or _DEADLINE_AFTER.match(text, end))


def within_deadline(fact: Fact, span: Span, claim: Claim | None) -> Fact | None:
    """The span's deadline ("Orders placed by 1 p.m.") that a time of day the claim gives as an
    instance, not as a deadline of its own ("by noon", "中午前"), keeps within: "so noon on
    Saturday works". As the span's time fact, or None. (A Chinese span's "下午1点前" is not read
    as such a deadline yet: untried on the gold sets.)"""
    v = fact.value
    at = _offset_in(claim, fact)
    if not isinstance(v, DateValue) or v.granularity != "time" or v.hour is None or at is None \
            or _deadline(claim.text, at, at + len(fact.text)):  # type: ignore[union-attr]
        return None
    mine = v.hour * 60 + (v.minute or 0)
    for o in span.facts:
        w = o.value
        if o.kind == "date" and isinstance(w, DateValue) and w.granularity == "time" and w.hour is not None \
                and _DEADLINE_BEFORE.search(span.text[: o.start - span.start]) and mine <= w.hour * 60 + (w.minute or 0):
            return o
    return None

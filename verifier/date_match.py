"""Whether a date in the evidence confirms a claim's date, or states another one.

A date confirms a claim's date when it is equal, or more precise and within it ("15 January"
confirms "January", not the other way); a weekday range must hold every weekday the claim
names; a day confirms a day of the week when it falls on it. A claim's day without a year is
compared as stated, not with the year the extractor supplied from `as_of`. Two dates of
different kinds (a time and a day, a day and a weekday) neither confirm nor contradict each other.
"""

from __future__ import annotations

import datetime as dt
import re

from extractors import Fact
from extractors.compare import compare_facts
from extractors.dates import weekday_set
from extractors.schema import DateValue

_GRANULARITY_RANK = {"year": 0, "year_range": 0, "quarter": 1, "month": 2, "weekday_range": 2, "day": 3, "datetime": 4}


def date_confirms(claim: Fact, evidence: Fact) -> bool:
    """Evidence confirms a date only when it is at least as precise ("January" does not
    confirm "15 January"; "15 January" does confirm "January")."""
    verdict = compare_facts(as_stated(claim), evidence)
    if verdict == "equal":
        return True
    if verdict == "different" or more_weekdays(claim, evidence):
        return False
    gc, ge = claim.value.granularity, evidence.value.granularity  # type: ignore[union-attr]
    if gc == "weekday_range" and ge != "weekday_range":
        # A day confirms a day of the week only when it falls on it, as far as its year tells.
        return ge == "day" and _falls_on(evidence.value, claim.value)  # type: ignore[arg-type]
    if "time" in (gc, ge):
        return gc == ge or ge == "datetime"
    return _GRANULARITY_RANK.get(ge, 0) >= _GRANULARITY_RANK.get(gc, 0)


def more_weekdays(claim: Fact, evidence: Fact, ranges_only: bool = False) -> bool:
    """A range of weekdays wider than the evidence's: "星期一至日" against "星期一至四" adds days
    the source leaves out (a narrower one, "Tuesday to Thursday" in "Monday to Friday", holds).
    `ranges_only`: against a range of days only, as a wrong value must be ("on Sundays" may be one
    day of a range the extractor missed; it confirms nothing wider either way)."""
    if claim.value.granularity != "weekday_range" or evidence.value.granularity != "weekday_range":  # type: ignore[union-attr]
        return False
    mine, theirs = weekday_set(claim.value), weekday_set(evidence.value)  # type: ignore[arg-type]
    return mine is not None and theirs is not None and not mine <= theirs and not (ranges_only and len(theirs) < 2)


def _falls_on(day: DateValue, weekdays: DateValue) -> bool:
    if day.year is None or day.month is None or day.day is None:
        return True  # (no year, no weekday to check: as before, the day is taken to confirm it)
    try:
        weekday = dt.date(day.year, day.month, day.day).weekday()
    except ValueError:
        return False
    first, last = weekdays.weekday_from, weekdays.weekday_to
    assert first is not None and last is not None
    return first <= weekday <= last if first <= last else weekday >= first or weekday <= last


_STATES_YEAR = re.compile(r"\d{4}|年|'\d\d\b", re.IGNORECASE)
# ("2月1日到10日": the range's last day, whose month and year are its first day's)
_DAY_ONLY = re.compile(r"[0-9一二三四五六七八九十]{1,3}\s*[日号]")
_NAMES_MONTH = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?![a-z])|[0-9一二三四五六七八九十]月",
                          re.IGNORECASE)
_RELATIVE = re.compile(r"\b(?:next|last|this|coming|previous)\b|[下上本这這今明去前后後]", re.IGNORECASE)


def as_stated(fact: Fact) -> Fact:
    """A claim's date without the year the extractor supplied from `as_of`: "begins on 11
    January" says no year, so "11 January 2027" confirms it and does not contradict it."""
    value = fact.value
    if fact.kind != "date" or value.year is None or value.granularity not in ("day", "month", "datetime") \
            or _STATES_YEAR.search(fact.text) or not (_NAMES_MONTH.search(fact.text) or _DAY_ONLY.fullmatch(fact.text)) \
            or _RELATIVE.search(fact.text):  # type: ignore[union-attr]
        return fact
    return fact.model_copy(update={"value": value.model_copy(update={"year": None, "quarter": None})})


def comparable(a: Fact, b: Fact) -> bool:
    """A time of day and a calendar date state different things; neither contradicts the other,
    nor do a date and a day of the week.
    Nor does a bare year (or a span of years) and a day: "2026年度" names the period a rule is for, "2027年3月1日"
    a deadline within it."""
    ga, gb = a.value.granularity, b.value.granularity  # type: ignore[union-attr]
    if (ga == "weekday_range") != (gb == "weekday_range") and "time" not in (ga, gb):
        return False  # "on 12 December" against "on Saturdays": a date, and a day of every week
    periods = ("year", "year_range")
    if (ga in periods) != (gb in periods) and _GRANULARITY_RANK.get(gb if ga in periods else ga, 3) >= 3:
        return False
    return (ga == "time") == (gb == "time") or "datetime" in (ga, gb)

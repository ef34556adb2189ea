"""Date and time facts in English and Chinese, and how two dates compare.

    extract_dates("退款于2026年3月1日下午5点前到账", as_of=date(2026, 11, 30))
    -> [Fact(kind="date", text="2026年3月1日下午5点", value=DateValue(granularity="datetime",
             iso="2026-03-01T17:00", ...))]

Choices worth knowing:
- Precision is kept: "March 2026" is a month, "2025年" a year; no day is ever invented.
- A date without a year ("3月1日", "第三季度", "Q3") takes the nearest explicit year earlier
  in the same text; failing that the year of `as_of` (then `relative=True`, since the year
  was inferred); failing that the year stays None and `iso` is the ISO truncated form
  ("--03-01", "--03", "Q3").
- Relative words ("yesterday", "上周五", "next month") resolve against `as_of` at their own
  granularity, with `relative=True`. Without `as_of` they are still returned, with
  `relative=True`, the granularity, all calendar fields None and a symbolic `iso`:
  "rel:day-1", "rel:month+1", "rel:year+0", "rel:quarter-1", "rel:week-1:fri" (a weekday
  of a calendar week, 上周五 / "this Friday"), "rel:fri<" / "rel:mon>" ("last Friday" /
  "next Monday": nearest such weekday strictly before / after as_of).
- English "last Friday" is the nearest Friday before as_of; Chinese 上周五 is the Friday of
  the previous Monday-Sunday week. They differ only when as_of is late in the week.
- Month and day values also carry the quarter they fall in, so that compare_dates can
  match "Q1 2026" against "2026-02" field by field.
- Only "Mon-Fri"-style ranges are read for weekdays; a lone "Friday" / "周五" is not a date.
- A day directly followed by a time ("2026年3月1日下午5点", "March 1, 2026 at 5 pm",
  "2026-03-01T17:30") becomes one "datetime" fact.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from extractors.dates_common import Cand, valid_day
from extractors.dates_en import en_candidates
from extractors.dates_zh import zh_candidates
from extractors.schema import DateValue, Fact
from extractors.text import normalise

__all__ = ["extract_dates", "compare_dates"]

_WD_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_DATETIME_GAP = re.compile(r"(?:[ ,]*(?:at|@)?[ ]*|T|[ ]*的[ ]*)")


def extract_dates(text: str, as_of: dt.date | None = None) -> list[Fact]:
    """Date/time facts in `text`, sorted by start and non-overlapping."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if isinstance(as_of, dt.datetime):
        as_of = as_of.date()
    n = normalise(text)
    chosen = _non_overlapping([*en_candidates(n), *zh_candidates(n), *_year_ranges(n)])
    chosen = _merge_datetimes(n, chosen)
    facts: list[Fact] = []
    context_year: int | None = None
    for c in chosen:
        value = _resolve(c, as_of, context_year)
        if c.year is not None and c.rel is None:
            context_year = c.year
        # model_construct skips re-validating values built here from checked parts; it is
        # most of the cost on fact-dense text.
        facts.append(Fact.model_construct(kind="date", text=text[c.start : c.end], start=c.start, end=c.end, value=value))
    return facts


# Academic and fiscal years ("2025-26", "2025/26学年") and spans of years ("2024-2027"); a
# two-digit end only as the next year, so "2026-03" stays a month.
_YEAR_RANGE = re.compile(r"(?<![\d/.-])(?P<a>(?:19|20)\d\d)[ ]?[-–—/~至到][ ]?(?P<b>(?:19|20)\d\d|\d\d)(?![\d/-]|\.\d)")


def _year_ranges(n: str) -> list[Cand]:
    out = []
    for m in _YEAR_RANGE.finditer(n):
        a, b = int(m["a"]), int(m["b"])
        if len(m["b"]) == 2:
            b, ok = a // 100 * 100 + b, (a % 100 + 1) % 100 == b % 100
        else:
            ok = a < b <= a + 10
        if ok:
            out.append(Cand(m.start(), m.end(), "year_range", year=a, year_to=b))
    return out


def _non_overlapping(cands: list[Cand]) -> list[Cand]:
    # Longest span wins; among equal spans the earliest; ties keep scanner order.
    order = sorted(range(len(cands)), key=lambda i: (-(cands[i].end - cands[i].start), cands[i].start, i))
    taken: list[Cand] = []
    occupied = bytearray(max((c.end for c in cands), default=0))
    for i in order:
        c = cands[i]
        if c.end <= c.start or occupied.find(1, c.start, c.end) != -1:
            continue
        taken.append(c)
        occupied[c.start : c.end] = b"\x01" * (c.end - c.start)
    return sorted(taken, key=lambda c: c.start)


def _merge_datetimes(n: str, cands: list[Cand]) -> list[Cand]:
    out: list[Cand] = []
    for c in cands:
        prev = out[-1] if out else None
        if (
            prev is not None
            and c.gran == "time"
            and prev.gran == "day"
            and _DATETIME_GAP.fullmatch(n, prev.end, c.start)
        ):
            out[-1] = prev._replace(end=c.end, gran="datetime", hour=c.hour, minute=c.minute)
        else:
            out.append(c)
    return out


def _resolve(c: Cand, as_of: dt.date | None, context_year: int | None) -> DateValue:
    if c.rel is not None:
        return _resolve_relative(c, as_of)
    if c.gran == "year_range":
        return DateValue.model_construct(granularity="year_range", year=c.year, year_to=c.year_to,
                                         iso=f"{c.year}/{c.year_to}")
    if c.gran == "weekday_range":
        iso = _WD_NAMES[c.wd_from] if c.wd_from == c.wd_to else f"{_WD_NAMES[c.wd_from]}-{_WD_NAMES[c.wd_to]}"
        return DateValue.model_construct(granularity="weekday_range", weekday_from=c.wd_from, weekday_to=c.wd_to, iso=iso)
    year, relative = c.year, False
    if c.need_year and year is None:
        if context_year is not None:
            year = context_year
        elif as_of is not None:
            year, relative = as_of.year, True
        if c.day is not None and not valid_day(c.month, c.day, year):
            year, relative = None, False  # "2月29日" in a common year: keep it year-less
    return _value(c.gran, year, c.quarter, c.month, c.day, c.hour, c.minute, relative)


def _value(gran, year, quarter, month, day, hour, minute, relative=False) -> DateValue:
    return DateValue.model_construct(
        granularity=gran,
        year=year,
        quarter=quarter if quarter is not None else ((month - 1) // 3 + 1 if month else None),
        month=month,
        day=day,
        hour=hour,
        minute=minute,
        relative=relative,
        iso=_iso(gran, year, quarter, month, day, hour, minute),
    )


def _iso(gran, year, quarter, month, day, hour, minute) -> str:
    y = f"{year:04d}" if year is not None else "-"
    time = f"{hour:02d}:{minute:02d}" if hour is not None else ""
    if gran == "year":
        return y
    if gran == "quarter":
        return f"{y}-Q{quarter}" if year is not None else f"Q{quarter}"
    if gran == "month":
        return f"{y}-{month:02d}"
    if gran == "time":
        return time
    date = f"{y}-{month:02d}-{day:02d}"
    return f"{date}T{time}" if gran == "datetime" else date


def _resolve_relative(c: Cand, as_of: dt.date | None) -> DateValue:
    unit, offset, wd = c.rel
    hour, minute = c.hour, c.minute
    if as_of is None:
        iso = _symbolic(unit, offset, wd)
        if c.gran == "datetime":
            iso += f"T{hour:02d}:{minute:02d}"
        return DateValue.model_construct(granularity=c.gran, hour=hour, minute=minute, relative=True, iso=iso)
    if unit == "year":
        return _value("year", as_of.year + offset, None, None, None, None, None, True)
    if unit in ("month", "quarter"):
        step = 1 if unit == "month" else 3
        index = as_of.year * 12 + (as_of.month - 1) // step * step + offset * step
        year, month = divmod(index, 12)
        if unit == "month":
            return _value("month", year, None, month + 1, None, None, None, True)
        return _value("quarter", year, month // 3 + 1, None, None, None, None, True)
    if unit == "day":
        day = as_of + dt.timedelta(days=offset)
    elif unit == "week":
        day = as_of + dt.timedelta(days=7 * offset + wd - as_of.weekday())
    elif unit == "wd_before":
        day = as_of - dt.timedelta(days=(as_of.weekday() - wd - 1) % 7 + 1)
    else:  # wd_after
        day = as_of + dt.timedelta(days=(wd - as_of.weekday() - 1) % 7 + 1)
    return _value(c.gran, day.year, None, day.month, day.day, hour, minute, True)


def _symbolic(unit: str, offset: int, wd: int | None) -> str:
    if unit == "week":
        return f"rel:week{offset:+d}:{_WD_NAMES[wd].lower()}"
    if unit in ("wd_before", "wd_after"):
        return f"rel:{_WD_NAMES[wd].lower()}{'<' if unit == 'wd_before' else '>'}"
    return f"rel:{unit}{offset:+d}"


Comparison = Literal["equal", "compatible", "different"]


def compare_dates(a: DateValue, b: DateValue) -> Comparison:
    """equal: same point at the same granularity. compatible: one is less precise and
    contains the other ("2026-03" vs "2026-03-15", "2026" vs "2026-Q3", "Mon-Fri" vs
    "Tue-Thu"), or a field is unknown (year-less or unresolved relative dates).
    different: otherwise, including a clock time against a date without a time."""
    if a.granularity == "weekday_range" or b.granularity == "weekday_range":
        return _compare_weekdays(a, b)
    if a.granularity == "year_range" or b.granularity == "year_range":
        return _compare_year_ranges(a, b)
    if (a.granularity == "time") != (b.granularity == "time") and "datetime" not in (a.granularity, b.granularity):
        return "different"
    if a.iso.startswith("rel:") or b.iso.startswith("rel:"):
        # Unresolved relative words: only identical wording is known to agree.
        return "equal" if a.iso == b.iso else "compatible"
    for field in ("year", "quarter", "month", "day", "hour", "minute"):
        x, y = getattr(a, field), getattr(b, field)
        if x is not None and y is not None and x != y:
            return "different"
    if a.granularity == b.granularity and a.iso == b.iso:
        return "equal"
    return "compatible"


def _compare_year_ranges(a: DateValue, b: DateValue) -> Comparison:
    """Year ranges are equal when they cover the same years; a range and a date within it
    are compatible ("2025-26" and "March 2026"); otherwise different."""
    if a.year is None or b.year is None:
        return "compatible"
    ra, rb = (a.year, a.year_to or a.year), (b.year, b.year_to or b.year)
    if ra == rb:
        return "equal" if a.granularity == b.granularity else "compatible"
    inside = rb[0] <= ra[0] and ra[1] <= rb[1] or ra[0] <= rb[0] and rb[1] <= ra[1]
    return "compatible" if inside else "different"


def weekday_set(v: DateValue) -> frozenset[int] | None:
    """The days of the week (Monday 0) a weekday range or a day with its year falls on."""
    if v.granularity == "weekday_range":
        span = (v.weekday_to - v.weekday_from) % 7
        return frozenset((v.weekday_from + i) % 7 for i in range(span + 1))
    if v.year is not None and v.month is not None and v.day is not None:
        try:
            return frozenset({dt.date(v.year, v.month, v.day).weekday()})
        except ValueError:  # Feb 29 given without a year, then paired with a common year
            return None
    return None


def _compare_weekdays(a: DateValue, b: DateValue) -> Comparison:
    sa, sb = weekday_set(a), weekday_set(b)
    if sa is None or sb is None:
        return "different"
    if sa == sb and a.granularity == b.granularity:
        return "equal"
    return "compatible" if sa <= sb or sb <= sa else "different"

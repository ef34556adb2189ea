"""English and numeric (ISO-style) date/time scanners over `normalise(text)`.

Own regexes rather than dateparser: dateparser fills a missing day or month from its base
date, which would turn "March 2026" into a day; here each form keeps the precision the
writer gave it. US-style "03/01/2026" is deliberately not read (day/month order is
ambiguous in international policy text).
"""

from __future__ import annotations

import re
from typing import Iterator

from extractors.dates_common import Cand, valid_day, valid_year

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
# "may" and "march" are also verbs: those two need a capital M.
_MONTH = (
    r"(?P<mon>(?i:jan(?:uary)?|feb(?:ruary)?|apr(?:il)?|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)|M(?i:ar(?:ch)?|ay))\b\.?"
)
# A full-width comma becomes "," after normalising, so ",2026" is a list, not thousands:
# only ",ddd" (exactly three digits) or ".d" continues a number.
_NUM_END = r"(?!\d|\.\d|,\d{3}(?!\d))"


def _year(name: str = "y") -> str:
    return rf"(?P<{name}>(?:19|20)\d\d|2100){_NUM_END}"


_YEAR = _year()
_ORD = r"(?:st|nd|rd|th)?"

# Every pattern here is compiled with re.ASCII: with Unicode rules a CJK character is a
# word character, so "和next month" or "Q3 2025年" would have no \b where one is needed.
_NUMERIC = re.compile(
    r"(?<!\d)(?<!\d[./-])(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})(?!\d|[./-]\d)", re.ASCII
)
_NUMERIC_MONTH = re.compile(r"(?<!\d)(?<!\d[./-])(?P<y>\d{4})[-/](?P<m>0[1-9]|1[0-2])(?!\d|[./-]\d)", re.ASCII)
_DAY_MONTH = re.compile(rf"(?<![\w.])(?P<d>\d{{1,2}}){_ORD}[ ]+(?:of[ ]+)?{_MONTH}(?:,?[ ]+{_YEAR})?\b", re.ASCII)
_MONTH_DAY = re.compile(rf"\b{_MONTH}[ ]+(?P<d>\d{{1,2}}){_ORD}(?![\d:])\b(?:,?[ ]+{_YEAR}\b)?", re.ASCII)
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?[ ]+(?:of[ ]+)?{_YEAR}\b", re.ASCII)

_Q_WORDS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_QUARTER = re.compile(
    # Analyst shorthand first (3Q25, Q3'25, Q3 FY25, 3QFY2025), or "Q3" alone would win.
    r"\b(?P<q4>[1-4])Q[ ]?(?:FY)?'?(?P<yy>\d\d(?:\d\d)?)\b|\bQ(?P<q5>[1-4])[ ]?(?:FY[ ]?|')(?P<yy2>\d\d)\b"
    rf"|\bQ(?P<q>[1-4])(?:(?:[ ]+|[ ]*,[ ]*)(?:of[ ]+)?(?:FY[ ]?)?{_YEAR})?\b"
    rf"|\b(?:FY[ ]?)?(?P<y2>(?:19|20)\d\d)[ ]?-?[ ]?Q(?P<q2>[1-4])\b"
    rf"|(?i:\b(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th)[ -]quarter\b)(?:[ ]+(?:of[ ]+)?{_year('y3')}\b)?",
    re.ASCII,
)
# A month name with no day or year, after a word that makes it a point in time.
_MONTH_ALONE = re.compile(
    rf"(?i:\b(?:in|by|until|till|before|after|since|from|during|through|end[ ]+of|early|late|mid)(?:[ ]+|-))(?:the[ ]+end[ ]+of[ ]+)?{_MONTH}"
    r"(?![ ]*\d)",
    re.ASCII,
)
# Two month names joined as a range ("May to October", "June-August"): each is a month,
# though neither follows a word that makes it a point in time.
_MONTH_RANGE = re.compile(
    rf"\b{_MONTH}[ ]*(?:(?i:to|until|till|thru)[ ]+|[-–][ ]*){_MONTH.replace('?P<mon>', '?P<mon2>')}(?![ ]*\d)",
    re.ASCII,
)
# ("booked between April and October"; "Jan and May" alone may be two people)
_MONTH_BETWEEN = re.compile(
    rf"\b(?i:between)[ ]+{_MONTH}[ ]+(?i:and)[ ]+{_MONTH.replace('?P<mon>', '?P<mon2>')}(?![ ]*\d)", re.ASCII
)
_FY = re.compile(
    rf"\b(?:FY|(?i:fiscal(?:[ ]+year)?)[ ]+)[ ]?(?:(?P<y>(?:19|20)\d\d)|(?P<yy>\d\d))\b{_NUM_END}", re.ASCII
)
# A bare year only after words that introduce a point in time; "2025 units" or "$2025"
# are amounts (the number extractor's).
_YEAR_CUE = re.compile(
    r"(?i:\b(?:in|since|by|during|until|till|before|after|from|of|through|throughout|year|early|late|mid|end[ ]+of)[ ]+)"
    rf"(?P<y>(?:19|20)\d\d|2100)\b{_NUM_END}(?![ ]*(?:%|percent|元|yuan|dollars|USD|CNY|EUR))",
    re.ASCII,
)

_AMPM = r"(?P<ap>(?i:[ap](?:\.m\b\.?|m\b)))"  # "pm", "p.m." (keeps its own dots), not "pm."
_TIME_24 = re.compile(
    rf"(?<![\d:.])(?P<h>[01]?\d|2[0-4]):(?P<mi>[0-5]\d)(?::[0-5]\d)?(?![\d:])(?:[ ]?{_AMPM})?", re.ASCII
)
_TIME_AMPM = re.compile(rf"(?<![\w.:])(?P<h>1[0-2]|0?[1-9])[ ]?{_AMPM}", re.ASCII)
_NOON = re.compile(r"(?i:\b(?P<w>noon|midday|midnight)\b)", re.ASCII)
# Two hours of a 12-hour clock, the second after "to": "7 to 9", "6:30 - 9:30"
_HOUR_RANGE = (r"(?P<a>1[0-2]|0?[1-9])(?::(?P<am>[0-5]\d))?[ ]*(?i:to|-|–|until|till)[ ]*"
               r"(?P<b>1[0-2]|0?[1-9])(?::(?P<bm>[0-5]\d))?")
# "Tuesday evenings from 7 to 9": bare hours, made times by the part of the day before them
_PART_THEN_HOURS = re.compile(r"(?i:\b(?P<part>morning|afternoon|evening|night)s?[ ]+(?:from[ ]+)?)" + _HOUR_RANGE + r"\b"
                              r"(?![:\d]|[ ]*(?i:[ap]\.?m\b|o'clock|hours?|hrs?|minutes?|mins?|days?|weeks?|years?|people|%))",
                              re.ASCII)
# "from 7 to 10pm", "6:30 to 9:30pm": the first time takes the half of the day the second names
_HOUR_TO_TIME = re.compile(r"(?<![\w.:$£€])" + _HOUR_RANGE + rf"[ ]?{_AMPM}", re.ASCII)
# "before 8 in the morning", "6 o'clock in the evening", "at 10 at night"
_TIME_OF_DAY = re.compile(r"(?<![\w.:$£€])(?P<h>1[0-2]|0?[1-9])(?:[ ]?o'clock)?[ ]+(?i:in[ ]+the[ ]+(?P<part>morning|afternoon|evening)"
                          r"|at[ ]+(?P<night>night))\b", re.ASCII)

# "Monday to Friday from 10 to 3", "weekdays 9-5": bare hours after the days they are on
_DAYS_THEN_HOURS = re.compile(r"(?i:\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*s?|\bweekdays?|\bweekends?|\bdaily)[ ,]+"
                              r"(?i:from[ ]+)?" + _HOUR_RANGE + r"\b"
                              r"(?![:\d]|[ ]*(?i:[ap]\.?m\b|o'clock|hours?|hrs?|minutes?|mins?|days?|weeks?|years?|people|%))",
                              re.ASCII)

_WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_WD = r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)"
_WEEKDAY_RANGE = re.compile(
    rf"(?i:\b(?P<a>{_WD})\b\.?[ ]*(?:-|~|-to-|to|through|thru|until)[ ]*(?P<b>{_WD})\b\.?)", re.ASCII
)

# A single weekday, as a one-day weekday range ("every Friday", "closed on Sundays"); full names
# only, so "Sun" (a name) and "Sat" (past tense) stay words.
_WEEKDAY_ONE = re.compile(r"(?i:\b(?P<d>monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b)", re.ASCII)

# Weekends are Saturday and Sunday, weekdays Monday to Friday.
_WEEKEND_OR_WEEKDAYS = re.compile(r"(?i:\bweek-?ends?\b|\b(?P<wd>weekdays?)\b)", re.ASCII)

_REL = re.compile(
    r"(?i:\b(?:(?P<day>today|yesterday|tomorrow|the[ ]+day[ ]+before[ ]+yesterday|the[ ]+day[ ]+after[ ]+tomorrow)"
    rf"|(?P<dir>last|next|this|coming)[ ]+(?:(?P<unit>month|year|quarter)|(?P<wd>{_WD})))\b"
    # ("the last Saturday of each month" is a day of every month, not the Saturday before)
    r"(?![ ]+of[ ]+(?:each|every|the|a)[ ]+(?:month|year|quarter)))",
    re.ASCII,
)
_REL_DAY = {"today": 0, "yesterday": -1, "tomorrow": 1}
_DIR = {"last": -1, "next": 1, "coming": 1, "this": 0}
# Cheap pre-filter: text with none of these cannot hold an English or numeric date.
_CUE = re.compile(
    r"\d|(?i:today|yesterday|tomorrow|last|next|this|coming|noon|midday|midnight|mon|tue|wed|thu|fri|sat|sun|week|quarter"
    r"|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)",
    re.ASCII,
)


def en_candidates(n: str) -> Iterator[Cand]:
    """All English/numeric date candidates in normalised text `n` (may overlap)."""
    if not _CUE.search(n):
        return
    for m in _NUMERIC.finditer(n):
        y, mo, d = int(m["y"]), int(m["m"]), int(m["d"])
        if valid_year(y) and valid_day(mo, d, y):
            yield Cand(m.start(), m.end(), "day", year=y, month=mo, day=d)
    for m in _NUMERIC_MONTH.finditer(n):
        if valid_year(int(m["y"])):
            yield Cand(m.start(), m.end(), "month", year=int(m["y"]), month=int(m["m"]))
    for pattern in (_DAY_MONTH, _MONTH_DAY):
        for m in pattern.finditer(n):
            mo, d = _MONTHS[m["mon"][:3].lower()], int(m["d"])
            y = int(m["y"]) if m["y"] else None
            if valid_day(mo, d, y):
                yield Cand(m.start(), m.end(), "day", year=y, month=mo, day=d, need_year=y is None)
    for m in _MONTH_YEAR.finditer(n):
        yield Cand(m.start(), m.end(), "month", year=int(m["y"]), month=_MONTHS[m["mon"][:3].lower()])
    for m in _MONTH_ALONE.finditer(n):
        # "Sept." keeps its abbreviation dot; "March." ends a sentence.
        end = m.end() if len(m["mon"]) <= 4 else m.end("mon")
        yield Cand(m.start("mon"), end, "month", month=_MONTHS[m["mon"][:3].lower()], need_year=True)
    for m in (*_MONTH_RANGE.finditer(n), *_MONTH_BETWEEN.finditer(n)):
        for group in ("mon", "mon2"):
            yield Cand(m.start(group), m.end(group), "month", month=_MONTHS[m[group][:3].lower()], need_year=True)
    yield from _quarters(n)
    for m in _FY.finditer(n):
        y = int(m["y"]) if m["y"] else 2000 + int(m["yy"])
        yield Cand(m.start(), m.end(), "year", year=y)
    for m in _YEAR_CUE.finditer(n):
        yield Cand(m.start("y"), m.end("y"), "year", year=int(m["y"]))
    yield from _times(n)
    for m in _WEEKDAY_RANGE.finditer(n):
        a, b = _WEEKDAYS[m["a"][:3].lower()], _WEEKDAYS[m["b"][:3].lower()]
        if a != b:
            yield Cand(m.start(), m.end(), "weekday_range", wd_from=a, wd_to=b)
    for m in _WEEKDAY_ONE.finditer(n):
        d = _WEEKDAYS[m["d"][:3].lower()]
        yield Cand(m.start(), m.end(), "weekday_range", wd_from=d, wd_to=d)
    for m in _WEEKEND_OR_WEEKDAYS.finditer(n):
        yield Cand(m.start(), m.end(), "weekday_range", wd_from=0 if m["wd"] else 5, wd_to=4 if m["wd"] else 6)
    yield from _relative(n)


def _quarters(n: str) -> Iterator[Cand]:
    for m in _QUARTER.finditer(n):
        q = int(m["q"] or m["q2"] or m["q4"] or m["q5"] or 0) or _Q_WORDS[m["qw"].lower()]
        y = m["y"] or m["y2"] or m["y3"]
        yy = m["yy"] or m["yy2"]
        if yy:
            y = yy if len(yy) == 4 else str(2000 + int(yy))
        yield Cand(m.start(), m.end(), "quarter", year=int(y) if y else None, quarter=q, need_year=not y)


def _times(n: str) -> Iterator[Cand]:
    for m in _HOUR_TO_TIME.finditer(n):  # (first: on the same span as a bare "6:30", it knows the half of the day)
        first, second = (int(m["a"]) % 12, int(m["am"] or 0)), (int(m["b"]) % 12, int(m["bm"] or 0))
        pm = m["ap"][0] in "pP"
        # ("10 to 2pm" starts in the morning; "10 to 2am" the night before)
        later = pm if first <= second else not pm
        yield Cand(m.start("a"), m.end("am") if m["am"] else m.end("a"), "time", hour=first[0] + (12 if later else 0),
                   minute=first[1])
    for m in _TIME_24.finditer(n):
        h, mi = int(m["h"]), int(m["mi"])
        h = _ampm(h, m["ap"]) if m["ap"] else (0 if h == 24 and mi == 0 else h)
        if h is not None and h <= 23:
            yield Cand(m.start(), m.end(), "time", hour=h, minute=mi)
    for m in _TIME_AMPM.finditer(n):
        h = _ampm(int(m["h"]), m["ap"])
        if h is not None:
            yield Cand(m.start(), m.end(), "time", hour=h, minute=0)
    for m in _PART_THEN_HOURS.finditer(n):
        later = m["part"].lower() in ("afternoon", "evening", "night")
        for h, mi in (("a", "am"), ("b", "bm")):
            # (the morning's 12 is noon; the night's small hours are after midnight)
            hour = int(m[h]) if not later else int(m[h]) % 12 + (0 if m["part"].lower() == "night" and int(m[h]) < 6 else 12)
            yield Cand(m.start(h), m.end(mi) if m[mi] else m.end(h), "time", hour=hour, minute=int(m[mi] or 0))
    for m in _DAYS_THEN_HOURS.finditer(n):
        a, b = int(m["a"]), int(m["b"])
        # ("from 10 to 3" ends in the afternoon; "from 2 to 4" is all afternoon; "9 to 5" a working day)
        a_pm = a <= 7 and a < b
        b_pm = b <= a or a_pm or b <= 7
        for h, mi, pm in (("a", "am", a_pm), ("b", "bm", b_pm)):
            hour = 12 if int(m[h]) == 12 else int(m[h]) + (12 if pm else 0)  # (12 is noon here)
            yield Cand(m.start(h), m.end(mi) if m[mi] else m.end(h), "time", hour=hour, minute=int(m[mi] or 0))
    for m in _TIME_OF_DAY.finditer(n):
        h = int(m["h"])
        later = m["part"] in ("afternoon", "evening") or (m["night"] and h >= 6)
        yield Cand(m.start(), m.end(), "time", hour=h % 12 + (12 if later else 0), minute=0)
    for m in _NOON.finditer(n):
        yield Cand(m.start(), m.end(), "time", hour=0 if m["w"].lower() == "midnight" else 12, minute=0)


def _ampm(hour: int, marker: str) -> int | None:
    if not 1 <= hour <= 12:
        return None
    pm = marker[0] in "pP"
    return (hour % 12) + (12 if pm else 0)


def _relative(n: str) -> Iterator[Cand]:
    for m in _REL.finditer(n):
        if m["day"]:
            word = " ".join(m["day"].lower().split())
            offset = _REL_DAY.get(word, -2 if "before" in word else 2)
            yield Cand(m.start(), m.end(), "day", rel=("day", offset, None))
            continue
        direction = _DIR[m["dir"].lower()]
        if m["unit"]:
            unit = m["unit"].lower()
            yield Cand(m.start(), m.end(), unit, rel=(unit, direction, None))
            continue
        wd = _WEEKDAYS[m["wd"][:3].lower()]
        if direction == 0:
            rel = ("week", 0, wd)
        else:
            rel = ("wd_before" if direction < 0 else "wd_after", 0, wd)
        yield Cand(m.start(), m.end(), "day", rel=rel)

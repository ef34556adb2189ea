"""Shared pieces of the date extractors: the candidate record and small parsers.

A candidate is what a language-specific scanner found before overlaps are resolved and
before missing years and relative words are filled in against context and `as_of`.
"""

from __future__ import annotations

import calendar
from typing import NamedTuple

YEAR_MIN, YEAR_MAX = 1900, 2100

# A relative expression before it is resolved: (unit, offset, weekday).
#   ("day", -1, None)      yesterday / 昨天
#   ("month", +1, None)    next month / 下个月   (also "year", "quarter")
#   ("wd_before", 0, 4)    last Friday: the nearest Friday strictly before as_of
#   ("wd_after", 0, 0)     next Monday: the nearest Monday strictly after as_of
#   ("week", -1, 4)        上周五: Friday of the previous Monday-Sunday week
Rel = tuple[str, int, "int | None"]


class Cand(NamedTuple):
    start: int
    end: int
    gran: str  # year | quarter | month | day | time | weekday_range
    year: int | None = None
    quarter: int | None = None
    month: int | None = None
    day: int | None = None
    hour: int | None = None
    minute: int | None = None
    wd_from: int | None = None
    wd_to: int | None = None
    rel: Rel | None = None
    # The text states no year ("3月1日", "第三季度", "Q3"): take it from an earlier
    # explicit year in the same text, else from as_of.
    need_year: bool = False
    year_to: int | None = None  # a year range: "2025-26", "2025–2026学年"


_ZH_DIGIT = {"〇": 0, "○": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
ZH_DIGITS = "〇○零一二两三四五六七八九"
ZH_NUM_CHARS = ZH_DIGITS + "十"


def zh_int(s: str) -> int | None:
    """Arabic digits, or a Chinese numeral below 100 ("十二", "二十一", "三十"), or a
    digit-by-digit Chinese year ("二〇二六")."""
    s = s.strip()
    if not s:
        return None
    if s.isascii():
        return int(s) if s.isdigit() else None
    if "十" not in s:
        value = 0
        for ch in s:
            if ch not in _ZH_DIGIT:
                return None
            value = value * 10 + _ZH_DIGIT[ch]
        return value
    tens, _, units = s.partition("十")
    if (tens and tens not in _ZH_DIGIT) or (units and units not in _ZH_DIGIT):
        return None
    return (_ZH_DIGIT[tens] if tens else 1) * 10 + (_ZH_DIGIT[units] if units else 0)


def valid_year(y: int | None) -> bool:
    return y is not None and YEAR_MIN <= y <= YEAR_MAX


def valid_day(month: int | None, day: int | None, year: int | None = None) -> bool:
    if month is None or not 1 <= month <= 12:
        return False
    if day is None:
        return True
    if year is not None:
        return 1 <= day <= calendar.monthrange(year, month)[1]
    return 1 <= day <= (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]

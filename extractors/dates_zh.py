"""Chinese date/time scanners. Input is `normalise(text)` (half-width, Simplified), so
Traditional forms (週一, 下個月, 點) and full-width digits are covered by the same rules.

dateparser does not resolve Chinese relative words, so every rule here is our own.
"""

from __future__ import annotations

import calendar
import re
from typing import Iterator

from extractors.dates_common import ZH_DIGITS, ZH_NUM_CHARS, Cand, valid_day, valid_year, zh_int

_YEAR = rf"(?P<y>(?<!\d)(?<!\d\.)\d{{4}}(?!\d)|(?<![{ZH_NUM_CHARS}])[{ZH_DIGITS}]{{4}})"
_MONTH = r"(?P<m>\d{1,2}|十[一二]?|[一二三四五六七八九])"
_DAY = r"(?P<d>\d{1,2}|三十一?|二十[一二三四五六七八九]?|十[一二三四五六七八九]?|[一二三四五六七八九])"
_QUARTER = r"(?:第[ ]*)?(?P<q>[一二三四1-4])[ ]*季度|Q(?P<q2>[1-4])(?!\d)"

# Year-led forms: 2026年3月1日, 2026 年 3 月, 二〇二六年三月一日, 2025年度, 2025财年,
# 2025年第三季度, 2025年Q3. One pattern so the longest reading wins by construction.
_YEAR_LED = re.compile(
    _YEAR
    + r"[ ]*(?:财年|财政年度|年度|年)"
    + rf"(?:[ ]*(?:{_MONTH}[ ]*月(?:份)?(?:[ ]*{_DAY}[ ]*[日号])?|{_QUARTER}))?"
)
# Taiwan's Republic-of-China years (民國115年 = 2026). A bare 100-199 counts only in a full
# date or as 年度 ("115年3月1日", "114年度"), where no count of years stands.
_ROC_LED = re.compile(
    r"(?:民国[ ]*(?P<y>\d{1,3})|(?<![\d.])(?P<y3>1\d\d)(?!\d))[ ]*(?P<u>年度|年)"
    + rf"(?:[ ]*{_MONTH}[ ]*月(?:份)?(?:[ ]*{_DAY}[ ]*[日号])?)?"
)
ROC_OFFSET = 1911
_MONTH_DAY = re.compile(rf"(?<![\d{ZH_NUM_CHARS}第个])" + _MONTH + r"[ ]*月(?:份)?(?:[ ]*" + _DAY + r"[ ]*[日号])?")
# "6到8月", "3至5月份": the first month of a range says 月 only once, after the second.
_MONTH_RANGE_HEAD = re.compile(
    rf"(?<![\d{ZH_NUM_CHARS}第个.])(?P<m>\d{{1,2}}|十[一二]?|[一二三四五六七八九])(?=[ ]*(?:至|到|-|~)[ ]*"
    + _MONTH.replace("?P<m>", "?P<m2>")
    + r"[ ]*月)"
)
_QUARTER_ALONE = re.compile(r"第[ ]*(?P<q>[一二三四1-4])[ ]*季度")

_WD = "一二三四五六日天1234567"
_WD_PREFIX = r"(?:周|星期|礼拜)"
_WEEKDAY_RANGE = re.compile(
    rf"{_WD_PREFIX}(?P<a>[{_WD}])[ ]*(?:至|到|-|~)[ ]*(?P<p>{_WD_PREFIX})?(?P<b>[{_WD}])"
)
# "每周一至三次" is "one to three times a week": a bare second weekday followed by a
# counter word is a count, not a weekday.
_COUNTER_AFTER = re.compile(r"[ ]*[次个天日小时人元名项件倍周月年%成]")

_PERIOD = r"(?P<p>上午|早上|早晨|清晨|凌晨|中午|午间|下午|傍晚|晚上|夜间|夜里|晚间|晚)"
_HOUR = rf"(?P<h>\d{{1,2}}|[{ZH_NUM_CHARS}]{{1,3}})"
_MINUTE = rf"(?:(?P<half>半|一刻|三刻)|(?P<mi>\d{{1,2}}|[{ZH_NUM_CHARS}]{{1,3}})[ ]*分)"
_TIME = re.compile(
    rf"(?:{_PERIOD}[ ]*)?(?<![\d.{ZH_NUM_CHARS}]){_HOUR}[ ]*(?:(?P<u>[点时])(?:[ ]*{_MINUTE})?(?P<z>钟|整)?|:(?P<mc>[0-5]\d)(?!\d))"
)
# A bare "3点" is often "3 points" ("以下3点"); accept it as a time only near these words.
_TIME_CUE_AFTER = re.compile(r"[ ]*(?:前|后|之前|之后|以前|以后|开始|截止|结束|至|到|-|~|起|止)")
_TIME_CUE_BEFORE = re.compile(r"(?:至|到|-|~|在|于|每天|每日|从|自)[ ]*$")

_WEEKDAY_INDEX = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

_REL_DAY = {"今天": 0, "今日": 0, "昨天": -1, "昨日": -1, "明天": 1, "明日": 1, "前天": -2, "后天": 2, "大前天": -3, "大后天": 3}
_REL_PERIOD = {
    "本月": ("month", 0), "这个月": ("month", 0), "当月": ("month", 0),
    "上个月": ("month", -1), "上月": ("month", -1), "下个月": ("month", 1), "下月": ("month", 1),
    "今年": ("year", 0), "去年": ("year", -1), "明年": ("year", 1), "前年": ("year", -2), "后年": ("year", 2),
    "本季度": ("quarter", 0), "这个季度": ("quarter", 0), "上季度": ("quarter", -1), "上个季度": ("quarter", -1),
    "下季度": ("quarter", 1), "下个季度": ("quarter", 1),
}  # fmt: skip
_REL_WORDS = re.compile(
    "|".join(sorted(list(_REL_DAY) + list(_REL_PERIOD), key=len, reverse=True))
    + r"|(?P<w>上个?|下个?|本|这个?)(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])"
)
_NOT_REL_BEFORE = "提之以最然事"
_WEEK_OFFSET = {"上": -1, "下": 1, "本": 0, "这": 0}
_ANY_CUE = re.compile(r"[年月季周星礼点时天日:]")


def zh_candidates(n: str) -> Iterator[Cand]:
    """All Chinese date/time candidates in normalised text `n` (may overlap)."""
    if not _ANY_CUE.search(n):
        return
    yield from _year_led(n)
    yield from _roc_led(n)
    yield from _month_day(n)
    for m in _QUARTER_ALONE.finditer(n):
        yield Cand(m.start(), m.end(), "quarter", quarter=zh_int(m["q"]), need_year=True)
    yield from _weekday_ranges(n)
    yield from _single_weekdays(n)
    for m in _WEEKEND_OR_WEEKDAYS.finditer(n):
        yield Cand(m.start(), m.end(), "weekday_range", wd_from=0 if m["wd"] else 5, wd_to=4 if m["wd"] else 6)
    yield from _times(n)
    yield from _relative(n)


def _year_led(n: str) -> Iterator[Cand]:
    for m in _YEAR_LED.finditer(n):
        year = zh_int(m["y"])
        if not valid_year(year):
            continue
        q = m["q"] or m["q2"]
        month, day = zh_int(m["m"] or ""), zh_int(m["d"] or "")
        if q:
            yield Cand(m.start(), m.end(), "quarter", year=year, quarter=zh_int(q))
        elif m["m"] and valid_day(month, day, year):
            end, day = _month_end(n, m.end(), year, month, day)
            yield Cand(m.start(), end, "day" if day else "month", year=year, month=month, day=day)
            yield from _range_end_day(n, end, year, month, day)
        else:
            end = m.start("m") if m["m"] else m.end()
            yield Cand(m.start(), len(n[:end].rstrip(" ")), "year", year=year)


def _roc_led(n: str) -> Iterator[Cand]:
    for m in _ROC_LED.finditer(n):
        if m["y3"] and not (m["m"] or m["u"] == "年度" or _roc_topic(n, m)):
            continue
        year = int(m["y"] or m["y3"]) + ROC_OFFSET
        month, day = zh_int(m["m"] or ""), zh_int(m["d"] or "")
        if m["m"] and valid_day(month, day, year):
            end, day = _month_end(n, m.end(), year, month, day)
            yield Cand(m.start(), end, "day" if day else "month", year=year, month=month, day=day)
            yield from _range_end_day(n, end, year, month, day)
        elif not m["m"]:
            yield Cand(m.start(), m.end(), "year", year=year)


# "114年全票為新台幣180元": a recent ROC year opening a sentence as its topic (a count of years
# there would read "114年以上", "100年老店", "120年歷史").
_ROC_TOPIC_AFTER = re.compile(r"[\u4e00-\u9fff](?<![以内后前来历老多间左之起])")


def _roc_topic(n: str, m: re.Match[str]) -> bool:
    opens = m.start() == 0 or n[m.start() - 1] in "。；;！!？?\n"
    return opens and 100 <= int(m["y3"]) <= 130 and m["u"] == "年" and _ROC_TOPIC_AFTER.match(n, m.end()) is not None


def _month_day(n: str) -> Iterator[Cand]:
    for m in _MONTH_DAY.finditer(n):
        month, day = zh_int(m["m"]), zh_int(m["d"] or "")
        if valid_day(month, day):
            end, day = _month_end(n, m.end(), None, month, day)
            yield Cand(m.start(), end, "day" if day else "month", month=month, day=day, need_year=True)
            yield from _range_end_day(n, end, None, month, day)
    for m in _MONTH_RANGE_HEAD.finditer(n):
        first, last = zh_int(m["m"]), zh_int(m["m2"])
        if valid_day(first, None) and valid_day(last, None) and first < last:
            yield Cand(m.start(), m.end(), "month", month=first, need_year=True)


# "2月1日到10日": the range's last day, in the first day's month
_END_DAY = re.compile(r"[ ]*(?:至|到|-|~|—)[ ]*(?P<d>[0-9]{1,2}|[一二三四五六七八九十]{1,3})[ ]*[日号]")


def _range_end_day(n: str, end: int, year: int | None, month: int, day: int | None) -> Iterator[Cand]:
    m = _END_DAY.match(n, end) if day else None
    last = zh_int(m["d"]) if m else None
    if m and last and last > day and valid_day(month, last, year):  # type: ignore[operator]
        yield Cand(m.start("d"), m.end(), "day", year=year, month=month, day=last, need_year=year is None)


_MONTH_END = re.compile(r"[ ]*(?:底|末)(?!班)")


def _month_end(n: str, end: int, year: int | None, month: int | None, day: int | None) -> tuple[int, int | None]:
    """"3月底" / "3月末" is the month's last day: before the end of March is not before 1 March.
    (end, day) of the candidate, unchanged when no such word follows the month."""
    if day or month is None or not (m := _MONTH_END.match(n, end)):
        return end, day
    return m.end(), calendar.monthrange(year or 2001, month)[1] if month != 2 or year else 28


def _weekday_ranges(n: str) -> Iterator[Cand]:
    for m in _WEEKDAY_RANGE.finditer(n):
        a, b = _WEEKDAY_INDEX.get(m["a"]), _WEEKDAY_INDEX.get(m["b"])
        if a is None or b is None:
            a, b = _digit_weekday(m["a"]), _digit_weekday(m["b"])
        if a is None or b is None or a == b:
            continue
        if not m["p"] and _COUNTER_AFTER.match(n, m.end()):
            continue
        yield Cand(m.start(), m.end(), "weekday_range", wd_from=a, wd_to=b)


# "每周一至三次": one to three times a week.
_COUNT_RANGE_AFTER = re.compile(r"[ ]*(?:至|到|-|~)[ ]*[一二三四五六七八九十两\d]+[ ]*[次个天日小时人元名项件倍周月年%成]")
# ("机场四周一定范围内": 四周 is "all around", and 一定 "certain")
_WEEKDAY_ONE = re.compile(rf"(?<!四){_WD_PREFIX}(?P<a>[一二三四五六日天])(?!定)")


# "周末" is Saturday and Sunday, "平日" Monday to Friday (text is normalised to Simplified).
_WEEKEND_OR_WEEKDAYS = re.compile(r"周末|双休日|(?P<wd>平日)")


def _single_weekdays(n: str) -> Iterator[Cand]:
    """"每周五", "週日休息": a one-day weekday range; "每周五天" (five days a week) is a count."""
    for m in _WEEKDAY_ONE.finditer(n):
        if _COUNTER_AFTER.match(n, m.end()) or _COUNT_RANGE_AFTER.match(n, m.end()):
            continue
        d = _WEEKDAY_INDEX[m["a"]]
        yield Cand(m.start(), m.end(), "weekday_range", wd_from=d, wd_to=d)


def _digit_weekday(ch: str) -> int | None:
    if ch in _WEEKDAY_INDEX:
        return _WEEKDAY_INDEX[ch]
    return int(ch) - 1 if ch.isdigit() and 1 <= int(ch) <= 7 else None


def _times(n: str) -> Iterator[Cand]:
    for m in _TIME.finditer(n):
        hour = zh_int(m["h"])
        if hour is None or hour > 24:
            continue
        period = m["p"]
        if m["mc"]:
            if not period:
                continue  # plain "17:30" is the English scanner's
            minute = int(m["mc"])
        elif m["half"]:
            minute = {"半": 30, "一刻": 15, "三刻": 45}[m["half"]]
        elif m["mi"]:
            minute = zh_int(m["mi"])
            if minute is None or minute > 59:
                continue
        else:
            minute = 0
            if not period and not m["z"] and not _time_cue(n, m):
                continue
        if not period and not m["h"].isascii() and not (m["half"] or m["mi"] or m["z"]):
            continue  # "三点" alone: too likely "three points"
        hour = _apply_period(period, hour)
        if hour is None:
            continue
        yield Cand(m.start(), m.end(), "time", hour=hour, minute=minute)


def _time_cue(n: str, m: re.Match[str]) -> bool:
    if m["u"] == "时":
        return True
    return bool(_TIME_CUE_AFTER.match(n, m.end())) or bool(_TIME_CUE_BEFORE.search(n, max(0, m.start() - 4), m.start()))


def _apply_period(period: str | None, hour: int) -> int | None:
    if not period or period in ("上午", "早上", "早晨", "清晨", "凌晨"):
        return 0 if hour == 24 else (hour if hour <= 23 else None)
    if hour > 12:
        return hour if hour <= 23 and period != "中午" else None
    if period in ("中午", "午间"):
        return hour + 12 if hour in (1, 2, 3) else hour
    if period in ("晚上", "夜间", "夜里", "晚间", "晚") and hour == 12:
        return 0
    return hour + 12 if hour < 12 else hour


def _relative(n: str) -> Iterator[Cand]:
    for m in _REL_WORDS.finditer(n):
        word = m.group()
        if word in _REL_DAY:
            if len(word) == 2 and word[0] in "前后" and m.start() and n[m.start() - 1] in _NOT_REL_BEFORE:
                continue  # 提前天数, 之后天: not 前天/后天

            yield Cand(m.start(), m.end(), "day", rel=("day", _REL_DAY[word], None))
        elif word in _REL_PERIOD:
            unit, offset = _REL_PERIOD[word]
            yield Cand(m.start(), m.end(), unit, rel=(unit, offset, None))
        else:
            rel = ("week", _WEEK_OFFSET[m["w"][0]], _WEEKDAY_INDEX[m["wd"]])
            yield Cand(m.start(), m.end(), "day", rel=rel)

"""Values said in words rather than digits: "次日" (1 day), "twice a year", "at least a week",
"half the daily rate", "三分之一", "减半" (= 五折)."""

from __future__ import annotations

import re
from decimal import Decimal

from extractors.chinese_numerals import parse_chinese_number
from extractors.numbers_context import context_words
from extractors.numbers_vocab import CMP_PREFIX, UNITS, phrase_key
from extractors.schema import Fact, Quantity


def mentions_values_in_words(text: str) -> bool:
    """Whether `text` may hold a value said only in words (a quick check before a full scan)."""
    return bool(_RELATIVE_DAY.search(text) or _TIMES_WORD.search(text) or _A_UNIT.search(text) or _YEAR_TERM.search(text)
                or _LASTS_A_UNIT.search(text) or _A_UNIT_AHEAD.search(text) or _A_UNITS_WORTH.search(text)
                or _A_UNIT_TO.search(text) or _A_COUPLE.search(text) or _FRACTION.search(text)
                or _EVERY_DAY_OF_WEEK.search(text) or _PAY_MULTIPLE.search(text))


# "当日到账" / "次日到账", "same-day" / "next business day": how long something takes, said
# without a number. They are durations of 0 or 1 (business) day, so "次日" against "2小时内"
# or "当日" is a comparison of values.
_RELATIVE_DAY = re.compile(
    r"(?P<b1>(?:下一?个|下一?個|次)工作日|next (?:business|working) day|following (?:business|working) day)"
    r"|(?P<d1>次日|隔天|隔日|翌日|next[- ]day|following day)"
    r"|(?P<d0>当日|当天|當日|當天|同日|same[- ](?:business[- ])?day)", re.IGNORECASE)


# "twice a year", "once a month": a count of times ("once" alone is too often "as soon as").
_TIMES_WORD = re.compile(r"\b(?:(?P<w>twice|thrice)|once(?=\s+(?:a|per|each|every)\s))"
                         r"(?:\s+(?:a|per|each|every)\s+(?P<p>day|week|month|quarter|year))?\b", re.IGNORECASE)
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
# "paid at time and a half", "double time": a pay rate as a multiple of the usual one (as "1.5 times")
_PAY_MULTIPLE = re.compile(r"\b(?:time and a half|(?:double|triple) time)\b", re.IGNORECASE)
_MULTIPLES = {"time and a half": Decimal("1.5"), "double time": Decimal(2), "triple time": Decimal(3)}
# "every day of the week" is "seven days a week" (and no match for "six days a week").
_EVERY_DAY_OF_WEEK = re.compile(r"\bevery day of the week\b", re.IGNORECASE)
# "会员年度内6次", "自然年度内": within one (membership, calendar) year; not "2026年度内".
_YEAR_TERM = re.compile(r"(?<![0-9〇零一二两三四五六七八九十])(?:会员|会籍|自然|服务|合同|保单|保险)?年度内")
# "at least a week", "within an hour": one unit of time, bounded.
_A_UNIT = re.compile(r"\b(?:(?P<c>at least|at most|within|up to|no more than|no less than|no later than|more than|"
                     r"less than|under|for)\s+(?P<a>(?:a|an|one)\s+(?P<u>second|minute|hour|day|business day|working day|week|"
                     r"fortnight|month|year))(?!\s+and\s+a\s+half)"
                     r"|(?:(?P<c2>at least|at most|within|up to|no more than|no less than|no later than|more than|"
                     r"less than|under)\s+)?(?P<part>half an hour|a quarter of an hour|an hour and a half|half a day|"
                     r"half[- ]hour|three[- ]quarters? of an hour|three[- ]quarter[- ]hour|quarter[- ]hour|"
                     r"a year and a half|half a year|half a month))\b",
                     re.IGNORECASE)
_PARTS = {"half an hour": (30, "minute"), "a quarter of an hour": (15, "minute"), "an hour and a half": (90, "minute"),
          "half hour": (30, "minute"), "quarter hour": (15, "minute"), "three quarter hour": (45, "minute"),
          "three quarters of an hour": (45, "minute"), "three quarter of an hour": (45, "minute"),
          "half a day": (12, "hour"), "a year and a half": (18, "month"), "half a year": (6, "month"),
          "half a month": (Decimal("0.5"), "month")}
_A_UNIT_CMP = {"no later than": "le", "for": "eq"}
_NOT_DURATION = re.compile(r"['’]s\b|[- ](?:pass|ticket|rate|fee|price|trip|stay)\b", re.IGNORECASE)  # "stay out of the sea for a week"
# "The card lasts a year", "valid for a month", "takes a week": one unit of time, stated as such.
_LASTS_A_UNIT = re.compile(r"\b(?:lasts?|lasting|valid for|good for|takes?|taking)\s+"
                           r"(?P<d>(?:a|an|one)\s+(?P<u>hour|day|business day|working day|week|fortnight|month|year))\b"
                           r"(?!\s+and\s+a\s+half)",
                           re.IGNORECASE)
# "booked a day in advance", "a week ahead": one unit of time, as a notice period.
_A_UNIT_AHEAD = re.compile(r"\b(?<!half )(?P<d>(?:a|an|one)\s+(?P<u>hour|day|business day|working day|week|fortnight|month))"
                           r"\s+(?:in advance|ahead|beforehand)\b", re.IGNORECASE)
# "within a couple of working days": two of a unit of time.
_A_COUPLE = re.compile(r"\b(?:(?P<c>within|up to|at least|at most|no more than|more than|less than)\s+)?a couple of\s+"
                       r"(?P<u>minutes|hours|days|business days|working days|weeks|months|years)\b", re.IGNORECASE)
# "a fortnight to pay it", "a week to return it": one unit of time, as the time allowed.
_A_UNIT_TO = re.compile(r"\b(?P<d>(?:a|an|one)\s+(?P<u>hour|day|business day|working day|week|fortnight|month|year))"
                        r"\s+to\s+(?:pay|respond|reply|return|decide|cancel|complete|claim|appeal|apply|send|submit|"
                        r"book|collect|change)\b", re.IGNORECASE)
# "a day's notice", "a month's rent": one unit of time, as what something is worth.
_A_UNITS_WORTH = re.compile(r"\b(?P<d>(?:a|an|one)\s+(?P<u>hour|day|week|fortnight|month|year))['’]s\s+"
                            r"(?:notice|warning|rent|pay|salary|wages)\b", re.IGNORECASE)
# Fractions said in words: "half the daily rate", "one-third of", 三分之一, 一半; and half
# price, which is how 五折 reads (减半, 半价).
_FRACTION = re.compile(
    r"\b(?P<en>half|(?:one|a)[- ]third|two[- ]thirds|(?:one|a)[- ]quarter|three[- ]quarters)"
    r"(?=\s+(?:of\s+)?(?:the|your|its|their|this|that|what)\b|\s+(?:back|refunded)\b)"
    r"|(?P<zh>[二两三四五十]分之[一二三]|一半)(?!价)"
    r"|(?P<price>\bhalf[- ]price\b|半价|减半|減半)", re.IGNORECASE)
_FRACTIONS = {"half": (1, 2), "one third": (1, 3), "a third": (1, 3), "two thirds": (2, 3), "one quarter": (1, 4),
              "a quarter": (1, 4), "three quarters": (3, 4), "一半": (1, 2)}


def values_in_words(text: str, n: str, facts: list[Fact], blocked: list[tuple[int, int]]) -> list[Fact]:
    """Durations and counts said without a number: "次日", "same-day", "twice a year"."""
    taken = [(f.start, f.end) for f in facts] + blocked
    found: list[tuple[re.Match[str], Quantity]] = []
    spans: list[tuple[int, int, Quantity]] = []
    for m in _RELATIVE_DAY.finditer(n):
        business = bool(m.group("b1")) or "business" in m.group(0).lower()
        found.append((m, Quantity(value=Decimal(0 if m.group("d0") else 1),
                                  unit="business_day" if business else "day")))
    for m in _A_UNIT.finditer(n):
        if m.group("part"):
            (amount, unit), word = _PARTS[phrase_key(m.group("part").replace("-", " "))], phrase_key(m.group("c2") or "")
            value = Decimal(amount)
        else:
            word, (value, unit) = phrase_key(m.group("c")), _one(m.group("u"))
        comparator = (_A_UNIT_CMP.get(word) or CMP_PREFIX[word]) if word else "eq"
        if word == "for":  # the value is "a week", not "for a week"; not "for a day pass"
            if not _NOT_DURATION.match(n, m.end()):
                spans.append((m.start("a"), m.end("a"), Quantity(value=value, unit=unit)))
            continue
        found.append((m, Quantity(value=value, unit=unit, comparator=comparator)))
    for m in _FRACTION.finditer(n):
        if m.group("price"):
            found.append((m, Quantity(value=Decimal(5), unit="tenth_of_price")))
            continue
        word = phrase_key(m.group(0).replace("-", " "))
        if word in _FRACTIONS:
            top, bottom = _FRACTIONS[word]
        else:  # 三分之一
            bottom, top = (int(parse_chinese_number(part) or 0) for part in word.split("分之"))
        if bottom:
            share = Decimal(100 * top) / bottom
            share = share.quantize(Decimal(1) if share == share.to_integral_value() else Decimal("0.01"))
            found.append((m, Quantity(value=share, unit="percent")))
    for m in _A_COUPLE.finditer(n):
        word = phrase_key(m.group("c") or "")
        found.append((m, Quantity(value=Decimal(2), unit=UNITS[phrase_key(m.group("u"))],
                                  comparator=CMP_PREFIX[word] if word else "eq")))
    for m in _PAY_MULTIPLE.finditer(n):
        found.append((m, Quantity(value=_MULTIPLES[phrase_key(m.group(0))], unit="times")))
    for m in _EVERY_DAY_OF_WEEK.finditer(n):
        found.append((m, Quantity(value=Decimal(7), unit="day", per="week")))
    for m in _YEAR_TERM.finditer(n):
        found.append((m, Quantity(value=Decimal(1), unit="year", comparator="le")))
    for m in _TIMES_WORD.finditer(n):
        word = m.group(0).split()[0].lower()
        found.append((m, Quantity(value=Decimal(_TIMES[word]), unit="times",
                                  per=m.group("p").lower() if m.group("p") else None)))
    for m in _LASTS_A_UNIT.finditer(n):
        value, unit = _one(m.group("u"))
        spans.append((m.start("d"), m.end("d"), Quantity(value=value, unit=unit)))
    spans += [(m.start(), m.end(), q) for m, q in found]
    # (after "at least a week", which holds it)
    for m in (*_A_UNITS_WORTH.finditer(n), *_A_UNIT_AHEAD.finditer(n), *_A_UNIT_TO.finditer(n)):
        value, unit = _one(m.group("u"))
        spans.append((m.start("d"), m.end("d"), Quantity(value=value, unit=unit)))
    out = []
    for start, end, q in spans:
        if any(s < end and start < e for s, e in taken):
            continue
        taken.append((start, end))  # ("valid for a year" is read once, as "a year")
        out.append(Fact(kind="number", text=text[start:end], start=start, end=end, value=q,
                        context=context_words(n, start, end, 0)))
    return sorted(out, key=lambda f: f.start)


def _one(word: str) -> tuple[Decimal, str]:
    """(value, unit) of "a week", "a fortnight"."""
    unit = phrase_key(word)
    return (Decimal(2), "week") if unit == "fortnight" else (Decimal(1), UNITS[unit])


# "一个半小时", "两个半月", Cantonese "一個半鐘": a count and a half of a unit.
_AND_A_HALF = re.compile(r"(?P<n>[0-9]{1,3}|[一二两三四五六七八九十]{1,3})个半(?P<u>小时|钟头|钟|月|星期|礼拜)")
_HALF_UNITS = {"小时": "hour", "钟头": "hour", "钟": "hour", "月": "month", "星期": "week", "礼拜": "week"}


def and_a_half(text: str, n: str) -> list[Fact]:
    """Facts for "一个半小时" (1.5 hours) and the like, in `text` (normalised as `n`); the
    plain scan would read only "半小时"."""
    out = []
    for m in _AND_A_HALF.finditer(n):
        count = Decimal(m["n"]) if m["n"].isdigit() else parse_chinese_number(m["n"])
        if count is None:
            continue
        out.append(Fact(kind="number", text=text[m.start():m.end()], start=m.start(), end=m.end(),
                        value=Quantity(value=Decimal(count) + Decimal("0.5"), unit=_HALF_UNITS[m["u"]],
                                       comparator="le" if re.match(r"以?[内里]|之内", n[m.end():]) else "eq",
                                       approximate=bool(re.search(r"(?:大概|大约|约)$", n[:m.start()]))),
                        context=context_words(n, m.start(), m.end(), 0)))
    return out

"""Number and identifier facts in English and Chinese text.

    extract_numbers("酒店每晚不超过 500 元，退款 1-5 个工作日到账")
    -> [Fact(kind="number", text="每晚不超过 500 元", value=Quantity(value=500, currency="CNY",
             per="night", comparator="le")),
        Fact(kind="number", text="1-5 个工作日", value=Quantity(low=1, high=5, unit="business_day"))]

Span rule: a fact covers the whole expression that states the amount: a leading rate
word (每晚), comparator or approximation words, currency symbol or code, the number or
range, scale words, currency word, unit, rate (``per night``, ``/晚``) and trailing
comparator words (``以内``, ``or more``, ``左右``). Words naming what is measured stay outside
the span and go into ``Fact.context``.

Choices worth knowing:
- Identifiers (codes, sections, phones, versions, years in titles) win over quantities.
- Dates and bare years (1900-2100 with no unit, currency or comparator) are skipped: the
  date extractor reports them.
- Chinese numerals count only with a unit, currency or percent (三天, 两千元, 百分之五), since
  一/十/万 also occur inside ordinary words (统一, 十分, 千万).
- Prefix words must touch the number (spaces only): in ``最多可报销两台`` the fact is ``两台``.
  Of two rate words (``每人每晚``) the nearest one sets ``per``.
- ``元`` means CNY unless a currency prefix (``新台币``, ``NT$``) says otherwise, or the text
  names only one other local dollar (新台幣 or 港幣): then bare ``元``/``蚊`` mean that one.
- Decimals keep the precision that was written: ``$3.2B`` is ``Decimal("3.2E+9")``.
- Values said only in words ("次日", "twice a year", "at least a week", "one-third of") come
  from ``numbers_words``; the slot words of every fact from ``numbers_context``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import NamedTuple

from extractors.chinese_numerals import NUMERAL_CHARS, approximate_pair, parse_chinese_number
from extractors.numbers_vocab import (
    CMP_PREFIX, CMP_SUFFIX, CUR_PREFIX, CUR_SUFFIX, NO_SUBJECT, PER_WORDS, SCALES, UNITS, alternation, phrase_key,
)
from extractors.numbers_context import context_words
from extractors.numbers_ids import special_spans
from extractors.numbers_money import hant_local_dollar, money_after
from extractors.numbers_words import and_a_half, mentions_values_in_words, values_in_words
from extractors.schema import Fact, Quantity
from extractors.text import normalise

__all__ = ["extract_numbers", "context_words", "english_number_words"]

_EN_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen").split()
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
            "ninety": 90}
_EN_BELOW_100 = (r"(?:(?:" + "|".join(_EN_TENS) + r")(?:[- ](?:" + "|".join(_EN_ONES[1:10]) + r"))?"
                 r"|" + "|".join(sorted(_EN_ONES, key=len, reverse=True)) + r")")
# "one hundred and twenty", "twelve hundred", "a thousand", "two thousand five hundred": one number,
# not "twenty" alone. Millions and billions stay scale words after it ("three hundred million").
_EN_HUNDREDS = (r"(?:(?:a|" + _EN_BELOW_100 + r") hundred(?: (?:and )?" + _EN_BELOW_100 + r"\b)?\b|"
                + _EN_BELOW_100 + r"\b)")
_EN_NUMBER = (r"(?i:\b(?:(?:a|" + _EN_HUNDREDS + r") thousand(?: (?:and )?" + _EN_HUNDREDS + r")?\b|"
              + _EN_HUNDREDS + r"))")
_PREFILTER = re.compile(r"[0-9０-９" + NUMERAL_CHARS + "半]|" + _EN_NUMBER)
_ZH = "[" + NUMERAL_CHARS + "]"
_CORE = re.compile(
    r"(?P<pct>[百千万]分之(?:[0-9.]+|" + _ZH + r"+(?:点" + _ZH + r"+)?))"
    r"|(?P<enw>" + _EN_NUMBER + r")"
    r"|(?P<ar>(?<![0-9.])(?<![0-9],)(?:[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?![0-9]))"
    r"|(?P<zh>" + _ZH + r"+(?:点" + _ZH + r"+)?)(?!(?<=千)瓦)"  # ("十二千瓦" is 12 kW, not 十二千 watts)
    r"|(?P<half>半)"
)
_SP = r"[ \t]{0,2}"
_SMALLER_PART = {"万": re.compile(r"([0-9]{1,4})([千百])(?![万亿])"), "千": re.compile(r"([0-9])(百)(?![万亿千])")}
_APPROX_WORDS = ("about", "around", "approximately", "approx.", "approx", "roughly", "nearly", "almost", "circa",
                 "~", "约合", "约为", "大约", "大概", "将近", "接近", "约", "近")


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    en = r"(?![A-Za-z])"
    zh_per = alternation(PER_WORDS, zh_only=True)
    return {
        "prefix": re.compile(
            r"(?:(?P<per>(?:每(?:" + zh_per + r")" + _SP + r")?每(?:(?P<persize>[百千万])(?=字))?(?P<perw>" + zh_per + r")))?" + _SP
            + r"(?:(?P<between>(?<![A-Za-z])between|介于|从)" + _SP + r")?"
            # ("最低收取1.5万元", "最多收二十块": a charging verb may stand between the bound and its value)
            # ("under-18s": an age group joined to its bound by a hyphen; "over-60s" are people of 60 and
            # over, no strict bound, so that one stays a plain number)
            + r"(?:(?P<cmp>" + alternation(CMP_PREFIX) + r")(?:(?P<hyphen>(?<=under)-)|" + _SP + r")"
            + r"(?:(?<=[低高少多])(?:收取|收费|收)" + _SP + r")?)?"
            + r"(?:(?P<approx>" + alternation(dict.fromkeys(_APPROX_WORDS)) + r")" + _SP + r")?"
            + r"(?:(?P<cur>" + alternation(CUR_PREFIX) + r")" + _SP + r")?"
            + r"(?P<neg>(?<![A-Za-z0-9])-)?$",
            re.IGNORECASE,
        ),
        "scale": re.compile(r"[ ]?(?:(?P<w>" + alternation(SCALES) + r")" + en + r"|(?P<c>[万亿千百]+)(?!瓦))", re.IGNORECASE),
        "more": re.compile(r"[ ]?(?:多|余|\+)"),
        "pct": re.compile(_SP + r"(?:%|‰|(?<![A-Za-z])per ?cent" + en + r"|个百分点|percentage points?|pp" + en
                          + r"|成(?![本员为功立年人熟绩交果品型分不]))", re.IGNORECASE),
        "zhe": re.compile(r"折(?![旧算合扣叠返现])"),
        # ("a forty-dollar charge", "a 5-pound fee": a hyphen joins an English currency word too)
        "cur": re.compile(r"(?:" + _SP + r"|-(?=[A-Za-z]))(?P<c>" + alternation(CUR_SUFFIX) + r")", re.IGNORECASE),
        # "a 30-day window", "a 6-month probation": a hyphen joins an English unit too.
        "unit": re.compile(r"(?:" + _SP + r"|-(?=[A-Za-z]))(?P<u>" + alternation(UNITS) + r")", re.IGNORECASE),
        "per": re.compile(
            # "£96 for the year": a price for the whole period is a price per period
            _SP + r"(?P<m>/|(?<![A-Za-z])(?:per|a|an|each|for the|for a)(?= )|每|一)" + _SP
            # (a block of text: "每百字", "per 1,000 words")
            + r"(?:(?P<size>[百千万](?=字)|(?:100|1,?000|(?:a |one )?hundred|(?:a |one )?thousand)(?= words?\b)) ?)?"
            + r"(?P<p>" + alternation(PER_WORDS) + r")"
            + r"(?![ ]?(?:earlier|ago|before|later|prior))"
            # ("月租两千英镑一年就是两万四": a period that opens the next step of a sum is no rate)
            + r"(?!(?<=[一年月天日周])\s*(?:就是|就係|即是|是|共|合计|合計|下来|下來))",
            re.IGNORECASE,
        ),
        # (but "3个月起算" starts a count there: no bound)
        "csuffix": re.compile(_SP + r"(?P<c>" + alternation(CMP_SUFFIX) + r")(?!(?<=起)[算计])", re.IGNORECASE),
        "approx_suffix": re.compile(_SP + r"(?:左右|上下|or so(?![A-Za-z]))", re.IGNORECASE),
        # ("8- to 13-year-olds": the first number's hyphen waits for the unit after the second)
        "sep": re.compile(r"[ \t]{0,3}(?:(?P<dash>-|~|〜)(?:[ \t]{1,3}to(?=[ \t]))?|(?P<word>to|到|至|and|和|与))[ \t]{0,3}",
                          re.IGNORECASE),
        "cur_prefix": re.compile(r"(?:" + alternation(CUR_PREFIX) + r")[ ]?", re.IGNORECASE),
        "letter_cur": re.compile(r"(?:RMB|CNY|USD|EUR|HKD|TWD|NTD|GBP|JPY)$", re.IGNORECASE),
        "range_end": re.compile(r"[ ]?之间"),
    }


_PER_PERCENT = {"百": Decimal(1), "千": Decimal(10), "万": Decimal(100)}


class _Amount(NamedTuple):
    """One side of an expression: the number with its scale and own currency/unit words."""

    raw: str
    end: int
    value: Decimal
    chinese: bool
    factor: Decimal | None  # the scale word's multiplier, if one was written
    currency: str | None
    unit: str | None
    more: bool


# "一个月最多收60元", "一年可报销一次": one month or year named as the period a limit or a price is
# counted over, not a duration the claim states ("一个月内" and "为期一年" stay numbers).
_ZH_PERIOD = re.compile(r"一(?:个)?(?:月|年|天|日|周|星期)(?=最多|最少|至多|至少|可以|可|能|只能|限|仅|不超过|封顶"
                        # ... or the price for it ("银卡会员一年一万二千八，……")
                        r"|(?:[\d,.]+|[一二两三四五六七八九十百千万]{2,})(?:元|块|蚊|万|千)?(?:[，。,;；]|$))")


# "给老人做一次能力评估", "进行一次检查": 一次 after such a verb is "an", not a count, unless a
# period makes it a frequency ("每年做一次体检").
_ZH_ONE_ACT = re.compile(r"一次(?=[\u4e00-\u9fff])(?!性)")
_ZH_ACT_VERBS = ("做", "进行", "安排", "作")
# "一次交清", "一次付清", "一次缴足": paid in one go, not a count of payments
_ONE_GO = re.compile(r"一次(?:[交缴付结还]|支付)[清足齐]")


def _zh_one_act(n: str, start: int) -> bool:
    clause_start = max(n.rfind(c, 0, start) for c in "，,；;。：:") + 1
    return n.endswith(_ZH_ACT_VERBS, 0, start) and "每" not in n[clause_start:start]


def extract_numbers(text: str) -> list[Fact]:
    """Number and identifier facts in `text`, sorted by start and non-overlapping."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if not _PREFILTER.search(text):
        if not mentions_values_in_words(text):
            return []
        n = normalise(text)
        return hant_local_dollar(text, n, sorted(values_in_words(text, n, [], []), key=lambda f: f.start))
    n = normalise(text)
    ident_facts, blocked = special_spans(text, n)
    if halves := [f for f in and_a_half(text, n) if not any(s < f.end and f.start < e for s, e in blocked)]:
        ident_facts, blocked = ident_facts + halves, sorted(blocked + [(f.start, f.end) for f in halves])
    starts = [s for s, _ in blocked]
    facts: list[Fact] = list(ident_facts)
    floor = 0  # no number may reach back before this (end of the previous fact)
    for m in _CORE.finditer(n):
        if m.start() < floor:
            continue
        i = bisect_right(starts, m.start()) - 1
        if i >= 0 and blocked[i][1] > m.start():
            continue
        lo = max(floor, blocked[i][1] if i >= 0 else 0)
        hi = blocked[i + 1][0] if i + 1 < len(blocked) else len(n)
        if m.end() > hi:
            continue
        fact = _quantity(text, n, m, lo, hi)
        if fact is not None and not _ZH_PERIOD.match(n, fact.start):
            facts.append(fact)
            floor = fact.end
    facts.extend(values_in_words(text, n, facts, blocked))
    facts.sort(key=lambda f: f.start)
    return hant_local_dollar(text, n, _hours_and_minutes(text, facts))


_HOURS_MINUTES_GAP = re.compile(r"\s*(?:,|and|零|又)?\s*")


def _hours_and_minutes(text: str, facts: list[Fact]) -> list[Fact]:
    """"一个小时十分钟", "1 hour 10 minutes": one duration (70 minutes), not an hour and, beside
    it, ten minutes that read as another value for the same slot."""
    out: list[Fact] = []
    for fact in facts:
        prev = out[-1] if out else None
        h, m = (prev.value if prev else None), fact.value
        if (prev and isinstance(h, Quantity) and isinstance(m, Quantity) and h.unit == "hour" and m.unit == "minute"
                and h.value is not None and m.value is not None and h.low is None and m.low is None
                and h.value == h.value.to_integral_value() and 0 < m.value < 60
                and m.comparator == "eq" and _HOURS_MINUTES_GAP.fullmatch(text[prev.end:fact.start])):
            joined = h.model_copy(update={"value": h.value * 60 + m.value, "unit": "minute",
                                          "approximate": h.approximate or m.approximate})
            out[-1] = prev.model_copy(update={"text": text[prev.start:fact.end], "end": fact.end, "value": joined})
        else:
            out.append(fact)
    return out


def _amount(n: str, m: re.Match[str], hi: int, has_cur: bool, numeral: str | None = None) -> _Amount | None:
    """`numeral`: read this Chinese numeral instead of the matched one (one end of "三四块")."""
    p = _patterns()
    raw = m.group(0)
    chinese = m.group("ar") is None
    if m.group("half"):
        value: Decimal | None = Decimal("0.5")
    elif m.group("pct"):
        value = parse_chinese_number(raw[3:])
        if value is not None:  # 千分之三 = 0.3%, 万分之五 = 0.05%
            value = value / _PER_PERCENT[raw[0]]
    elif m.group("enw"):
        value = _english_number(raw)
    elif chinese:
        value = parse_chinese_number(numeral or raw)
    else:
        try:
            value = Decimal(raw.replace(",", ""))
        except InvalidOperation:
            value = None
    if value is None:
        return None
    end, factor = m.end(), None
    if (m.group("enw") or m.group("ar")) and (half := _AND_A_HALF_EN.match(n, end, hi)):
        value, end = value + Decimal("0.5"), half.end()  # "three and a half hours", "one and a half cents"
    s = p["scale"].match(n, end, hi)
    if s and not m.group("pct"):
        word = s.group("w")
        if word and not (word in ("m", "b") and not has_cur):  # "5m" alone is metres
            factor = SCALES[word.lower()]
        elif s.group("c") and not chinese:
            factor = parse_chinese_number("1" + s.group("c"))
        if factor is not None:
            value, end = value * factor, s.end()
            # "2萬2千元", "3千5百元": digits and a smaller scale word after 万 or 千 add that part
            if (rest := _SMALLER_PART.get(s.group("c") or "")) and (rest := rest.match(n, end, hi)):
                value, end = value + Decimal(rest.group(1)) * parse_chinese_number("1" + rest.group(2)), rest.end()
    more = p["more"].match(n, end, hi)
    if more:
        end = more.end()
    currency = unit = None
    if m.group("pct"):
        unit = "percent"
    elif zm := p["zhe"].match(n, end, hi):
        # "八折", "九五折", "8.5折": the share of the price paid, in tenths.
        unit, end = "tenth_of_price", zm.end()
        value = value / 10 if value >= 10 else value
    elif pm := p["pct"].match(n, end, hi):
        point = pm.group(0).strip().lower().startswith(("percentage", "pp", "个"))
        unit, end = ("percentage_point" if point else "percent"), pm.end()
        if pm.group(0).strip() == "成":  # "两成" = 20%
            value *= 10
    elif money := money_after(n, p["cur"].match(n, end, hi), value, end, hi, chinese):
        value, currency, unit, end = money
    # (after a price, "年费" / "月租" name the fee: "一百二十元年费" is 120 yuan, not 120 years)
    if unit is None and (um := p["unit"].match(n, end, hi)) and not (currency and _FEE_NAME.match(n, um.end())) \
            and not n.startswith("周年", um.end() - 1):  # "二週年慶" is an anniversary, not two weeks
        unit, end = UNITS[phrase_key(um.group("u"))], um.end()
        if _HALF_AFTER_UNIT.match(n, end):
            value, end = value + Decimal("0.5"), end + 1  # "一年半" = 1.5 years, "两天半" = 2.5 days
    return _Amount(raw, end, value, chinese, factor, currency, unit, bool(more))


def _english_number(words: str) -> Decimal:
    """"thirty-five" -> 35, "one hundred and twenty" -> 120. Like Chinese numerals, number words
    count only with a unit."""
    total = current = 0
    for word in words.lower().replace("-", " ").split():
        if word == "hundred":
            current = (current or 1) * 100
        elif word == "thousand":
            total, current = total + (current or 1) * 1000, 0
        elif word in _EN_TENS:
            current += _EN_TENS[word]
        elif word in _EN_ONES:
            current += _EN_ONES.index(word)
    return Decimal(total + current)


def english_number_words(text: str) -> str:
    """`text` with English number words written as digits ("thirty days" -> "30 days")."""
    return _EN_WORD_RE.sub(lambda m: str(_english_number(m.group())), text)


_EN_WORD_RE = re.compile(_EN_NUMBER)

# "must be at least seventeen." counts; "at least two of the four", "up to three trainees" (a word
# the source may state as a bare number) do not.
_NOTHING_AFTER = re.compile(r"\s*(?:[.,;:!?)]|$)")
# A bound whose subject is "no ..." is denied: "no seat is more than 5 years old" is "at most 5".
_NO_SUBJECT = re.compile(r"(?<![A-Za-z])" + NO_SUBJECT + "$", re.IGNORECASE)
_DENIED_BOUND = {"gt": "le", "ge": "lt"}
_VALUE_NEXT = re.compile(r"\s*(?:[\d一二两兩三四五六七八九十]|人民币|新台币|港币)")


_BLOCK = {"百": 100, "千": 1000, "万": 10000, "100": 100, "1000": 1000, "1,000": 1000, "hundred": 100, "thousand": 1000}


def _sized(size: str | None, per: str) -> str:
    """A rate over a block of units names the block: "每百字15元" is per "100 character"."""
    return f"{_BLOCK[size.lower().split()[-1]]} {per}" if size else per


def _quantity(text: str, n: str, m: re.Match[str], lo: int, hi: int) -> Fact | None:
    start = m.start()
    if _inside_word_or_ordinal(n, lo, start):
        return None
    pre = _prefix(n, lo, start)
    cur_prefix = CUR_PREFIX[phrase_key(pre.group("cur"))] if pre and pre.group("cur") else None
    left = _amount(n, m, hi, cur_prefix is not None)
    if left is None:
        return None
    right = _range_end(n, left, hi, bool(pre and pre.group("between")), cur_prefix is not None)
    if right is None and left.chinese and (pair := approximate_pair(left.raw)):
        low_side = _amount(n, m, hi, cur_prefix is not None, pair[0])
        high_side = _amount(n, m, hi, cur_prefix is not None, pair[1])
        if low_side is not None and high_side is not None:
            left, right = low_side, high_side
    last = right or left
    value, low, high = (None, _range_low(left, right), right.value) if right else (left.value, None, None)
    unit, currency = last.unit or left.unit, cur_prefix or last.currency or left.currency
    if unit is None and currency is None and right is None:
        unit = _dimension_unit(n, left.end, hi)  # "2.4 by 1.8 metres": the first side is in metres too
    end, per, comparator = last.end, None, None
    approx_word = bool(pre and pre.group("approx")) and not _yue_is_a_verb(n, pre.start("approx"))  # type: ignore[union-attr]
    approx = approx_word
    p = _patterns()
    if pre and pre.group("per"):
        per = _sized(pre.group("persize"), PER_WORDS[pre.group("perw")])  # "每人每晚": the nearest rate word is the slot's
    # ("1500个单位每单位8元": a rate word right before another value is that value's)
    if (pm := p["per"].match(n, end, hi)) and (currency or unit or pm.group("m").lower() not in ("a", "an", "一", "for the", "for a")) \
            and not (pm.group("m") == "每" and _VALUE_NEXT.match(n, pm.end(), hi)):
        per, end = _sized(pm.group("size"), PER_WORDS[phrase_key(pm.group("p"))]), pm.end()  # "3 a day" is too loose without a unit
    if pre and pre.group("cmp"):
        comparator = CMP_PREFIX[phrase_key(pre.group("cmp"))]
        if pre.group("hyphen") and not re.match(r"s\b", n[end:hi]):
            comparator = None  # "the under-16 team" names a team; "under-16s" are everyone under 16
        elif comparator in _DENIED_BOUND and _NO_SUBJECT.search(n, max(lo, pre.start("cmp") - 60), pre.start("cmp")):
            comparator = _DENIED_BOUND[comparator]  # "no car seat is more than five years old": at most five
    if cm := p["csuffix"].match(n, end, hi):
        comparator, end = comparator or CMP_SUFFIX[phrase_key(cm.group("c"))], cm.end()
        if unit is None and currency is None and (um := p["unit"].match(n, end, hi)):
            unit, end = UNITS[phrase_key(um.group("u"))], um.end()  # "5 or more years"
    elif last.more:
        comparator = comparator or "gt"  # "300多人", "10,000+"
    if am := p["approx_suffix"].match(n, end, hi):
        approx, end = True, am.end()
    if right and (between_end := p["range_end"].match(n, end, hi)):
        end = between_end.end()
    bare = unit is None and currency is None and comparator is None and per is None and not approx
    if left.chinese and not (unit or currency or per) and not _COLLOQUIAL_AMOUNT.fullmatch(left.raw) \
            and not _PLACE_VALUED.fullmatch(left.raw) and not (m.group("enw") and (cm or pre and pre.group("cmp") and left.value != 1
                                                                      and _NOTHING_AFTER.match(n, end, hi))):
        # 统一, 十分, 千万 / "one of", "no one": number words need a unit to count, or, in English,
        # a bound ("three or more", "at least seventeen")
        return None
    if bare and _is_bare_year(m.group(0)) and (right is None or _is_bare_year(right.raw)):
        return None  # a year (or year range): the date extractor's job
    # 一次性/一次过 ("all at once", Cantonese 一次過俾晒) and 朝九晚五 (office hours) count nothing.
    if n.startswith(("一次性", "一次过", "一次過"), start) or _ONE_GO.match(n, start) \
            or _ZH_ONE_ACT.match(n, start) and _zh_one_act(n, start) \
            or (start > 0 and n.startswith("朝九晚五", start - 1)):
        return None
    span_start = start
    if pre:
        used = [g for g in ("per", "between", "cmp", "cur", "neg") if pre.group(g)] + (["approx"] if approx_word else [])
        if right is None and "between" in used:
            used.remove("between")  # "between 2" without "and 4" is not a range
        span_start = min((pre.start(g) for g in used), default=start)
        if pre.group("neg"):
            value, low = (-value if value is not None else None), (-low if low is not None else None)
    q = Quantity(value=value, low=low, high=high, unit=unit, currency=currency, per=per,
                 comparator=comparator or "eq", approximate=approx)
    return Fact(kind="number", text=text[span_start:end], start=span_start, end=end, value=q,
                context=context_words(n, span_start, end, lo))


# "三万五", "一千五": a count of 万 or 千 with a trailing digit is how an amount is said aloud,
# never a word like 统一 or 千万 (the numerals parser reads it: 三万五 = 35000).
_COLLOQUIAL_AMOUNT = re.compile(r"[一二两三四五六七八九十]{1,2}(?:万[一二两三四五六七八九]千|[万千])[一二两三四五六七八九]")
# "五百五十": a numeral of several places is a number however it goes on ("信用分五百五十分以上").
_PLACE_VALUED = re.compile(r"[一二两三四五六七八九][百千][零一二两三四五六七八九十百]+")


_BY = re.compile(r"[ ]*(?:by|x|×|\*|乘)[ ]*\d+(?:\.\d+)?[ ]*", re.IGNORECASE)
_LENGTHS = frozenset({"cm", "m", "km", "inch"})


def _dimension_unit(n: str, end: int, hi: int) -> str | None:
    """The unit of the second side of a size ("2.4 by 1.8 metres", "3×4米"), for the first."""
    if (by := _BY.match(n, end, hi)) and (um := _patterns()["unit"].match(n, by.end(), hi)):
        unit = UNITS[phrase_key(um.group("u"))]
        return unit if unit in _LENGTHS else None
    return None


# (not "one and a half times": a multiplier the answer works with, verifier.arithmetic)
_AND_A_HALF_EN = re.compile(r"(?:[ ]+|-)and(?:[ ]+|-)a(?:[ ]+|-)half\b(?![ ]+times\b)", re.IGNORECASE)
# "一年半": the half after the unit ("一个半小时", with 个 between, is numbers_words.and_a_half)
_HALF_AFTER_UNIT = re.compile(r"(?<=[年天日月时])半(?![价年月天日小时折])")
_FEE_NAME = re.compile(r"费|租|卡|票|薪|会费")
# 约 ends a word here (预约, 违约, 签约) or is the verb "book" (可约两次, 限约1次): not "about".
_YUE_ENDS_WORD = frozenset("预违签履合邀赴失践守毁解立条公契特节制婚租限可能再")


def _yue_is_a_verb(n: str, at: int) -> bool:
    return n.startswith("约", at) and not n.startswith("约合", at) and not n.startswith("约为", at) \
        and (at > 0 and n[at - 1] in _YUE_ENDS_WORD or n[max(at - 2, 0):at] in ("可以", "能够"))


# A number right after one of these names a zone, tier or step ("Zone 2", "Tier 1"): a label.
_LABEL_NOUN = re.compile(r"(?<![A-Za-z])(?:zone|tier|level|terminal|gate|phase|class|grade|section|article|band|"
                         r"category|step|option|platform|route|stage|type|region|area|lot|pier) ?$", re.IGNORECASE)


def _inside_word_or_ordinal(n: str, lo: int, start: int) -> bool:
    """"mp3", "第3天", "No. 5", "Zone 2" are not amounts; "RMB300" is."""
    before = n[max(lo, start - 4):start]
    if before.endswith(("第", "第 ", "#")) or before.lower().endswith(("no.", "no. ")):
        return True
    if _LABEL_NOUN.search(n, max(lo, start - 12), start):
        return True
    if before and before[-1].isascii() and before[-1].isalpha():
        return not _patterns()["letter_cur"].search(before)
    return False


def _prefix(n: str, lo: int, start: int) -> re.Match[str] | None:
    i = start - 1
    while i >= lo and n[i] in " \t":
        i -= 1
    if i < lo or n[i].lower() not in _prefix_last_chars():
        return None  # cheap exit: most numbers have no prefix word
    return _patterns()["prefix"].search(n, max(lo, start - 40), start)


@lru_cache(maxsize=1)
def _prefix_last_chars() -> frozenset[str]:
    words = [*CMP_PREFIX, *CUR_PREFIX, *PER_WORDS, *_APPROX_WORDS, "between", "介于", "从", "-", "收", "取", "费"]
    return frozenset(w[-1].lower() for w in words)


def _range_end(n: str, left: _Amount, hi: int, between: bool, has_cur: bool) -> _Amount | None:
    """The upper end of ``1-5``, ``1 to 5``, ``500 至 600``, ``between 2 and 4``, or None."""
    p = _patterns()
    sep = p["sep"].match(n, left.end, hi)
    if not sep or not (sep.group("dash") or sep.group("word").lower() in ("to", "到", "至") or between):
        return None
    pos = sep.end()
    if rcur := p["cur_prefix"].match(n, pos, hi):
        pos = rcur.end()
    rm = _CORE.match(n, pos, hi)
    right = _amount(n, rm, hi, has_cur or rcur is not None) if rm else None
    if right is None or (left.unit, left.currency) not in ((None, None), (right.unit, right.currency)):
        return None  # "5% to 1,000 units" is two facts
    return right if _range_low(left, right) <= right.value else None


def _range_low(left: _Amount, right: _Amount | None) -> Decimal:
    if right is not None and left.factor is None and right.factor is not None:
        if left.value * right.factor <= right.value:
            return left.value * right.factor  # "3-5万": the scale word covers both ends
    return left.value


def _is_bare_year(raw: str) -> bool:
    return len(raw) == 4 and raw.isdigit() and 1900 <= int(raw) <= 2100

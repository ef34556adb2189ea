"""Money after a number: the currency word and what it does to the value.

"15 cents" is $0.15 and "50 cents on the dollar" 50%; "三毛钱" is 0.3 yuan; "两块五" is 2.5 yuan and
"兩蚊三毫五" HK$2.35; "35p" is £0.35; a bare 元 is the local dollar of a text that names only one
(300元 in a text about 新台幣 is NT$300), and in Traditional Chinese that names none, a yuan or
a Taiwan or Hong Kong dollar.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from extractors.chinese_numerals import parse_chinese_number
from extractors.numbers_vocab import BARE_HANT_YUAN, CUR_SUFFIX, phrase_key
from extractors.schema import Fact
from extractors.text import is_cjk

_ON_THE_DOLLAR = re.compile(r"\s+on\s+the\s+dollar\b", re.IGNORECASE)
# Words for "dollars" in the local currency: 300元 is NT$300 in a text that speaks of 新台幣.
_LOCAL_DOLLAR = frozenset({"元", "块", "块钱", "蚊"})
_TENTHS = frozenset({"毛钱", "角钱", "毛"})
_NOT_MONEY = re.compile(r"(?<=毛)[巾重利衣毯绒笔发皮料]")
_DIGIT = "[一二两三四五六七八九1-9]"
# Tenths and hundredths after the yuan: "五角", "三毫五", "二毛钱"; after 块/蚊 also "五", "半".
_MONEY_TAIL = re.compile(rf"(?P<j>{_DIGIT})(?:角|毛|毫)(?:(?P<f>{_DIGIT})分?)?(?:钱|子)?"
                         rf"|(?P<h>半)(?=$|[^\u4e00-\u9fff\d.]|[的钱])|(?P<b>{_DIGIT})(?=$|[^\u4e00-\u9fff\d.]|[的钱])")
# (not "720p", a video resolution: pence stay under 100)
_PENCE = re.compile(r"p(?![A-Za-z0-9])| ?pence\b", re.IGNORECASE)
_TWD_WORDS = re.compile(r"新台币|台币|nt\$|ntd|twd", re.IGNORECASE)
_HKD_WORDS = re.compile(r"港币|港元|hk\$|hkd|蚊", re.IGNORECASE)


def money_after(n: str, cur: re.Match[str] | None, value: Decimal, end: int, hi: int,
                chinese: bool) -> tuple[Decimal, str | None, str | None, int] | None:
    """(value, currency, unit, end) when a currency word follows the number at `end` in the
    normalised text `n` (`cur`: the currency-suffix match there, if any); None otherwise."""
    if cur is not None and not _NOT_MONEY.match(n, cur.end()):
        word = phrase_key(cur.group("c"))
        currency, unit, end = (_local_dollar(n) if word in _LOCAL_DOLLAR else CUR_SUFFIX[word]), None, cur.end()
        if word in ("cents", "cent", "¢"):
            if on := _ON_THE_DOLLAR.match(n, end, hi):
                return value, None, "percent", on.end()  # "50 cents on the dollar" = 50%
            value = value / 100  # "15 cents" = $0.15
        elif word in _TENTHS:
            value = value / 10  # "三毛钱" = 0.3 yuan
        elif word in ("元", "块", "蚊") and (tail := _MONEY_TAIL.match(n, end, hi)) and (tail.group("j") or word != "元"):
            value, end = value + _cents(tail), tail.end()
        return value, currency, unit, end
    if not chinese and value < 100 and (pence := _PENCE.match(n, end, hi)):
        return value / 100, "GBP", None, pence.end()
    return None


def _cents(tail: re.Match[str]) -> Decimal:
    def digit(ch: str) -> Decimal:
        return Decimal(ch) if ch.isdigit() else parse_chinese_number(ch)

    if tail.group("h"):
        return Decimal("0.5")
    if tail.group("b"):
        return digit(tail.group("b")) / 10
    return digit(tail.group("j")) / 10 + (digit(tail.group("f")) / 100 if tail.group("f") else 0)


@lru_cache(maxsize=8)
def _local_dollar(n: str) -> str:
    """The currency a bare 元 means in (normalised) text `n`: TWD or HKD where the text names
    only that one, else CNY."""
    twd, hkd = bool(_TWD_WORDS.search(n)), bool(_HKD_WORDS.search(n))
    return "TWD" if twd and not hkd else "HKD" if hkd and not twd else "CNY"


_NAMED_YUAN = re.compile(r"人民币|rmb|cny|[¥￥]", re.IGNORECASE)


def hant_local_dollar(text: str, n: str, facts: list[Fact]) -> list[Fact]:
    """`facts` with the bare 元 of a Traditional Chinese `text` (`n`: its normalised form) that
    names no currency read as any yuan or dollar of its region (`BARE_HANT_YUAN`), not the
    mainland's yuan only."""
    # (cheapest tests first: this runs on every source sentence, and most hold no yuan at all)
    yuan = [i for i, f in enumerate(facts) if f.kind == "number" and getattr(f.value, "currency", None) == "CNY"]
    if not yuan or text == n or not any(a != b and is_cjk(a) for a, b in zip(text, n)) \
            or _local_dollar(n) != "CNY" or _NAMED_YUAN.search(n):
        return facts
    out = list(facts)
    for i in yuan:
        out[i] = facts[i].model_copy(update={"value": facts[i].value.model_copy(update={"currency": BARE_HANT_YUAN})})
    return out

"""Ordinals with the thing they count: "their sixth lift", "the 2nd child", "第六次", "第二名孩子".

An ordinal is no quantity (the number extractor leaves "6th" out), yet "every fifth lift is free"
against "loyalty card holders get their sixth lift free" is a different value in the same slot.
The slot is the ordinal together with its noun (English) or measure word (Chinese), so that "your
first session" and "the sixth lift" are never compared. `find_ordinals` works on text folded by
`extractors.text.normalise` and lower-cased, as `extractors.qualifiers.find_qualifiers` reads it.
"""

from __future__ import annotations

import re

_EN_WORDS = {"last": "last", "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
             "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12}
_MONTHS = ("january february march april may june july august september october november december "
           "jan feb mar apr jun jul aug sep sept oct nov dec").split()
# Words after an ordinal that are no noun it counts: "first of all", "the 5th of May", "first to arrive".
_NOT_NOUNS = frozenset("of and or to the a an in on at for by is are was be it as than if when so".split()) \
    | frozenset(_MONTHS)
# (after a determiner, so that the adverb is left out: "you should first ask the council")
_EN = re.compile(r"\b(?:the|your|their|his|her|its|our|my|each|every|this|that|whose|a|an)\s+"
                 r"(?:(?P<word>" + "|".join(_EN_WORDS) + r")|(?P<n>\d{1,2})(?:st|nd|rd|th))"
                 r"(?:\s+(?:full|free|paid|extra|additional|consecutive))?\s+(?P<noun>[a-z]+)\b")
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10,
              "十一": 11, "十二": 12}
# Measure words that say what is counted ("第三步" and "第一" alone, "first of all", are left out).
_ZH = re.compile(r"(?:第(?P<n>\d{1,2}|十[一二]?|[一二两三四五六七八九])|(?P<first>首|头))(?:个|個)?"
                 r"(?P<unit>次|名|位|晚|夜|件|份|张|張|节|節|堂|胎|只|隻|辆|輛|间|間|套|单|單|笔|筆|轮|輪|期|周|週|年|月|天|日)"
                 r"(?P<on>起|及以后|及以後|以后|以後|之后|之後|开始|開始)?")
# "the 2nd lift onwards", "第二次起": that one and every one after it.
_EN_ON = re.compile(r"\s*(?:onwards?|and (?:after|later|every one after|subsequent)|or later)\b")


def find_ordinals(folded: str) -> list[tuple[str, str, int, int]]:
    """(slot, value, start, end) for each ordinal of `folded` that counts a named thing; the slot
    names the thing ("ordinal lift", "ordinal 次") and the value is the position ("6", or "2+" for
    "the 2nd onwards", "第二次起")."""
    found: list[tuple[str, str, int, int]] = []
    for m in _EN.finditer(folded):
        noun = m.group("noun")
        if noun in _NOT_NOUNS:
            continue
        n = _EN_WORDS[m.group("word")] if m.group("word") else int(m.group("n"))  # type: ignore[assignment]
        start = m.start("word") if m.group("word") else m.start("n")
        on = "+" if _EN_ON.match(folded, m.end()) else ""
        found.append((f"ordinal {noun.removesuffix('s')}", f"{n}{on}", start, m.end()))
    for m in _ZH.finditer(folded):
        # (首次, 头一回: the first one)
        n = 1 if m.group("first") else int(m.group("n")) if m.group("n").isdigit() else _ZH_DIGITS[m.group("n")]
        found.append((f"ordinal {m.group('unit')}", f"{n}{'+' if m.group('on') else ''}", m.start(), m.end()))
    return found


def ordinals_agree(a: str, b: str) -> bool:
    """Whether two positions agree: the same one, or one inside the other's "N onwards"."""
    def read(v: str) -> tuple[int, bool]:
        return int(v.rstrip("+")), v.endswith("+")

    if not (a.rstrip("+").isdigit() and b.rstrip("+").isdigit()):
        return a == b  # "the last Saturday" is no number
    (x, x_on), (y, y_on) = read(a), read(b)
    return x == y or (x_on and y >= x) or (y_on and x >= y)

"""A span's value that states the claim's in another form: the bound's own number with the
unit left implied ("at least 17" in "must be at least 17 years old"), the edge of a bound the claim
names ("under the 5,000-litre mark"), or the one unit a rate is stated for ("一晚" / "每晚")."""

from __future__ import annotations

import re

from extractors import Claim, Fact
from extractors.text import is_cjk
from verifier.segment import Span


def unit_implied(fact: Fact, span: Span) -> Fact | None:
    """The span's value that states the claim's number, comparator and all, where one side
    leaves the unit implied: "at least 17" in "must be at least 17 years old", "40,000 points"
    in "15,000 points at Category 1 hotels, …, 40,000 at Category 3"."""
    def bare(f: Fact) -> bool:
        return f.value.unit is None and f.value.currency is None  # type: ignore[union-attr]

    def number(f: Fact) -> tuple:
        return f.value.value, f.value.low, f.value.high, f.value.comparator  # type: ignore[union-attr]

    # A single digit coincides too easily ("一张访客停车证" and "1个居民停车泊位").
    if fact.kind != "number" or fact.value.value is not None and abs(fact.value.value) < 10:  # type: ignore[union-attr]
        return None
    return next((o for o in span.facts if o.kind == "number" and bare(o) != bare(fact) and number(o) == number(fact)),
                None)


# "the 5,000-litre mark", "100元门槛": the claim names a bound's edge, not an amount.
_EDGE_WORD = re.compile(r"[\s-]*(?:[a-z]+[\s-]+)?(?:mark|threshold|limit|cap|cut-?off|line)\b|\s*(?:的)?(?:门槛|門檻|线|線)",
                        re.IGNORECASE)


# A bound word a few words before the value it bounds, which the extractor left apart from it:
# "超过每立方米一百五十贝克", "at least stay for 30 minutes".
_BOUND_WORD_BEFORE = {
    "gt": re.compile(r"(?:超过|超過|高于|高於|多于|多於|more than|over|above|exceeds?)[^，,；;。.\d]{0,6}$", re.IGNORECASE),
    "ge": re.compile(r"(?:至少|最少|最低|不少于|不少於|不低于|不低於|at least|a minimum of)[^，,；;。.\d]{0,6}$", re.IGNORECASE),
    "le": re.compile(r"(?:最多|至多|最高|不超过|不超過|up to|at most|no more than)[^，,；;。.\d]{0,6}$", re.IGNORECASE),
    "lt": re.compile(r"(?:不到|低于|低於|少于|少於|less than|under|below)[^，,；;。.\d]{0,6}$", re.IGNORECASE),
}


def edge_named(fact: Fact, same: list[Fact], claim: Claim | None) -> Fact | None:
    """The span's bound whose edge the claim names ("under the 5,000-litre mark" against "more
    than 5,000 litres"), or bounds the same way with a word a few words before the value
    ("超过每立方米一百五十贝克" against "超过150贝克/立方米")."""
    if claim is None or fact.kind != "number" or fact.value.comparator != "eq":  # type: ignore[union-attr]
        return None
    at = fact.end - claim.start
    edge = 0 <= at <= len(claim.text) and _EDGE_WORD.match(claim.text, at) is not None
    before = claim.source_text[: max(0, fact.start - claim.start)]
    return next((o for o in same if o.value.comparator != "eq"  # type: ignore[union-attr]
                 and o.value.value is not None and o.value.value == fact.value.value  # type: ignore[union-attr]
                 and (edge or ((word := _BOUND_WORD_BEFORE.get(o.value.comparator)) is not None  # type: ignore[union-attr]
                               and word.search(before)))), None)


_ONE = re.compile(r"^(?:[一壹]|one|an?)\s*", re.IGNORECASE)


def one_each(fact: Fact, span: Span, claim: Claim | None = None) -> Fact | None:
    """The span's "每晚" / "per night" for a claim's "一晚" / "one night": the one unit a rate is
    stated for ("兌換一晚海景客房需要45,000分" against "海景客房每晚需45,000分"); or "單次" (a single
    one) for one of the same doing ("一次植一千株以上" against "單次植髮達1,000株以上")."""
    q = fact.value
    if fact.kind != "number" or q.value != 1 or q.comparator != "eq" or q.currency or q.per or not q.unit:  # type: ignore[union-attr]
        return None
    word = _ONE.sub("", fact.text)
    if not word or word == fact.text:
        return None
    word = word.removeprefix("个").removeprefix("個") or word  # "一个月" against "每月"
    each = re.escape(word) if word.isascii() else None
    found = re.search(rf"\b(?:per|each|every|a)\s+{each}\b" if each else "每" + re.escape(word), span.text, re.IGNORECASE)
    if found is None and not each and claim is not None:
        doing = claim.source_text[fact.end - claim.start:][:1]  # the verb after "一次": 植
        found = re.search(f"[单單]{re.escape(word)}(?={re.escape(doing)})", span.text) if doing and is_cjk(doing) else None
    if found is None:
        return None
    return fact.model_copy(update={"text": found.group(), "start": span.start + found.start(),
                                   "end": span.start + found.end(), "context": ""})

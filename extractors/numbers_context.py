"""The words that name a number's slot: "restocking fee" in "a restocking fee of $25"."""

from __future__ import annotations

import re

_CLAUSE_ENDS = "。；;！？!?\n"
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+|[\u3400-\u9fff]+")
_EN_STOP = frozenset(
    "the a an is are was were be been being of for to in on at by with within and or as it its this that these "
    "those our your their we you they will can may must should shall up per each every all any no not more less "
    "than about around between while over under from into after before has have had do does total which who is will get gets "
    "got paid pay costs cost set capped limited reached grew rose fell increased decreased up down only just "
    "also still now new".split()
)
_ZH_STOP = re.compile(r"[的了是为在和与及或每个将会可须需应被由对于从到至约共达等其该此本我您你他她它们也都就不超过多少最高低以内上下左右大近元将已按后前给请]+")


def context_words(n: str, start: int, end: int, lo: int = 0) -> str:
    """Slot words before the fact in its clause, normalised.

    Words after `lo` (the previous fact's end) come first; when there are none the fact shares
    the previous one's subject ("Net income rose 4% to $1.2B"), and failing that the words
    right after the fact are used ("3 offices").
    """
    words: list[str] = []
    # "costs £22 for adults and £11 for children": each value's case follows it, and the words
    # between the two are the first value's
    case = _FOR_CASE.match(n, end, min(len(n), end + 40))
    if case:
        between = n[max(lo, start - 40):start]
        between = _FOR_CASE_LEFT.sub("", between) if lo and start - lo < 40 else between
        return " ".join((_slot_words(case.group(1))[:2] + _slot_words(between)[-2:])[:4])
    for floor in (lo, 0):
        left = n[max(floor, start - 40):start]
        words = words or _slot_words(left[max(left.rfind(c) for c in _CLAUSE_ENDS) + 1:])[-3:]
    if not words:
        right = n[end:end + 30]
        cut = min((i for i in (right.find(c) for c in _CLAUSE_ENDS) if i >= 0), default=len(right))
        words = _slot_words(right[:cut])[:2]
    return " ".join(words)


_FOR_CASE = re.compile(r"\s+for\s+(?:the\s+|an?\s+|each\s+|every\s+)?((?:[a-z][a-z'-]+\s+)?[a-z][a-z'-]+)"
                       r"(?=\s+(?:and|or|aged)\b|\s*[,;.)]|$)", re.IGNORECASE)
_FOR_CASE_LEFT = re.compile(r"^\s*for\s+(?:the\s+|an?\s+)?(?:[a-z][a-z'-]+\s+){0,2}?(?:and|or)\s+", re.IGNORECASE)


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _slot_words(s: str) -> list[str]:
    out: list[str] = []
    for w in _WORD.finditer(s):
        word = w.group(0)
        if word.isascii():
            word = word.lower()
            if word not in _EN_STOP:
                out.append(_singular(word))
        else:
            out.extend(piece for piece in _ZH_STOP.split(word) if len(piece) >= 2)
    return out

"""Model input with Chinese numerals and English number words written as digits.

The cross-encoder learned numbers mostly from digits, so "三百元" against "300元" (or "thirty
days" against "30 days") looks like a different amount to it. Inside the number facts the extractor already found (and only
there: 一 is also part of ordinary words), numeral runs are rewritten as digits before the
pair reaches the model. Reports keep the original text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from extractors import Fact
from extractors.chinese_numerals import NUMERAL_CHARS, parse_chinese_number
from extractors.numbers import english_number_words


@lru_cache(maxsize=1)
def _numeral_run() -> re.Pattern[str]:
    return re.compile(f"[{NUMERAL_CHARS}0-9.点]*[{NUMERAL_CHARS}][{NUMERAL_CHARS}0-9.点]*")


def _digits(match: re.Match[str]) -> str:
    value = parse_chinese_number(match.group())
    return match.group() if value is None else format(value.normalize(), "f")


def model_text(text: str, facts: Iterable[Fact]) -> str:
    """`text` with the numerals and number words of its number facts replaced by digits."""
    for fact in facts:
        if fact.kind != "number":
            continue
        rewritten = fact.text
        if any(ch in NUMERAL_CHARS for ch in rewritten):
            rewritten = _numeral_run().sub(_digits, rewritten)
        rewritten = english_number_words(rewritten)
        if rewritten != fact.text:
            text = text.replace(fact.text, rewritten)
    return text

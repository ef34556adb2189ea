"""Offset-preserving text normalisation.

Every helper here returns a string of exactly the same length as its input, so an index
found in the normalised text is also an index into the original. That is what lets the
extractors work on clean text while reporting offsets into what the user wrote.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import opencc

# Characters that look like ASCII in East Asian text; mapped 1:1 so offsets do not move.
_WIDTH_MAP = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}  # full-width ASCII block
_WIDTH_MAP.update(
    {
        0x3000: 0x20,  # ideographic space
        0x00A0: 0x20,  # NBSP
        0x2007: 0x20,
        0x202F: 0x20,
        0x2009: 0x20,
        0x200A: 0x20,
        0x2002: 0x20,
        0x2003: 0x20,
        0x2010: 0x2D,  # hyphen
        0x2011: 0x2D,
        0x2012: 0x2D,
        0x2013: 0x2D,  # en dash
        0x2014: 0x2D,  # em dash
        0x2212: 0x2D,  # minus sign
        0xFE63: 0x2D,
        0x2018: 0x27,
        0x2019: 0x27,
        0x201C: 0x22,
        0x201D: 0x22,
    }
)


def to_halfwidth(text: str) -> str:
    """Full-width digits/letters/punctuation and odd spaces -> ASCII, same length."""
    return text.translate(_WIDTH_MAP)


@lru_cache(maxsize=1)
def _t2s_converter() -> opencc.OpenCC:
    # Cached because building the converter reads dictionaries from disk; it is immutable.
    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional -> Simplified Chinese, guaranteed to keep the length of `text`.

    OpenCC converts phrase by phrase; when a phrase changes length (rare), the text is
    converted character by character instead so that offsets stay valid.
    """
    if not text:
        return text
    converted = _t2s_converter().convert(text)
    if len(converted) == len(text):
        return converted
    out = []
    for ch in text:
        c = _t2s_converter().convert(ch)
        out.append(c if len(c) == 1 else ch)
    return "".join(out)


def normalise(text: str) -> str:
    """Half-width + Simplified: the form every extractor scans. Same length as `text`."""
    return to_simplified(to_halfwidth(text))


_KEY_DROP = re.compile(r"[\s\W_]+", re.UNICODE)


def match_key(text: str) -> str:
    """A key for matching names and codes across case, width, script and punctuation."""
    folded = unicodedata.normalize("NFKC", normalise(text)).casefold()
    return _KEY_DROP.sub("", folded)


def is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0xF900 <= cp <= 0xFAFF or 0x20000 <= cp <= 0x2FA1F

"""Which language a piece of text is in: "en", "zh-Hans", "zh-Hant" or "mixed".

How it decides (cheap enough to run on every claim):

1. Count Chinese characters (each one a unit) and Latin words. Digits, punctuation and
   codes (a token with a digit in it: E7782, BM25, 0.10) count for nothing.
   A title in 《》/「」/『』 counts as one embedded word, so "Please refer to 《差旅制度》"
   stays English (unless the text is nothing but the title).
2. Latin words are grouped into runs: consecutive words with no Chinese character between
   them. A run of fewer than LONG_RUN (4) words inside Chinese is an embedded term
   ("Cross-encoder", "SLA", "refund policy"); a longer run is an English phrase or sentence.
3. English weight = 1.5 x words in long runs + 1.0 x words in short runs; Chinese weight =
   Chinese characters. (An English word carries about as much as 1.5 Chinese characters.)
4. "mixed" when both sides are substantial: at least MIN_SIDE (5) long-run English words
   and 5 Chinese characters, and the smaller side has at least MIXED_SHARE (20%) of the
   weight, counting only long-run English words. Otherwise the heavier side wins; no
   letters at all (empty, digits only) is "en".
5. Chinese is Traditional when more of its characters change under OpenCC t2s than under
   s2t (characters common to both scripts change under neither); ties, including text of
   only common characters, are Simplified.
"""

from __future__ import annotations

import re
from functools import lru_cache

import opencc

from extractors.schema import Language
from extractors.text import to_halfwidth, to_simplified

LONG_RUN = 4
MIN_SIDE = 5
MIXED_SHARE = 0.2
EN_WORD_WEIGHT = 1.5

_TOKEN = re.compile(
    r"(?P<title>[《「『][^《》「」『』\n]{1,40}[》」』])"
    r"|(?P<zh>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]+)"
    r"|(?P<word>[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f0-9]*(?:['\-_.][A-Za-z\u00c0-\u024f0-9]+)*)"
)
_HAS_DIGIT = re.compile(r"\d")


@lru_cache(maxsize=1)
def _s2t() -> opencc.OpenCC:
    # Loading OpenCC dictionaries reads files; the converter itself is immutable.
    return opencc.OpenCC("s2t")


def detect_language(text: str) -> Language:
    """Classify `text`; see the module docstring for the rules and thresholds."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    zh_chars: list[str] = []
    long_words = short_words = run = 0
    titles: list[str] = []
    for m in _TOKEN.finditer(to_halfwidth(text)):
        if m.lastgroup == "title":
            titles.append(m.group())  # a quoted name is a term, in either language
            run += 1
        elif m.lastgroup == "zh":
            zh_chars.append(m.group())
            long_words, short_words = _close_run(run, long_words, short_words)
            run = 0
        elif not _HAS_DIGIT.search(m.group()):
            run += 1
    long_words, short_words = _close_run(run, long_words, short_words)
    chinese = "".join(zh_chars)
    if not chinese and titles and not long_words + short_words - len(titles):
        # Nothing but a title like 《差旅制度》: judge by the title itself.
        return detect_language("".join(t[1:-1] for t in titles))
    zh_weight = len(chinese)
    if zh_weight == 0:
        return "en"
    long_weight = EN_WORD_WEIGHT * long_words
    if (
        long_words >= MIN_SIDE
        and zh_weight >= MIN_SIDE
        and min(long_weight, zh_weight) >= MIXED_SHARE * (long_weight + zh_weight)
    ):
        return "mixed"
    if long_weight + short_words >= zh_weight:
        return "en"
    return _chinese_script(chinese)


def _close_run(run: int, long_words: int, short_words: int) -> tuple[int, int]:
    if run >= LONG_RUN:
        return long_words + run, short_words
    return long_words, short_words + run


def _chinese_script(chinese: str) -> Language:
    simplified = to_simplified(chinese)
    traditional_only = sum(a != b for a, b in zip(chinese, simplified))
    if not traditional_only:
        return "zh-Hans"
    converted = _s2t().convert(chinese)
    if len(converted) != len(chinese):
        converted = "".join(c if len(c := _s2t().convert(ch)) == 1 else ch for ch in chinese)
    simplified_only = sum(a != b for a, b in zip(chinese, converted))
    return "zh-Hant" if traditional_only > simplified_only else "zh-Hans"


def is_chinese(lang: Language) -> bool:
    """True for either Chinese script ("mixed" is not Chinese: it needs both pipelines)."""
    return lang in ("zh-Hans", "zh-Hant")

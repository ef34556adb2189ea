"""Content tokens for lexical matching: English words and Chinese character n-grams.

Used by candidate selection and by the lexical baseline scorer, so both see text the same
way. Chinese has no spaces, so it is matched on character bigrams (plus single characters
for one-character words); Traditional text is folded to Simplified first.
"""

from __future__ import annotations

from functools import lru_cache

import re

from extractors.text import normalise

_WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")

# Function words (and contraction tails: you'll, we're) carry no evidence; dropping them keeps recall about content.
_EN_STOP = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being this that
    these those it its it's their there they them he she his her we our you your i me my do does did done
    have has had having will would can could should may might must shall not no yes so than then too very
    which who whom whose what when where why how also just only into onto about over under up down out
    per each any all some such other more most own same both either neither nor s t ll re ve d m""".split()
)
_ZH_STOP = frozenset("的了是在和与及或也就都而且并把被对于为以其之个这那有")
_PAIRED = frozenset("一两二三四五六七八九十几每")

# Hong Kong answers are often Cantonese over written-Chinese sources ("揀特快" for "选特快服务"):
# the common Cantonese words, in Simplified (text is folded first), read as their written forms.
_CANTONESE = {"搞掂": "完成", "几多": "多少", "拣": "选", "帮手搞": "协助办理", "帮手": "协助",
              # and an answer's everyday Mandarin for a policy's written words ("客户不能自己操作" for
              # "客户……不得自行操作")
              "不能": "不得", "不可以": "不得", "自己": "自行",
              # and the ways a policy forbids ("洞里不能开闪光灯" / "洞内禁止使用闪光灯")
              "禁止": "不得", "严禁": "不得", "不准": "不得", "不许": "不得",
              # and lending a card on ("不能借给朋友" / "不得转借")
              "借给": "转借", "外借": "转借", "借别人": "转借",
              # and going along with someone ("需要你陪着" / "须由家长陪同"), and the next day
              "陪着": "陪同", "第二天": "次日", "隔天": "次日", "第二日": "次日", "隔日": "次日",
              "明天": "次日", "明日": "次日"}
_CANTONESE_WORD = re.compile("|".join(sorted(_CANTONESE, key=len, reverse=True)))


# What's left to pay, however an answer words it ("the rest on completion" for "the balance is due").
_EN_SAME = {"rest": "balance", "remainder": "balance"}


def _stem(word: str) -> str:
    # A light suffix strip: enough for "refunds"/"refund", "policies"/"policy", "processed"/"process".
    if len(word) <= 3 or word[-1].isdigit():
        return word
    if word.endswith("ies") or word.endswith("ied") and len(word) > 5:  # "carried"/"carries"/"carry"
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):  # "inches"/"19-inch", "taxes"/"tax"
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    for suffix in ("able", "ing", "ed"):  # "refundable"/"refunded"/"refund"
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content_tokens(text: str) -> list[str]:
    """Lower-cased, stemmed English content words and Chinese character bigrams, in order."""
    return list(_content_tokens(text))


def clear_token_cache() -> None:
    """Forget cached tokens (benchmarks time each answer as if its text were new)."""
    _content_tokens.cache_clear()


@lru_cache(maxsize=8192)
def _content_tokens(text: str) -> tuple[str, ...]:
    # The verdict asks for the same claim's and span's tokens many times over.
    tokens: list[str] = []
    for match in _WORD.finditer(_CANTONESE_WORD.sub(lambda m: _CANTONESE[m.group()], normalise(text).lower())):
        piece = match.group()
        if piece[0] >= "\u3400":
            # (对 after a numeral is a pair, "一对198元", not the preposition of "对会员免费")
            chars = [c for i, c in enumerate(piece) if c not in _ZH_STOP or c == "对" and i and piece[i - 1] in _PAIRED]
            if len(chars) == 1:
                tokens.append(chars[0])
            tokens.extend(a + b for a, b in zip(chars, chars[1:]))
        elif piece not in _EN_STOP:
            tokens.append(_stem(_EN_SAME.get(piece, piece)))
    return tuple(tokens)


def token_recall(claim: str, evidence: str) -> float:
    """Share of the claim's distinct content tokens that also occur in the evidence."""
    wanted = set(content_tokens(claim))
    if not wanted:
        return 0.0
    return len(wanted & set(content_tokens(evidence))) / len(wanted)

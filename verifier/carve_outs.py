"""A rule for everyone with an exception that the claim's own case falls under.

"所有课程均含画材，但国画课的毛笔和宣纸需自备" includes materials in every course but the one the
claim names, so "国画课的画材都包含在学费里" says the opposite of the sentence a model reads as its
support: the claim shares the general rule's words and the exception's topic, and affirms what
the exception takes away. Only an exception that charges or asks for something the rule gives
counts (self-supplied, charged extra, not included); an exception worded any other way is left
to the model.
"""

from __future__ import annotations

import re

from extractors import Claim
from extractors.qualifiers import is_negated, sentences
from extractors.text import normalise
from extractors.tokens import content_tokens

_EXCEPT = re.compile(r"[，,；;]\s*(?:但是?|不过|不過|惟|唯)|[，,；;]\s*(?:but|however)\b|"
                     r"\b(?:except(?:\s+for|\s+that)?|excluding|apart from|other than)\b", re.IGNORECASE)
_UNIVERSAL = re.compile(r"所有|全部|一律|均|\b(?:all|every|each)\b", re.IGNORECASE)
_GIVEN = re.compile(r"含|包括|包在|免费|\b(?:includes?|included|including|free|covered|provided)\b", re.IGNORECASE)
_TAKEN = re.compile(r"自备|自理|自带|自行(?:准备|购买|携带|负担)|另收|另付|另计|不含|不包括|不包含|"
                    r"\b(?:bring (?:their|your|his|her) own|not included|excluded|(?:charged|pay|paid|cost) extra|"
                    r"at (?:an )?extra (?:cost|charge))\b", re.IGNORECASE)
# What a claim that says "no need to" waives: "不用自己准备", "no need to bring".
_NEED = re.compile(r"准备|自备|自带|带|买|付|交|\b(?:bring|buy|pay|supply)\b", re.IGNORECASE)


def carved_out(claim: Claim, span_text: str) -> bool:
    """Whether a sentence of the span gives something to all but an exception that names the
    claim's case, and the claim says its case gets it too."""
    text = normalise(claim.text)
    negated = is_negated(text)
    if not ((_GIVEN.search(text) and not negated) or (negated and _NEED.search(text))):
        return False
    if _TAKEN.search(text) and not negated:
        return False  # the claim states the exception itself
    mine = frozenset(content_tokens(claim.text))
    for a, b in sentences(span_text):
        sentence = normalise(span_text[a:b])
        cut = _EXCEPT.search(sentence)
        if cut is None:
            continue
        general, exception = sentence[:cut.start()], sentence[cut.end():]
        if not (_UNIVERSAL.search(general) and _GIVEN.search(general) and _TAKEN.search(exception)):
            continue
        rule, carved = frozenset(content_tokens(general)), frozenset(content_tokens(exception))
        if mine & (carved - rule) and mine & rule:
            return True
    return False

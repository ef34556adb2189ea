"""Values a source lists under labels: "主办单位：杭州映像文化传媒有限公司；票务总代理：乐途票务".

An answer that gives one label's value for another ("主办单位是乐途票务") has every word in the
source, and no entity tagger marks such names, so the label list is read directly: when the
claim names a label, leaves out that label's value and states another label's value instead,
that value is a mismatch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors import Claim, Fact
from extractors.schema import EntityValue
from extractors.text import match_key, normalise
from verifier.candidates import Candidate

# A short label, a colon, and its value up to the next ；/;/。 ("Organiser: Harbour Events Ltd;").
_LABELLED = re.compile(r"(?:^|(?<=[；;。.\s]))([A-Za-z][A-Za-z ]{1,24}|[^\s：:；;。，,.]{2,12})\s*[：:]\s*"
                       r"((?:[^；;。\n.]|\.(?!\s|$))+)")
# Values shorter than this (after folding) are too common to tell anything ("是", "Yes").
_MIN_KEY = 3


@dataclass(frozen=True)
class SwappedLabel:
    fact: Fact  # the value as the claim states it (an ORG entity at its offsets in the answer)
    label: str  # the label the claim names
    value: str  # what the source lists under that label
    source_id: str


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(m.group(1).strip().casefold(), m.group(2).strip()) for m in _LABELLED.finditer(normalise(text))]


def swapped_label(claim: Claim, ranked: list[Candidate]) -> SwappedLabel | None:
    """The first span (most relevant first) where the claim names a label and states another
    label's value in place of that label's own; None when there is none."""
    said = normalise(claim.source_text).casefold()
    named = normalise(claim.text).casefold()
    for cand in ranked:
        if "：" not in cand.span.text and ":" not in cand.span.text:
            continue  # most sentences list nothing; skip normalising them
        pairs = _pairs(cand.span.text)
        for label, value in pairs:
            if label not in named or match_key(value) in match_key(claim.text):
                continue
            for other_label, other_value in pairs:
                key = match_key(other_value)
                at = said.find(normalise(other_value).casefold())
                if other_label == label or other_label in named or len(key) < _MIN_KEY or at < 0:
                    continue
                text = claim.source_text[at : at + len(other_value)]
                fact = Fact(kind="entity", text=text, start=claim.start + at, end=claim.start + at + len(text),
                            value=EntityValue(label="ORG", key=key))
                return SwappedLabel(fact, label, value, cand.span.source_id)
    return None

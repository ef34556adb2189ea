"""What the first phase of `Verifier` hands to the model and to the last phase: an answer's
claims, its segmented sources, each claim's candidate spans, and the (evidence, claim) pairs the
model reads. A followup (`verifier.resplit`) is a PreparedAnswer too, with the scores the first
pass already has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from extractors import Claim, Fact
from models import NLIScores, Pair
from verifier.candidates import Candidate
from verifier.canonical import claim_for_span, model_pair
from verifier.schema import VerifyRequest
from verifier.segment import SegmentedSource


@dataclass
class PreparedAnswer:
    request: VerifyRequest
    language: str
    claims: list[Claim]
    sources: list[SegmentedSource]
    candidates: list[list[Candidate]]
    workings: list[list[str]]  # per claim, the sums it works out (`verifier.arithmetic.working`)
    timing_ms: dict[str, float] = field(default_factory=dict)
    # per claim, how the model reads a claim that prices units at a source's rate (`per_unit_reading`)
    readings: list[str | None] = field(default_factory=list)
    _pairs: list[Pair] | None = field(default=None, repr=False)
    # Set by `Verifier.finish` when contradicted claims are to be read again in pieces.
    followup: PreparedAnswer | None = field(default=None, repr=False)
    # On a followup: per claim of the first pass, its index here and the indices of its pieces;
    # and the scores of the pairs the first pass read.
    groups: list[tuple[int, list[int]]] | None = field(default=None, repr=False)
    known: dict[Pair, NLIScores] = field(default_factory=dict, repr=False)

    def unscored(self) -> list[Pair]:
        """The pairs of a followup that the first pass did not score, each once."""
        return list(dict.fromkeys(x for x in self.pairs() if x not in self.known))

    def all_scores(self, new: Sequence[NLIScores]) -> list[NLIScores]:
        """Scores for every pair of a followup, given `new` for `unscored()`."""
        known = {**self.known, **dict(zip(self.unscored(), new))}
        return [known[x] for x in self.pairs()]

    def subset(self, indices: list[int]) -> PreparedAnswer:
        """This answer with only the claims at `indices`, in that order."""
        return PreparedAnswer(self.request, self.language, [self.claims[k] for k in indices], self.sources,
                              [self.candidates[k] for k in indices], [self.workings[k] for k in indices],
                              self.timing_ms, [self.readings[k] for k in indices] if self.readings else [])

    def pairs(self) -> list[Pair]:
        """(evidence, claim) for every candidate, as the model reads them; for a claim cut from a
        longer sentence, (evidence, whole sentence) right after each."""
        if self._pairs is not None:
            return self._pairs
        out = []
        # The whole sentence is read with the values of all its parts in the span's words: "一个半
        # 小时" belongs to the first part but is in the sentence the third part is scored with too.
        sentence_facts: dict[str, dict[tuple[int, int], Fact]] = {}
        for claim in self.claims:
            if claim.sentence:
                sentence_facts.setdefault(claim.sentence, {}).update({(f.start, f.end): f for f in claim.facts})
        for i, (claim, cands, pieces) in enumerate(zip(self.claims, self.candidates, self.workings)):
            text, sentence = _without_working(claim, pieces)
            text = self.readings[i] if self.readings and self.readings[i] else text
            for c in cands:
                evidence, hypothesis = model_pair(c.span, text, claim.facts)
                out.append((evidence, hypothesis))
                if claim.sentence:
                    facts = list(sentence_facts[claim.sentence].values())
                    out.append((evidence, claim_for_span(sentence, facts, c.span.facts, c.span.text)))
        self._pairs = out
        return out

    def rival_pairs(self) -> list[bool]:
        """For each of `pairs()`, whether it reads a rival source's sentence (`SpanIndex._rivals`)."""
        return [c.rival for claim, cands in zip(self.claims, self.candidates) for c in cands
                for _ in range(2 if claim.sentence else 1)]


def _without_working(claim: Claim, pieces: list[str]) -> tuple[str, str]:
    """The claim and its sentence as the model reads them: without the sums the fact check
    works out (`pieces`, from `verifier.arithmetic.working`)."""
    text, sentence = claim.text, claim.sentence
    for piece in pieces:
        # (a claim that is only the sum keeps it)
        text, sentence = (cut if len(_WORDLIKE.findall(cut)) >= _MIN_LEFT else whole
                          for whole in (text, sentence) for cut in [whole.replace(piece, "", 1)])
    return text, sentence


def only_sum(claim: Claim, pieces: list[str]) -> bool:
    """Whether the claim is nothing but the sums it works out (`pieces`): "三台加起来440元",
    "平均每节三百二十元". The model, which cannot add, has nothing else to judge, and the claim's
    own words find no source."""
    text = claim.text
    for piece in pieces:
        text = text.replace(piece, "", 1)
    return text != claim.text and len(_WORDLIKE.findall(text)) < _MIN_LEFT


_WORDLIKE = re.compile(r"[A-Za-z]+|[\u4e00-\u9fff]|\d+")
_MIN_LEFT = 4


def per_claim(prepared: PreparedAnswer, scores: Sequence[NLIScores]) -> list[list[NLIScores]]:
    """`scores` (for `prepared.pairs()`) cut into each claim's own."""
    out, at = [], 0
    for claim, cands in zip(prepared.claims, prepared.candidates):
        n = len(cands) * (2 if claim.sentence else 1)
        out.append(list(scores[at : at + n]))
        at += n
    return out

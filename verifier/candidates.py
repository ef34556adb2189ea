"""For each claim, the few most promising source spans: never an all-pairs sweep.

Spans are ranked by idf-weighted overlap of content tokens (words; character bigrams for
Chinese) through an inverted index, so cost grows with the claim's tokens, not with the
length of the documents. Sentences sharing a fact with the claim and sources the claim
cites get a bonus. The best sentences are then widened into 2-3 sentence windows, because
a claim often rests on a sentence and its neighbour.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

from extractors import Claim, Fact
from extractors.compare import compare_facts, same_dimension, same_slot
from extractors.tokens import content_tokens
from verifier.segment import SegmentedSource, Span

CITED_BONUS = 0.15
FACT_BONUS = 0.2
# A left-out source's sentence is a rival only when it is about the claim this much (fact bonus included).
RIVAL_MIN_SCORE = 0.45


@dataclass(frozen=True)
class Candidate:
    span: Span
    relevance: float  # 0..1, lexical: share of the claim's (idf-weighted) tokens found in the span
    source_index: int
    rival: bool = False  # looked at only for conflicts between sources (`SpanIndex._rivals`)


class SpanIndex:
    """An inverted index over every sentence of one answer's sources."""

    def __init__(self, sources: list[SegmentedSource]) -> None:
        self.sources = sources
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        total = 0
        for si, seg in enumerate(sources):
            for sj, span in enumerate(seg.sentences):
                total += 1
                for token in span.tokens:
                    self.postings[token].append((si, sj))
        self.total = max(total, 1)

    def idf(self, token: str) -> float:
        return math.log(1 + self.total / (1 + len(self.postings.get(token, ()))))

    def candidates(self, claim: Claim, *, top_sentences: int = 3, top_windows: int = 1,
                   words_from: str | None = None, operands: Sequence[Fact] = ()) -> list[Candidate]:
        """`words_from`: the text whose words find the spans, when not the claim's own.
        `operands`: the amounts a sum the claim works out is worked out from; the sentences
        stating them rank higher, as the claim's own words may name only one of them."""
        # dict, not set: a fixed summation order keeps scores identical across processes.
        tokens = dict.fromkeys(content_tokens(words_from or claim.text))
        weights = {t: self.idf(t) for t in tokens}
        norm = sum(weights.values()) or 1.0
        scores: dict[tuple[int, int], float] = defaultdict(float)
        for token, weight in weights.items():
            for key in self.postings.get(token, ()):
                scores[key] += weight / norm
        cited = cited_sources(claim, self.sources)
        for key in list(scores):
            si, sj = key
            span = self.sources[si].sentences[sj]
            if si in cited:
                scores[key] += CITED_BONUS
            if _shares_fact(claim, span):
                scores[key] += FACT_BONUS
            if _states_operand(operands, span):
                scores[key] += FACT_BONUS
        # Sentences with a same-slot fact but no word overlap still matter (e.g. a table row), as
        # do those stating an amount of the claim's sum.
        if claim.facts:
            for si, seg in enumerate(self.sources):
                for sj, span in enumerate(seg.sentences):
                    if (si, sj) not in scores and (_shares_fact(claim, span) or _states_operand(operands, span)):
                        scores[(si, sj)] = FACT_BONUS + (CITED_BONUS if si in cited else 0.0)
        ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        ranked = ordered[:top_sentences]
        out = [Candidate(self.sources[si].sentences[sj], min(score, 1.0), si) for (si, sj), score in ranked]
        out += self._rivals(claim, ordered, {si for (si, _), _ in ranked})
        for (si, sj), score in ranked[:top_windows]:
            seg = self.sources[si]
            if len(seg.sentences) > 1:
                window = seg.window(sj - 1, sj + 1)
                out.append(Candidate(window, min(score, 1.0), si))
        return out

    def _rivals(self, claim: Claim, ordered: list, covered: set[int]) -> list[Candidate]:
        """The best sentence of each source the top ranks leave out, where it gives the claim's
        slot a value: a help page saying $2,350 where the cited policy says $2,450 must be
        looked at, or the two sources' disagreement goes unseen. The sentence must also repeat
        another value of the top sentence ("short communications $1,200" in both): then the two
        give the same schedule, and their different values for the claim's slot disagree."""
        if not ordered:
            return []
        (ti, tj), _ = ordered[0]
        others = [f for f in self.sources[ti].sentences[tj].facts if f.kind == "number"
                  and not any(compare_facts(c, f) == "equal" for c in claim.facts if c.kind == "number")]
        out = []
        for (si, sj), score in ordered:
            span = self.sources[si].sentences[sj]
            if si not in covered and score >= RIVAL_MIN_SCORE and _shares_dimension(claim, span) \
                    and any(compare_facts(o, f) == "equal" for o in others for f in span.facts if f.kind == "number"):
                covered.add(si)
                out.append(Candidate(span, min(score, 1.0), si, rival=True))
        return out


def _shares_dimension(claim: Claim, span: Span) -> bool:
    return any(same_dimension(a, b) for a in claim.facts if a.kind in ("number", "date") for b in span.facts)


def _states_operand(operands: Sequence[Fact], span: Span) -> bool:
    return any(compare_facts(o, f) == "equal" for o in operands for f in span.facts if f.kind == "number")


def _shares_fact(claim: Claim, span: Span) -> bool:
    return any(same_slot(a, b) for a in claim.facts if a.kind in ("number", "date") for b in span.facts)


def cited_sources(claim: Claim, sources: list[SegmentedSource]) -> set[int]:
    """Indices of sources a claim cites: by id ("S2" -> id "S2") or by 1-based position ("1")."""
    found = set()
    ids = {seg.source.id: i for i, seg in enumerate(sources)}
    for marker in claim.citations:
        if marker in ids:
            found.add(ids[marker])
        elif marker.isdigit() and 1 <= int(marker) <= len(sources):
            found.add(int(marker) - 1)
        elif marker.lstrip("Ss").isdigit() and 1 <= int(marker.lstrip("Ss")) <= len(sources):
            found.add(int(marker.lstrip("Ss")) - 1)
    return found

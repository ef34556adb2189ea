"""Every number, date and name in a claim must be found in the evidence.

A same-slot fact with another value in relevant evidence is a mismatch (the claim is then
contradicted, and both values are reported); a fact found nowhere is missing (the claim is
then at most partial). Tolerances come from `compare_facts`: formats and scripts,
granularity and explicit approximations only.
"""

from __future__ import annotations

from dataclasses import dataclass

from extractors import Claim, Fact
from extractors.compare import compare_facts, same_slot
from extractors.text import match_key, normalise
from verifier.candidates import Candidate
from verifier.schema import FactCheck


@dataclass(frozen=True)
class FactResult:
    fact: Fact
    status: str  # matched | mismatched | missing
    evidence: Fact | None = None  # the source's fact for this slot
    evidence_text: str | None = None
    source_id: str | None = None

    def to_report(self) -> FactCheck:
        return FactCheck(
            kind=self.fact.kind,
            text=self.fact.text,
            start=self.fact.start,
            end=self.fact.end,
            value=self.fact.value.model_dump(mode="json", exclude={"type"}),
            status=self.status,  # type: ignore[arg-type]
            evidence_text=self.evidence_text,
            source_id=self.source_id,
        )


def check_facts(claim: Claim, candidates: list[Candidate], *, min_relevance: float) -> list[FactResult]:
    """Check each fact of `claim` against the candidate spans, most relevant first."""
    ranked = sorted(candidates, key=lambda c: -c.relevance)
    return [_check_one(fact, ranked, min_relevance) for fact in claim.facts]


def _check_one(fact: Fact, ranked: list[Candidate], min_relevance: float) -> FactResult:
    if fact.kind in ("entity", "identifier"):
        return _check_name(fact, ranked)
    mismatch: FactResult | None = None
    for cand in ranked:
        for other in cand.span.facts:
            if not same_slot(fact, other):
                continue
            if compare_facts(fact, other) != "different":
                return FactResult(fact, "matched", other, other.text, cand.span.source_id)
            if mismatch is None and cand.relevance >= min_relevance:
                mismatch = FactResult(fact, "mismatched", other, other.text, cand.span.source_id)
    return mismatch or FactResult(fact, "missing")


def _check_name(fact: Fact, ranked: list[Candidate]) -> FactResult:
    """Names and codes match on their key (case, width, script and punctuation folded)."""
    key = match_key(fact.text)
    needle = normalise(fact.text).casefold()
    for cand in ranked:
        if key and key in match_key(cand.span.text):
            at = normalise(cand.span.text).casefold().find(needle)
            quoted = cand.span.text[at : at + len(needle)] if at >= 0 else fact.text
            return FactResult(fact, "matched", None, quoted, cand.span.source_id)
    return FactResult(fact, "missing")

"""Sources that disagree about what a claim states.

Two current sources (active, in force at `as_of`) that give different values for the slot
a claim fills, or one that supports the claim while another contradicts it, are a
conflict: shown, never resolved silently. When one of the two is not current (superseded,
draft, expired, not yet in force), or both are current but one took effect later, the
conflict is still listed, with the winner and why.
"""

from __future__ import annotations

from extractors import Claim, Fact
from extractors.compare import compare_facts, describe, same_slot
from verifier.schema import Conflict
from verifier.segment import SegmentedSource
from verifier.verdict import ScoredCandidate, Thresholds


def claim_conflicts(
    claim_id: str,
    claim: Claim,
    scored: list[ScoredCandidate],
    sources: list[SegmentedSource],
    thresholds: Thresholds,
) -> list[Conflict]:
    relevant = [s for s in scored if s.candidate.relevance >= thresholds.relevance]
    conflicts: list[Conflict] = []
    seen: set[tuple[str, str, str]] = set()
    for fact in claim.facts:
        if fact.kind not in ("number", "date"):
            continue
        # The first same-slot value each source gives, most relevant span first.
        per_source: dict[int, Fact] = {}
        for s in sorted(relevant, key=lambda s: -s.candidate.relevance):
            for other in s.candidate.span.facts:
                if same_slot(fact, other) and s.candidate.source_index not in per_source:
                    per_source[s.candidate.source_index] = other
        items = sorted(per_source.items())
        for i, (ia, fa) in enumerate(items):
            for ib, fb in items[i + 1 :]:
                if compare_facts(fa, fb) != "different":
                    continue
                key = (sources[ia].source.id, sources[ib].source.id, fact.text)
                if key in seen:
                    continue
                seen.add(key)
                conflicts.append(_conflict(sources[ia], sources[ib], f"{claim_id}: {fact.text}",
                                           [describe(fa), describe(fb)], "different values for the same slot"))
    supports = [s for s in relevant if s.current and s.scores.entailment >= thresholds.support]
    contradicts = [s for s in relevant if s.current and s.scores.contradiction >= thresholds.contradict]
    for a in supports[:1]:
        for b in contradicts[:1]:
            if a.candidate.source_index != b.candidate.source_index:
                conflicts.append(_conflict(sources[a.candidate.source_index], sources[b.candidate.source_index],
                                           claim_id, [a.candidate.span.text, b.candidate.span.text],
                                           "one source supports the claim, the other contradicts it"))
    return conflicts


def _conflict(a: SegmentedSource, b: SegmentedSource, slot: str, values: list[str], issue: str) -> Conflict:
    winner, why = _winner(a, b)
    if winner:
        issue = f"{issue}; {winner} wins: {why}"
    return Conflict(source_a=a.source.id, source_b=b.source.id, slot=slot, values=values, issue=issue, winner=winner)


def _winner(a: SegmentedSource, b: SegmentedSource) -> tuple[str | None, str]:
    if a.current != b.current:
        current, stale = (a, b) if a.current else (b, a)
        return current.source.id, f"{stale.source.id} is {stale.not_current_because}"
    if a.current and b.current:
        fa, fb = a.source.metadata.effective_from, b.source.metadata.effective_from
        if fa and fb and fa != fb:
            newer, older = (a, b) if fa > fb else (b, a)
            return newer.source.id, (f"it took effect on {newer.source.metadata.effective_from}, after "
                                     f"{older.source.id} ({older.source.metadata.effective_from})")
    return None, ""


def unresolved(conflicts: list[Conflict]) -> list[Conflict]:
    return [c for c in conflicts if c.winner is None]

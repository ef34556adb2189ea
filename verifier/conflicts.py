"""Sources that disagree about what a claim states.

Two current sources (active, in force at `as_of`) that give different values for the slot
a claim fills, or one that supports the claim while another contradicts it, are a
conflict: shown, never resolved silently. When one of the two is not current (superseded,
draft, expired, not yet in force), the conflict is still listed, with the winner and why.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from extractors import Claim, Fact
from extractors.compare import compare_facts, same_dimension
from extractors.qualifiers import clause_at
from extractors.tokens import content_tokens
from verifier.date_match import as_stated
from verifier.history import sentence_parts
from verifier.factcheck import check_fact, clause_shares_words, stated_by_claim
from verifier.schema import Conflict
from verifier.segment import SegmentedSource, Span
from verifier.verdict import ScoredCandidate, Thresholds

# A source states a value for the claim's slot only where it is about the claim's statement:
# a fee schedule that mentions "within 60 days" of account opening says nothing about how long
# a transfer takes to post. Real disagreements (the same rule, two values) score well above,
# or the model reads the source as saying the claim (or as contradicting it, `_contradicting_value`).
CONFLICT_MIN_RELEVANCE = 0.5


def claim_conflicts(
    claim_id: str,
    claim: Claim,
    scored: list[ScoredCandidate],
    sources: list[SegmentedSource],
    thresholds: Thresholds,
) -> list[Conflict]:
    relevant = [s for s in scored if s.candidate.relevance >= thresholds.relevance and not s.candidate.rival]
    conflicts: list[Conflict] = []
    by_source: dict[int, list[ScoredCandidate]] = {}
    for s in scored:
        by_source.setdefault(s.candidate.source_index, []).append(s)
    for fact in claim.facts:
        if fact.kind not in ("number", "date"):
            continue
        # What each source says for this slot, judged exactly as the fact check judges it.
        said: dict[int, Fact] = {}
        for index, found in sorted(by_source.items()):
            cands = sorted((s.candidate for s in found), key=lambda c: -c.relevance)
            # (a source only a rival sentence speaks for disagrees only where the model reads it so)
            if not cands[0].rival and (cands[0].relevance >= CONFLICT_MIN_RELEVANCE or any(
                    s.scores.entailment >= thresholds.support for s in found)):
                result = check_fact(fact, cands, thresholds.relevance)
                value = result.evidence if result.evidence is not None else _same_rule_value(fact, claim, found)
                if value is not None and not stated_by_claim(value, fact, claim):
                    said[index] = value
            elif (other := _contradicting_value(fact, claim, found, thresholds) or _same_rule_value(fact, claim, found)) \
                    is not None and not stated_by_claim(other, fact, claim):
                said[index] = other
        if len(said) == 1:
            # (a terse price list's entry, "Wedding ceremony: £725", is worded too little for the
            # claim's rule; it is read against the clause the other source states the value in)
            (index, value), = said.items()
            anchor = frozenset(content_tokens(clause_at(sources[index].source.text, value.start)))
            # (or named by the source's title or first sentence, if that names one entry only:
            # "Harbour Leisure runs the National Pool Lifeguard Qualification …  The fee is £295")
            # (a price list is worded too little to be a candidate for "It costs £295": all its
            # sentences are read)
            named = anchor | frozenset(content_tokens(_heading(sources[index])))
            for other_index, other_source in enumerate(sources):
                if other_index == index:
                    continue
                found = [s.candidate.span for s in by_source.get(other_index, []) if not s.candidate.rival]
                listed = _listed_value(fact, anchor, found) or _listed_value(fact, named, other_source.sentences,
                                                                             only=True) \
                    or _same_condition_value(fact, claim, by_source.get(index, []), other_source, thresholds)
                if listed is not None:
                    said[other_index] = listed
        items = sorted(said.items())
        for i, (ia, fa) in enumerate(items):
            for ib, fb in items[i + 1 :]:
                # Either order for amounts: a narrower range fits a wider one only as a claim does.
                # (dates as the sources state them: "in June" of every year is no other year's June)
                both = (compare_facts(fa, fb), compare_facts(fb, fa)) if fa.kind == "number" else \
                    (compare_facts(as_stated(fa), as_stated(fb)),)
                if "different" in both:
                    conflicts.append(_conflict(sources[ia], sources[ib], f"{claim_id}: {fact.text}",
                                               [fa.text, fb.text], "different values for the same slot"))
    supports = [s for s in relevant if s.current and s.scores.entailment >= thresholds.support]
    contradicts = [s for s in relevant if s.current and s.scores.contradiction >= thresholds.contradict]
    supporting = {s.candidate.source_index for s in supports}
    for a in supports[:1]:
        for b in contradicts[:1]:
            # (a source one of whose sentences supports the claim does not disagree with it, whatever
            # the model reads in another of its pairs)
            if a.candidate.source_index != b.candidate.source_index and b.candidate.source_index not in supporting:
                conflicts.append(_conflict(sources[a.candidate.source_index], sources[b.candidate.source_index],
                                           claim_id, [a.candidate.span.text, b.candidate.span.text],
                                           "one source supports the claim, the other contradicts it"))
    return conflicts


def _contradicting_value(fact: Fact, claim: Claim, found: list[ScoredCandidate], thresholds: Thresholds
                         ) -> Fact | None:
    """The value a source that is not mainly about the claim gives for its slot, when the model
    reads the sentence as contradicting the claim and the value's clause shares the claim's
    words: "We hold a $300 security deposit on your card" against "a $500 refundable security
    deposit at check-in", in a second source about something else."""
    words = frozenset(content_tokens(claim.text)) - frozenset(content_tokens(fact.text))
    for s in found:
        if s.scores.contradiction < thresholds.contradict:
            continue
        span = s.candidate.span
        for other in span.facts:
            if other.kind == fact.kind and same_dimension(fact, other) and clause_shares_words(other, span, words) \
                    and "different" in (
                    compare_facts(fact, other), compare_facts(other, fact)):
                return other
    return None


# A clause that repeats this much of the claim's wording states the claim's rule.
SAME_RULE_RECALL = 0.6
SAME_RULE_WORDS = 3


def _same_rule_value(fact: Fact, claim: Claim, found: list[ScoredCandidate]) -> Fact | None:
    """The value a source gives in a clause that words the claim's rule itself, however the
    model reads it: "This month our #1 bare bright copper price is $3.15 per lb" against
    "Cascade is paying $3.40 per lb for #1 bare bright copper". The claim's rule is the clause
    that holds the value: "A standard pitch costs £32 per market, and the market runs every
    Saturday" words the pitch fee's rule in its first clause."""
    clause = clause_at(claim.source_text, fact.start - claim.start)
    words = frozenset(content_tokens(clause)) - frozenset(content_tokens(fact.text))
    if len(words) < SAME_RULE_WORDS:
        return None
    for span, other in _other_values(fact, [s.candidate.span for s in found if not s.candidate.rival]):
        shared = frozenset(content_tokens(span.text[slice(*span.clause_of(other))])) & words
        if len(shared) >= SAME_RULE_WORDS and len(shared) >= SAME_RULE_RECALL * len(words):
            return other
    return None


def _other_values(fact: Fact, spans: Iterable[Span]) -> Iterator[tuple[Span, Fact]]:
    """(span, value) for each value of the claim's dimension that differs from `fact`, in the
    spans of one source."""
    for span in spans:
        for other in span.facts:
            if other.kind == fact.kind and same_dimension(fact, other) and "different" in (
                    compare_facts(fact, other), compare_facts(other, fact)):
                yield span, other


# "Wedding ceremony: £725", "Vow renewal - £450": an entry of a list of prices, its label first
_LIST_ENTRY = re.compile(r"^\s*(?P<label>[^\W\d][\w' -]{2,40}?)\s*[:：\-–—]\s*$")
_LIST_LABEL_WORDS = (2, 4)


def _listed_value(fact: Fact, anchor: frozenset[str], spans: Iterable[Span], only: bool = False
                  ) -> Fact | None:
    """The value a source lists for the claim's slot under a short label every word of which is
    in `anchor` (the words of the clause where another source states the claim's value):
    "Wedding ceremony: £725" against "A Willowbrook wedding ceremony led by one of our celebrants
    costs £650". `only`: None unless that label is the list's one such label."""
    listed: dict[tuple[int, int], Fact] = {}
    for span, other in _other_values(fact, spans):
        start, end = span.clause_of(other)
        entry = _LIST_ENTRY.match(span.text[start:other.start - span.start])
        if entry is None or span.text[other.end - span.start:end].strip():
            continue
        words = frozenset(content_tokens(entry.group("label")))
        if _LIST_LABEL_WORDS[0] <= len(words) <= _LIST_LABEL_WORDS[1] and words <= anchor:
            if not only:
                return other
            listed.setdefault((span.start + start, span.start + end), other)
    return next(iter(listed.values())) if len(listed) == 1 else None


def _same_condition_value(fact: Fact, claim: Claim, found: list[ScoredCandidate], other: SegmentedSource,
                          thresholds: Thresholds) -> Fact | None:
    """The value another source gives under the very condition the claim's source states with the
    claim's value: "航班延误4小时（含）以上、8小时以内的，向旅客提供每人200元" against "延误4小时（含）以上、8小时
    以内的，补偿标准为每位旅客300元" (the claim's "四到八小时" found as the first source's "4小时（含）以上").
    The part of the other source's sentence (cut at ；) must give that bound and one value of the
    claim's slot only."""
    ranked = sorted((s.candidate for s in found if not s.candidate.rival), key=lambda c: -c.relevance)
    bounds = [r.evidence for o in claim.facts if o is not fact and o.kind == "number"
              and (r := check_fact(o, ranked, thresholds.relevance)).status == "matched" and r.evidence is not None
              and r.evidence.value.comparator != "eq"]  # type: ignore[union-attr]
    for span in other.sentences if bounds else ():
        for a, b in sentence_parts(span.text):
            inside = [f for f in span.facts if span.start + a <= f.start < span.start + b and f.kind == "number"]
            rivals = [f for f in inside if same_dimension(fact, f)]
            if len(rivals) == 1 and "different" in (compare_facts(fact, rivals[0]), compare_facts(rivals[0], fact)) \
                    and any(compare_facts(bound, f) == "equal" and f.value.comparator == bound.value.comparator  # type: ignore[union-attr]
                            for bound in bounds for f in inside):
                return rivals[0]
    return None


def _heading(source: SegmentedSource) -> str:
    """What the source says it is about: its title and first sentence."""
    first = source.sentences[0].text if source.sentences else ""
    return f"{source.source.title or ''} {first}"


def _conflict(a: SegmentedSource, b: SegmentedSource, slot: str, values: list[str], issue: str) -> Conflict:
    winner, why = _winner(a, b)
    if winner:
        issue = f"{issue}; {winner} wins: {why}"
    return Conflict(source_a=a.source.id, source_b=b.source.id, slot=slot, values=values, issue=issue, winner=winner)


def _winner(a: SegmentedSource, b: SegmentedSource) -> tuple[str | None, str]:
    """The current source wins over one that is superseded, a draft, expired or not yet in force.

    Two sources both in force at `as_of` have no winner, even if one took effect later: a
    newer help page does not repeal a policy, so the disagreement goes to a person.
    """
    if a.current != b.current:
        current, stale = (a, b) if a.current else (b, a)
        return current.source.id, f"{stale.source.id} is {stale.not_current_because}"
    return None, ""


def unresolved(conflicts: list[Conflict]) -> list[Conflict]:
    return [c for c in conflicts if c.winner is None]

"""Claim labels from model probabilities and fact checks; thresholds live in one config."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from extractors import Claim
from extractors.text import match_key
from extractors.tokens import content_tokens, token_recall
from models.base import NLIScores
from verifier.arithmetic import operands_stated
from verifier.breadth import added_alternative, broadens, dropped_condition, group_value, other_case
from verifier.candidates import Candidate
from verifier.canonical import model_pair
from verifier.comparison import Comparison, compared, names_the_limit
from verifier.fact_result import FactResult
from verifier.messages import message, quote
from verifier.polarity import polarity_clash
from verifier.qualify import applies_to_asker, check_qualifiers, unstated_subject
from verifier.schema import ClaimReport, Evidence, Label
from verifier.segment import Span


class Thresholds(BaseModel):
    """Every number the verdict depends on. Calibration writes these into a policy file."""

    model_config = ConfigDict(extra="forbid")
    support: float = Field(0.5, ge=0, le=1, description="P(entailment) at or above which a span supports a claim")
    partial: float = Field(0.3, ge=0, le=1, description="P(entailment) at or above which a claim is partly supported")
    contradict: float = Field(0.6, ge=0, le=1, description="P(contradiction) at or above which a span contradicts")
    relevance: float = Field(0.35, ge=0, le=1, description="lexical relevance a span needs before its facts "
                             "or its contradiction count against a claim")
    undercut: float = Field(0.8, ge=0, le=1, description="P(contradiction) of a relevant sentence at or above which "
                            "a window holding it does not support the claim (1 turns this off)")
    max_evidence: int = Field(3, ge=1, description="evidence spans reported per claim")
    min_overlap: float = Field(0.3, ge=0, le=1, description="share of the claim's content words a span must "
                               "contain to support it")
    verbatim: float = Field(0.8, ge=0, le=1, description="share of the claim's content words at or above which "
                            "a span supports it whatever the model says, when every fact, qualifier and the "
                            "polarity agree (1 turns this off)")
    anchored: float = Field(0.5, ge=0, le=1, description="the same, for a sentence that also states every "
                            "number and date of the claim (1 turns this off)")


@dataclass(frozen=True)
class ScoredCandidate:
    candidate: Candidate
    scores: NLIScores
    current: bool
    not_current_because: str | None
    pair: tuple[str, str] | None = None  # (evidence, claim) as the model read them


def label_claim(
    claim_id: str,
    claim: Claim,
    scored: list[ScoredCandidate],
    facts: list[FactResult],
    thresholds: Thresholds,
    language: str,
    has_sources: bool = True,
    asker: dict[str, set[str]] | None = None,
    only_sum: bool = False,
    answer: str = "",
    question: str = "",
) -> ClaimReport:
    """`asker`: qualifiers the question states about the asker (slot -> values), for claims
    that leave them implicit ("我是个人用户……" then "退货前需要先申请授权码"). `only_sum`: the
    claim is nothing but a value it works out ("三台加起来440元"), which the model cannot judge.
    `answer`: the whole answer, which may state the claim's condition elsewhere, as may the asker's
    `question`."""
    current = [s for s in scored if s.current and applies_to_asker(claim, s.candidate.span.text, asker)]
    # A span that shares almost no words with the claim cannot support it, whatever the model
    # says: small cross-encoders are overconfident on unrelated text in the same register.
    # ... unless the span states every number and date of the claim: the values tie it to the claim
    # where the words differ ("孩子身高不到1.4米……大人陪着" / "身高1.4米以下儿童须由成年监护人陪同").
    grounded = [s for s in current if (overlap(claim, s) >= thresholds.min_overlap or _states_values(s, facts))
                and not _undercut(s, current, thresholds)]
    best = max(grounded, key=lambda s: s.scores.entailment, default=None)
    best_any = max(scored, key=lambda s: s.scores.entailment, default=None)
    relevant = [s for s in current if s.candidate.relevance >= thresholds.relevance]
    contra = max((s for s in relevant if not _outweighed(s, current, facts, thresholds)),
                 key=lambda s: s.scores.contradiction, default=None)
    anchor = best.candidate if best and best.candidate.relevance >= thresholds.relevance else None
    facts = facts + check_qualifiers(claim, facts, [s.candidate for s in current], anchor)
    mismatched = [f for f in facts if f.status == "mismatched"]
    missing = [f for f in facts if f.status == "missing"]
    entail = best.scores.entailment if best else 0.0
    opposite = best if best and polarity_clash(claim, best.candidate.span.text) else None
    verbatim, verbatim_reason = _verbatim(claim, grounded, thresholds), "supported_verbatim"
    if verbatim is None and not missing:
        verbatim, verbatim_reason = _anchored(claim, grounded, facts, thresholds), "supported_anchored"
    summed = _sum_span(facts, current) if only_sum and not missing else None
    comparison = compared(claim, facts) if not missing else None
    limit_span = _limit_span(comparison, claim, current) if comparison else None

    label: Label
    pinned: ScoredCandidate | None = None  # the span a rule, not the model, rests the label on
    if mismatched:
        first = mismatched[0]
        label, score = "contradicted", max(0.9, contra.scores.contradiction if contra else 0.0)
        # Both values as written, so the reason reads in the answer's language and script.
        reason = message(language, "fact_mismatch", claim_value=first.fact.text,
                         source_value=first.evidence_text, source=first.source_id)
    elif opposite is not None:
        label, score, pinned = "contradicted", max(0.9, opposite.scores.contradiction), opposite
        reason = message(language, "opposite", source=opposite.candidate.span.source_id,
                         quote=quote(opposite.candidate.span.text))
    elif comparison is not None and limit_span is not None:
        # The numbers decide, whatever the model reads into the comparison.
        label, pinned = ("supported", limit_span) if comparison.holds else ("contradicted", limit_span)
        score = max(thresholds.support, limit_span.scores.entailment) if comparison.holds else 0.9
        reason = message(language, "compared" if comparison.holds else "compared_wrong",
                         value=comparison.value.fact.text, limit=comparison.limit_text,
                         relation=message(language, comparison.relation),
                         source=limit_span.candidate.span.source_id, quote=quote(limit_span.candidate.span.text))
    elif best and entail >= thresholds.support and not missing:
        label, score = "supported", entail
        key = "supported_hedged" if claim.hedged else "supported"
        reason = message(language, key, source=best.candidate.span.source_id, quote=quote(best.candidate.span.text))
    elif verbatim is not None and not missing:
        label, score, pinned = "supported", max(thresholds.support, verbatim.scores.entailment), verbatim
        reason = message(language, verbatim_reason, source=verbatim.candidate.span.source_id,
                         quote=quote(verbatim.candidate.span.text))
    elif summed is not None:
        label, score, pinned = "supported", max(thresholds.support, summed[0].scores.entailment), summed[0]
        reason = message(language, "worked_out", how=summed[1], source=summed[0].candidate.span.source_id,
                         quote=quote(summed[0].candidate.span.text))
    elif contra and contra.scores.contradiction >= thresholds.contradict:
        label, score = "contradicted", contra.scores.contradiction
        reason = message(language, "nli_contradiction", source=contra.candidate.span.source_id,
                         quote=quote(contra.candidate.span.text))
    elif best and entail >= thresholds.support:
        label, score = "partial", entail
        if all(f.past for f in missing):
            reason = message(language, "fact_only_later" if all(f.later for f in missing) else "fact_only_past", facts=", ".join(f.fact.text for f in missing),
                             source=missing[0].source_id)
        else:
            reason = message(language, "fact_missing", facts=", ".join(f.fact.text for f in missing),
                             source=best.candidate.span.source_id)
    elif best and entail >= thresholds.partial:
        label, score = "partial", entail
        reason = message(language, "partial", source=best.candidate.span.source_id)
    else:
        label, score = "unsupported", 1.0 - entail
        stale = best_any if best_any and not best_any.current else None
        if stale and stale.scores.entailment >= thresholds.support:
            reason = message(language, "not_current", source=stale.candidate.span.source_id,
                             why=stale.not_current_because)
        else:
            reason = message(language, "unsupported" if has_sources else "no_sources")

    # (a comparison's limit or category range is no condition the claim leaves out)
    if label == "supported" and (pinned or best) is not None and not (comparison and pinned is limit_span):
        # (a claim may join two sentences: "ring … free on 0800 111 999, day or night, and don't go back
        # inside until …"; an alternative either supporting sentence states is no addition)
        also = " ".join(s.candidate.span.text for s in grounded if s.scores.entailment >= thresholds.support)
        narrower = _says_more(claim, (pinned or best).candidate.span, facts, asker, language,  # type: ignore[union-attr]
                              answer, also, question)
        if narrower is None and (case := other_case(claim, (pinned or best).candidate.span,  # type: ignore[union-attr]
                                                    [s.candidate.span for s in current])) is not None:
            own = _own_case(case[1], grounded, thresholds)
            if own is not None:
                best, score, pinned = own, own.scores.entailment, own if pinned is not None else None
                reason = message(language, "supported", source=own.candidate.span.source_id, quote=quote(own.candidate.span.text))
            else:
                narrower = message(language, "other_subject", source=case[1].source_id, subject=case[0])
        if narrower is not None:
            label, reason = "partial", narrower

    return ClaimReport(
        id=claim_id,
        text=claim.text,
        start=claim.start,
        end=claim.end,
        label=label,
        score=round(float(score), 4),
        reason=reason,
        citations=list(claim.citations),
        hedged=claim.hedged,
        facts=[f.to_report() for f in facts],
        evidence=_evidence(scored, label, thresholds, pinned),
    )


def _own_case(span: Span, grounded: list[ScoredCandidate], thresholds: Thresholds) -> ScoredCandidate | None:
    """The scored `span` (the sentence opening with the claim's own case, "For a replacement, you
    pay the excess") when it entails the claim: that sentence, not another case's, decides."""
    own = max((s for s in grounded if s.candidate.span.start == span.start and s.candidate.span.source_id == span.source_id),
              key=lambda s: s.scores.entailment, default=None)
    return own if own is not None and own.scores.entailment >= thresholds.support else None


def _says_more(claim: Claim, span: Span, facts: list[FactResult], asker: dict[str, set[str]] | None,
               language: str, answer: str = "", also: str = "", question: str = "") -> str | None:
    """Why the span a supported claim rests on says less than the claim, or None: the claim
    extends the rule to someone the span does not name, adds an alternative (that neither it nor
    `also`, the other spans supporting the claim, states), takes a value the span reserves for a
    tier, or drops the span's condition."""
    source = span.source_id
    subject = unstated_subject(claim, span.text)
    if subject is not None and not any(f.fact.kind == "entity" and f.status == "matched"
                                       and match_key(f.fact.text) == match_key(subject) for f in facts):
        # (a subject the sources name, "FixPoint also provides ...", is the company they speak for)
        return message(language, "other_subject", source=source, subject=subject)
    if (added := added_alternative(claim, f"{span.text} {also}")) is not None:
        return message(language, "added_alternative", source=source, words=added)
    if (reserved := group_value(claim, facts, span, asker)) is not None:
        return message(language, "group_value", source=source, value=reserved[0], group=reserved[1])
    if (condition := dropped_condition(claim, span, facts, answer, question)) is not None:
        return message(language, "dropped_condition", source=source, quote=quote(condition))
    return None


def _limit_span(comparison: Comparison, claim: Claim, current: list[ScoredCandidate]) -> ScoredCandidate | None:
    """The source sentence stating the limit the claim compares with, naming it as such."""
    ev, source_id = comparison.limit.evidence, comparison.limit.source_id
    assert ev is not None
    return next((s for s in sorted(current, key=lambda s: -s.scores.entailment)
                 if s.candidate.span.source_id == source_id and s.candidate.span.start <= ev.start
                 and ev.end <= s.candidate.span.end and s.candidate.span.sentences[0] == s.candidate.span.sentences[1]
                 and names_the_limit(comparison, claim, s.candidate.span.text)), None)


def _sum_span(facts: list[FactResult], current: list[ScoredCandidate]) -> tuple[ScoredCandidate, str] | None:
    """The span stating every amount the claim's sum is worked out from, and how it is worked
    out ("每台120元 × 2 + 200元"), or None. (A claim that is only a sum shares too few words with
    any span for its relevance to say anything: the amounts tie it to the span.)"""
    sums = [f.evidence_text for f in facts if f.status == "matched" and f.source_id is None and f.evidence_text]
    if not sums or any(f.status != "matched" for f in facts if f.fact.kind in ("number", "date")):
        return None
    ranked = sorted(current, key=lambda s: -s.candidate.relevance)
    for s in ranked:
        if all(operands_stated(how, s.candidate.span.present_facts()) for how in sums):
            return s, sums[0]
    # (the amounts of a longer sum may sit in several sentences of one source: "£395", "£60 off",
    # "£40 each")
    for s in ranked:
        stated = [f for o in current if o.candidate.span.source_id == s.candidate.span.source_id
                  for f in o.candidate.span.present_facts()]
        if all(operands_stated(how, stated) for how in sums):
            return s, sums[0]
    return None


def _states_values(scored: ScoredCandidate, facts: list[FactResult]) -> bool:
    """Whether the span holds the evidence of every number and date of the claim (and it has some);
    a value the claim works out ("一共16250元") is in no span, and its operands tie it."""
    values = [f for f in _anchoring_values(facts) if not (f.status == "matched" and f.source_id is None)]
    span = scored.candidate.span
    return bool(values) and all(f.status == "matched" and f.evidence is not None and f.source_id == span.source_id
                                and span.start <= f.evidence.start and f.evidence.end <= span.end for f in values)


def _anchoring_values(facts: list[FactResult]) -> list[FactResult]:
    """The numbers and dates that tie a span to a claim; a day of the week ("on weekdays") is
    too common a word to tie anything."""
    return [f for f in facts if f.fact.kind == "number"
            or f.fact.kind == "date" and f.fact.value.granularity != "weekday_range"]  # type: ignore[union-attr]


def _undercut(window: ScoredCandidate, scored: list[ScoredCandidate], thresholds: Thresholds) -> bool:
    """Whether a window holds a relevant sentence the model reads as contradicting the claim:
    the window's entailment then comes from the sentences around it, not from that one."""
    first, last = window.candidate.span.sentences
    if first == last or thresholds.undercut >= 1:
        return False
    return any(s.candidate.span.source_id == window.candidate.span.source_id
               and s.candidate.span.sentences[0] == s.candidate.span.sentences[1]
               and first <= s.candidate.span.sentences[0] <= last
               and s.scores.contradiction >= thresholds.undercut and s.candidate.relevance >= thresholds.relevance
               for s in scored)


def _outweighed(window: ScoredCandidate, scored: list[ScoredCandidate], facts: list[FactResult],
                thresholds: Thresholds) -> bool:
    """Whether a window's contradiction is outweighed by its own sentences: one of them, read
    alone, supports the claim (or partly supports it and states every value of it) and none
    contradicts it. The model then reads the neighbours ("客户可凭人脸识别每天7:00至23:00自助进出")
    as disagreeing with a claim they do not speak to."""
    first, last = window.candidate.span.sentences
    if first == last:
        return False
    inside = [s for s in scored if s.candidate.span.source_id == window.candidate.span.source_id
              and s.candidate.span.sentences[0] == s.candidate.span.sentences[1]
              and first <= s.candidate.span.sentences[0] <= last]
    return any(s.scores.entailment >= thresholds.support
               or (s.scores.entailment >= thresholds.partial and _states_values(s, facts)) for s in inside) \
        and not any(s.scores.contradiction >= thresholds.contradict for s in inside)


def overlap(claim: Claim, scored: ScoredCandidate) -> float:
    """Share of the claim's content words in the span, both read as the model reads them:
    "头三笔" and "前3笔" share the 3 only once numerals are digits."""
    if scored.pair is not None:
        return token_recall(scored.pair[1], scored.pair[0])
    evidence, hypothesis = model_pair(scored.candidate.span, claim.text, claim.facts)
    return token_recall(hypothesis, evidence)


def _verbatim(claim: Claim, grounded: list[ScoredCandidate], thresholds: Thresholds) -> ScoredCandidate | None:
    """A span holding nearly every content word of the claim, with the same polarity, that the
    model does not read as a contradiction: small models under-score such close paraphrases."""
    if thresholds.verbatim >= 1:
        return None
    # One sentence only: a window can hold every word of a claim that mixes two rules. Nor a
    # sentence the claim broadens with its words ("allowed for all flights").
    grounded = [s for s in grounded if s.candidate.span.sentences[0] == s.candidate.span.sentences[1]
                and broadens(claim, s.candidate.span.text) is None and not _only_for_other(claim, s.candidate.span.text)]
    recall = {id(s): overlap(claim, s) for s in grounded}
    for s in sorted(grounded, key=lambda s: (-recall[id(s)], -s.scores.entailment)):
        if recall[id(s)] < thresholds.verbatim:
            return None
        if s.scores.contradiction < thresholds.contradict and not polarity_clash(claim, s.candidate.span.text):
            return s
    return None


# What "only" restricts a rule to: "10% off inspections only", "only for inspections", "仅限门店自提订单".
_ONLY = re.compile(r"(\w+)\s+only\b|\bonly\s+(?:for|to|on|in|at|with)?\s*(?:the\s+|a\s+|an\s+)?(\w+)|"
                   r"(?:仅|只)(?:限于?|支持|适用于|对|针对)?([\u4e00-\u9fff]{2,8})|"
                   # "Prizes … are included in the Premier package": one tier's, named
                   r"\b(?:included|available|offered)\s+(?:in|with|on)\s+(?:the|our)\s+(\w+)\s+"
                   r"(?:package|plan|tier|membership|option|bundle|pass|ticket)s?\b", re.IGNORECASE)


def _only_for_other(claim: Claim, span_text: str) -> bool:
    """Whether the sentence restricts its rule with "only" to something the claim does not
    name: "Pensioner concession card holders receive 10% off inspections only" says nothing of
    "10% off the barrier", however many of its words the claim repeats."""
    mine = frozenset(content_tokens(claim.text))
    for m in _ONLY.finditer(span_text):
        words = frozenset(content_tokens(next((g for g in m.groups() if g), "")))
        if words and not words & mine:
            return True
    return False


def _anchored(claim: Claim, grounded: list[ScoredCandidate], facts: list[FactResult],
              thresholds: Thresholds) -> ScoredCandidate | None:
    """A sentence that states every number and date of the claim and at least half its words:
    with the values pinned down, what is left to misread is wording, where small models
    under-score close paraphrases ("time and a half" for "1.5 times the rate")."""
    values = _anchoring_values(facts)
    if thresholds.anchored >= 1 or not values or any(f.status != "matched" or f.evidence is None for f in values):
        return None

    names = [match_key(f.fact.text) for f in facts if f.fact.kind == "entity"]

    def states_every_value(s: ScoredCandidate) -> bool:
        # Names too: "appeal to Northgate's claims unit within 180 days" is not anchored by
        # "Appeals ... go to the Member Advocacy Office within 180 days", whatever else names Northgate.
        return _states_values(s, facts) and all(name in match_key(s.candidate.span.text) for name in names)

    anchors = [s for s in grounded if states_every_value(s) and broadens(claim, s.candidate.span.text) is None]
    return _verbatim(claim, anchors, thresholds.model_copy(update={"verbatim": thresholds.anchored}))


def _evidence(scored: list[ScoredCandidate], label: Label, thresholds: Thresholds,
              pinned: ScoredCandidate | None = None) -> list[Evidence]:
    """The spans to cite, strongest first; `pinned` is the span a rule (not the model) rests on."""
    def relation(s: ScoredCandidate) -> str:
        if s is pinned:
            return "supports" if label == "supported" else "contradicts"
        if s.current and s.scores.entailment >= thresholds.support:
            return "supports"
        if s.scores.contradiction >= thresholds.contradict and s.candidate.relevance >= thresholds.relevance:
            return "contradicts"
        return "related"

    def strength(s: ScoredCandidate) -> float:
        return s.scores.contradiction if label == "contradicted" else s.scores.entailment

    ranked = sorted(scored, key=lambda s: (s is not pinned, -strength(s), -s.candidate.relevance,
                                           s.candidate.span.start))
    out, seen = [], set()
    for s in ranked:
        span = s.candidate.span
        key = (span.source_id, span.start, span.end)
        if key in seen:
            continue
        seen.add(key)
        rel = relation(s)
        out.append(Evidence(source_id=span.source_id, start=span.start, end=span.end, text=span.text,
                            relation=rel, score=round(float(strength(s)), 4), current=s.current))
        if len(out) >= thresholds.max_evidence:
            break
    return out

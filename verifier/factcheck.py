"""Every number, date and name in a claim must be found in the evidence.

A same-slot fact with another value in relevant evidence is a mismatch (the claim is then
contradicted, and both values are reported); a fact found nowhere is missing (the claim is
then at most partial). Tolerances come from `compare_facts`: formats and scripts,
granularity and explicit approximations only.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable, Sequence

from extractors import Claim, Fact
from extractors.compare import compare_facts, other_side, same_dimension, same_slot
from extractors.qualifiers import is_negated, sentences
from extractors.tokens import content_tokens
from verifier.ages import asker_age
from verifier.arithmetic import found_by_working, priced_by_rate
from verifier.binding import bound_elsewhere, condition_elsewhere, date_slot_elsewhere, value_only_link
from verifier.candidates import Candidate
from verifier.cases import case_words, word_keys
from verifier.comparison import as_compared_limit, asker_time_within, asker_values, in_category
from verifier.labels import swapped_label
from verifier.fact_result import FactResult
from verifier.forms import edge_named, one_each, unit_implied
from verifier.count_of_one import nothing_to_find
from verifier.date_match import as_stated, comparable, date_confirms, more_weekdays
from verifier.periods import once_per, paid_by_the_year, time_span, within_deadline, within_period
from verifier.segment import Span
from verifier.sides import bound_from_other_side
from verifier.names import (check_name, entity_clash, entity_displaced, named_in_another_clause,
                            named_only_beside_rival, subject_elsewhere)

# Without context words saying two numbers fill the same slot, a different value counts
# as a contradiction only in a span that is clearly about the claim.
STRONG_RELEVANCE = 0.6


def check_facts(claim: Claim, candidates: list[Candidate], *, min_relevance: float,
                titles: dict[str, str] | None = None,
                entities_of: Callable[[str], list[Fact]] | None = None, present: bool = False,
                earlier: Sequence[Candidate] = (), question: str = "", earlier_answer: str = "") -> list[FactResult]:
    """Check each fact of `claim` against the candidate spans, most relevant first.

    A fact nested inside another (the year in a policy title) is checked as part of it.
    Names may also be found in the titles of the sources (`titles`: source id -> title).
    `entities_of` (text -> entity facts) lets a missing name be checked against the names
    the most relevant span gives for the same role: "Aetna" where the source says "Cigna".
    `present`: the claim speaks of the present, so values the sources state as past neither
    match nor contradict it (`verifier.history`); a fact found only there is missing, with the
    old value as its evidence. `earlier`: the sentences about the past left out of `candidates`.
    `earlier_answer`: the answer before the claim, for values the claim works out from it.
    """
    stated_before = sorted([*earlier, *candidates], key=lambda c: -c.relevance) if present else []
    if present:
        candidates = [replace(c, span=replace(c.span, facts=c.span.present_facts(), past_facts=frozenset()))
                      if c.span.past_facts else c for c in candidates]
    ranked = sorted(candidates, key=lambda c: -c.relevance)
    outer = [f for f in claim.facts
             if not any(o is not f and o.start <= f.start and f.end <= o.end for o in claim.facts)]
    words = frozenset(content_tokens(claim.text))
    results = [check_fact(fact, ranked, min_relevance, titles, words, claim, question) for fact in outer]
    results = [_as_compared_limit(r, results, ranked, min_relevance, titles, words, claim, question) for r in results]
    if entities_of is not None:
        results = [entity_clash(claim, r, ranked, min_relevance, entities_of) for r in results]
        results = [entity_displaced(claim, r, ranked, entities_of) for r in results]
        results = [named_in_another_clause(claim, r, ranked, entities_of) for r in results]
    if stated_before:
        results = [_as_before(r, stated_before, min_relevance, words) if r.status == "missing" else r for r in results]
    if question:
        results = asker_time_within(asker_values(results, question, claim), question, claim)
    results = [in_category(r, claim, ranked) or r for r in results]
    results = [asker_age(r, results, claim, ranked) or r for r in results]
    top = [c.span for c in ranked[:3]]
    results = found_by_working(results, claim, earlier_answer, question, top)
    results = priced_by_rate(results, claim, top)
    results = [r for r in results if not nothing_to_find(r, results, claim)]
    if (swap := swapped_label(claim, ranked)) is not None:
        # (it replaces what the fact check said of the same name, if the tagger found it)
        results = [r for r in results if (r.fact.start, r.fact.end) != (swap.fact.start, swap.fact.end)]
        results.append(FactResult(swap.fact, "mismatched", None, swap.value, swap.source_id))
    return results


def _as_compared_limit(result: FactResult, results: list[FactResult], ranked: list[Candidate], min_relevance: float,
                       titles: dict[str, str] | None, words: frozenset[str], claim: Claim,
                       question: str) -> FactResult:
    """A limit not found as the bound it was read as, checked as the value the claim compares
    another with ("八个人已经超过五个账号" against "最低购买5个账号")."""
    if result.status == "matched" or result.fact.kind != "number":
        return result
    previous = [r.fact for r in results if r.fact.kind == "number" and r.fact.end <= result.fact.start]
    plain = as_compared_limit(claim, previous[-1], result.fact) if previous else None
    if plain is None:
        return result
    again = check_fact(plain, ranked, min_relevance, titles, words, claim, question)
    return replace(again, fact=result.fact) if again.status == "matched" else result


def _as_before(result: FactResult, stated_before: list[Candidate], min_relevance: float,
               words: frozenset[str]) -> FactResult:
    old = check_fact(result.fact, stated_before, min_relevance, claim_words=words)
    if old.status != "matched":
        return result
    later = any(c.span.source_id == old.source_id and k in c.span.later_facts and f is old.evidence
                for c in stated_before for k, f in enumerate(c.span.facts))
    return FactResult(result.fact, "missing", old.evidence, old.evidence_text, old.source_id, past=True, later=later)


def check_fact(fact: Fact, ranked: list[Candidate], min_relevance: float,
               titles: dict[str, str] | None = None, claim_words: frozenset[str] = frozenset(),
               claim: Claim | None = None, question: str = "") -> FactResult:
    """One fact against spans ranked by relevance (most relevant first).

    `claim_words` (the claim's content tokens) lets a source value count as the same slot
    when the words naming it ("restocking fee") are in the claim, wherever they stand. With
    the `claim` (and the asker's `question`), a value the span gives for another case than the
    claim's is a mismatch (`verifier.binding`).
    """
    if fact.kind in ("entity", "identifier"):
        return check_name(fact, ranked, titles or {})
    if fact.kind == "date":
        return _check_date(fact, ranked, min_relevance, claim, question)
    # Spans are read most relevant first. A value that agrees is a match, even when the span
    # holds other values too ("61.4%, compared with 59.8%"). A different value whose context
    # words name the claim's slot is a mismatch at once; one that only sits in a span that is
    # clearly about the claim (or whose slot words appear anywhere in the claim) is a mismatch
    # unless a less relevant span still agrees ("Orders over $75 ship free" after "$14.99").
    deferred: FactResult | None = None
    deferred_span: Span | None = None
    found_elsewhere: FactResult | None = None
    for cand in ranked:
        same = [o for o in cand.span.facts if o.kind == fact.kind and same_dimension(fact, o)]
        verdicts = [(o, compare_facts(fact, o)) for o in same]
        # Of the values a bound allows, the one stating the bound's own number: "十公里以内" is
        # found in "10公里运输", not in the "4.2米" of the truck's length before it.
        compatible = [] if _usual_beside_longest(fact, verdicts) else \
            sorted((o for o, v in verdicts if v == "compatible" and not _rival_limit(fact, o, verdicts)),
                   key=lambda o: o.value.value != fact.value.value)  # type: ignore[union-attr]
        agree = next((o for o, v in verdicts if v == "equal"), None) or next(iter(compatible), None) \
            or unit_implied(fact, cand.span) or one_each(fact, cand.span, claim) or edge_named(fact, same, claim) \
            or time_span(fact, cand.span) or paid_by_the_year(fact, cand.span, claim) or once_per(fact, cand.span)
        if (agree is not None and deferred is not None and cand.relevance < min_relevance and agree in compatible
                and fact.value.comparator != agree.value.comparator  # type: ignore[union-attr]
                and deferred.evidence.value.per == fact.value.per):  # type: ignore[union-attr]
            # "half an hour before your slot" after "arrive 15 minutes before your slot": a
            # value merely inside some bound ("up to 48 hours") of a span hardly about the claim
            # does not outweigh the rival that is; nor does a bound merely holding some value
            # ("within 14 days of the test ending" against "left in place for 10 days").
            agree = None
        if agree is not None and claim is not None and agree in same \
                and _amount_off(agree, cand.span.text, cand.span.start) and not _amount_off(fact, claim.source_text, claim.start):
            agree = None  # "$20 off the term price" is a saving, no price: "drop-in classes are $20 each"
        if agree is not None and claim is not None and found_elsewhere is None and agree in same \
                and _another_sentences_case(claim, agree, cand.span):
            # (the value of another case's sentence agrees only by chance: the claim's own case decides)
            found_elsewhere = FactResult(fact, "matched", agree, agree.text, cand.span.source_id)
            continue
        if agree is not None:
            rival = None if claim is None or agree not in same else \
                _bound_in_window(fact, agree, cand.span, ranked, claim, question) \
                or condition_elsewhere(fact, agree, cand.span, claim) \
                or subject_elsewhere(fact, agree, cand.span, ranked, claim)
            if rival is not None:
                return FactResult(fact, "mismatched", rival, rival.text, cand.span.source_id)
            if claim is not None and (other := value_only_link(fact, cand, ranked, claim_words)) is not None:
                return FactResult(fact, "mismatched", other[0], other[0].text, other[1])
            if deferred is not None and claim is not None and agree in cand.span.facts \
                    and named_only_beside_rival(claim, fact, deferred, deferred_span, agree, cand.span):
                return deferred
            return FactResult(fact, "matched", agree, agree.text, cand.span.source_id)
        if cand.relevance < min_relevance:
            continue
        # A "close" value (1 month against 30 days, 半个月 against 15天) says the same in a calendar's
        # words: what people mean by either, as every hand-labelled case reads it.
        close = next((o for o, v in verdicts if v == "close" and same_slot(fact, o)), None)
        if close is not None and deferred is None:
            return FactResult(fact, "matched", close, close.text, cand.span.source_id)
        # The claim may state the other side's rule itself ("……以上，否则扣一半" / "不足……收取50%").
        if claim is not None and (flip := bound_from_other_side(
                fact, [o for o, v in verdicts if v == "different"], cand.span, claim)) is not None:
            return FactResult(fact, "matched", flip, flip.text, cand.span.source_id)
        # Nor is the other side of the claim's bound when the polarity turns with it: "over 15
        # horsepower require a licence" says what "up to 15 you don't need one" says.
        rivals = [o for o, v in verdicts if v == "different"
                  and not (claim is not None and other_side(fact.value, o.value)  # type: ignore[arg-type]
                           and is_negated(claim.text) != is_negated(cand.span.text[slice(*cand.span.clause_of(o))]))
                  # (a value the claim states itself for another item is no rival)
                  and not (claim is not None and stated_by_claim(o, fact, claim))]
        # (the rival bounded as the claim's value is: "五千元起" against "3,000元起", not the "300元" before it)
        bounded_alike = sorted(rivals, key=lambda o: o.value.comparator != fact.value.comparator)  # type: ignore[union-attr]
        clash = next((o for o in bounded_alike if same_slot(fact, o)), None)
        if clash is not None and deferred is None and claim is not None \
                and _another_sentences_case(claim, clash, cand.span):
            deferred, deferred_span = FactResult(fact, "mismatched", clash, clash.text, cand.span.source_id), cand.span
            continue
        if clash is not None:
            return deferred or FactResult(fact, "mismatched", clash, clash.text, cand.span.source_id)
        weak = next((o for o in rivals if cand.relevance >= STRONG_RELEVANCE
                     or claim_words & frozenset(content_tokens(o.context))
                     or clause_shares_words(o, cand.span, claim_words - frozenset(content_tokens(fact.text)))), None)
        if weak is not None and deferred is None:
            deferred, deferred_span = FactResult(fact, "mismatched", weak, weak.text, cand.span.source_id), cand.span
    return deferred or found_elsewhere or FactResult(fact, "missing")


_OFF_AFTER = re.compile(r"\s*(?:off\b|discount\b|reduction\b|less\b|cheaper\b)", re.IGNORECASE)
_OFF_BEFORE = re.compile(r"(?:\b(?:save|saving of|discount of|reduction of|knock)\s*|立减|减免?|优惠|便宜|折扣)\s*$", re.IGNORECASE)


def _amount_off(fact: Fact, text: str, offset: int) -> bool:
    """Whether `text` (starting at `offset`) states the amount of money as a saving: "$20 off",
    "立减20元" (a share off, "30% off", is what "30% below retail" says)."""
    at, end = fact.start - offset, fact.end - offset
    if not (0 <= at and end <= len(text) and getattr(fact.value, "currency", None)):
        return False
    return _OFF_AFTER.match(text, end) is not None or _OFF_BEFORE.search(text[max(0, at - 20):at]) is not None


def _another_sentences_case(claim: Claim, value: Fact, span: Span) -> bool:
    """Whether `value` stands in a sentence of a window that does not name the claim's case,
    where another of its sentences does ("进阶班……学费1800元。2025年入门班学费为1000元。" for
    "入门班学费一千二百元"): that sentence's value is another case's, whether it differs or agrees;
    a less relevant span may give the claim's own."""
    if span.sentences[0] == span.sentences[1] or not (case := case_words(claim.text)):
        return False
    at = value.start - span.start

    def names(a: int, b: int) -> bool:
        words = span.text[a:b]
        return bool(case & (word_keys(words) | frozenset(content_tokens(words))))
    cuts = sentences(span.text)
    here = next(((a, b) for a, b in cuts if a <= at < b), None)
    return here is not None and not names(*here) and any(names(a, b) for a, b in cuts if (a, b) != here)


# Words a value's clause must share with the claim (its own words aside) to be about the same
# thing: "expedited review is available for an additional $300 and takes 5 business days".
SAME_CLAUSE_WORDS = 2


def clause_shares_words(value: Fact, span: Span, claim_words: frozenset[str]) -> bool:
    clause = span.text[slice(*span.clause_of(value))]
    own = frozenset(content_tokens(value.text))
    return len((frozenset(content_tokens(clause)) - own) & claim_words) >= SAME_CLAUSE_WORDS


def _bound_in_window(fact: Fact, agree: Fact, span: Span, ranked: list[Candidate], claim: Claim,
                     question: str) -> Fact | None:
    """`bound_elsewhere` in `span`, else in a candidate window around it: the next sentence may
    give the claim's case its own value ("A pre-purchase inspection costs $320 … Annual termite
    inspections … are $220")."""
    spans = [span, *(c.span for c in ranked if c.span.source_id == span.source_id and c.span is not span
                     and c.span.start <= span.start and span.end <= c.span.end)]
    for window in spans:
        if window is not span and compare_facts(fact, agree) != "equal":
            break  # across sentences, only a value the claim states exactly ("under 65" is not "55")
        here = next((o for o in window.facts if (o.start, o.end) == (agree.start, agree.end)), None)
        same = [o for o in window.facts if o.kind == fact.kind and same_dimension(fact, o)]
        if here is not None and (rival := bound_elsewhere(fact, here, window, same, claim, question,
                                                          named_by_claim=window is not span)) is not None:
            return rival
    return None


def _rival_limit(fact: Fact, agree: Fact, verdicts: list[tuple[Fact, str]]) -> bool:
    """A limit ("within 30 days") is not confirmed by a plain value it happens to bound ("after
    14 days") when the same span states the limit itself with another value ("within 14 days").
    `verdicts`: each number of the span with its comparison to `fact`. Nor is a plain value
    ("保管90天") confirmed by a bound ("超过60天") that is the edge of another plain value the
    span states ("免费保管60天，超过60天未取的……"), nor a price per period ("$19 a month") by a bound
    without that period ("cover up to $2,000") when the span states other prices per that period
    ("$9 per month …, or $15 per month")."""
    comparator = fact.value.comparator  # type: ignore[union-attr]
    if comparator == "eq":
        per = fact.value.per  # type: ignore[union-attr]
        if per and agree.value.comparator != "eq" and agree.value.per != per and any(  # type: ignore[union-attr]
                v == "different" and o.value.comparator == "eq" and o.value.per == per for o, v in verdicts):  # type: ignore[union-attr]
            return True
        if fact.value.value is None and agree.value.comparator != "eq" and any(  # type: ignore[union-attr]
                v == "different" and o.value.value is None for o, v in verdicts):  # type: ignore[union-attr]
            return True  # a range ("18到55周岁") against the span's other range ("22至55周岁"), not its bound
        edge = agree.value.value  # type: ignore[union-attr]
        return agree.value.comparator != "eq" and edge is not None and any(  # type: ignore[union-attr]
            v == "different" and o.value.comparator == "eq" and o.value.value == edge for o, v in verdicts)  # type: ignore[union-attr]
    if agree.value.comparator == comparator:  # type: ignore[union-attr]
        return False
    if agree.value.value is not None and agree.value.value == fact.value.value:  # type: ignore[union-attr]
        return False  # "can be extended to 45 days" states the limit "up to 45 days" itself
    return any(v == "different" and o.value.comparator == comparator for o, v in verdicts)  # type: ignore[union-attr]


def stated_by_claim(value: Fact, fact: Fact, claim: Claim) -> bool:
    """Whether the claim itself states `value` for another item than `fact`: no rival then, nor
    another source's value ("$0.25 a minute in Zone 1 and $1.50 in Zone 2"; "2026年度" beside
    "2027年3月1日" in "2026年度的汇算办理期是2027年3月1日到6月30日")."""
    return any(o is not fact and o.kind == value.kind and compare_facts(o, value) == "equal" for o in claim.facts)


def _usual_beside_longest(fact: Fact, verdicts: list[tuple[Fact, str]]) -> bool:
    """"一般4小时左右" (about 4 hours: the usual time) against "平均响应时间为2小时，最长不超过4小时":
    the bound is the longest time, and the usual one is the plain value beside it, so no bound
    the span states confirms the claim."""
    q = fact.value
    if fact.kind != "number" or not q.approximate or q.comparator != "eq":  # type: ignore[union-attr]
        return False
    bounds = [o for o, v in verdicts if v == "compatible" and o.value.comparator != "eq" and o.value.value == q.value]  # type: ignore[union-attr]
    # (the usual value lies within the bound: "12個工作天內……，完整方案約需30個工作天" is two cases)
    return any(v == "different" and o.value.comparator == "eq" and o.value.value is not None  # type: ignore[union-attr]
               and any(_within(o.value.value, b.value) for b in bounds) for o, v in verdicts)  # type: ignore[union-attr]


def _within(value, bound) -> bool:
    """Whether a plain value lies strictly inside a bound ("2小时" inside "最长不超过4小时")."""
    if bound.comparator in ("le", "lt"):
        return value < bound.value
    return bound.comparator not in ("ge", "gt") or value > bound.value


def _check_date(fact: Fact, ranked: list[Candidate], min_relevance: float, claim: Claim | None = None,
                question: str = "") -> FactResult:
    # Sentences often hold several dates (a baseline, a deadline), so any relevant span that
    # confirms the date is a match; only then does a different date count against it. A date
    # the span gives for another case is a mismatch, as a number is ("Harlow Library sessions
    # are on Tuesdays; Eastgate sessions are on Wednesdays").
    for cand in ranked:
        if cand.relevance >= min_relevance or cand is ranked[0]:
            agree = next((o for o in cand.span.facts if o.kind == "date" and date_confirms(fact, o)), None) \
                or within_deadline(fact, cand.span, claim)
            if agree is None and (period := within_period(fact, cand.span, claim)) is not None:
                edge, text, holds = period
                return FactResult(fact, "matched" if holds else "mismatched", edge, text, cand.span.source_id)
            if agree is not None:
                rival = None if claim is None else _bound_in_window(fact, agree, cand.span, ranked, claim, question)
                if rival is not None:
                    return FactResult(fact, "mismatched", rival, rival.text, cand.span.source_id)
                if claim is not None and agree in cand.span.facts and (other := date_slot_elsewhere(
                        fact, cand, agree, ranked, claim, min_relevance,
                        lambda o: compare_facts(as_stated(fact), o) == "different" and comparable(fact, o))):
                    return FactResult(fact, "mismatched", other[0], other[0].text, other[1])
                return FactResult(fact, "matched", agree, agree.text, cand.span.source_id)
    for cand in ranked:
        if cand.relevance < min_relevance:
            continue
        clash = next((o for o in cand.span.facts if o.kind == "date" and (
            compare_facts(as_stated(fact), o) == "different" and comparable(fact, o) or more_weekdays(fact, o, True))), None)
        if clash is not None:
            return FactResult(fact, "mismatched", clash, clash.text, cand.span.source_id)
    return FactResult(fact, "missing")

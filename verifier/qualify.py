"""Qualifier and negation checks between a claim and the evidence it rests on.

A small cross-encoder reads "个人用户的退货期限为15天" and "企业客户……退货期限为15天" as the same
statement, and "also returnable" against "not returnable" as close paraphrases. These checks
catch what the model misses, with the values that differ named in the report:

- a qualifier (customer type, employment type, region, billing period, frequency, membership,
  the role that approves or decides) the claim states while the evidence states another value
  for the same slot is a mismatch. Qualifiers are read first between the neighbours of each
  value the claim matched ("$600 for full-time employees and $300 for part-time"), then in its
  clause ("$12 ... when billed annually, or $15 ... billed monthly"), then in the sentence that
  states the claim, then in the whole span. A qualifier the evidence leaves unstated is no
  problem: sources often state who a rule is for once, in the title.
- negation: a claim that negates what its evidence affirms, or affirms what the evidence's
  closest clause negates (where the negation bears on the claim's words), is opposite polarity;
  so is an opposite word without a negation cue ("include"/"exclude", "收费"/"免费"), and a
  permission against a prohibition ("可以" against "不得").
- additive claims: "X 也可以 Y" / "X can also Y" needs evidence that names X where it says Y.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from extractors import Claim, Fact
from extractors.compare import other_side
from extractors.numbers import extract_numbers
from extractors.qualifiers import (Qualifier, clauses, find_qualifiers, is_negated, negation_scopes,
                                   opposite_words, qualifiers_agree, sentences)
from extractors.schema import QualifierValue
from extractors.text import normalise
from extractors.tokens import content_tokens, token_recall
from verifier.candidates import Candidate
from verifier.fact_result import FactResult

# Slots that describe the asker rather than the thing asked about.
ASKER_SLOTS = frozenset({"customer", "membership", "region", "employment"})
# Opposite polarity counts only where the evidence is clearly about the claim.
POLARITY_MIN_RECALL = 0.6
# Chinese is matched on character bigrams, and the bigrams across word edges ("间同", "样可")
# rarely recur in a paraphrase, so the same closeness shows as a lower recall.
POLARITY_MIN_RECALL_ZH = 0.5
MODAL_MIN_RECALL = 0.4
_PERMISSION = re.compile(r"可以|允许|准许|\b(?:can|may|allowed|permitted)\b", re.IGNORECASE)
_PROHIBITION = re.compile(r"不得|禁止|严禁|不可|不能|不允许|不准|\b(?:cannot|can't|may not|must not|not allowed|"
                          r"not permitted|prohibited)\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Place:
    source_id: str
    text: str


def check_qualifiers(claim: Claim, facts: list[FactResult], candidates: list[Candidate],
                     support: Candidate | None) -> list[FactResult]:
    """One result per qualifier slot of the claim that the evidence also fills."""
    own = find_qualifiers(claim.source_text)
    if not own:
        return []
    places = _places(claim, facts, candidates, support)
    results: list[FactResult] = []
    for slot in dict.fromkeys(q.slot for q in own):
        mine = [q for q in own if q.slot == slot]
        for place in (_matter_places(claim, mine, support) if slot == "agent" else []) + places:
            theirs = [q for q in find_qualifiers(place.text) if q.slot == slot]
            if slot == "role":
                theirs = _same_action(claim.source_text, mine, place.text, theirs)
            elif slot == "agent":  # only a doer of the same action says who does it
                theirs = _same_doing(mine, theirs)
            if not theirs:
                continue
            pair = next(((m, t) for t in theirs for m in mine if qualifiers_agree(slot, m.value, t.value)), None)
            if pair is not None:
                results.append(_result(claim, pair[0], "matched", pair[1], place))
            else:
                results.append(_result(claim, mine[0], "mismatched", theirs[0], place))
            break
    return results


# What a role does, right after it: "由直属主管审批，……由所在部门HRBP备案".
_ACTION = re.compile(r"\s?(审批|批准|审核|签批|签字|备案|负责|approves?|signs?|reviews?)", re.IGNORECASE)


def _same_action(claim_text: str, mine: list[Qualifier], place_text: str, theirs: list[Qualifier]) -> list[Qualifier]:
    """The evidence's roles that do what the claim's role does, when both say it: the approver
    is not found in the role that only files the approved request."""
    def action(text: str, q: Qualifier) -> str | None:
        m = _ACTION.match(normalise(text), q.end)
        return m.group(1).lower() if m else None

    wanted = {action(claim_text, q) for q in mine} - {None}
    if not wanted:
        return theirs
    acting = [t for t in theirs if action(place_text, t) in wanted]
    return acting or theirs


def _same_doing(mine: list[Qualifier], theirs: list[Qualifier]) -> list[Qualifier]:
    return [t for t in theirs if any(t.value.partition(":")[0] == m.value.partition(":")[0] for m in mine)]


def _matter_places(claim: Claim, mine: list[Qualifier], support: Candidate | None) -> list[_Place]:
    """The clause of the supporting span about the claim's matter, when the span names a doer per
    matter ("版税结算相关问题请联系版权结算部；歌曲上线……请联系内容运营部"): the claim's doer must be
    that clause's. Which clause is judged on the words other than the doers' names, which would
    otherwise pick the clause naming the claim's doer, right or wrong."""
    if support is None:
        return []
    text = support.span.text
    theirs = _same_doing(mine, [q for q in find_qualifiers(text) if q.slot == "agent"])
    parts = [(a, b) for a, b in clauses(text) if any(a <= t.start < b for t in theirs)]
    if len(parts) < 2:
        return []

    def without_doers(piece: str, doers: list[Qualifier], offset: int = 0) -> str:
        for q in sorted(doers, key=lambda q: -q.start):
            piece = piece[: q.start - offset] + " " + piece[q.end - offset :]
        return piece

    matter = without_doers(claim.source_text, mine)
    scores = sorted(((token_recall(matter, without_doers(text[a:b], [t for t in theirs if a <= t.start < b], a)), (a, b))
                     for a, b in parts), reverse=True)
    if scores[0][0] <= scores[1][0]:
        return []
    a, b = scores[0][1]
    return [_Place(support.span.source_id, text[a:b])]


def asker_qualifiers(question: str | None) -> dict[str, set[str]]:
    """Slot -> values the question states ("我是个人用户" -> customer: personal)."""
    found: dict[str, set[str]] = {}
    for q in find_qualifiers(question or ""):
        if q.slot in ASKER_SLOTS:
            found.setdefault(q.slot, set()).add(q.value)
    return found


def applies_to_asker(claim: Claim, span_text: str, asker: dict[str, set[str]] | None) -> bool:
    """False when the span is stated for someone else than the asker, in a slot the claim
    leaves implicit: the enterprise rule is no evidence for a personal customer's answer."""
    if not asker:
        return True
    own = {q.slot for q in find_qualifiers(claim.source_text)}
    # In a window of several sentences, the one that states the claim decides.
    stated = _closest_part(claim, span_text, sentences)
    theirs: dict[str, set[str]] = {}
    for q in find_qualifiers(stated):
        theirs.setdefault(q.slot, set()).add(q.value)
    return all(not theirs.get(slot) or theirs[slot] & values
               for slot, values in asker.items() if slot not in own)


def _polarity_min_recall(text: str) -> float:
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return POLARITY_MIN_RECALL_ZH if cjk * 2 > len(text.strip()) else POLARITY_MIN_RECALL


def polarity_clash(claim: Claim, span_text: str) -> bool:
    """Whether the claim says the opposite of the span: one negates what the other states, or
    a clause of the span uses the opposite word ("exclude" for "include"), or gives the claim's
    rule for the other side of the claim's bound."""
    if rule_for_other_side(claim, span_text):
        return True
    for a, b in clauses(span_text):
        part = span_text[a:b]
        swap = opposite_words(claim.text, part)
        if swap and _other_side(claim, part):
            continue  # "3个月内……免费更换；超过3个月……收费": the other side of the claim's bound
        # Recall as if the claim used the clause's word, so the swapped word is not missing (set
        # apart, so that Chinese character pairs across it do not count as missing either), between
        # the claim and that clause, either way: "同城不同门店还车免费" is no opposite of
        # "异地还车按距离收费", and "每月前3笔免费" is what "跨行取现每月前3笔不收费" says.
        # (the words come back normalised: 看诊 for 看診)
        if not swap:
            continue
        swapped = normalise(claim.text).lower().replace(swap[0], f" {swap[1]} ")
        if max(token_recall(swapped, part), token_recall(part, swapped)) >= _polarity_min_recall(claim.text):
            # "不收费" against "免费": the opposite word under a negation says the same thing.
            return is_negated(claim.text) == is_negated(part)
    # "if you can't make it, you can ask for a refund": a negation inside a condition denies nothing.
    plain = _CONDITIONAL_NEGATION.sub(" ", normalise(claim.text))
    if is_negated(_RELATIVE_NEGATION.sub(" ", plain)):
        return token_recall(claim.text, span_text) >= POLARITY_MIN_RECALL and not is_negated(span_text)
    # An affirmative claim clashes only with a negation in the clause it matches best, so
    # "returns are free; gift cards are not refundable" does not clash with "returns are free".
    best = _closest_part(claim, span_text, clauses)
    if (relative := _RELATIVE_NEGATION.search(plain)) and (picked := plain[relative.end():].split()[:1]):
        # "any repair that isn't covered" against "any non-covered repair": the same items picked out
        if any(picked[0].lower() in scope.split() for scope in negation_scopes(best)):
            return False
    # "可以用来买股票" against "不得用于投资股票": a permission against a prohibition is opposite
    # even when the two word the rest differently.
    if _PERMISSION.search(claim.text) and _PROHIBITION.search(best) and is_negated(best):
        # (is_negated leaves out bounds: "must not exceed $500" prohibits nothing; the claim's
        # values are no wording to find: "可以续借一次" against "不可续借")
        return token_recall(_without_values(claim), best) >= MODAL_MIN_RECALL
    # The negation must bear on what the claim says: "cancel at any time with no penalty"
    # does not deny "you can cancel at any time".
    mine = frozenset(content_tokens(claim.text))
    if (_ruled_out(mine - _ruled_out_by_claim(claim.text), span_text)
            and token_recall(claim.text, span_text) >= _polarity_min_recall(claim.text)):
        return True
    if _CONDITIONAL_NEGATION.search(normalise(best)):
        return False  # "lost if it has not been delivered in 30 days" states a condition, denies nothing
    if _other_side(claim, best):
        return False  # "20%以下的不予赔付" denies the other side of the claim's "超过20%"
    if _denied_in_own_clause(claim, mine, span_text):
        return True
    about_claim = any(not content_tokens(scope) or mine & frozenset(content_tokens(scope))
                      for scope in negation_scopes(best))
    # ("照常" / "as usual" affirms, it has nothing of its own to find in the span)
    return token_recall(_AS_USUAL.sub(" ", claim.text), best) >= _polarity_min_recall(claim.text) and about_claim


def _without_values(claim: Claim) -> str:
    text = claim.text
    for fact in claim.facts:
        if fact.kind == "number":
            text = text.replace(fact.text, " ")
    return text


_AS_USUAL = re.compile(r"照常|照樣|照样|也|\bas usual\b", re.IGNORECASE)


_CONDITIONAL_NEGATION = re.compile(r"\b(?:if|unless|until|when|once)\b[^,;:.]*?(?:\b(?:not|never|no|cannot)\b|n['’]t\b)|"
                                   r"\b(?:who|that)\s+(?:do|does|did|have|has)\s+not\b|"
                                   # "Items not redeemed within 30 days become the store's property"
                                   r"\b\w+s\s+not\s+\w+ed\s+(?:within|by|before|after|in time|on time)\b|"
                                   r"(?:如果|如|若|倘若|假如)[^，,；;。]*?[未没不]", re.IGNORECASE)
# A relative clause picks out the items, denies nothing: "medication that isn't controlled",
# "any hours you don't use". The source may pick them out with a negation of its own ("non-covered").
_RELATIVE_NEGATION = re.compile(r"\b(?:who|that|which)\s+(?:is|are|was|were)(?:\s+not\b|n['’]t\b)|"
                                r"\b(?:any|all|every)\s+(?:\w+\s+){1,2}(?:you|they|we)\s+(?:do|did)(?:\s+not\b|n['’]t\b)",
                                re.IGNORECASE)
_CONTRAST = re.compile(r"\s*(?:(?:and\s+)?not\b|rather than\b|instead of\b|而不是|而非|并非|不是由|不由)", re.IGNORECASE)


def rule_for_other_side(claim: Claim, span_text: str) -> bool:
    """Whether the span says what the claim says, with the same polarity, of the other side of
    the claim's bound: "over 15 horsepower don't need a licence" against "up to 15 horsepower
    may be rented without a licence". (With opposite polarity the two agree: `_other_side`.)"""
    mine = [f.value for f in claim.facts if f.kind == "number" and f.value.value is not None]  # type: ignore[union-attr]
    if not any(q.comparator != "eq" for q in mine):  # type: ignore[union-attr]
        return False  # only a bound has another side
    if any(f.value in mine for f in extract_numbers(span_text) if f.kind == "number"):
        return False  # the span gives both sides their rules: "under 6 hours …; 6 hours or more …"
    negated = is_negated(_CONDITIONAL_NEGATION.sub(" ", normalise(claim.text)))
    for a, b in clauses(span_text):
        part = span_text[a:b]
        theirs = [f.value for f in extract_numbers(part) if f.kind == "number"]
        if (any(other_side(q, c) for q in theirs for c in mine) and is_negated(part) == negated  # type: ignore[arg-type]
                and token_recall(claim.text, part) >= POLARITY_MIN_RECALL):
            return True
    return False


def _other_side(claim: Claim, clause: str) -> bool:
    """Whether the clause bounds one of the claim's values from the other side: it speaks of
    the complementary case ("20%以下" against the claim's "超过20%")."""
    mine = [f.value for f in claim.facts if f.kind == "number" and f.value.value is not None]  # type: ignore[union-attr]
    return any(other_side(q, c) for q in (f.value for f in extract_numbers(clause) if f.kind == "number")  # type: ignore[misc]
               for c in mine)


def _denied_in_own_clause(claim: Claim, mine: frozenset[str], span_text: str) -> bool:
    """Whether a negated clause of the span holds words of the claim no other clause has, and
    its negation bears on the claim: "线上配送的订单也可以用医保个人账户支付" against "医保个人账户支付
    仅支持门店自提订单，线上配送订单暂不支持医保支付" (the clauses tie on overlap)."""
    parts = clauses(span_text)
    if len(parts) < 2 or token_recall(claim.text, span_text) < _polarity_min_recall(claim.text):
        return False
    # Only where the negated clause matches the claim as well as any clause does: "There is no
    # overall charge to a water molecule, but there is a slight positive charge on each hydrogen
    # atom" supports "hydrogen atoms … have a positive charge" in its closer clause.
    closest = max(token_recall(claim.text, span_text[a:b]) for a, b in parts)
    for a, b in parts:
        part = span_text[a:b]
        if not is_negated(part) or _CONDITIONAL_NEGATION.search(normalise(part)) \
                or token_recall(claim.text, part) < closest:
            continue
        rest = frozenset(content_tokens(span_text[:a] + " " + span_text[b:]))
        if len(mine & (frozenset(content_tokens(part)) - rest)) >= 2 and any(
                mine & frozenset(content_tokens(scope)) for scope in negation_scopes(part)):
            return True
    return False


def _ruled_out_by_claim(text: str) -> frozenset[str]:
    """Words only the claim's own contrast clauses hold: "once per policy year rather than per
    condition" rules "condition" out as the span's "not per condition" does."""
    words: set[str] = set()
    for a, b in clauses(text):
        part = normalise(text[a:b])
        m = _CONTRAST.match(part) or _CLAIM_CONTRAST.search(part)
        if m is not None:
            a += m.start()
            words |= set(content_tokens(text[a:b])) - set(content_tokens(text[:a] + " " + text[b:]))
    return frozenset(words)


_CLAIM_CONTRAST = re.compile(r"\b(?:rather than|instead of)\b|而不是|而非", re.IGNORECASE)


def _ruled_out(claim_words: frozenset[str], span_text: str) -> bool:
    """Whether the claim takes a side a contrast clause of the span rules out: "issued by the
    Transportation Office, not by individual schools" against "collect it from the school office"."""
    for a, b in clauses(span_text):
        if _CONTRAST.match(normalise(span_text[a:b])):
            rest = frozenset(content_tokens(span_text[:a] + " " + span_text[b:]))
            if claim_words & (frozenset(content_tokens(span_text[a:b])) - rest):
                return True
    return False


# "X 也可以 Y", "X can also Y": the answer extends a rule to X. Small models read "试用期员工也可以
# 享受体检" as entailed by "员工入职满一年后可享受体检"; the evidence must name X where it says Y.
_ADDITIVE = re.compile(r"也(?=可以|可|能|有|会|需|要|是|适用|享|必须|应)|同样(?=可以|可|能|适用|享)|亦(?=可)|还(?=可以|可|能|享)"
                       r"|\b(?:also|as well)\b", re.IGNORECASE)
_AUXILIARY = re.compile(r"(?:\s+(?:can|may|could|will|would|should|must|are|is|do|does|have|has))+$", re.IGNORECASE)
SUBJECT_MIN_RECALL = 0.5


def unstated_subject(claim: Claim, span_text: str) -> str | None:
    """The X of an additive claim ("X also Y") when the sentence of `span_text` that says Y
    does not name X; None when the claim is not additive or the evidence names X.

    The answer's own words before 还/also are X where it has some ("成人票是128元，当天凭门票买酒
    还能打九五折": what 还 adds to is the purchase); the subject carried over from the previous
    clause only where it has none ("金卡会员……，还可以享受免费早餐")."""
    m = _ADDITIVE.search(claim.source_text)
    text = claim.source_text if m is not None and content_tokens(claim.source_text[:m.start()]) else claim.text
    m = _ADDITIVE.search(text)
    if m is None:
        return None
    subject = _AUXILIARY.sub("", text[:m.start()].strip(" ，,、：:"))
    rest = text[m.end():]
    if not content_tokens(subject) or not content_tokens(rest):
        return None  # "You also need ..." names no one the evidence could name
    if re.search(r"[，,；;]", subject):
        return None  # "……，会带你参观酒窖，还能品三款酒": 还 adds to the clauses before, not to a subject
    # A sentence that lists cases (";"/"；") states each in its own part: "钻石会员可享受双人免费早餐
    # ……；金卡会员可享受最晚下午2点退房" does not give 金卡会员 the breakfast.
    parts = [p for a, b in sentences(span_text) for p in re.split(r"[；;]", span_text[a:b]) if p.strip()]
    stated = max(parts, key=lambda part: token_recall(rest, part), default=span_text)
    return subject if token_recall(subject, stated) < SUBJECT_MIN_RECALL else None


def _places(claim: Claim, facts: list[FactResult], candidates: list[Candidate],
            support: Candidate | None) -> list[_Place]:
    """Where the claim's statement sits in the evidence, most specific first."""
    places: list[_Place] = []
    for result in facts:
        if result.status != "matched" or result.evidence is None:
            continue
        ev = result.evidence
        span = next((c.span for c in candidates if c.span.source_id == result.source_id
                     and c.span.start <= ev.start and ev.end <= c.span.end), None)
        if span is None:
            continue
        at = ev.start - span.start
        clause = next(((a, b) for a, b in clauses(span.text) if a <= at < b), None)
        if clause is not None:
            # "$600 for full-time employees and $300 for part-time employees": the words between
            # the neighbouring values belong to this one.
            others = [(f.start - span.start, f.end - span.start) for f in span.facts
                      if f.kind == "number" and f.start != ev.start]
            lo = max([e for s, e in others if clause[0] <= s and e <= at], default=clause[0])
            hi = min([s for s, e in others if s > at and e <= clause[1]], default=clause[1])
            if (lo, hi) != clause:
                places.append(_Place(span.source_id, span.text[lo:hi]))
            places.append(_Place(span.source_id, span.text[clause[0]:clause[1]]))
        places.append(_Place(span.source_id, span.text))
    if support is not None:
        # In a window of several sentences, the one that states the claim first.
        text = support.span.text
        if len(sentences(text)) > 1:
            places.append(_Place(support.span.source_id, _closest_part(claim, text, sentences)))
        places.append(_Place(support.span.source_id, text))
    return places


def _closest_part(claim: Claim, text: str, cut: Callable[[str], list[tuple[int, int]]]) -> str:
    """The piece of `text` (a sentence or clause, by `cut`) holding most of the claim's words."""
    return max((text[a:b] for a, b in cut(text)), key=lambda part: token_recall(claim.text, part), default=text)


def _result(claim: Claim, mine: Qualifier, status: str, theirs: Qualifier, place: _Place) -> FactResult:
    fact = Fact(kind="qualifier", text=mine.text, start=claim.start + mine.start, end=claim.start + mine.end,
                value=QualifierValue(slot=mine.slot, value=mine.value))
    evidence = Fact(kind="qualifier", text=theirs.text, start=theirs.start, end=theirs.end,
                    value=QualifierValue(slot=theirs.slot, value=theirs.value))
    return FactResult(fact, status, evidence, theirs.text, place.source_id)

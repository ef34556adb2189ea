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
- values for a group: "up to $80 per day" where the evidence gives $80 only to "Gold members"
  (and $50 to everyone else), when neither the claim nor the asker names the group, is partial.
- dropped conditions: "Shipping is free" where the evidence says "free for orders over $75"
  (a threshold or an "if" the claim leaves out) is partial.
- broadened claims: "allowed for all flights" where the evidence says "for flights of 6 hours or
  more", or "a Vice President or a director" where it names only the Vice President. The words
  match, so the rules that support close paraphrases without the model must not fire.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from extractors import Claim, Fact
from extractors.compare import compare_facts
from extractors.qualifiers import (Qualifier, clauses, find_qualifiers, is_negated, negation_scopes,
                                   opposite_words, qualifiers_agree, sentences)
from extractors.schema import QualifierValue
from extractors.text import normalise
from extractors.tokens import content_tokens, token_recall
from verifier.candidates import Candidate
from verifier.factcheck import FactResult, same_dimension
from verifier.segment import Span

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
        for place in places:
            theirs = [q for q in find_qualifiers(place.text) if q.slot == slot]
            if not theirs:
                continue
            pair = next(((m, t) for t in theirs for m in mine if qualifiers_agree(slot, m.value, t.value)), None)
            if pair is not None:
                results.append(_result(claim, pair[0], "matched", pair[1], place))
            else:
                results.append(_result(claim, mine[0], "mismatched", theirs[0], place))
            break
    return results


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
    a clause of the span uses the opposite word ("exclude" for "include")."""
    for a, b in clauses(span_text):
        part = span_text[a:b]
        swap = opposite_words(claim.text, part)
        # Recall as if the claim used the clause's word, so the swapped word is not missing.
        if swap and token_recall(claim.text.replace(swap[0], swap[1]), span_text) >= POLARITY_MIN_RECALL:
            # "不收费" against "免费": the opposite word under a negation says the same thing.
            return is_negated(claim.text) == is_negated(part)
    if is_negated(claim.text):
        return token_recall(claim.text, span_text) >= POLARITY_MIN_RECALL and not is_negated(span_text)
    # An affirmative claim clashes only with a negation in the clause it matches best, so
    # "returns are free; gift cards are not refundable" does not clash with "returns are free".
    best = _closest_part(claim, span_text, clauses)
    # "可以用来买股票" against "不得用于投资股票": a permission against a prohibition is opposite
    # even when the two word the rest differently.
    if _PERMISSION.search(claim.text) and _PROHIBITION.search(best) and is_negated(best):
        # (is_negated leaves out bounds: "must not exceed $500" prohibits nothing)
        return token_recall(claim.text, best) >= MODAL_MIN_RECALL
    # The negation must bear on what the claim says: "cancel at any time with no penalty"
    # does not deny "you can cancel at any time".
    mine = frozenset(content_tokens(claim.text))
    if _ruled_out(mine, span_text) and token_recall(claim.text, span_text) >= _polarity_min_recall(claim.text):
        return True
    about_claim = any(not content_tokens(scope) or mine & frozenset(content_tokens(scope))
                      for scope in negation_scopes(best))
    return token_recall(claim.text, best) >= _polarity_min_recall(claim.text) and about_claim


_CONTRAST = re.compile(r"\s*(?:(?:and\s+)?not\b|rather than\b|instead of\b|而不是|而非|并非|不是由|不由)", re.IGNORECASE)


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
_ADDITIVE = re.compile(r"也(?=可以|可|能|有|会|需|要|是|适用|享|必须|应)|同样(?=可以|可|能|适用|享)|亦(?=可)"
                       r"|\b(?:also|as well)\b", re.IGNORECASE)
_AUXILIARY = re.compile(r"(?:\s+(?:can|may|could|will|would|should|must|are|is|do|does|have|has))+$", re.IGNORECASE)
SUBJECT_MIN_RECALL = 0.5


def unstated_subject(claim: Claim, span_text: str) -> str | None:
    """The X of an additive claim ("X also Y") when the sentence of `span_text` that says Y
    does not name X; None when the claim is not additive or the evidence names X."""
    m = _ADDITIVE.search(claim.text)
    if m is None:
        return None
    subject = _AUXILIARY.sub("", claim.text[:m.start()].strip(" ，,、：:"))
    rest = claim.text[m.end():]
    if not content_tokens(subject) or not content_tokens(rest):
        return None  # "You also need ..." names no one the evidence could name
    stated = max((span_text[a:b] for a, b in sentences(span_text)),
                 key=lambda part: token_recall(rest, part), default=span_text)
    return subject if token_recall(subject, stated) < SUBJECT_MIN_RECALL else None


_UNIVERSAL = re.compile(r"\b(?:all|any|every|everyone|everybody|anyone|anybody|anything|everything|always|"
                        r"whatever|whenever|wherever|regardless|no matter)\b|所有|任何|一律|全部|一切|"
                        r"无论|不论|任意|凡是|总是|始终|均可|都可以|都能", re.IGNORECASE)
_COORDINATOR = re.compile(r"\b(?:or|and|nor)\b|或者|或是|以及|或|及|和|与")
_COORDINATED_WORDS = 2
_RESTRICTION_REACH = 20  # characters from a universal to the value that restricts it
_NUMERAL_WORDS = frozenset("half quarter third one two three four five six seven eight nine ten".split())  # "time and a half"


def _word_key(token: str) -> str:
    # The light stemmer leaves "taxis" whole; four letters are enough to tell an added word.
    return token[:4] if token.isascii() else token


def broadens(claim: Claim, span_text: str) -> str | None:
    """The words by which the claim says more than the span while using its words: a universal
    ("all", "任何") the span lacks, or an `added_alternative`. None when there is none."""
    return _unstated_universal(claim, span_text) or added_alternative(claim, span_text)


def _unstated_universal(claim: Claim, span_text: str) -> str | None:
    stated = {m.group().lower() for m in _UNIVERSAL.finditer(normalise(span_text))}
    for m in _UNIVERSAL.finditer(normalise(claim.text)):
        # "any hours beyond 40" is restricted by its value; "all flights" is not.
        restricted = any(0 <= f.start - m.end() <= _RESTRICTION_REACH for f in claim.facts)
        if m.group().lower() not in stated and not restricted:
            return m.group()
    return None


def added_alternative(claim: Claim, span_text: str) -> str | None:
    """An alternative or addition joined by "or"/"and"/"或" whose words the span lacks: "a Vice
    President or a director" where the span names only the Vice President. Unlike a universal
    ("All flights must be booked through Navan"), it is never implied by the span."""
    text = normalise(claim.text)
    have = frozenset(map(_word_key, content_tokens(span_text)))
    for m in _COORDINATOR.finditer(text):
        if any(f.start <= m.start() < f.end for f in claim.facts):
            continue  # inside a value: "一千二百及以上"
        rest = re.split(r"[,;，；。、]", text[m.end():], maxsplit=1)[0]
        joined = content_tokens(rest)[:_COORDINATED_WORDS]
        before = content_tokens(text[:m.start()])[-1:]
        if before and re.search(rf"\b{re.escape(before[0][:4])}\w*\s+{m.group()}\b", normalise(span_text), re.IGNORECASE):
            continue  # the span lists alternatives at the same place: "app or online" for "app or website"
        if joined and not have.intersection(map(_word_key, joined)) and not _NUMERAL_WORDS.intersection(joined):
            return claim.text[m.start():m.end() + _phrase_length(rest, len(joined))].strip()
    return None


_ZH_PHRASE_END = re.compile(r"(?<=.)[可能需要应是的在为有将会]")


def _phrase_length(rest: str, n_tokens: int) -> int:
    """Characters of `rest` up to its `n_tokens`-th content token; a Chinese run up to its verb
    or particle ("或项目负责人可以…" -> "项目负责人"), 6 characters at most."""
    for word in re.finditer(r"\S+", rest):
        if word.group().isascii():
            if len(content_tokens(rest[:word.end()])) >= n_tokens:
                return word.end()
            continue
        stop = _ZH_PHRASE_END.search(word.group())
        return word.start() + min(stop.start() if stop else len(word.group()), 6)
    return len(rest)


CONDITION_STATED_RECALL = 0.5  # share of a condition's words the claim must hold to state it
# Tiers a value may be reserved for within one page ("Gold members may claim up to $80"). Who a
# whole page is for (personal vs enterprise, employees) is usually said once, so not these.
GROUP_SLOTS = frozenset({"tier", "membership"})


def group_value(claim: Claim, facts: list[FactResult], span: Span,
                asker: dict[str, set[str]] | None = None) -> tuple[str, str] | None:
    """(value, group) when a value the claim matched is one the span gives only to a group the
    claim and the asker do not name, beside another value for everyone else: "Skyrill Gold
    members may claim up to $80 per day" after "up to $50 per day" (a value for the same thing:
    its clause shares a word of the claim beside the values)."""
    named = {q.slot for q in find_qualifiers(claim.source_text)} | set(asker or {})
    parts = clauses(span.text)
    mine = frozenset(content_tokens(claim.text)) - frozenset(t for f in claim.facts for t in content_tokens(f.text))
    for result in facts:
        value = result.evidence
        if result.status != "matched" or value is None or result.fact.kind != "number" \
                or not span.start <= value.start < span.end:
            continue
        at = value.start - span.start
        a, b = next(((a, b) for a, b in parts if a <= at < b), (0, 0))
        groups = [q for q in find_qualifiers(span.text[a:b]) if q.slot in GROUP_SLOTS and q.slot not in named]
        others = [o for o in span.facts if o.kind == "number" and not a <= o.start - span.start < b
                  and same_dimension(value, o) and compare_facts(value, o) == "different"
                  and mine & frozenset(content_tokens(_clause_of(span, o)))]
        if groups and others:
            return value.text, groups[0].text
    return None


def _clause_of(span: Span, fact: Fact) -> str:
    at = fact.start - span.start
    return next((span.text[a:b] for a, b in clauses(span.text) if a <= at < b), "")


_CONDITION_WORD = re.compile(r"\b(?:if|unless|provided that|as long as)\b|如果|若|只要|除非|只有", re.IGNORECASE)


def dropped_condition(claim: Claim, span: Span, facts: list[FactResult]) -> str | None:
    """The clause of `span` that makes its rule conditional when the claim states the rule
    without the condition: a threshold ("over $75", "满99元", "6 hours or more") the claim's
    values do not match, a cap ("最多5天") where the claim says "全部", or an "if"/"unless"/"如果"
    clause. None when nothing is dropped."""
    parts = clauses(span.text)
    if not parts:
        return None
    best = max(range(len(parts)), key=lambda k: token_recall(claim.text, span.text[slice(*parts[k])]))
    a, b = parts[best]
    matched = {(f.evidence.start, f.evidence.end) for f in facts if f.evidence is not None}
    said = normalise(claim.sentence or claim.text)
    # A cap ("最多5天") is a condition too when the claim says "all" where the span caps it.
    bounds = ("gt", "ge", "le", "lt") if _unstated_universal(claim, span.text) else ("gt", "ge")
    for fact in span.facts:
        threshold = fact.kind == "number" and fact.value.comparator in bounds  # type: ignore[union-attr]
        if (threshold and a <= fact.start - span.start < b and (fact.start, fact.end) not in matched
                and _plain_number(fact) not in said):
            return span.text[a:b].strip()
    if _CONDITION_WORD.search(said):
        return None
    for k in (best, best - 1):
        part = span.text[slice(*parts[k])].strip() if k >= 0 else ""
        condition = part if _CONDITION_WORD.match(part) else part[m.start():] if k == best and (
            m := _CONDITION_WORD.search(part)) else ""
        # "within 72 hours of a confirmed breach" states "If a breach ... is confirmed" in other words.
        if condition and token_recall(condition, said) < CONDITION_STATED_RECALL:
            return part
    return None


def _plain_number(fact: Fact) -> str:
    value = fact.value.value if fact.value.value is not None else fact.value.low  # type: ignore[union-attr]
    return format(value.normalize(), "f") if value is not None else fact.text


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

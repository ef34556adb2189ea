"""Names and codes in a claim, found in the evidence or in the sources' titles.

A name matches on its key (case, width, script and punctuation folded). A name found nowhere,
or only in a sentence about something else, is a mismatch when the span most about the claim
names another party in its place.
"""

from __future__ import annotations

import re
from typing import Callable

from extractors import Claim, Fact
from extractors.compare import compare_facts, same_dimension, same_slot
from extractors.qualifiers import clauses
from extractors.text import match_key, normalise
from extractors.tokens import content_tokens, token_recall
from verifier.cases import SENTENCE_END
from verifier.candidates import Candidate
from verifier.fact_result import FactResult
from verifier.segment import Span

# How clearly the span most about a claim must be about it before its names say who fills a role.
ROLE_RELEVANCE = 0.6


# Names whose NER label is unreliable across them (spaCy-small calls Cigna a place): any of
# these can stand where the claim's name stands.
_PROPER_NOUN_LABELS = frozenset({"ORG", "GPE", "LOC", "PERSON", "PRODUCT", "NORP"})
# How much of the rest of the claim a span must say for its other name to fill the same role.
SAME_ROLE_RECALL = 0.6
SPANS_FOR_NAMES = 3


def entity_clash(claim: Claim, result: FactResult, ranked: list[Candidate], min_relevance: float,
                 entities_of: Callable[[str], list[Fact]]) -> FactResult:
    """A name found nowhere is a mismatch when a relevant span names someone else in its place:
    "administered by Aetna" where the source says "administered by Cigna"."""
    if result.status != "missing" or result.fact.kind != "entity":
        return result
    fact = result.fact
    rest = claim.text.replace(fact.text, " ")
    claim_key = match_key(claim.text)
    for cand in [c for c in ranked if c.relevance >= min_relevance][:SPANS_FOR_NAMES]:
        for other in entities_of(cand.span.text):
            if compare_facts(fact, other) != "different" or match_key(other.text) in claim_key:
                continue
            labels = {fact.value.label, other.value.label}  # type: ignore[union-attr]
            if same_slot(fact, other) or (labels <= _PROPER_NOUN_LABELS
                                          and token_recall(rest, cand.span.text) >= SAME_ROLE_RECALL):
                return FactResult(fact, "mismatched", other, other.text, cand.span.source_id)
    return result


def entity_displaced(claim: Claim, result: FactResult, ranked: list[Candidate],
                     entities_of: Callable[[str], list[Fact]]) -> FactResult:
    """A name found only in a sentence about something else is a mismatch when the span most
    about the claim names another party in its place: "appeal to Northgate's claims unit"
    where the appeals sentence says "the BrightBite Member Advocacy Office" and Northgate is
    named only as the claims processor."""
    fact = result.fact
    if result.status != "matched" or fact.kind != "entity" or not ranked or ranked[0].relevance < ROLE_RELEVANCE:
        return result
    top = ranked[0].span
    if match_key(fact.text) in match_key(top.text):
        return result
    rest = claim.text.replace(fact.text, " ")
    claim_key, words = match_key(claim.text), frozenset(content_tokens(rest))
    if token_recall(rest, top.text) < SAME_ROLE_RECALL:
        return result
    for other in entities_of(top.text):
        # A name sharing a word with the claim is the claim's own party said differently.
        # Organisations only: the tagger's other labels are too loose to say who fills a role.
        if other.value.label == fact.value.label == "ORG" \
                and compare_facts(fact, other) == "different" and match_key(other.text) not in claim_key \
                and not frozenset(content_tokens(other.text)) & words \
                and not _page_subject(fact, ranked):  # type: ignore[union-attr]
            return FactResult(fact, "mismatched", other, other.text, top.source_id)
    return result


def _page_subject(fact: Fact, ranked: list[Candidate]) -> bool:
    """Whether the source opens with the name ("Clearword is an independent ... practice in
    Bristol"): the page speaks for it, so its "we" and "our clinic" are the name's, whatever
    other name a sentence holds ("plus £20 travel within Bristol")."""
    key = match_key(fact.text)
    return any(c.span.sentences[0] == 0 and match_key(c.span.text).startswith(key) for c in ranked)


def named_only_beside_rival(claim: Claim, value: Fact, rival: FactResult, rival_span: Span, agree: Fact,
                            agreeing_span: Span) -> bool:
    """Whether the claim's name stands in the clause with the other value and not in the sentence
    that agrees: "The Rescue Diver course costs $429" against "The Rescue Diver course … costs
    $495" and, of another course, "The course costs $429". The less relevant sentence is then
    about something else, and does not clear the claim."""
    a, b = rival_span.clause_of(rival.evidence)  # type: ignore[arg-type]
    here, there = match_key(rival_span.text[a:b]), match_key(_sentence_of(agree, agreeing_span))
    # The name must lead the claim's value, as the thing it is the value of; a place ("within the
    # continental US") only says where.
    keys = [match_key(f.text) for f in claim.facts if f.kind == "entity" and f.value.label not in _PLACES  # type: ignore[union-attr]
            and f.end <= value.start]
    return any(k and k in here and k not in there for k in keys)


_PLACES = frozenset({"GPE", "LOC", "NORP"})


def _sentence_of(fact: Fact, span: Span) -> str:
    """The sentence of `span` (a window of several, maybe) that holds `fact`."""
    at = fact.start - span.start
    start = max((m.end() for m in SENTENCE_END.finditer(span.text, 0, at)), default=0)
    end = next((m.end() for m in SENTENCE_END.finditer(span.text, at)), len(span.text))
    return span.text[start:end]


def check_name(fact: Fact, ranked: list[Candidate], titles: dict[str, str]) -> FactResult:
    """Names and codes match on their key (case, width, script and punctuation folded)."""
    key = match_key(fact.text)
    if not key:
        return FactResult(fact, "missing")
    needle = normalise(fact.text).casefold()
    for cand in ranked:
        if key in match_key(cand.span.text):
            at = normalise(cand.span.text).casefold().find(needle)
            quoted = cand.span.text[at : at + len(needle)] if at >= 0 else fact.text
            return FactResult(fact, "matched", None, quoted, cand.span.source_id)
    for source_id, title in titles.items():
        if key in match_key(title):
            return FactResult(fact, "matched", None, title, source_id)
    if (digits := key.translate(_ZH_DIGITS)) != key:  # "三菜一汤" is what "3菜1汤" says
        for cand in ranked:
            if digits in match_key(cand.span.text).translate(_ZH_DIGITS):
                return FactResult(fact, "matched", None, cand.span.text, cand.span.source_id)
    if fact.kind == "entity" and (sentence := _all_words_in_one_sentence(fact.text, ranked)) is not None:
        return FactResult(fact, "matched", None, sentence.text, sentence.source_id)
    if fact.kind == "entity" and fact.value.label == "PRODUCT":  # type: ignore[union-attr]
        core = _EDGE_WORDS.sub("", key)  # LAC takes a neighbour in: "行元朗同屯门" (goes Yuen Long and Tuen Mun)
        for cand in ranked:
            if (longer := _short_form_of(key, match_key(cand.span.text))) is not None:
                return FactResult(fact, "matched", None, longer, cand.span.source_id)
            if core != key and len(core) >= 2 and core in match_key(cand.span.text):
                return FactResult(fact, "matched", None, core, cand.span.source_id)
    return FactResult(fact, "missing")


def _all_words_in_one_sentence(name: str, ranked: list[Candidate]) -> Span | None:
    """The one sentence that holds every capitalised word of a name of several: "Twistgrip Leeds"
    is the brand and the branch of "Twistgrip Motorcycles, Leeds branch."."""
    words = name.split()
    if len(words) < 2 or not all(_CAPITALISED.fullmatch(w) for w in words):
        return None
    for cand in ranked:
        span = cand.span
        if span.sentences[0] == span.sentences[1] \
                and all(re.search(rf"\b{re.escape(w)}\b", span.text) for w in words):
            return span
    return None


_CAPITALISED = re.compile(r"[A-Z][A-Za-z'’-]+")
_ZH_DIGITS = str.maketrans("零〇一二两兩三四五六七八九", "0012223456789")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
# One-character words LAC glues onto a name's edge: a verb of motion, a conjunction, a preposition.
_EDGE_WORDS = re.compile(r"^[行去到往喺在係是同和与及跟或]|[同和与及跟或的嘅]$")


def _short_form_of(key: str, text: str) -> str | None:
    """The longer term in `text` a Chinese common name shortens by a character or two, its
    start and end kept: 新能源车 for 新能源汽车. (LAC tags such terms as proper nouns.)"""
    if len(key) < 3 or not _CJK_RUN.fullmatch(key):
        return None
    for extra in (1, 2):
        for start in range(len(text) - len(key) - extra + 1):
            word = text[start : start + len(key) + extra]
            if word.startswith(key[:2]) and word.endswith(key[-1]) and _subsequence(key, word):
                return word
    return None


def _subsequence(short: str, long: str) -> bool:
    rest = iter(long)
    return all(ch in rest for ch in short)


# Where a sentence's subject ends: at its first punctuation or verb ("The Intermediate Weekend,
# for students who …, costs £340"; "The Beginners' Weekend (Saturday and Sunday) costs £295").
_SUBJECT_END = re.compile(r"[,(;:，（；：]|\s(?:costs?|is|are|was|were|will|has|have|charges?|runs?|includes?|covers?|"
                          r"takes?|pays?|gets?|offers?|starts?|lasts?|comes?|needs?|requires?)\b"
                          r"|价格|價格|收费|收費|售价|售價|费用|費用|为|為|是|要|需", re.IGNORECASE)
_SUBJECT_MIN_WORDS = 2


def subject_elsewhere(fact: Fact, agree: Fact, span: Span, ranked: list[Candidate], claim: Claim) -> Fact | None:
    """The value of the claim's slot in a sentence whose subject is the claim's, when the value
    that agrees stands in a sentence about something else: "The Beginners' Weekend costs £340"
    against "The Intermediate Weekend, for students who have completed the Beginners' course,
    costs £340" and "The Beginners' Weekend (Saturday and Sunday) costs £295"."""
    at = fact.start - claim.start
    mine = _subject_words(claim.source_text, at)
    # (the subject's own clause: "…, which works out at £4.80 a play instead of the usual £6" prices something else)
    if len(mine) < _SUBJECT_MIN_WORDS or _CLAUSE_BREAK.search(claim.source_text, _subject_end(claim.source_text, at), at):
        return None
    theirs = _subject_words(span.text, agree.start - span.start)
    if not theirs or mine <= theirs:
        return None
    for cand in ranked:
        if cand.span.source_id != span.source_id:
            continue
        for other in cand.span.facts:
            if other.kind == fact.kind and same_dimension(fact, other) and compare_facts(fact, other) == "different" \
                    and mine <= _subject_words(cand.span.text, other.start - cand.span.start):
                return other
    return None


def _subject_words(text: str, at: int) -> frozenset[str]:
    """The content words of the subject of the sentence of `text` that holds the character at
    `at`; empty when the subject does not end before it."""
    start = max((m.end() for m in SENTENCE_END.finditer(text, 0, at)), default=0)
    end = _SUBJECT_END.search(text, start)
    if end is None or end.start() > at:
        return frozenset()
    return frozenset(content_tokens(text[start:end.start()]))


def _subject_end(text: str, at: int) -> int:
    start = max((m.end() for m in SENTENCE_END.finditer(text, 0, at)), default=0)
    end = _SUBJECT_END.search(text, start)
    return end.end() if end is not None else at


_CLAUSE_BREAK = re.compile(r"[,;，；]")


_ROLE_AFTER = re.compile(r"\s+([a-z]{3,})\b")  # the role noun after a name: "Islington team", "Leeds office"
# Words a clause must share with the claim, more than the clause holding the claim's name does,
# to word the claim's statement with a name of its own.
_CLAUSE_LEAD = 2


def named_in_another_clause(claim: Claim, result: FactResult, ranked: list[Candidate],
                            entities_of: Callable[[str], list[Fact]]) -> FactResult:
    """A name found only in a clause about something else is a mismatch when another clause of
    the same span words the claim's statement with another name: "The schedule of condition is
    carried out by their Islington team" against "Awards are prepared by our Islington office;
    schedules of condition at the neighbour's property are carried out by our Croydon team"."""
    fact = result.fact
    if result.status != "matched" or fact.kind != "entity":
        return result
    key = match_key(fact.text)
    words = frozenset(content_tokens(claim.text)) - frozenset(content_tokens(fact.text))
    span = next((c.span for c in ranked[:SPANS_FOR_NAMES] if c.span.source_id == result.source_id
                 and key in match_key(c.span.text)), None)
    if span is None:
        return result
    # The name must head a role the clause gives another name: "their Islington team" / "our Croydon team".
    role = _ROLE_AFTER.match(claim.source_text, fact.end - claim.start)
    parts = [span.text[a:b] for a, b in clauses(span.text)]
    holding = [len(frozenset(content_tokens(p)) & words) for p in parts if key in match_key(p)]
    if role is None or len(parts) < 2 or not holding:
        return result
    for part in parts:
        shared = len(frozenset(content_tokens(part)) & words)
        if key in match_key(part) or shared < max(holding) + _CLAUSE_LEAD or shared < 3:
            continue
        for other in entities_of(part):
            if {fact.value.label, other.value.label} <= _PROPER_NOUN_LABELS and compare_facts(fact, other) == "different" \
                    and re.match(rf"\s+{re.escape(role.group(1))}\b", part[other.end:], re.IGNORECASE) \
                    and match_key(other.text) not in match_key(claim.text):  # type: ignore[union-attr]
                return FactResult(fact, "mismatched", other, other.text, span.source_id)
    return result

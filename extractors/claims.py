"""Split a draft answer into atomic, checkable claims with offsets into the answer.

    split_claims("Revenue grew 12.5% and reached $3.2B [1].", analyzer=analyzer)
    -> Claim(text="Revenue grew 12.5%", ...), Claim(text="Revenue reached $3.2B", citations=("1",))

Choices worth knowing:
- Sentences come from `Analyzer.sentences`; each is parsed once, with the pipeline that
  fits its script, and that parse serves both clause splitting and entity facts.
- Spans leave out bullets, greeting/meta lead-ins ("Hi Anna,", "根据提供的资料，"), terminal
  punctuation, a leading conjunction of a split-off clause, and citation markers at the edge.
  `text` is the span without any citation markers, prefixed with a carried-over subject
  when the clause has none of its own.
- Citation markers belong to the clause they follow; a clause without markers of its own
  takes the next markers in its sentence ("A and B [1]" -> both cite 1).
- Not claims: questions, greetings, thanks and closings, pure meta text, lead-ins ending
  in a colon, and requests to the user ("Please provide...", "请提供...") unless the
  request carries a number, date or identifier (then it states a checkable rule).
- Long answers are handled in batches of sentences, so memory stays bounded.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections.abc import Iterator

from spacy.tokens import Doc

from extractors.claims_clauses import Part, en_parts
from extractors.claims_zh import zh_parts
from extractors.claims_rules import citations_in, clean_text, is_hedged, skip_reason, strip_prefix, trim_span
from extractors.dates import extract_dates
from extractors.entities import doc_entities, resolve_entities, rule_entities
from extractors.facts import merge_facts
from extractors.nlp import Analyzer
from extractors.qualifiers import is_negated
from extractors.numbers import extract_numbers
from extractors.schema import Claim, Fact
from extractors.text import normalise

_BATCH_SENTENCES = 256


def _shift(facts: list[Fact], offset: int) -> list[Fact]:
    return [f.model_copy(update={"start": f.start + offset, "end": f.end + offset}) for f in facts]


def _regex_facts(sentence: str, offset: int, as_of: dt.date | None) -> list[Fact]:
    return _shift(merge_facts(extract_numbers(sentence), extract_dates(sentence, as_of=as_of)), offset)


# Adjectives that make a verbless sentence a pleasantry ("Great question!"), not a statement.
_PLEASANTRY = frozenset("great good excellent nice sure happy glad welcome fine ok okay awesome perfect".split())


def _has_predicate(doc: Doc) -> bool:
    if doc.lang_ == "en":
        if any(t.tag_.startswith("VB") or t.tag_ == "MD" for t in doc):
            return True
        # A verbless sentence still states something when it negates or qualifies:
        # "Not refundable.", "Free shipping on all orders." (headings end without a period).
        if not doc.text.rstrip().endswith((".", "!")):
            return False
        return is_negated(doc.text) or any(t.tag_.startswith("JJ") and t.lower_ not in _PLEASANTRY for t in doc)
    return any(tag in ("v", "vd", "a") for _, _, tag in doc.user_data.get("lac", ()))


def split_claims(answer: str, *, analyzer: Analyzer, as_of: dt.date | None = None) -> list[Claim]:
    """Atomic claims of `answer`, in order; `answer[c.start:c.end] == c.source_text`."""
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a str, got {type(answer).__name__}")
    if not isinstance(analyzer, Analyzer):
        raise TypeError(f"analyzer must be an Analyzer, got {type(analyzer).__name__}")
    if as_of is not None and not isinstance(as_of, dt.date):
        raise TypeError(f"as_of must be a datetime.date, got {type(as_of).__name__}")
    claims: list[Claim] = []
    if not answer.strip():
        return claims
    norm = normalise(answer)
    spans = analyzer.sentences(answer)
    for i in range(0, len(spans), _BATCH_SENTENCES):
        claims.extend(_claims_of_batch(answer, norm, spans[i : i + _BATCH_SENTENCES], analyzer, as_of))
    return claims


def _claims_of_batch(answer, norm, spans, analyzer, as_of) -> Iterator[Claim]:
    # Numbers and dates run over the whole batch at once, so a date without a year can
    # take it from an earlier sentence ("In 2025 ... In March, ...").
    lo, hi = spans[0][0], spans[-1][1]
    batch_facts = _regex_facts(answer[lo:hi], lo, as_of)
    starts = [f.start for f in batch_facts]
    kept: list[tuple[int, int]] = []
    regex_facts: list[list[Fact]] = []
    for s, e in spans:
        s = strip_prefix(norm, s, e)
        s, e = _skip_space(norm, s, e)
        if s >= e:
            continue
        facts = [f for f in batch_facts[bisect_left(starts, s) : bisect_left(starts, e)] if f.end <= e]
        if skip_reason(norm[s:e], has_fact=bool(facts)) is None:
            kept.append((s, e))
            regex_facts.append(facts)
    for ((s, e), doc), facts in zip(analyzer.parse_spans(answer, kept), regex_facts):
        if not facts and not _has_predicate(doc):
            continue
        sentence = answer[s:e]
        entities = resolve_entities(rule_entities(sentence), doc_entities(doc, sentence, 0))
        facts = merge_facts(facts, _shift(entities, s))
        if doc.lang_ == "en":
            parts = en_parts(doc, s, answer)
        else:
            parts = zh_parts(doc, s, norm, answer)
        yield from _claims_of_sentence(answer, norm, s, e, parts, facts)


def _skip_space(norm: str, s: int, e: int) -> tuple[int, int]:
    while s < e and norm[s].isspace():
        s += 1
    return s, e


def _claims_of_sentence(answer, norm, s, e, parts: list[Part], facts: list[Fact]) -> Iterator[Claim]:
    _, all_markers = citations_in(norm, s, e)
    ends = [p.end for p in parts[:-1]] + [e]
    own = [citations_in(norm, p.start, end)[0] for p, end in zip(parts, ends)]
    whole = clean_text(answer, all_markers, *trim_span(norm, s, e)) if len(parts) > 1 else ""
    for n, part in enumerate(parts):
        ts, te = trim_span(norm, part.start, part.end)
        if ts >= te:
            continue
        # A clause without markers is supported by the next markers in its sentence.
        ids = next((ids for ids in own[n:] if ids), ())
        body = clean_text(answer, all_markers, ts, te)
        if not body:
            continue
        text = part.prefix + body if part.prefix else body
        yield Claim(
            text=text,
            start=ts,
            end=te,
            source_text=answer[ts:te],
            citations=ids,
            hedged=is_hedged(normalise(text)),
            facts=tuple(f for f in facts if ts <= f.start and f.end <= te),
            sentence=whole if whole != text else "",
        )

"""Sources -> sentence spans and 2-3 sentence windows, with offsets and facts found once.

Source segmentation runs on every retrieved document, often long ones, so it uses the fast
rule-based sentence splitter (no parser); claims get the full spaCy/LAC treatment.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from extractors import Fact
from extractors.dates import extract_dates
from extractors.numbers import extract_numbers
from extractors.nlp import split_sentences
from extractors.qualifiers import clauses
from extractors.tokens import content_tokens
from verifier.history import later_parts, past_facts, past_sentences, sentence_parts
from verifier.schema import Source


@dataclass(frozen=True)
class Span:
    source_id: str
    start: int
    end: int
    text: str
    facts: tuple[Fact, ...]
    tokens: frozenset[str]
    sentences: tuple[int, int]  # first and last sentence index covered (inclusive)
    past: bool = False  # every sentence of the span states the past (verifier.history)
    past_facts: frozenset[int] = frozenset()  # indices into `facts` of facts stated as past
    title: str = ""  # the source's title
    later: bool = False  # every sentence of the span states a rule that starts later (`past` is set too)
    later_facts: frozenset[int] = frozenset()  # those of `past_facts` stated for a rule that starts later

    def present_facts(self) -> tuple[Fact, ...]:
        return tuple(f for i, f in enumerate(self.facts) if i not in self.past_facts)

    def clause_of(self, fact: Fact) -> tuple[int, int]:
        """(start, end) in `text` of the clause that holds `fact`; (0, 0) when none does."""
        at = fact.start - self.start
        return next(((a, b) for a, b in clauses(self.text) if a <= at < b), (0, 0))


@dataclass(frozen=True)
class SegmentedSource:
    source: Source
    sentences: tuple[Span, ...]
    facts: tuple[Fact, ...]
    current: bool
    not_current_because: str | None  # "superseded", "draft", "not yet in force", "expired"

    def window(self, first: int, last: int) -> Span:
        """The span covering sentences first..last (inclusive)."""
        first, last = max(first, 0), min(last, len(self.sentences) - 1)
        if first == last:
            return self.sentences[first]
        inside = self.sentences[first : last + 1]
        a, b = inside[0], inside[-1]
        text = self.source.text[a.start : b.end]
        facts: list[Fact] = []
        past_facts: set[int] = set()
        later_facts: set[int] = set()
        for s in inside:
            past_facts.update(len(facts) + k for k in s.past_facts)
            later_facts.update(len(facts) + k for k in s.later_facts)
            facts.extend(s.facts)
        tokens = frozenset().union(*(s.tokens for s in inside))
        return Span(self.source.id, a.start, b.end, text, tuple(facts), tokens, (first, last),
                    all(s.past for s in inside), frozenset(past_facts), a.title, all(s.later for s in inside),
                    frozenset(later_facts))


def currency_of(source: Source, as_of: dt.date | None) -> str | None:
    """Why the source is not current evidence at `as_of`, or None when it is."""
    meta = source.metadata
    if meta.status != "active":
        return meta.status
    if as_of is not None:
        if meta.effective_from and as_of < meta.effective_from:
            return "not yet in force"
        if meta.effective_to and as_of > meta.effective_to:
            return "expired"
    return None


def segment_source(source: Source, as_of: dt.date | None = None) -> SegmentedSource:
    text = source.text
    facts = sorted(extract_numbers(text) + extract_dates(text, as_of=as_of), key=lambda f: f.start)
    spans = []
    fact_index = 0
    bounds = split_sentences(text)
    meta = source.metadata
    known_years = tuple(d.year for d in (meta.effective_from, meta.effective_to) if d is not None)
    now = max((d for d in (meta.effective_from, as_of) if d is not None), default=None)
    dates = [f for f in facts if f.kind == "date"]
    past = past_sentences(text, bounds, dates, known_years, now)
    newest = max([*(d.value.year_to or d.value.year for d in dates if d.value.year is not None), *known_years],  # type: ignore[union-attr]
                 default=None)
    for i, (start, end) in enumerate(bounds):
        while fact_index < len(facts) and facts[fact_index].start < start:
            fact_index += 1
        inside = []
        j = fact_index
        while j < len(facts) and facts[j].end <= end:
            inside.append(facts[j])
            j += 1
        sentence = text[start:end]
        # (a rule that starts later is no more current than one that ended)
        coming = later_parts(text, start, end, [f for f in inside if f.kind == "date"], now)
        later = frozenset(k for k, f in enumerate(inside) if any(a <= f.start < b for a, b in coming))
        whole = bool(coming) and len(coming) == len(sentence_parts(sentence))
        stated_before = frozenset(range(len(inside))) if i in past or whole \
            else past_facts(text, start, end, inside, as_of, newest) | later
        spans.append(Span(source.id, start, end, sentence, tuple(inside), frozenset(content_tokens(sentence)), (i, i),
                          i in past or whole, stated_before, source.title or "", whole and i not in past,
                          stated_before if whole and i not in past else later))
    reason = currency_of(source, as_of)
    return SegmentedSource(source, tuple(spans), tuple(facts), reason is None, reason)

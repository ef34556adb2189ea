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
from extractors.tokens import content_tokens
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
        a, b = self.sentences[first], self.sentences[last]
        text = self.source.text[a.start : b.end]
        facts = tuple(f for s in self.sentences[first : last + 1] for f in s.facts)
        tokens = frozenset().union(*(s.tokens for s in self.sentences[first : last + 1]))
        return Span(self.source.id, a.start, b.end, text, facts, tokens, (first, last))


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
    for i, (start, end) in enumerate(split_sentences(text)):
        while fact_index < len(facts) and facts[fact_index].start < start:
            fact_index += 1
        inside = []
        j = fact_index
        while j < len(facts) and facts[j].end <= end:
            inside.append(facts[j])
            j += 1
        sentence = text[start:end]
        spans.append(Span(source.id, start, end, sentence, tuple(inside), frozenset(content_tokens(sentence)), (i, i)))
    reason = currency_of(source, as_of)
    return SegmentedSource(source, tuple(spans), tuple(facts), reason is None, reason)

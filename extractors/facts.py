"""All facts of a text (numbers, identifiers, dates, entities) with overlaps resolved.

Priority where two facts overlap: date > identifier > number > entity. A date such as
"Q3 2025" beats the number 2025 inside it; an identifier (E7782, a phone number) beats a
CODE or ORG entity over the same characters. Two exceptions keep nested facts that carry
different information: a title or name entity (LAW, PRODUCT, EVENT, ORG, MISC) may
contain a date or identifier ("Data Protection Act 2018" and the year 2018 both stay),
and a plain number inside a LAW title is dropped, since a title's digits are not an amount.
"""

from __future__ import annotations

import bisect
import datetime as dt

from extractors.dates import extract_dates
from extractors.entities import extract_entities
from extractors.nlp import Analyzer
from extractors.numbers import extract_numbers
from extractors.schema import Fact

_PRIORITY = {"date": 0, "identifier": 1, "number": 2, "entity": 3}
_NAME_LABELS = frozenset({"LAW", "PRODUCT", "EVENT", "ORG", "MISC"})


def _contains(outer: Fact, inner: Fact) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end and (outer.end - outer.start) > (inner.end - inner.start)


def _may_nest(a: Fact, b: Fact) -> bool:
    for outer, inner in ((a, b), (b, a)):
        if outer.kind == "entity" and outer.value.label in _NAME_LABELS and inner.kind in ("date", "identifier"):
            if _contains(outer, inner):
                return True
    return False


def merge_facts(*groups: list[Fact]) -> list[Fact]:
    """One non-conflicting list from several extractors' output, sorted by start."""
    facts = [f for group in groups for f in group]
    titles = [f for f in facts if f.kind == "entity" and f.value.label == "LAW"]
    facts = [f for f in facts if not (f.kind == "number" and any(_contains(t, f) for t in titles))]
    facts.sort(key=lambda f: (_PRIORITY[f.kind], -(f.end - f.start), f.start))
    # Kept facts indexed by start, so each new fact is checked only against kept facts that
    # can reach it: linear time on long texts instead of all-pairs.
    kept: list[Fact] = []
    starts: list[int] = []
    longest = 0
    for fact in facts:
        lo = bisect.bisect_left(starts, fact.start - longest)
        hi = bisect.bisect_left(starts, fact.end)
        if all(fact.end <= k.start or k.end <= fact.start or _may_nest(fact, k) for k in kept[lo:hi]):
            at = bisect.bisect_left(starts, fact.start)
            starts.insert(at, fact.start)
            kept.insert(at, fact)
            longest = max(longest, fact.end - fact.start)
    kept.sort(key=lambda f: (f.start, -f.end, _PRIORITY[f.kind]))
    return kept


def extract_facts(
    text: str,
    *,
    analyzer: Analyzer | None = None,
    as_of: dt.date | None = None,
    lang: str | None = None,
) -> list[Fact]:
    """Numbers, identifiers and dates of `text`, plus entities when an analyzer is given."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    entities = extract_entities(text, analyzer, lang=lang) if analyzer is not None else []
    return merge_facts(extract_numbers(text), extract_dates(text, as_of=as_of), entities)

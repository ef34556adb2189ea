"""An asker's age ("your seven-year-old", "孩子8岁") found inside the age band a source gives
for the claim's price or rule ("$48 for children aged 3 to 9", "for ages 8 to 13"), or inside
one it turns away ("not suitable for children under 8", "under-12s are not admitted")."""

from __future__ import annotations

import re
from typing import Sequence

from extractors import Claim, Fact
from extractors.qualifiers import is_negated
from extractors.schema import Quantity
from verifier.candidates import Candidate
from verifier.comparison import is_limit, satisfies
from verifier.fact_result import FactResult
from verifier.segment import Span

_OLD_AFTER = re.compile(r"[- ](?:years?[- ])?olds?\b|-olds?\b", re.IGNORECASE)
_YOUR = re.compile(r"\b(?:your|my|our)\s+$", re.IGNORECASE)
_AGE_WORD = re.compile(r"\bag(?:e|ed|es)\b|岁|歲", re.IGNORECASE)


def asker_age(result: FactResult, results: Sequence[FactResult], claim: Claim,
              ranked: Sequence[Candidate]) -> FactResult | None:
    """The age band of the most relevant span that gives age bands, when it holds the claim's
    missing age, or None. The claim's other values must sit beside that band in the span:
    "$62 for your seven-year-old" is not found in "$62 for visitors aged 10 and over and $48 for
    children aged 3 to 9", where another price stands between $62 and the band holding seven.
    A band the source turns away makes the value inside it a wrong one (`_barred`)."""
    fact, q = result.fact, result.fact.value
    # A value inside the band a source turns away is not found there: "under-12s are not admitted"
    # against "under-12s can come along" (or "your 11-year-old can come").
    if result.status == "matched" and result.evidence is not None and not is_negated(claim.text) and (span := next(
            (c.span for c in ranked if result.evidence in c.span.facts), None)) is not None \
            and (words := _barred(result.evidence, span)):
        return FactResult(fact, "mismatched", result.evidence, words, span.source_id)
    if (fact.kind != "number" or not isinstance(q, Quantity) or q.unit != "year" or q.comparator != "eq"
            or q.value is None
            or not (_OLD_AFTER.match(claim.source_text, fact.end - claim.start) or fact.text.endswith(("岁", "歲")))):
        return None
    yours = _YOUR.search(claim.source_text[: fact.start - claim.start]) is not None
    # "your six-year-old can come" against the span it rests on: "not suitable for children under 8"
    if yours and ranked:
        top = ranked[0].span
        for band in top.facts:
            if band.kind == "number" and (words := _barred(band, top)) and satisfies(q.value, band.value):  # type: ignore[arg-type]
                return FactResult(fact, "mismatched", band, words, top.source_id)
    # (an age the claim gives as the asker's own, "your 5-year-old", is no rival of the source's
    # lower bound "from 4 years old" either)
    if result.status != "missing" and not (result.status == "mismatched" and yours):
        return None
    # "Guests need to be at least 16, so your 15-year-old can't come": the asker's age below the
    # minimum the claim states (and the sources give), turned away as the claim says
    if yours and is_negated(claim.text):
        for r in results:
            ev = r.evidence
            if r.status == "matched" and ev is not None and isinstance(ev.value, Quantity) \
                    and ev.value.comparator in ("ge", "gt") and ev.value.unit in (None, "year") \
                    and r.fact.end <= fact.start and not satisfies(q.value, ev.value):
                return FactResult(fact, "matched", ev, ev.text, r.source_id)
    for cand in ranked:
        span = cand.span
        bands = [f for f in span.facts if f.kind == "number" and _is_age_band(f)]
        if not bands:
            continue
        for band in bands:
            if satisfies(q.value, band.value) and not _price_between(band, span.facts, fact, results):  # type: ignore[arg-type]
                return FactResult(fact, "matched", band, band.text, span.source_id)
        return None
    return None


# "is not suitable for children under 8", "under-12s are not admitted": the ages a trip or class turns away.
_BARRED_BEFORE = re.compile(r"\b(?:not\s+(?:suitable|allowed|permitted|open)\s+(?:for|to)|no)\s+(?:children|kids)\s+$",
                            re.IGNORECASE)
_BARRED_AFTER = re.compile(r"s?\s+(?:are|is)\s+not\s+(?:admitted|allowed|permitted|accepted)\b", re.IGNORECASE)


def _barred(f: Fact, span: Span) -> str | None:
    """The words that turn the band `f` away ("not suitable for children under 8"), or None."""
    q = f.value
    if not isinstance(q, Quantity) or q.comparator not in ("lt", "le") or q.unit not in (None, "year"):
        return None
    at, end = f.start - span.start, f.end - span.start
    if before := _BARRED_BEFORE.search(span.text, max(0, at - 40), at):
        return span.text[before.start():end]
    after = _BARRED_AFTER.match(span.text, end)
    return span.text[at:after.end()] if after else None


def _is_age_band(f: Fact) -> bool:
    q = f.value
    return isinstance(q, Quantity) and is_limit(q) and (q.unit == "year" or q.unit is None
                                                         and _AGE_WORD.search(f.context or "") is not None)


def _price_between(band: Fact, span_facts: Sequence[Fact], age: Fact, results: Sequence[FactResult]) -> bool:
    """Whether another price of the span stands between the band and the evidence of the price
    the claim gives nearest the age."""
    def is_price(f: Fact) -> bool:
        return isinstance(f.value, Quantity) and bool(f.value.currency)

    prices = [r for r in results if r.status == "matched" and r.evidence is not None and is_price(r.evidence)
              and r.evidence in span_facts]
    if not prices:
        return False
    ev = min(prices, key=lambda r: min(abs(r.fact.start - age.end), abs(age.start - r.fact.end))).evidence
    assert ev is not None
    lo, hi = (ev.end, band.start) if ev.end <= band.start else (band.end, ev.start)
    return any(is_price(o) and o is not ev and lo <= o.start and o.end <= hi for o in span_facts)

"""A contradicted claim read again clause by clause.

The splitter keeps a sentence whole where its clauses share a subject or lean on each other
("Keep your lashes dry for 48 hours afterwards, and skip mascara for two days"), and a whole
claim takes the label of its worst clause: the true half of the sentence is reported as
contradicted with the false one, and a rewrite drops it. After the verdict, a contradicted
claim is cut at its clause punctuation into pieces that each state something, and the pieces
are verified on their own (`Verifier` scores their pairs in a second model call). The cut is
kept only if the contradiction survives it (the piece holding the mismatched value is still
contradicted, or, for a contradiction without a value, a negation or a reversed rule, some
piece is) and every other piece is supported. Otherwise the claim stays as it was.
"""

from __future__ import annotations

import re

from extractors import Analyzer, Claim
from extractors.claims_rules import citations_in, clean_text, trim_span
from extractors.text import normalise
from verifier.schema import ClaimReport

# Clause punctuation (not the comma of "1,000"), with a conjunction that opens the next clause.
_CUT = re.compile(r"(?:(?<!\d)[,;](?!\d{3})|[，；])\s*(?:(?:and|but|so|then|plus|while)\b\s*|还|並且|并且|而且|但是?|不过|不過|另外|同时|同時)?",
                  re.IGNORECASE)
# A piece that only sets the scene for the next one: "if you cancel late", "退货商品入库后".
_LEADS = re.compile(r"^(?:if|when|whenever|once|after|before|unless|until|as long as|provided|while|because|since)\b|^(?:如果|如|若|只要|凡|当|在|因为|由于|要是)|"
                    r"(?:后|时|前|的话|之后|以后|期间|之前|以前)$", re.IGNORECASE)
_FINITE = frozenset({"VB", "VBD", "VBP", "VBZ", "MD"})
_MIN_CJK = 4


def pieces(claim: Claim, report: ClaimReport, answer: str, analyzer: Analyzer) -> list[Claim] | None:
    """The claim cut into pieces that each state something, or None when it is not contradicted,
    does not cut, or its mismatched values are not all in one piece."""
    if report.label != "contradicted":
        return None
    norm = normalise(answer)
    bounds, at = [], claim.start
    for m in _CUT.finditer(norm, claim.start, claim.end):
        bounds.append((at, m.start()))
        at = m.end()
    bounds.append((at, claim.end))
    spans = [trim_span(norm, a, b) for a, b in bounds]
    spans = [(a, b) for a, b in spans if a < b]
    if len(spans) < 2:
        return None
    # A piece that states nothing of its own ("including VAT", "每人1280元") stays with the one before.
    # (one that opens the claim, "For a second dog", goes with the one after)
    merged: list[tuple[int, int]] = []
    opening: int | None = None
    for (a, b), (_, doc) in zip(spans, analyzer.parse_spans(answer, spans)):
        if _LEADS.search(norm[a:b]):  # a condition or a time goes with what follows it
            opening = a if opening is None else opening
            continue
        if not _states(doc, analyzer):
            if merged:
                merged[-1] = (merged[-1][0], b)
            elif opening is None:
                opening = a
            continue
        merged.append((a if opening is None else opening, b))
        opening = None
    if opening is not None and merged:  # (a condition last: ", if you ask at the desk")
        merged[-1] = (merged[-1][0], spans[-1][1])
    if len(merged) < 2:
        return None
    wrong = [f for f in report.facts if f.status == "mismatched"]
    holders = {i for f in wrong for i, (a, b) in enumerate(merged) if a <= f.start and f.end <= b}
    if wrong and (len(holders) != 1 or any(not any(a <= f.start and f.end <= b for a, b in merged) for f in wrong)):
        return None
    _, markers = citations_in(norm, claim.start, claim.end)
    whole = clean_text(answer, markers, claim.start, claim.end)
    # (a subject the splitter carried over from the clause before goes with the first piece)
    prefix = claim.text[: len(claim.text) - len(whole)] if claim.text.endswith(whole) else ""
    out = []
    for n, (a, b) in enumerate(merged):
        body = clean_text(answer, markers, a, b)
        out.append(Claim(text=(prefix + body) if n == 0 else body, start=a, end=b, source_text=answer[a:b],
                         citations=claim.citations, hedged=claim.hedged,
                         facts=tuple(f for f in claim.facts if a <= f.start and f.end <= b),
                         sentence=claim.sentence or claim.text))
    return out


def kept(report: ClaimReport, piece_reports: list[ClaimReport]) -> bool:
    """Whether the pieces keep the whole claim's contradiction, each of the others being supported
    (or contradicted too): a piece the sources merely leave open would turn part of what was
    contradicted into something only unsupported."""
    if any(p.label not in ("supported", "contradicted") for p in piece_reports):
        return False
    wrong = [f for f in report.facts if f.status == "mismatched"]
    if wrong:
        holder = next((p for p in piece_reports if p.start <= wrong[0].start and wrong[0].end <= p.end), None)
        return holder is not None and holder.label == "contradicted"
    return any(p.label == "contradicted" for p in piece_reports)


def _states(doc, analyzer: Analyzer) -> bool:
    """Whether the piece says something of its own: a finite verb, or an instruction ("skip
    mascara for two days", which a parser reads as a name until someone is told to do it)."""
    if doc.lang_ == "en":
        if any(t.tag_ in _FINITE for t in doc):
            return True
        told = f"You {doc.text[:1].lower()}{doc.text[1:]}"
        (_, again), = analyzer.parse_spans(told, [(0, len(told))], lang="en")
        return len(again) > 1 and again[1].tag_ in ("VB", "VBP")
    cjk = sum(1 for ch in doc.text if "\u4e00" <= ch <= "\u9fff")
    return cjk >= _MIN_CJK and any(tag in ("v", "vd", "a") for _, _, tag in doc.user_data.get("lac", ()))


"""A readable terminal view of a report: the answer with each claim marked, then its evidence."""

from __future__ import annotations

from verifier.schema import Report, VerifyRequest

_COLORS = {"supported": "32", "partial": "33", "unsupported": "35", "contradicted": "31"}
_MARKS = {"supported": "OK", "partial": "~~", "unsupported": "??", "contradicted": "XX"}


def _paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if color else text


def render(request: VerifyRequest, report: Report, *, color: bool = True) -> str:
    answer = request.answer
    out, cursor = [], 0
    for claim in sorted(report.claims, key=lambda c: c.start):
        if claim.start < cursor:
            continue
        out.append(answer[cursor : claim.start])
        out.append(_paint(f"[{claim.id}]", "1", color) + _paint(answer[claim.start : claim.end],
                                                                  _COLORS[claim.label] + ";4", color))
        cursor = claim.end
    out.append(answer[cursor:])
    lines = ["".join(out), ""]
    for claim in report.claims:
        head = f"{claim.id} {_MARKS[claim.label]} {claim.label} ({claim.score:.2f}): {claim.text}"
        lines.append(_paint(head, _COLORS[claim.label], color))
        lines.append(f"    {claim.reason}")
        for fact in claim.facts:
            said = f" / source: {fact.evidence_text}" if fact.evidence_text else ""
            lines.append(f"    {fact.kind} {fact.text!r}: {fact.status}{said}")
        for ev in claim.evidence:
            stale = "" if ev.current else " [not current]"
            lines.append(f"    <- {ev.source_id} [{ev.start}:{ev.end}] {ev.relation} {ev.score:.2f}{stale}: "
                         f"{' '.join(ev.text.split())[:160]}")
    cov = report.coverage
    lines += [
        "",
        f"coverage: {cov.supported}/{cov.claims} supported, {cov.partial} partial, {cov.unsupported} unsupported,"
        f" {cov.contradicted} contradicted",
        _paint(f"decision: {report.decision.action.upper()} - {report.decision.reason}", "1", color),
        f"model: {report.model.name} {report.model.revision}",
    ]
    return "\n".join(lines)

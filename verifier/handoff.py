"""What a person receives on hand-off, so they never start from zero."""

from __future__ import annotations

from typing import Any

from verifier.schema import Report, VerifyRequest


def handoff_package(request: VerifyRequest, report: Report, team: str) -> dict[str, Any]:
    return {
        "team": team,
        "request_id": request.id,
        "question": request.question,
        "draft_answer": request.answer,
        "risk_level": request.context.risk_level,
        "claims": [
            {"id": c.id, "text": c.text, "label": c.label, "reason": c.reason,
             "facts": [f.model_dump() for f in c.facts],
             "evidence": [e.model_dump() for e in c.evidence]}
            for c in report.claims
        ],
        "conflicts": [c.model_dump() for c in report.conflicts],
        "missing_information": report.decision.missing_information,
        "reasons": report.decision.reasons,
        "sources": [{"id": s.id, "title": s.title, "metadata": s.metadata.model_dump(mode="json")}
                    for s in request.sources],
    }

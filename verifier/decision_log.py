"""One structured JSON line per verification, for audit trails.

By default it holds the decision, reasons, scores, versions and timings, but no answer or
source text: logs travel further than the documents they describe. `include_text=True`
is the operator's explicit choice to add them.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from pathlib import Path
from typing import IO

from verifier.schema import Report, VerifyRequest


def log_record(request: VerifyRequest, report: Report, *, include_text: bool = False) -> dict:
    record = {
        "ts": dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds"),
        "request_id": request.id,
        "action": report.decision.action,
        "evidence_status": report.decision.evidence_status,
        "confidence": report.decision.confidence,
        "risk_level": report.decision.risk_level,
        # Reasons quote evidence and values; they stay out unless text is allowed.
        "reason_keys": [c.label for c in report.claims if c.label != "supported"],
        "coverage": report.coverage.model_dump(),
        "claims": [{"id": c.id, "label": c.label, "score": c.score,
                    "facts": [{"kind": f.kind, "status": f.status} for f in c.facts],
                    "sources": sorted({e.source_id for e in c.evidence})} for c in report.claims],
        "conflicts": [{"source_a": c.source_a, "source_b": c.source_b, "winner": c.winner} for c in report.conflicts],
        "model": report.model.model_dump(),
        "policy_version": report.decision.policy_version,
        "timing_ms": report.timing_ms,
        "language": report.language,
        "source_ids": [s.id for s in request.sources],
    }
    if include_text:
        record["question"] = request.question
        record["answer"] = request.answer
        record["reasons"] = report.decision.reasons
        record["claim_texts"] = {c.id: c.text for c in report.claims}
        record["evidence"] = {c.id: [e.text for e in c.evidence] for c in report.claims}
    return record


class DecisionLog:
    """Appends JSON lines to a file or stream; safe to share between threads."""

    def __init__(self, target: str | Path | IO[str], *, include_text: bool = False) -> None:
        self._own = not hasattr(target, "write")
        self._out: IO[str] = open(target, "a", encoding="utf-8") if self._own else target  # type: ignore[arg-type]
        self.include_text = include_text
        self._lock = threading.Lock()

    def write(self, request: VerifyRequest, report: Report) -> None:
        line = json.dumps(log_record(request, report, include_text=self.include_text), ensure_ascii=False)
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()

    def close(self) -> None:
        if self._own:
            self._out.close()

"""`verifier report`: one streaming pass over audit output into the figures a product lead reads.

Memory stays bounded on audits of millions of answers: counters are fixed-size, per-source
tallies stop admitting new source ids past `max_sources`, and only `max_answers` answers are
kept for browsing (problem answers first).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

ACTIONS = ("answer", "rewrite", "clarify", "abstain", "handoff")
LABELS = ("supported", "partial", "unsupported", "contradicted")
FAILURE_KINDS = ("number mismatch", "date mismatch", "unsupported entity", "superseded evidence",
                 "contradicted by source", "no evidence", "partly supported", "conflict between sources")


def iter_report_records(path: str) -> Iterator[dict]:
    """The records of an audit output, JSONL or Parquet, in order."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"audit output {path!r} does not exist; run `verifier audit ... -o {path}` first")
    if p.suffix.lower() in (".parquet", ".pq"):
        import pyarrow.parquet as pq

        for batch in pq.ParquetFile(p).iter_batches(batch_size=1024, columns=["report"]):
            for text in batch.column(0).to_pylist():
                yield json.loads(text)
        return
    with p.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path} line {number} is not JSON ({exc.msg}); is this the output of "
                                 "`verifier audit`?") from exc


def claim_failures(claim: dict) -> list[str]:
    """Why a claim did not pass, most specific first; empty for a supported claim."""
    if claim.get("label") == "supported":
        return []
    kinds = []
    facts = claim.get("facts") or []
    if any(f.get("status") == "mismatched" and f.get("kind") == "number" for f in facts):
        kinds.append("number mismatch")
    if any(f.get("status") == "mismatched" and f.get("kind") == "date" for f in facts):
        kinds.append("date mismatch")
    if any(f.get("status") in ("mismatched", "missing") and f.get("kind") in ("entity", "identifier")
           for f in facts):
        kinds.append("unsupported entity")
    if any(not e.get("current", True) for e in claim.get("evidence") or []):
        kinds.append("superseded evidence")
    if not kinds:
        kinds.append({"contradicted": "contradicted by source", "unsupported": "no evidence"}
                     .get(claim.get("label", ""), "partly supported"))
    return kinds


@dataclass
class SourceTally:
    cited: int = 0  # evidence spans from this source
    supports: int = 0
    contradicts: int = 0
    stale: int = 0  # evidence from it that was not current (superseded, draft, out of date)
    mismatches: int = 0  # facts it disagreed on

    @property
    def problems(self) -> int:
        return self.contradicts + self.stale + self.mismatches


@dataclass
class Summary:
    max_answers: int = 300
    max_sources: int = 50_000
    answers: int = 0
    reports: int = 0
    errors: int = 0
    claims: int = 0
    actions: Counter = field(default_factory=Counter)
    labels: Counter = field(default_factory=Counter)
    languages: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)
    sources: dict[str, SourceTally] = field(default_factory=dict)
    sources_truncated: bool = False
    error_samples: list[dict] = field(default_factory=list)
    problem_answers: list[dict] = field(default_factory=list)
    fine_answers: list[dict] = field(default_factory=list)

    def add(self, record: dict) -> None:
        self.answers += 1
        if "error" in record:
            self.errors += 1
            if len(self.error_samples) < 50:
                self.error_samples.append({"line": record.get("line"), "id": record.get("id"),
                                           "error": record["error"]})
            return
        self.reports += 1
        action = (record.get("decision") or {}).get("action", "unknown")
        self.actions[action] += 1
        self.languages[record.get("language", "unknown")] += 1
        if record.get("conflicts"):
            self.failures["conflict between sources"] += 1
        for claim in record.get("claims") or []:
            self.claims += 1
            self.labels[claim.get("label", "unknown")] += 1
            self.failures.update(claim_failures(claim))
            self._tally_sources(claim)
        keep = self.fine_answers if action == "answer" else self.problem_answers
        if len(keep) < self.max_answers:
            keep.append(record)

    def _tally_sources(self, claim: dict) -> None:
        for ev in claim.get("evidence") or []:
            tally = self._source(ev.get("source_id"))
            if tally is not None:
                tally.cited += 1
                tally.supports += ev.get("relation") == "supports"
                tally.contradicts += ev.get("relation") == "contradicts"
                tally.stale += not ev.get("current", True)
        for fact in claim.get("facts") or []:
            if fact.get("status") == "mismatched":
                tally = self._source(fact.get("source_id"))
                if tally is not None:
                    tally.mismatches += 1

    def _source(self, source_id: str | None) -> SourceTally | None:
        if not source_id:
            return None
        tally = self.sources.get(source_id)
        if tally is None:
            if len(self.sources) >= self.max_sources:
                self.sources_truncated = True
                return None
            tally = self.sources[source_id] = SourceTally()
        return tally

    def worst_sources(self, limit: int = 10) -> list[dict]:
        ranked = sorted((s for s in self.sources.items() if s[1].problems),
                        key=lambda s: (-s[1].problems, -s[1].cited, s[0]))
        return [{"source_id": sid, "problems": t.problems, "cited": t.cited, "supports": t.supports,
                 "contradicts": t.contradicts, "stale": t.stale, "mismatches": t.mismatches}
                for sid, t in ranked[:limit]]

    def browsable(self) -> list[dict]:
        """Problem answers first, filled up with passing ones, shown in input order."""
        chosen = self.problem_answers + self.fine_answers[: self.max_answers - len(self.problem_answers)]
        return sorted(chosen, key=lambda r: r.get("line") or 0)

    def to_dict(self) -> dict[str, Any]:
        """The machine-readable summary (`verifier report --json`)."""
        labels = {k: self.labels.get(k, 0) for k in LABELS}
        return {
            "answers": self.answers, "reports": self.reports, "errors": self.errors, "claims": self.claims,
            "supported_ratio": round(labels["supported"] / self.claims, 4) if self.claims else 0.0,
            "actions": {k: self.actions.get(k, 0) for k in ACTIONS} | {k: v for k, v in self.actions.items()
                                                                       if k not in ACTIONS},
            "labels": labels,
            "languages": dict(self.languages.most_common()),
            "failure_kinds": {k: self.failures.get(k, 0) for k in FAILURE_KINDS},
            "worst_sources": self.worst_sources(),
            "sources_truncated": self.sources_truncated,
            "error_samples": self.error_samples[:20],
        }


def summarize(records: Iterable[dict], *, max_answers: int = 300) -> Summary:
    summary = Summary(max_answers=max_answers)
    for record in records:
        summary.add(record)
    return summary

"""What the fact check found for one fact of a claim."""

from __future__ import annotations

from dataclasses import dataclass

from extractors import Fact
from verifier.schema import FactCheck


@dataclass(frozen=True)
class FactResult:
    fact: Fact
    status: str  # matched | mismatched | missing
    evidence: Fact | None = None  # the source's fact for this slot
    evidence_text: str | None = None
    source_id: str | None = None
    past: bool = False  # missing now, but stated as an earlier rule (evidence_text says what it was)
    later: bool = False  # ... or, with `past`, as a rule that starts later

    def to_report(self) -> FactCheck:
        return FactCheck(
            kind=self.fact.kind,
            text=self.fact.text,
            start=self.fact.start,
            end=self.fact.end,
            value=self.fact.value.model_dump(mode="json", exclude={"type"}),
            status=self.status,  # type: ignore[arg-type]
            evidence_text=self.evidence_text,
            source_id=self.source_id,
        )

"""The engine's input and output contract, in one place.

Input is one JSON object per answer (unknown keys are ignored); output is a `Report`.
Offsets are Python string indices into the original answer (claims, facts) or the
original source text (evidence).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from extractors.schema import Language

Label = Literal["supported", "partial", "unsupported", "contradicted"]
Action = Literal["answer", "rewrite", "clarify", "abstain", "handoff"]
RiskLevel = Literal["low", "medium", "high", "critical"]
SourceStatus = Literal["active", "superseded", "draft"]


class _Input(BaseModel):
    # strict=True: an int where a string belongs is a caller bug, not something to coerce.
    model_config = ConfigDict(extra="ignore", strict=True)


class SourceMetadata(_Input):
    status: SourceStatus = "active"
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    scope: list[str] = Field(default_factory=list)

    @field_validator("effective_from", "effective_to", mode="before")
    @classmethod
    def _parse_date(cls, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value)
            except ValueError as exc:
                raise ValueError(f"expected a YYYY-MM-DD date, got {value!r}") from exc
        return value


class Source(_Input):
    id: str = Field(min_length=1)
    text: str
    title: str | None = None
    metadata: SourceMetadata = Field(default_factory=SourceMetadata)


class Context(_Input):
    as_of: dt.date | None = None
    risk_level: RiskLevel = "low"
    scope: list[str] | None = None
    retrieval_ok: bool = True
    permission_ok: bool = True
    missing_slots: list[str] = Field(default_factory=list)
    requires_approval: bool = False

    _parse_date = field_validator("as_of", mode="before")(SourceMetadata._parse_date.__func__)


class VerifyRequest(_Input):
    id: str | None = None
    question: str | None = None
    answer: str
    sources: list[Source] = Field(default_factory=list)
    context: Context = Field(default_factory=Context)

    @model_validator(mode="after")
    def _unique_source_ids(self) -> "VerifyRequest":
        seen: set[str] = set()
        for i, source in enumerate(self.sources):
            if source.id in seen:
                raise ValueError(f"sources[{i}].id {source.id!r} is a duplicate; every source needs a unique id")
            seen.add(source.id)
        return self


class FactCheck(BaseModel):
    kind: str
    text: str
    start: int
    end: int
    value: Any
    status: Literal["matched", "mismatched", "missing"]
    evidence_text: str | None = None  # what the source says for this slot
    source_id: str | None = None  # None on a match: the asker's own value, from the question


class Evidence(BaseModel):
    source_id: str
    start: int
    end: int
    text: str
    relation: Literal["supports", "contradicts", "related"]
    score: float
    current: bool = True  # False when the source is superseded, draft or out of its effective dates


class ClaimReport(BaseModel):
    id: str
    text: str
    start: int
    end: int
    label: Label
    score: float
    reason: str
    citations: list[str] = Field(default_factory=list)
    hedged: bool = False
    facts: list[FactCheck] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)


class Coverage(BaseModel):
    claims: int = 0
    supported: int = 0
    partial: int = 0
    unsupported: int = 0
    contradicted: int = 0
    supported_ratio: float = 0.0


class Conflict(BaseModel):
    source_a: str
    source_b: str
    slot: str
    values: list[str]
    issue: str
    winner: str | None = None  # set when one source supersedes the other


class Decision(BaseModel):
    action: Action
    reason: str
    confidence: float = 0.0
    risk_level: RiskLevel = "low"
    evidence_status: Literal["direct", "partial", "background", "conflicting", "missing"] = "missing"
    missing_information: list[str] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)
    policy_version: str | None = None
    message: str | None = None  # what to tell the user for this action
    rewrite: str | None = None  # the answer reduced to its supported claims, for `rewrite`
    handoff: dict[str, Any] | None = None  # the package a person receives, for `handoff`


class ModelInfo(BaseModel):
    name: str
    revision: str


class Report(BaseModel):
    id: str | None = None
    language: Language
    claims: list[ClaimReport]
    coverage: Coverage
    conflicts: list[Conflict] = Field(default_factory=list)
    decision: Decision
    model: ModelInfo
    timing_ms: dict[str, float] = Field(default_factory=dict)

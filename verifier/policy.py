"""A versioned, declarative policy that maps signals to an action.

A policy file (TOML) holds the thresholds, the hand-off team, clarifying questions and an
ordered list of stages. Within a stage the first rule whose conditions all hold wins; a
`final` stage that matches ends the decision. The order is the policy: access failures
first, then missing slots, then evidence, then risk (which may override the evidence
action, since its conditions can read `action`).

    [[stages]]
    name = "evidence"
    [[stages.rules]]
    when = ["contradicted > 0"]
    action = "abstain"
    reason = "contradicted"

Conditions are `<signal> <op> <value>` with op in == != > >= < <= in (comma-separated list).
"""

from __future__ import annotations

import operator
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from verifier.errors import InputError, explain
from verifier.verdict import Thresholds

POLICY_DIR = Path(__file__).parent / "policies"
_OPS = {"==": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt}


@dataclass(frozen=True)
class Condition:
    signal: str
    op: str
    value: Any

    @classmethod
    def parse(cls, text: str) -> "Condition":
        parts = text.split(None, 2)
        if len(parts) != 3 or (parts[1] not in _OPS and parts[1] != "in"):
            raise ValueError(f"condition {text!r} must read '<signal> <op> <value>' with op in "
                             f"{', '.join(list(_OPS) + ['in'])}")
        signal, op, raw = parts
        if op == "in":
            return cls(signal, op, tuple(v.strip() for v in raw.split(",") if v.strip()))
        return cls(signal, op, _literal(raw))

    def holds(self, signals: dict[str, Any]) -> bool:
        if self.signal not in signals:
            raise KeyError(f"policy condition uses unknown signal {self.signal!r}; known: {', '.join(sorted(signals))}")
        actual = signals[self.signal]
        if self.op == "in":
            return str(actual) in self.value
        return bool(_OPS[self.op](actual, self.value))


def _literal(raw: str) -> Any:
    low = raw.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return float(raw) if any(c in raw for c in ".eE") else int(raw)
    except ValueError:
        return raw.strip().strip("\"'")


class Rule(BaseModel):
    model_config = ConfigDict(extra="forbid")
    when: list[str] = Field(default_factory=list)  # all must hold; empty = always
    action: Literal["answer", "rewrite", "clarify", "abstain", "handoff"]
    reason: str  # a key for the messages, e.g. "contradicted"

    @field_validator("when")
    @classmethod
    def _parse(cls, value: list[str]) -> list[str]:
        for text in value:
            Condition.parse(text)
        return value

    def matches(self, signals: dict[str, Any]) -> bool:
        return all(Condition.parse(c).holds(signals) for c in self.when)


class Stage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    final: bool = False  # a match here ends the decision
    rules: list[Rule]


class SlotQuestion(BaseModel):
    en: str
    zh: str


class Policy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: str
    description: str = ""
    thresholds: Thresholds = Field(default_factory=Thresholds)
    handoff_team: dict[str, str] = Field(default_factory=lambda: {"en": "a support specialist", "zh": "人工客服"})
    questions: dict[str, SlotQuestion] = Field(default_factory=dict)
    stages: list[Stage]

    def decide(self, signals: dict[str, Any]) -> tuple[str, list[str]]:
        """(action, matched rule reasons in order) for the given signals."""
        action, reasons = None, []
        for stage in self.stages:
            current = dict(signals, action=action or "none")
            rule = next((r for r in stage.rules if r.matches(current)), None)
            if rule is None:
                continue
            action = rule.action
            reasons.append(rule.reason)
            if stage.final:
                break
        return action or "abstain", reasons or ["no_rule_matched"]


def load_policy(name_or_path: str | Path = "default") -> Policy:
    """A shipped policy by name (`default`, `strict`) or a TOML file."""
    path = Path(name_or_path)
    if not path.suffix and not path.exists():
        path = POLICY_DIR / f"{name_or_path}.toml"
    if not path.is_file():
        shipped = ", ".join(sorted(p.stem for p in POLICY_DIR.glob("*.toml")))
        raise InputError(f"policy file {str(name_or_path)!r} not found; give a TOML file or one of: {shipped}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"policy file {str(path)!r} is not valid TOML: {exc}") from exc
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        raise InputError(f"policy file {str(path)!r}: {explain(exc)}") from exc

"""The one protocol every NLI backend implements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable


@dataclass(frozen=True)
class NLIScores:
    """Probabilities that the premise entails, is neutral to, or contradicts the hypothesis."""

    entailment: float
    neutral: float
    contradiction: float


# (premise, hypothesis): the evidence span first, then the claim.
Pair = tuple[str, str]


@runtime_checkable
class NLIModel(Protocol):
    name: str
    revision: str

    def predict(self, pairs: Sequence[Pair]) -> list[NLIScores]:
        """Score every pair; batching, padding and devices are the backend's business."""
        ...


class ModelLoadError(RuntimeError):
    """A model could not be loaded; the message names the path and how to get a model."""

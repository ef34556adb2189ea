"""The plain lexical baseline: token recall of the claim in the evidence, no model at all.

It is the floor every learned model must beat, and the fallback when no model is installed.
"""

from __future__ import annotations

from typing import Sequence

from extractors.tokens import token_recall
from models.base import NLIScores, Pair


class LexicalRecallModel:
    name = "lexical-recall"
    revision = "1"

    def predict(self, pairs: Sequence[Pair]) -> list[NLIScores]:
        scores = []
        for premise, hypothesis in pairs:
            recall = token_recall(hypothesis, premise)
            scores.append(NLIScores(entailment=recall, neutral=1.0 - recall, contradiction=0.0))
        return scores

"""A model wrapper that counts and times the model calls inside the engine."""

from __future__ import annotations

import time
from typing import Sequence

from models.base import NLIModel, NLIScores, Pair


class TimedModel:
    """Delegates to `inner`, adding up pairs scored and seconds spent in `predict`."""

    def __init__(self, inner: NLIModel) -> None:
        self.inner = inner
        self.name, self.revision = inner.name, inner.revision
        self.pairs = 0
        self.calls = 0
        self.seconds = 0.0

    def predict(self, pairs: Sequence[Pair]) -> list[NLIScores]:
        started = time.perf_counter()
        try:
            return self.inner.predict(pairs)
        finally:
            self.seconds += time.perf_counter() - started
            self.pairs += len(pairs)
            self.calls += 1

    def reset(self) -> None:
        self.pairs, self.calls, self.seconds = 0, 0, 0.0

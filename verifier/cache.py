"""Reuse within a run: segmented sources and model scores, keyed by content hash.

Historical answers share sources and often repeat claims, so an audit that segments each
source once and scores each (evidence, claim) pair once does far less work. Bounded LRU
maps keep memory flat on long runs; counters give the hit rate for reports.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Generic, Hashable, TypeVar

V = TypeVar("V")


def content_hash(*parts: object) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(repr(part).encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()


@dataclass
class LRU(Generic[V]):
    capacity: int
    hits: int = 0
    misses: int = 0
    _items: OrderedDict = field(default_factory=OrderedDict)

    def get(self, key: Hashable) -> V | None:
        value = self._items.get(key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0

    def __len__(self) -> int:
        return len(self._items)


@dataclass
class VerifierCache:
    """Per-answer claims, per-source segmentation and per-(span, claim) model scores."""

    max_answers: int = 20_000
    max_sources: int = 2_000
    max_scores: int = 200_000

    def __post_init__(self) -> None:
        self.claims: LRU = LRU(self.max_answers)
        self.segments: LRU = LRU(self.max_sources)
        self.scores: LRU = LRU(self.max_scores)

    def stats(self) -> dict[str, float]:
        return {
            "claim_hits": self.claims.hits, "claim_misses": self.claims.misses,
            "claim_hit_rate": round(self.claims.hit_rate, 4),
            "segment_hits": self.segments.hits, "segment_misses": self.segments.misses,
            "segment_hit_rate": round(self.segments.hit_rate, 4),
            "score_hits": self.scores.hits, "score_misses": self.scores.misses,
            "score_hit_rate": round(self.scores.hit_rate, 4),
        }

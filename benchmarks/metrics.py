"""Metric code shared by the accuracy suite and `verifier calibrate`: small, exact, no sklearn.

Binary metrics take `gold` and `pred` as booleans where True is the positive class
("supported" / "passes"). Error rates follow the product's view of an answer: an *unsafe
pass* is something that should have been stopped but went out; an *over-flag* is something
that should have gone out but was stopped. They are reported separately, never blended.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Hashable, Iterable, Sequence


@dataclass(frozen=True)
class Confusion:
    """Binary confusion counts; positive = True."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @classmethod
    def of(cls, gold: Sequence[bool], pred: Sequence[bool]) -> "Confusion":
        if len(gold) != len(pred):
            raise ValueError(f"gold has {len(gold)} items, pred {len(pred)}")
        tp = sum(1 for g, p in zip(gold, pred) if g and p)
        fp = sum(1 for g, p in zip(gold, pred) if not g and p)
        fn = sum(1 for g, p in zip(gold, pred) if g and not p)
        return cls(tp, fp, fn, len(gold) - tp - fp - fn)

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def tpr(self) -> float:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def tnr(self) -> float:
        return _ratio(self.tn, self.tn + self.fp)

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def accuracy(self) -> float:
        return _ratio(self.tp + self.tn, self.n)

    @property
    def balanced_accuracy(self) -> float:
        # With one class absent, sklearn averages over the classes present; so do we.
        present = [r for r, total in ((self.tpr, self.tp + self.fn), (self.tnr, self.tn + self.fp)) if total]
        return sum(present) / len(present) if present else 0.0

    def to_dict(self) -> dict[str, float | int]:
        return {**asdict(self), "balanced_accuracy": round(self.balanced_accuracy, 4),
                "tpr": round(self.tpr, 4), "tnr": round(self.tnr, 4)}


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def balanced_accuracy(gold: Sequence[bool], pred: Sequence[bool]) -> float:
    return Confusion.of(gold, pred).balanced_accuracy


def confusion_matrix(gold: Sequence[Hashable], pred: Sequence[Hashable],
                     labels: Iterable[Hashable] | None = None) -> dict[Hashable, dict[Hashable, int]]:
    """matrix[gold][pred] = count, for every label in `labels` (default: all seen, sorted)."""
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} items, pred {len(pred)}")
    names = list(labels) if labels is not None else sorted(set(gold) | set(pred), key=str)
    matrix = {g: {p: 0 for p in names} for g in names}
    for g, p in zip(gold, pred):
        matrix.setdefault(g, {q: 0 for q in names}).setdefault(p, 0)
        matrix[g][p] += 1
    return matrix


def accuracy(gold: Sequence[Hashable], pred: Sequence[Hashable]) -> float:
    return _ratio(sum(1 for g, p in zip(gold, pred) if g == p), len(gold))


def threshold_grid(step: float = 0.01) -> list[float]:
    count = round(1 / step)
    return [round(i * step, 6) for i in range(count + 1)]


def predict_at(scores: Sequence[float], threshold: float) -> list[bool]:
    """The engine's rule: supported iff score >= threshold."""
    return [s >= threshold for s in scores]


def best_threshold(scores: Sequence[float], gold: Sequence[bool], grid: Sequence[float] | None = None) -> tuple[float, float]:
    """(threshold, balanced accuracy) with the best BAcc on this (dev) data; ties go to the lowest."""
    best = (0.0, -1.0)
    for t in grid if grid is not None else threshold_grid():
        bacc = balanced_accuracy(gold, predict_at(scores, t))
        if bacc > best[1] + 1e-12:
            best = (t, bacc)
    return best


@dataclass(frozen=True)
class ErrorRates:
    """Unsafe-pass and over-flag rates with their denominators."""

    unsafe_pass: float  # passed / should stop
    over_flag: float  # stopped / should pass
    should_stop: int
    should_pass: int
    unsafe: int
    over: int

    @classmethod
    def of(cls, should_pass: Sequence[bool], passed: Sequence[bool]) -> "ErrorRates":
        c = Confusion.of(should_pass, passed)  # positive = "passes"
        return cls(unsafe_pass=_ratio(c.fp, c.fp + c.tn), over_flag=_ratio(c.fn, c.fn + c.tp),
                   should_stop=c.fp + c.tn, should_pass=c.tp + c.fn, unsafe=c.fp, over=c.fn)

    def to_dict(self) -> dict[str, float | int]:
        d = asdict(self)
        d["unsafe_pass"], d["over_flag"] = round(self.unsafe_pass, 4), round(self.over_flag, 4)
        return d


def threshold_for_unsafe_rate(curve: Sequence[tuple[float, ErrorRates]], target: float) -> tuple[float, bool]:
    """The lowest threshold whose unsafe-pass rate is at most `target` (lowest = fewest over-flags).

    `curve` is (threshold, rates) in any order. Returns (threshold, reached); when no threshold
    reaches the target, the one with the lowest unsafe-pass rate (highest on ties) and False.
    """
    ordered = sorted(curve, key=lambda tr: tr[0])
    for t, rates in ordered:
        if rates.unsafe_pass <= target + 1e-12:
            return t, True
    t, _ = min(reversed(ordered), key=lambda tr: tr[1].unsafe_pass)
    return t, False


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Half-open character ranges [start, end) share at least one character."""
    return a[0] < b[1] and b[0] < a[1]


def span_precision_recall(flagged: Sequence[tuple[int, int]], gold: Sequence[tuple[int, int]]) -> tuple[int, int, int, int]:
    """(flagged hitting a gold span, flagged, gold spans hit by a flag, gold) for one text."""
    hit_flags = sum(1 for f in flagged if any(overlaps(f, g) for g in gold))
    hit_gold = sum(1 for g in gold if any(overlaps(f, g) for f in flagged))
    return hit_flags, len(flagged), hit_gold, len(gold)

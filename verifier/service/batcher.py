"""Dynamic micro-batching: model pairs of concurrent requests share one `model.predict` call.

Requests submit their (evidence, claim) pairs; one asyncio task gathers them for at most
`window_ms` (counted from the oldest waiting pair, and cut short as soon as the batch is
full or no other request is still preparing), then scores them in one call through a
`ModelRunner`: one model thread, or model worker processes, in which case as many batches are
scored at once as there are workers. While every runner slot is busy, new pairs queue up and
form the next batch.

Batches are filled round-robin, `fair_share` pairs per waiting request per round, so a
request with hundreds of pairs is spread over several calls instead of making the small
requests behind it wait for all of them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field

from models.base import NLIScores, Pair
from verifier.service.config import BatchSettings
from verifier.service.runners import ModelRunner, ScoreFn, ThreadRunner

log = logging.getLogger("verifier.service.batcher")


def estimate_tokens(pair: Pair) -> int:
    """A cheap upper-ish bound on subword tokens without running a tokenizer.

    UTF-8 bytes / 3 counts one token per CJK character (3 bytes each) and one per three
    Latin characters; both are slightly above what WordPiece/SentencePiece produce.
    """
    return 3 + (len(pair[0].encode("utf-8")) + len(pair[1].encode("utf-8"))) // 3


@dataclass(frozen=True)
class BatchStats:
    pairs: int
    requests: int
    tokens: int
    seconds: float


@dataclass(eq=False)
class _Entry:
    pairs: list[Pair]
    tokens: list[int]
    future: asyncio.Future
    arrived: float
    results: list[NLIScores | None] = field(default_factory=list)
    next: int = 0  # first pair not yet handed to a batch
    done: int = 0  # pairs scored

    @property
    def live(self) -> bool:
        # A cancelled future means the caller gave up (deadline, disconnect): skip its pairs.
        return not self.future.done()


@dataclass(frozen=True)
class _Slice:
    entry: _Entry
    start: int
    end: int

    @property
    def pairs(self) -> list[Pair]:
        return self.entry.pairs[self.start : self.end]


class BatcherClosed(RuntimeError):
    """Raised by `submit` once the batcher is shutting down."""


class MicroBatcher:
    def __init__(
        self,
        score: ScoreFn | ModelRunner,
        settings: BatchSettings | None = None,
        *,
        expecting: Callable[[], int] = lambda: 0,
        on_batch: Callable[[BatchStats], None] | None = None,
        executor: Executor | None = None,
    ) -> None:
        """`score`: a runner, or a function to run on one model thread (`executor`, else its own).
        `expecting()` says how many requests may still submit soon (e.g. are being prepared):
        the window is only worth waiting for while it is above zero."""
        self.settings = settings or BatchSettings()
        self.runner = score if isinstance(score, ModelRunner) else ThreadRunner(score, executor)
        self._expecting = expecting
        self.on_batch = on_batch  # observer, e.g. metrics; may be set later
        self._pending: list[_Entry] = []
        self._wakeup: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._free: asyncio.Semaphore | None = None  # runner slots not scoring a batch
        self._scoring: set[asyncio.Task] = set()
        self._closing = False
        self.batches = 0
        self.pairs_scored = 0

    # -- public ---------------------------------------------------------------------------

    @property
    def pending_pairs(self) -> int:
        return sum(len(e.pairs) - e.next for e in self._pending if e.live)

    @property
    def pending_requests(self) -> int:
        return sum(1 for e in self._pending if e.live)

    @property
    def closed(self) -> bool:
        return self._closing

    async def submit(self, pairs: Sequence[Pair]) -> list[NLIScores]:
        """Scores for `pairs`, in order, from one or more shared model calls."""
        if self._closing:
            raise BatcherClosed("the batcher is shutting down; no new work is accepted")
        if not pairs:
            return []
        loop = asyncio.get_running_loop()
        self._ensure_task(loop)
        entry = _Entry(list(pairs), [estimate_tokens(p) for p in pairs], loop.create_future(), loop.time())
        entry.results = [None] * len(entry.pairs)
        self._pending.append(entry)
        assert self._wakeup is not None
        self._wakeup.set()
        return await entry.future

    async def close(self) -> None:
        """Finish the pairs already submitted, then stop; later `submit` calls raise BatcherClosed."""
        self._closing = True
        if self._task is not None and not self._task.done():
            assert self._wakeup is not None
            self._wakeup.set()
            await self._task
        if self._scoring:
            await asyncio.gather(*self._scoring, return_exceptions=True)
        await self.runner.aclose()

    def release_threads(self) -> None:
        """Without awaiting: stop the runner (for a batcher whose event loop is gone)."""
        self._closing = True
        self.runner.close()

    # -- the batching loop ----------------------------------------------------------------

    def _ensure_task(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._task is None or self._task.done():
            self._wakeup = asyncio.Event()
            self._free = asyncio.Semaphore(self.runner.slots)
            self._task = loop.create_task(self._run(), name="verifier-batcher")

    async def _run(self) -> None:
        assert self._wakeup is not None and self._free is not None
        while True:
            self._pending = [e for e in self._pending if e.live]
            if not self._pending:
                if self._closing:
                    return
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            # Only gather once a runner slot is free: until then the batch keeps growing.
            await self._free.acquire()
            try:
                await self._gather()
                slices = self._take()
                if slices:
                    task = asyncio.get_running_loop().create_task(self._score(slices))
                    self._scoring.add(task)
                    task.add_done_callback(functools.partial(self._scored, slices))
                else:
                    self._free.release()
            except Exception as exc:  # noqa: BLE001 - a bug here must fail the waiting requests, not hang them
                self._free.release()
                log.error("batcher loop error (%s); failing the waiting requests", type(exc).__name__)
                for entry in self._pending:
                    if entry.live:
                        entry.future.set_exception(exc)

    def _scored(self, slices: list[_Slice], task: asyncio.Task) -> None:
        assert self._free is not None
        self._scoring.discard(task)
        self._free.release()
        exc = None if task.cancelled() else task.exception()
        if exc is not None:  # `_score` delivers its own failures, so this is a bug in it: fail, don't hang
            log.error("batch scoring task failed (%s)", type(exc).__name__)
            for s in slices:
                self._fail(s, exc)

    def _full(self) -> bool:
        live = [e for e in self._pending if e.live]
        pairs = sum(len(e.pairs) - e.next for e in live)
        tokens = sum(sum(e.tokens[e.next :]) for e in live)
        return pairs >= self.settings.max_pairs or tokens >= self.settings.max_tokens

    async def _gather(self) -> None:
        """Wait for more pairs until the window after the oldest one closes, the batch is full,
        or nobody else is about to submit."""
        assert self._wakeup is not None
        loop = asyncio.get_running_loop()
        oldest = min(e.arrived for e in self._pending)
        close_at = oldest + self.settings.window_ms / 1000
        while not self._closing and self._expecting() > 0 and not self._full():
            remaining = close_at - loop.time()
            if remaining <= 0:
                return
            self._wakeup.clear()
            try:
                await asyncio.wait_for(self._wakeup.wait(), remaining)
            except TimeoutError:
                return

    def _take(self) -> list[_Slice]:
        """Round-robin over waiting requests, `fair_share` pairs each per round, within the bounds."""
        max_pairs, max_tokens, share = self.settings.max_pairs, self.settings.max_tokens, self.settings.fair_share
        starts = {id(e): e.next for e in self._pending}
        pairs = tokens = 0
        progress = True
        while progress and pairs < max_pairs:
            progress = False
            for entry in self._pending:
                if not entry.live:
                    continue
                quota = share
                while quota and entry.next < len(entry.pairs) and pairs < max_pairs:
                    cost = entry.tokens[entry.next]
                    # The first pair always goes, however long: the model truncates it.
                    if pairs and tokens + cost > max_tokens:
                        break
                    entry.next += 1
                    pairs += 1
                    tokens += cost
                    quota -= 1
                    progress = True
        slices = [_Slice(e, starts[id(e)], e.next) for e in self._pending if e.next > starts[id(e)]]
        self._pending = [e for e in self._pending if e.live and e.next < len(e.pairs)]
        return slices

    async def _score(self, slices: list[_Slice]) -> None:
        started = time.perf_counter()
        try:
            results = await self.runner.score([s.pairs for s in slices])
        except Exception as exc:  # noqa: BLE001 - isolate the failure below
            if len(slices) == 1:
                self._fail(slices[0], exc)
                return
            # One bad request must not fail its batch mates: score each slice on its own.
            log.warning("a shared model batch failed (%s); retrying its %d slices one by one",
                        type(exc).__name__, len(slices))
            for s in slices:
                if not s.entry.live:
                    continue
                try:
                    (scores,) = await self.runner.score([s.pairs])
                except Exception as slice_exc:  # noqa: BLE001
                    self._fail(s, slice_exc)
                else:
                    self._deliver(s, scores)
            return
        seconds = time.perf_counter() - started
        for s, scores in zip(slices, results):
            self._deliver(s, scores)
        n_pairs = sum(s.end - s.start for s in slices)
        self.batches += 1
        self.pairs_scored += n_pairs
        if self.on_batch is not None:
            tokens = sum(sum(s.entry.tokens[s.start : s.end]) for s in slices)
            self.on_batch(BatchStats(n_pairs, len({id(s.entry) for s in slices}), tokens, seconds))

    @staticmethod
    def _deliver(s: _Slice, scores: Sequence[NLIScores]) -> None:
        entry = s.entry
        if not entry.live:
            return
        if len(scores) != s.end - s.start:
            entry.future.set_exception(RuntimeError(
                f"the model returned {len(scores)} scores for {s.end - s.start} pairs"))
            return
        entry.results[s.start : s.end] = scores
        entry.done += s.end - s.start
        if entry.done == len(entry.pairs):
            entry.future.set_result(list(entry.results))

    @staticmethod
    def _fail(s: _Slice, exc: BaseException) -> None:
        if s.entry.live:
            s.entry.future.set_exception(exc)

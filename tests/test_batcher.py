"""The async micro-batcher on its own: gathering, bounds, fairness, failures, cancellation, close.

The score function is a real, deterministic scorer that records each call; the `expecting`
callback stands in for "requests still preparing", which the engine supplies in service.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import pytest

from models.base import NLIScores, Pair
from verifier.service.batcher import BatcherClosed, MicroBatcher, estimate_tokens
from verifier.service.config import BatchSettings


class RecordingScorer:
    """Entailment = a value derived from the pair, so every result can be checked; records calls."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.calls: list[list[list[Pair]]] = []
        self.fail_on = fail_on
        self.lock = threading.Lock()

    def __call__(self, pair_lists: Sequence[Sequence[Pair]]) -> list[list[NLIScores]]:
        with self.lock:
            self.calls.append([list(p) for p in pair_lists])
        if self.fail_on and any(self.fail_on in h for pairs in pair_lists for _, h in pairs):
            raise RuntimeError("poisoned pair")
        return [[expected(p) for p in pairs] for pairs in pair_lists]

    def call_sizes(self) -> list[int]:
        return [sum(len(p) for p in call) for call in self.calls]


def expected(pair: Pair) -> NLIScores:
    x = (len(pair[0]) * 31 + len(pair[1])) % 97 / 97
    return NLIScores(x, 1 - x, 0.0)


def pairs_for(tag: str, n: int) -> list[Pair]:
    return [(f"evidence {tag} {i} " + "x" * (i % 7), f"claim {tag} {i}") for i in range(n)]


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_concurrent_requests_share_one_model_call():
    scorer = RecordingScorer()

    async def main():
        waiting = {"n": 5}

        async def client(i: int):
            await asyncio.sleep(0.001 * i)
            waiting["n"] -= 1  # this request is "prepared" now
            return await batcher.submit(pairs_for(str(i), 3))

        batcher = MicroBatcher(scorer, BatchSettings(window_ms=2000, max_pairs=64), expecting=lambda: waiting["n"])
        results = await asyncio.gather(*(client(i) for i in range(5)))
        await batcher.close()
        return results

    results = run(main())
    assert len(scorer.calls) == 1 and scorer.call_sizes() == [15]
    for i, scores in enumerate(results):
        assert scores == [expected(p) for p in pairs_for(str(i), 3)]


def test_lone_request_waits_at_most_the_window():
    scorer = RecordingScorer()

    async def main():
        # Somebody is "always preparing": only the window ends the wait.
        batcher = MicroBatcher(scorer, BatchSettings(window_ms=20), expecting=lambda: 1)
        scores = await asyncio.wait_for(batcher.submit(pairs_for("a", 2)), 5)
        await batcher.close()
        return scores

    assert run(main()) == [expected(p) for p in pairs_for("a", 2)]


def test_no_wait_when_nobody_else_is_coming():
    scorer = RecordingScorer()

    async def main():
        # A huge window must not delay a request when no other request is preparing.
        batcher = MicroBatcher(scorer, BatchSettings(window_ms=600_000), expecting=lambda: 0)
        scores = await asyncio.wait_for(batcher.submit(pairs_for("a", 2)), 10)
        await batcher.close()
        return scores

    assert run(main()) == [expected(p) for p in pairs_for("a", 2)]


def test_batches_respect_max_pairs_and_results_stay_in_order():
    scorer = RecordingScorer()

    async def main():
        batcher = MicroBatcher(scorer, BatchSettings(window_ms=5, max_pairs=32, fair_share=8))
        results = await asyncio.gather(*(batcher.submit(pairs_for(str(i), 10 + i)) for i in range(10)))
        await batcher.close()
        return results

    results = run(main())
    assert max(scorer.call_sizes()) <= 32
    assert sum(scorer.call_sizes()) == sum(10 + i for i in range(10))
    for i, scores in enumerate(results):
        assert scores == [expected(p) for p in pairs_for(str(i), 10 + i)]


def test_token_bound_splits_long_pairs():
    scorer = RecordingScorer()
    long_pairs = [("word " * 300 + str(i), f"claim {i}") for i in range(6)]
    per_pair = estimate_tokens(long_pairs[0])

    async def main():
        batcher = MicroBatcher(scorer, BatchSettings(window_ms=5, max_pairs=64, max_tokens=per_pair * 2 + 10))
        scores = await batcher.submit(long_pairs)
        await batcher.close()
        return scores

    assert run(main()) == [expected(p) for p in long_pairs]
    assert scorer.call_sizes() == [2, 2, 2]


def test_a_big_request_does_not_starve_a_small_one():
    scorer = RecordingScorer()

    async def main():
        batcher = MicroBatcher(scorer, BatchSettings(window_ms=5, max_pairs=32, fair_share=16))
        big = asyncio.create_task(batcher.submit(pairs_for("big", 200)))
        await asyncio.sleep(0)  # the big request is queued (and possibly dispatched) first
        small = await batcher.submit(pairs_for("small", 2))
        await big
        await batcher.close()
        return small

    assert run(main()) == [expected(p) for p in pairs_for("small", 2)]

    def calls_with(tag: str) -> list[int]:
        return [i for i, call in enumerate(scorer.calls) if any(tag in h for pairs in call for _, h in pairs)]

    # The small request rides in one of the first two calls, not after all 200 big pairs (7 calls).
    assert calls_with("small")[0] <= 1 < calls_with("big")[-1]
    assert len(scorer.calls) >= 7 and max(scorer.call_sizes()) <= 32


def test_a_failing_request_does_not_fail_its_batch_mates():
    scorer = RecordingScorer(fail_on="poison")

    async def main():
        batcher = MicroBatcher(scorer, BatchSettings(window_ms=5))
        good, bad = await asyncio.gather(batcher.submit(pairs_for("good", 3)),
                                         batcher.submit([("evidence", "poison claim")]), return_exceptions=True)
        again = await batcher.submit(pairs_for("after", 2))  # still serving
        await batcher.close()
        return good, bad, again

    good, bad, again = run(main())
    assert good == [expected(p) for p in pairs_for("good", 3)]
    assert isinstance(bad, RuntimeError)
    assert again == [expected(p) for p in pairs_for("after", 2)]


def test_cancelled_requests_are_not_scored():
    scorer = RecordingScorer()

    async def main():
        waiting = {"n": 1}
        batcher = MicroBatcher(scorer, BatchSettings(window_ms=600_000), expecting=lambda: waiting["n"])
        gone = asyncio.create_task(batcher.submit(pairs_for("gone", 4)))
        await asyncio.sleep(0.01)
        gone.cancel()  # its deadline passed while the batch was still gathering
        waiting["n"] = 0
        kept = await batcher.submit(pairs_for("kept", 2))
        await batcher.close()
        return kept

    assert run(main()) == [expected(p) for p in pairs_for("kept", 2)]
    scored = [h for call in scorer.calls for pairs in call for _, h in pairs]
    assert scored == ["claim kept 0", "claim kept 1"]


def test_close_finishes_pending_work_then_refuses():
    scorer = RecordingScorer()

    async def main():
        batcher = MicroBatcher(scorer, BatchSettings(window_ms=50), expecting=lambda: 1)
        pending = asyncio.create_task(batcher.submit(pairs_for("a", 3)))
        await asyncio.sleep(0)
        await batcher.close()
        with pytest.raises(BatcherClosed):
            await batcher.submit(pairs_for("b", 1))
        return await pending

    assert run(main()) == [expected(p) for p in pairs_for("a", 3)]


def test_empty_submissions_need_no_model_call():
    scorer = RecordingScorer()

    async def main():
        batcher = MicroBatcher(scorer)
        return await batcher.submit([])

    assert run(main()) == [] and scorer.calls == []


def test_settings_are_checked():
    with pytest.raises(ValueError, match="max_pairs"):
        BatchSettings(max_pairs=0)
    with pytest.raises(ValueError, match="window_ms"):
        BatchSettings(window_ms=-1)

"""Model worker processes (`model_workers`): real spawned processes, no mocks.

The worker path must give the same report as `Verifier.verify` (timings aside), fail closed
when a worker dies (and replace it), keep deadlines, and leave no process behind on shutdown.
`KeywordModel` is the lexical baseline with two switches that only make sense in a worker:
a claim saying CRASH kills the worker process, one saying SLOW sleeps.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from benchmarks.load_test import make_request
from conftest import build_tiny_nli
from models.base import NLIScores, Pair
from models.lexical import LexicalRecallModel
from verifier import Verifier, VerifyRequest
from verifier.service import TIMED_OUT, BackgroundServer, ServiceSettings, create_app
from verifier.service.batcher import MicroBatcher
from verifier.service.config import BatchSettings
from verifier.service.engine import AsyncEngine
from verifier.service.runners import ModelRunner, default_model_workers, model_loader


class KeywordModel(LexicalRecallModel):
    name = "keyword-lexical"

    def predict(self, pairs: Sequence[Pair]) -> list[NLIScores]:
        for _, claim in pairs:
            if "CRASH" in claim:
                os._exit(3)  # a worker killed mid-batch (out of memory, a segfault in a native library)
            if "SLOW" in claim:
                time.sleep(3)
        return super().predict(pairs)


SOURCE = {"id": "1", "text": "Refunds take 5 business days. Hotel fees are charged per night."}


def requests(n: int = 12) -> list[dict]:
    rng = random.Random(3)
    extra = [
        {"id": "contra", "answer": "Refunds take 9 business days.", "sources": [SOURCE]},
        {"id": "nosrc", "answer": "The hotel fee is 40 dollars.", "sources": []},
        {"id": "zh", "answer": "退款需要5个工作日。",
         "sources": [{"id": "z", "text": "我们会在1至5个工作日内退款。"}]},
    ]
    return [make_request(rng, i) for i in range(n)] + extra


def comparable(report) -> dict:
    data = report.model_dump(mode="json", exclude={"timing_ms", "error_id"})
    data.pop("timing_ms", None)
    return data


async def engine_reports(verifier: Verifier, bodies: list[dict], **settings) -> list:
    engine = AsyncEngine(verifier, ServiceSettings(**settings))
    try:
        await engine.start()
        # Concurrently, so that pairs of different answers share model calls in the workers.
        return list(await asyncio.gather(*(engine.verify(VerifyRequest.model_validate(b)) for b in bodies)))
    finally:
        await engine.close()


@pytest.fixture(scope="module")
def keyword_verifier(analyzer) -> Verifier:
    return Verifier(KeywordModel(), analyzer=analyzer)


def test_worker_reports_equal_in_process_reports(keyword_verifier):
    bodies = requests()
    others = set(multiprocessing.active_children())
    reports = asyncio.run(engine_reports(keyword_verifier, bodies, model_workers=2))
    assert [r.error_id for r in reports] == [None] * len(bodies)
    for body, report in zip(bodies, reports):
        assert comparable(report) == comparable(keyword_verifier.verify_request(body)), body.get("id")
    assert not set(multiprocessing.active_children()) - others  # the workers are gone after close


def test_torch_model_rebuilt_from_its_recipe_gives_the_same_reports(tmp_path, analyzer):
    folder = build_tiny_nli(tmp_path / "nli", {0: "entailment", 1: "neutral", 2: "contradiction"})
    verifier = Verifier(str(folder), device="cpu", analyzer=analyzer)
    assert verifier.model_loader is not None  # built from a name: the worker loads it the same way
    bodies = requests(6)
    reports = asyncio.run(engine_reports(verifier, bodies, model_workers=1, model_threads=1))
    for body, report in zip(bodies, reports):
        assert comparable(report) == comparable(verifier.verify_request(body)), body.get("id")


def test_model_that_cannot_reach_a_worker_is_refused_up_front(analyzer):
    class Local(LexicalRecallModel):  # defined in a function: pickle cannot find it by name
        pass

    with pytest.raises(ValueError, match="model_workers=0"):
        model_loader(Verifier(Local(), analyzer=analyzer))


def test_default_worker_count():
    assert default_model_workers(LexicalRecallModel(), cores=8) == 0  # no device: stays in process

    class OnCpu(LexicalRecallModel):
        device = "cpu"

    class OnGpu(LexicalRecallModel):
        device = "cuda"

    assert default_model_workers(OnCpu(), cores=2) == 2
    assert default_model_workers(OnCpu(), cores=16) == 4
    assert default_model_workers(OnCpu(), cores=1) == 0
    assert default_model_workers(OnGpu(), cores=16) == 0


# -- the HTTP service on worker processes ------------------------------------------------------


@pytest.fixture(scope="module")
def served(keyword_verifier):
    settings = ServiceSettings(model_workers=2, default_timeout_ms=20_000)
    others = set(multiprocessing.active_children())
    server = BackgroundServer(create_app(keyword_verifier, settings)).start()
    client = httpx.Client(base_url=server.url, timeout=60)
    deadline = time.monotonic() + 120
    while client.get("/readyz").status_code != 200:  # ready only once both workers have loaded
        assert time.monotonic() < deadline, client.get("/readyz").json()
        time.sleep(0.1)
    yield client
    client.close()
    server.stop()
    assert not set(multiprocessing.active_children()) - others, "shutdown leaves no worker process behind"


def test_concurrent_http_requests_are_batched_across_workers(served, keyword_verifier):
    bodies = requests(16)

    async def post_all() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=str(served.base_url), timeout=60) as http:
            return list(await asyncio.gather(*(http.post("/v1/verify", json=b) for b in bodies)))

    for body, response in zip(bodies, asyncio.run(post_all())):
        assert response.status_code == 200
        report = response.json()
        expected = comparable(keyword_verifier.verify_request(body))
        assert {k: v for k, v in report.items() if k not in ("timing_ms", "error_id")} == expected


def test_a_dead_worker_fails_closed_and_is_replaced(served):
    r = served.post("/v1/verify", json={"answer": "Refunds CRASH within 5 business days.", "sources": [SOURCE]})
    assert r.status_code == 200
    body = r.json()
    assert body["decision"]["action"] == "abstain" and body["error_id"]
    assert r.headers["x-verifier-error-id"] == body["error_id"]
    for _ in range(3):  # both workers (one of them new) serve again
        ok = served.post("/v1/verify", json={"answer": "Refunds take 5 business days.", "sources": [SOURCE]})
        assert ok.status_code == 200 and ok.json()["error_id"] is None and ok.json()["claims"]


def test_deadline_in_a_worker_gives_explicit_abstain(served):
    r = served.post("/v1/verify", json={"answer": "Refunds SLOW take 5 business days.", "sources": [SOURCE],
                                        "timeout_ms": 500})
    assert r.status_code == 200
    body = r.json()
    assert body["decision"]["action"] == "abstain" and body["decision"]["reason"] == TIMED_OUT
    ok = served.post("/v1/verify", json={"answer": "Refunds take 5 business days.", "sources": [SOURCE]})
    assert ok.json()["claims"]


def test_shutdown_lets_a_batch_in_a_worker_finish_then_stops_the_workers(keyword_verifier):
    others = set(multiprocessing.active_children())  # e.g. another module-scoped server's workers
    server = BackgroundServer(create_app(keyword_verifier, ServiceSettings(model_workers=1))).start()
    url = server.url
    deadline = time.monotonic() + 120
    while httpx.get(url + "/readyz", timeout=10).status_code != 200:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    with ThreadPoolExecutor(1) as pool:
        in_flight = pool.submit(httpx.post, url + "/v1/verify", timeout=60,
                                json={"answer": "Refunds SLOW take 5 business days.", "sources": [SOURCE]})
        time.sleep(1.0)  # well inside the worker's 3 s sleep
        assert set(multiprocessing.active_children()) - others
        server.stop()
        r = in_flight.result(30)
    assert r.status_code == 200 and r.json()["claims"] and r.json()["error_id"] is None
    assert not server.running and not set(multiprocessing.active_children()) - others


# -- the batcher with more than one runner slot ------------------------------------------------


class TwoSlots(ModelRunner):
    """Two calls at a time, each held until the test releases it; records the overlap."""

    slots = 2

    def __init__(self) -> None:
        self.running = 0
        self.most = 0
        self.release = asyncio.Event()
        self.calls: list[int] = []

    async def score(self, pair_lists):
        self.running += 1
        self.most = max(self.most, self.running)
        self.calls.append(sum(len(p) for p in pair_lists))
        await self.release.wait()
        self.running -= 1
        return [[NLIScores(1.0, 0.0, 0.0) for _ in pairs] for pairs in pair_lists]


def test_batcher_keeps_every_runner_slot_busy_and_queues_the_rest():
    async def main():
        runner = TwoSlots()
        batcher = MicroBatcher(runner, BatchSettings(window_ms=0))
        first = asyncio.ensure_future(batcher.submit([("e", "a")]))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(batcher.submit([("e", "b")]))
        await asyncio.sleep(0.05)
        later = [asyncio.ensure_future(batcher.submit([("e", f"c{i}")])) for i in range(3)]
        await asyncio.sleep(0.05)
        assert runner.most == 2 and runner.calls == [1, 1]  # both slots busy, the rest waits
        runner.release.set()
        await asyncio.gather(first, second, *later)
        assert runner.calls[2:] == [3]  # the three that waited went out together
        await batcher.close()

    asyncio.run(asyncio.wait_for(main(), 30))

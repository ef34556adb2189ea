"""The HTTP service, end to end: a real uvicorn server on a free loopback port, real HTTP calls.

The model is the lexical baseline behind `GateModel`, a test-only NLIModel with two switches:
a pair whose claim says HOLD blocks in `predict` until the test opens the gate (a request held
in flight, deterministically), and one that says EXPLODE raises (a forced model error).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from models.base import NLIScores, Pair
from models.lexical import LexicalRecallModel
from verifier import Verifier
from verifier.service import (
    TIMED_OUT,
    BackgroundServer,
    BatchSettings,
    Limits,
    ServiceSettings,
    create_app,
)
from verifier.service.engine import engine_for
from verifier.service.server import make_server

SOURCE = {"id": "1", "text": "Refunds take 5 business days. Hotel fees are charged per night."}
OK = {"answer": "Refunds take 5 business days.", "sources": [SOURCE]}


def held(text: str = "Refunds HOLD take 5 business days.") -> dict:
    return {"answer": text, "sources": [SOURCE]}


class GateModel:
    name = "gate-lexical"
    revision = "test"

    def __init__(self) -> None:
        self.inner = LexicalRecallModel()
        self.gate = threading.Event()
        self.gate.set()
        self.holding = threading.Event()
        self.calls: list[int] = []

    def predict(self, pairs: Sequence[Pair]) -> list[NLIScores]:
        self.calls.append(len(pairs))
        for _, claim in pairs:
            if "EXPLODE" in claim:
                raise RuntimeError(f"model exploded on {claim!r}")  # the message quotes the answer
        if any("HOLD" in h for _, h in pairs):
            self.holding.set()
            self.gate.wait(30)
        return self.inner.predict(pairs)

    def hold(self) -> None:
        self.holding.clear()
        self.gate.clear()


def wait_until(check, timeout_s: float = 30.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def is_ready(url: str) -> bool:
    try:
        return httpx.get(url + "/readyz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


class Running:
    def __init__(self, server: BackgroundServer, model: GateModel, verifier: Verifier) -> None:
        self.server, self.model, self.verifier = server, model, verifier
        self.url = server.url
        self.client = httpx.Client(base_url=server.url, timeout=30)


@pytest.fixture
def start(analyzer) -> Iterator:
    started: list[Running] = []

    def _start(settings: ServiceSettings | None = None, **kwargs) -> Running:
        model = GateModel()
        verifier = Verifier(model, analyzer=analyzer)
        server = BackgroundServer(create_app(verifier, settings or ServiceSettings(**kwargs))).start()
        running = Running(server, model, verifier)
        started.append(running)
        wait_until(lambda: is_ready(server.url), 60, "/readyz")
        return running

    yield _start
    for running in started:
        running.model.gate.set()
        running.client.close()
        running.server.stop()


def in_background(fn, *args, **kwargs):
    pool = ThreadPoolExecutor(1)
    future = pool.submit(fn, *args, **kwargs)
    pool.shutdown(wait=False)
    return future


def metric(text: str, name: str) -> float:
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name))


# -- endpoints ------------------------------------------------------------------------------


def test_every_endpoint(start):
    s = start()
    assert s.client.get("/healthz").json() == {"status": "ok"}
    ready = s.client.get("/readyz").json()
    assert ready["status"] == "ready" and ready["model"]["name"] == "gate-lexical"

    r = s.client.post("/v1/verify", json={**OK, "id": "q1"})
    assert r.status_code == 200
    report = r.json()
    assert report["id"] == "q1" and report["error_id"] is None and report["claims"]
    assert report["decision"]["action"] == r.headers["x-verifier-action"]
    for claim in report["claims"]:
        assert OK["answer"][claim["start"]:claim["end"]] == claim["text"]

    r = s.client.post("/v1/verify/batch", json={"requests": [{**OK, "id": "a"},
                                                             {"id": "b", "answer": "退款需要5个工作日。"}]})
    assert r.status_code == 200
    reports = r.json()["reports"]
    assert [x["id"] for x in reports] == ["a", "b"] and reports[1]["language"].startswith("zh")

    text = s.client.get("/metrics").text
    assert metric(text, 'verifier_http_requests_total{endpoint="/v1/verify",status="200"}') == 1
    assert metric(text, "verifier_answers_total") == 3
    assert metric(text, "verifier_actions_total") == 3
    assert metric(text, "verifier_model_batch_pairs_count") >= 1
    assert "verifier_http_request_seconds_bucket" in text and "verifier_queue_depth 0.0" in text

    schema = s.client.get("/openapi.json").json()
    assert {"/v1/verify", "/v1/verify/batch", "/healthz", "/readyz", "/metrics"} <= set(schema["paths"])
    assert "timeout_ms" in schema["components"]["schemas"]["ServiceVerifyRequest"]["properties"]


def test_invalid_input_is_422_naming_the_field(start):
    s = start()
    cases = [
        ({"sources": []}, "answer"),
        ({"answer": 5}, "answer"),
        ({"answer": "x", "sources": [{"text": "no id"}]}, "sources[0].id"),
        ({"answer": "x", "context": {"as_of": "30/11/2026"}}, "context.as_of"),
        ({"answer": "x", "timeout_ms": 0}, "timeout_ms"),
    ]
    for body, field in cases:
        r = s.client.post("/v1/verify", json=body)
        assert r.status_code == 422, body
        assert r.json()["field"] == field and field in r.json()["message"]
    for raw, content_type in [(b"{bad", "application/json"), (b"[1, 2]", "application/json"), (b"", ""),
                              (b'{"answer": "x"}', "text/plain")]:
        r = s.client.post("/v1/verify", content=raw, headers={"content-type": content_type})
        assert r.status_code == 422 and r.json()["field"] == "body" and "JSON object" in r.json()["message"]
    r = s.client.post("/v1/verify", json=OK, headers={"X-Timeout-Ms": "soon"})
    assert r.status_code == 422 and "x-timeout-ms" in r.json()["field"]
    r = s.client.post("/v1/verify/batch", json={"requests": [OK, {"answer": None}]})
    assert r.status_code == 422 and r.json()["field"] == "requests[1].answer"


def test_size_limits_are_413_naming_the_field(start):
    s = start(limits=Limits(max_answer_chars=200, max_sources=2, max_source_chars=300, max_total_source_chars=500,
                            max_batch_requests=2, max_body_bytes=5000))
    src = lambda i, n=10: {"id": str(i), "text": "x" * n}
    cases = [
        ({"answer": "a" * 201}, "answer"),
        ({"answer": "a", "sources": [src(1), src(2), src(3)]}, "sources"),
        ({"answer": "a", "sources": [src(1, 301)]}, "sources[0].text"),
        ({"answer": "a", "sources": [src(1, 250), src(2, 260)]}, "sources"),
    ]
    for body, field in cases:
        r = s.client.post("/v1/verify", json=body)
        assert r.status_code == 413, body
        assert r.json()["field"] == field and "limit" in r.json()["message"]
    r = s.client.post("/v1/verify/batch", json={"requests": [OK, OK, OK]})
    assert r.status_code == 413 and r.json()["field"] == "requests"
    r = s.client.post("/v1/verify/batch", json={"requests": [OK, {"answer": "a" * 201}]})
    assert r.status_code == 413 and r.json()["field"] == "requests[1].answer"
    r = s.client.post("/v1/verify", json={"answer": "a" * 6000})
    assert r.status_code == 413 and "body" in r.json()["message"]
    assert s.client.post("/v1/verify", json=OK).status_code == 200


# -- back-pressure, deadlines, failures ---------------------------------------------------------


def test_full_queue_is_429_with_retry_after(start):
    s = start(limits=Limits(max_queue=1, retry_after_s=2))
    s.model.hold()
    first = in_background(s.client.post, "/v1/verify", json=held())
    assert s.model.holding.wait(20)
    r = s.client.post("/v1/verify", json=OK)
    assert r.status_code == 429 and r.headers["retry-after"] == "2" and r.json()["error"] == "queue_full"
    r = s.client.post("/v1/verify/batch", json={"requests": [OK]})
    assert r.status_code == 429
    s.model.gate.set()
    assert first.result(30).status_code == 200
    assert s.client.post("/v1/verify", json=OK).status_code == 200  # room again
    assert metric(s.client.get("/metrics").text, 'verifier_rejected_total{reason="queue_full"}') == 2


def test_deadline_gives_explicit_abstain(start):
    s = start()
    s.model.hold()
    r = s.client.post("/v1/verify", json={**held(), "timeout_ms": 300, "id": "late"})
    r2 = s.client.post("/v1/verify", json=held(), headers={"X-Timeout-Ms": "300"})
    s.model.gate.set()
    for resp in (r, r2):
        assert resp.status_code == 200
        body = resp.json()
        assert body["decision"]["action"] == "abstain" and body["decision"]["reason"] == TIMED_OUT
        assert body["claims"] == [] and resp.headers["x-verifier-action"] == "abstain"
    assert r.json()["id"] == "late"
    assert metric(s.client.get("/metrics").text, "verifier_timeouts_total") == 2
    assert s.client.post("/v1/verify", json=OK).json()["claims"]  # the service goes on


def test_model_error_fails_closed_and_service_keeps_serving(start, caplog):
    s = start()
    caplog.set_level(logging.INFO, logger="verifier.service")
    bad = {"answer": "Refunds EXPLODE within 5 business days.", "sources": [SOURCE]}
    r = s.client.post("/v1/verify", json=bad)
    assert r.status_code == 200
    body = r.json()
    assert body["decision"]["action"] == "abstain" and body["error_id"]
    assert r.headers["x-verifier-error-id"] == body["error_id"] and body["error_id"] in body["decision"]["reason"]
    logged = caplog.text
    assert body["error_id"] in logged and "RuntimeError" in logged
    assert "EXPLODE within" not in logged  # not the message, which quotes the answer: no text without --log-text

    r = s.client.post("/v1/verify/batch", json={"requests": [{**bad, "id": "bad"}, {**OK, "id": "good"}]})
    bad_report, good_report = r.json()["reports"]
    assert bad_report["error_id"] and bad_report["decision"]["action"] == "abstain"
    assert good_report["error_id"] is None and good_report["claims"]
    assert metric(s.client.get("/metrics").text, "verifier_internal_errors_total") == 2


def test_bearer_token_auth(start):
    s = start(token="s3cret-token")
    r = s.client.post("/v1/verify", json=OK)
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
    assert s.client.post("/v1/verify", json=OK, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert s.client.post("/v1/verify", json={"answer": 5}).status_code == 401  # auth before validation
    assert s.client.get("/metrics").status_code == 401
    good = {"Authorization": "Bearer s3cret-token"}
    assert s.client.post("/v1/verify", json=OK, headers=good).status_code == 200
    assert s.client.get("/metrics", headers=good).status_code == 200
    assert s.client.get("/healthz").status_code == 200 and s.client.get("/readyz").status_code == 200


def test_graceful_shutdown_finishes_in_flight_and_refuses_new(start):
    s = start()
    s.model.hold()
    in_flight = in_background(s.client.post, "/v1/verify", json=held())
    assert s.model.holding.wait(20)
    s.server.request_stop()

    def refused() -> bool:
        try:
            socket.create_connection((s.server.host, s.server.port), timeout=1).close()
            return False
        except OSError:
            return True

    wait_until(refused, 20, "the listening socket to close")
    with pytest.raises(httpx.ConnectError):
        httpx.post(s.url + "/v1/verify", json=OK, timeout=5)
    s.model.gate.set()
    r = in_flight.result(30)
    assert r.status_code == 200 and r.json()["claims"] and r.json()["error_id"] is None
    wait_until(lambda: not s.server.running, 30, "the server to stop")


# -- in-process async API -------------------------------------------------------------------


def test_averify_batches_concurrent_calls_and_times_out(analyzer):
    model = GateModel()
    verifier = Verifier(model, analyzer=analyzer)

    async def main():
        engine_for(verifier, ServiceSettings(batch=BatchSettings(window_ms=60_000)))
        texts = [f"Refunds take {n} business days." for n in range(1, 7)]
        reports = await asyncio.gather(*(verifier.averify(t, [SOURCE], id=str(i)) for i, t in enumerate(texts)))
        model.hold()
        late = await verifier.averify(held()["answer"], [SOURCE], timeout_ms=200)
        model.gate.set()
        return reports, late

    reports, late = asyncio.run(main())
    assert [r.id for r in reports] == [str(i) for i in range(6)] and all(r.claims for r in reports)
    assert len(model.calls) < 6  # shared model calls
    assert late.decision.action == "abstain" and late.decision.reason == TIMED_OUT


def test_averify_shares_the_services_batcher(analyzer):
    model = GateModel()
    verifier = Verifier(model, analyzer=analyzer)
    app = create_app(verifier, ServiceSettings(warmup=False))

    async def main():
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        server = make_server(app, "127.0.0.1", sock.getsockname()[1], log_config=None, log_level="warning")
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.02)
        try:
            assert engine_for(verifier) is app.state.service.engine  # one engine, one batcher
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{sock.getsockname()[1]}", timeout=30) as c:
                other = {"answer": "Hotel fees are charged per night.", "sources": [SOURCE]}
                http, local = await asyncio.gather(c.post("/v1/verify", json=OK), verifier.averify(**other))
            return http, local, app.state.service.engine.batcher.pairs_scored
        finally:
            server.should_exit = True
            await task

    http, local, pairs_scored = asyncio.run(asyncio.wait_for(main(), 60))
    assert http.status_code == 200 and local.claims
    assert pairs_scored == sum(model.calls) > 0


def test_averify_from_another_thread_uses_the_running_services_batcher(start):
    s = start()
    engine = s.verifier.async_engine
    before = engine.batcher.pairs_scored
    report = asyncio.run(s.verifier.averify("Hotel fees are charged per night.", [SOURCE], id="local"))
    assert report.id == "local" and report.claims and s.verifier.async_engine is engine
    assert engine.batcher.pairs_scored > before  # scored by the service's batcher, on the service's loop


# -- the command line -------------------------------------------------------------------------


def test_cli_serve_with_token_file_and_sigterm(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("file-token\n")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "VERIFIER_TOKEN"}
    proc = subprocess.Popen([sys.executable, "-m", "verifier.cli", "serve", "--model", "lexical", "--port", str(port),
                             "--token-file", str(token_file)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: proc.poll() is not None or is_ready(url), 120, "verifier serve to be ready")
        assert proc.poll() is None, proc.communicate()[0][-3000:]
        secret = "Zanzibar-7731 refunds take 5 business days."
        headers = {"Authorization": "Bearer file-token"}
        r = httpx.post(url + "/v1/verify", json={"answer": secret, "sources": [SOURCE]}, headers=headers, timeout=30)
        assert r.status_code == 200 and r.json()["model"]["name"] == "lexical-recall"
        assert httpx.post(url + "/v1/verify", json=OK, timeout=30).status_code == 401
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    # uvicorn re-raises the SIGTERM after its graceful shutdown, so the exit is "killed by SIGTERM".
    assert proc.returncode in (0, -signal.SIGTERM), out[-3000:]
    assert "Application shutdown complete" in out and "Finished server process" in out
    assert "verified id=" in out and "Zanzibar" not in out  # logged, but without the text


def test_a_bug_outside_the_engine_still_answers_abstain(caplog):
    """The guard turns an exception escaping a route into a JSON abstain, without logging its message."""
    from verifier.service.guard import GuardMiddleware
    from verifier.service.metrics import ServiceMetrics

    async def broken_app(scope, receive, send):
        body = (await receive())["body"]
        raise ValueError(f"route bug quoting the request: {body!r}")

    async def main():
        guarded = GuardMiddleware(broken_app, token=None, max_body_bytes=1000, metrics=ServiceMetrics())
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=guarded), base_url="http://test") as c:
            return await c.post("/v1/verify", json=OK)

    caplog.set_level(logging.INFO, logger="verifier.service")
    r = asyncio.run(main())
    assert r.status_code == 500
    body = r.json()
    assert body["decision"]["action"] == "abstain" and body["error_id"] in caplog.text
    assert "ValueError" in caplog.text and "Refunds take" not in caplog.text

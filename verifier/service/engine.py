"""The async engine behind `Verifier.averify` and the HTTP service.

Each answer runs the pipeline's phases: `prepare` on a worker thread, its pairs through the
shared micro-batcher (one model call for many answers, on the model thread or in one of the
model worker processes), then `finish` on a worker thread. Two outcomes are never a pass:
past the deadline the report is an explicit `abstain` ("verification timed out"), and any
internal error becomes an `abstain` report carrying an error id that is also logged (fail
closed).
"""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from extractors.schema import Language
from verifier.schema import Coverage, Decision, ModelInfo, Report, VerifyRequest
from verifier.service.batcher import BatchStats, MicroBatcher
from verifier.service.config import ServiceSettings
from verifier.service.runners import ModelRunner, ProcessRunner, model_loader, usable_cores

if TYPE_CHECKING:
    from verifier.pipeline import Verifier

log = logging.getLogger("verifier.service")

TIMED_OUT = "verification timed out"


class ServiceReport(Report):
    """A `Report`, plus the id of the logged internal error when verification failed."""

    error_id: str | None = None


def _language(text: str) -> Language:
    try:
        from extractors import detect_language

        return detect_language(text)
    except Exception:  # noqa: BLE001 - the fallback report must be buildable whatever broke
        return "en"


class AsyncEngine:
    def __init__(
        self,
        verifier: Verifier,
        settings: ServiceSettings | None = None,
        *,
        on_batch: Callable[[BatchStats], None] | None = None,
        on_report: Callable[[ServiceReport], None] | None = None,
    ) -> None:
        self.verifier = verifier
        self.settings = settings or ServiceSettings()
        self.loop = asyncio.get_running_loop()
        self._pool = ThreadPoolExecutor(self.settings.workers, thread_name_prefix="verifier-cpu")
        self._preparing = 0
        self.on_report = on_report  # observer, e.g. metrics; may be set later
        self.retiring: asyncio.Task | None = None  # the engine this one replaced, closing
        self.batcher = MicroBatcher(_runner(verifier, self.settings), self.settings.batch,
                                    expecting=lambda: self._preparing, on_batch=on_batch)

    async def start(self) -> None:
        """Load what the first request would otherwise wait for (the model worker processes)."""
        await self.batcher.runner.start()

    @property
    def usable(self) -> bool:
        """False once closed or when its event loop is gone."""
        return not self.batcher.closed and not self.loop.is_closed()

    async def verify(self, request: VerifyRequest, timeout_ms: int | None = None, *, observe: bool = True
                     ) -> ServiceReport:
        """The report for one validated request; never raises for internal errors or deadlines.
        `observe=False` keeps it out of the observers (warm-up passes)."""
        timeout_ms = min(timeout_ms or self.settings.default_timeout_ms, self.settings.max_timeout_ms)
        started = time.perf_counter()
        try:
            report = await asyncio.wait_for(self._verify(request), timeout_ms / 1000)
        except TimeoutError:
            log.warning("verification timed out after %d ms (request id %s)", timeout_ms, _short(request.id))
            report = self.fallback(request, TIMED_OUT, started)
        except Exception as exc:  # noqa: BLE001 - fail closed: abstain, log, keep serving
            error_id = uuid.uuid4().hex[:12]
            self._log_error(error_id, request, exc)
            report = self.fallback(request, f"verification failed (internal error {error_id}); the answer was "
                                   "not checked and must not go out", started, error_id)
        if observe and self.on_report is not None:
            self.on_report(report)
        return report

    async def _verify(self, request: VerifyRequest) -> ServiceReport:
        loop = asyncio.get_running_loop()
        self._preparing += 1
        try:
            prepared = await loop.run_in_executor(self._pool, self.verifier.prepare, request)
        finally:
            self._preparing -= 1
        # No await between the decrement and the submit: the batcher sees the pairs arrive as
        # the request stops counting as "preparing", so it never waits for it in vain.
        t = time.perf_counter()
        scores = await self.batcher.submit(prepared.pairs())
        prepared.timing_ms["model"] = round((time.perf_counter() - t) * 1000, 3)  # batching wait included
        report = await loop.run_in_executor(self._pool, self.verifier.finish, prepared, scores)
        if (followup := prepared.followup) is not None:  # contradicted claims read again in pieces
            t = time.perf_counter()
            new = await self.batcher.submit(followup.unscored())
            followup.timing_ms["model"] = round(followup.timing_ms.get("model", 0.0)
                                                + (time.perf_counter() - t) * 1000, 3)
            report = await loop.run_in_executor(self._pool, self.verifier.finish_followup, followup,
                                                followup.all_scores(new))
        return ServiceReport(**dict(report))

    def fallback(self, request: VerifyRequest, reason: str, started: float, error_id: str | None = None
                 ) -> ServiceReport:
        """An explicit abstain with no claims: what goes out when verification did not finish."""
        model = self.verifier.model
        return ServiceReport(
            id=request.id,
            language=_language(request.answer),
            claims=[],
            coverage=Coverage(),
            decision=Decision(action="abstain", reason=reason, confidence=0.0,
                              risk_level=request.context.risk_level, evidence_status="missing",
                              reasons=[f"error id: {error_id}"] if error_id else []),
            model=ModelInfo(name=str(getattr(model, "name", "unknown")), revision=str(getattr(model, "revision", ""))),
            timing_ms={"total": round((time.perf_counter() - started) * 1000, 3)},
            error_id=error_id,
        )

    def _log_error(self, error_id: str, request: VerifyRequest, exc: BaseException) -> None:
        # Exception messages can quote the answer or sources, so without --log-text only the
        # type and the stack frames (code, not data) are logged.
        if self.settings.log_text:
            log.error("internal error %s (request id %s): %r\nanswer: %r", error_id, _short(request.id), exc,
                      request.answer, exc_info=exc)
        else:
            frames = "".join(traceback.format_tb(exc.__traceback__))
            log.error("internal error %s (request id %s): %s\n%s", error_id, _short(request.id),
                      type(exc).__name__, frames)

    async def close(self) -> None:
        await self.batcher.close()
        self._pool.shutdown(wait=False)

    def shutdown_threads(self) -> None:
        """For an engine whose loop is gone: release its threads without awaiting anything."""
        self._pool.shutdown(wait=False)
        self.batcher.release_threads()


def _runner(verifier: Verifier, settings: ServiceSettings) -> ModelRunner | Callable:
    if not settings.model_workers:
        return verifier.score
    threads = settings.model_threads or max(1, usable_cores() // settings.model_workers)
    return ProcessRunner(model_loader(verifier), settings.model_workers, threads)


def _short(value: str | None, limit: int = 64) -> str:
    return "-" if value is None else value[:limit]


async def averify_request(verifier: Verifier, request: VerifyRequest, timeout_ms: int | None = None
                          ) -> ServiceReport:
    """`Verifier.averify`: through the verifier's engine, even when that engine (e.g. the HTTP
    service's) runs on an event loop in another thread, so that all callers share one batcher."""
    engine: AsyncEngine | None = getattr(verifier, "async_engine", None)
    loop = asyncio.get_running_loop()
    if engine is not None and engine.usable and engine.loop is not loop and engine.loop.is_running():
        future = asyncio.run_coroutine_threadsafe(engine.verify(request, timeout_ms), engine.loop)
        return await asyncio.wrap_future(future)  # cancelling this cancels the work over there too
    return await engine_for(verifier).verify(request, timeout_ms)


def engine_for(verifier: Verifier, settings: ServiceSettings | None = None) -> AsyncEngine:
    """The verifier's engine on the running loop, made on first use and then shared (HTTP
    service and `averify` alike). Engines are tied to one event loop."""
    loop = asyncio.get_running_loop()
    engine: AsyncEngine | None = getattr(verifier, "async_engine", None)
    if engine is not None and engine.usable and engine.loop is loop:
        return engine
    if engine is not None and engine.usable and engine.loop.is_running():
        raise RuntimeError("this Verifier's async engine runs on another event loop (e.g. the HTTP service's); "
                           "call averify from that loop, or use a second Verifier")
    return attach_engine(verifier, settings)


def attach_engine(verifier: Verifier, settings: ServiceSettings | None = None) -> AsyncEngine:
    """A new engine on the running loop, replacing (and releasing) the verifier's previous one."""
    old: AsyncEngine | None = getattr(verifier, "async_engine", None)
    loop = asyncio.get_running_loop()
    if old is not None and old.loop is not loop and old.loop.is_closed():
        old.shutdown_threads()  # an engine on a live loop belongs to whoever runs that loop; leave it
    engine = AsyncEngine(verifier, settings)
    if old is not None and old.loop is loop and old.usable:
        # The old one finishes what it already holds, then lets its threads go; the reference
        # keeps the task from being garbage-collected midway.
        engine.retiring = loop.create_task(old.close())
    verifier.async_engine = engine
    return engine

"""The HTTP service: `create_app(verifier, settings)` returns a FastAPI app around one loaded model.

Endpoints: `POST /v1/verify`, `POST /v1/verify/batch`, `GET /healthz`, `GET /readyz`,
`GET /metrics` (Prometheus text) and `GET /openapi.json`. Verification goes through the
verifier's shared `AsyncEngine` (micro-batched model calls); see `engine.py` for the
deadline and fail-closed rules and `guard.py` for auth, body size and admission.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, cast

from fastapi import FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from verifier.errors import explain
from verifier.schema import VerifyRequest
from verifier.service.config import ServiceSettings
from verifier.service.engine import AsyncEngine, ServiceReport, attach_engine
from verifier.service.guard import (
    Admission,
    GuardMiddleware,
    LimitProblem,
    check_all,
    check_limits,
    error_body,
)
from verifier.service.metrics import CONTENT_TYPE, ServiceMetrics

if TYPE_CHECKING:
    from verifier.pipeline import Verifier

log = logging.getLogger("verifier.service")

_TIMEOUT_FIELD = Field(default=None, ge=1, description="deadline in milliseconds; past it the report is an explicit "
                       "abstain with reason 'verification timed out' (default: the server's setting)")


class ServiceVerifyRequest(VerifyRequest):
    """The engine's input contract, plus an optional per-request deadline."""

    timeout_ms: int | None = _TIMEOUT_FIELD


class BatchVerifyRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    requests: list[VerifyRequest] = Field(min_length=1)
    timeout_ms: int | None = _TIMEOUT_FIELD


class BatchVerifyResponse(BaseModel):
    reports: list[ServiceReport]


class ErrorResponse(BaseModel):
    error: str
    message: str
    field: str | None = None


_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "missing or wrong bearer token"},
    413: {"model": ErrorResponse, "description": "a size limit is exceeded; the message names the field"},
    422: {"model": ErrorResponse, "description": "the input breaks the contract; the message names the field"},
    429: {"model": ErrorResponse, "description": "the queue is full; retry after the Retry-After seconds"},
    503: {"model": ErrorResponse, "description": "shutting down or starting; retry after Retry-After seconds"},
}

_WARMUP = (
    {"id": "warmup-en", "answer": "Refunds are issued within 5 business days.",
     "sources": [{"id": "1", "text": "We issue the refund within 1 to 5 business days."}]},
    {"id": "warmup-zh", "answer": "退款在5个工作日内完成。",
     "sources": [{"id": "1", "text": "我们会在1至5个工作日内退款。"}]},
)


@dataclass
class ServiceState:
    verifier: Verifier
    settings: ServiceSettings
    metrics: ServiceMetrics
    admission: Admission
    engine: AsyncEngine | None = None
    ready: bool = False
    warmup_error: str | None = None
    tasks: set = field(default_factory=set)

    def refuse(self, n: int) -> Response | None:
        """429/503 with Retry-After when `n` more answers cannot be admitted now."""
        if self.engine is None or self.admission.draining:
            self.metrics.rejected.labels(reason="unavailable").inc()
            why = "the service is shutting down" if self.admission.draining else "the service is starting"
            return self._retry(503, "unavailable", f"{why}; retry on another instance or later")
        if not self.admission.try_enter(n):
            self.metrics.rejected.labels(reason="queue_full").inc()
            return self._retry(429, "queue_full", f"{self.admission.in_flight} answers are in progress, the limit is "
                               f"{self.admission.capacity}; retry after the Retry-After seconds")
        return None

    def _retry(self, status: int, code: str, message: str) -> Response:
        return Response(error_body(code, message), status_code=status, media_type="application/json",
                        headers={"Retry-After": str(self.settings.limits.retry_after_s)})

    async def verify_many(self, requests: Sequence[VerifyRequest], timeout_ms: int | None) -> list[ServiceReport]:
        assert self.engine is not None
        engine = self.engine
        try:
            return list(await asyncio.gather(*(engine.verify(r, timeout_ms) for r in requests)))
        finally:
            self.admission.leave(len(requests))

    def log_report(self, request: VerifyRequest, report: ServiceReport) -> None:
        log.info("verified id=%s action=%s claims=%d answer_chars=%d sources=%d ms=%.1f%s",
                 (request.id or "-")[:64], report.decision.action, len(report.claims), len(request.answer),
                 len(request.sources), report.timing_ms.get("total", 0.0),
                 f" error_id={report.error_id}" if report.error_id else "")
        if self.settings.log_text:
            log.info("text id=%s answer=%r sources=%r", (request.id or "-")[:64], request.answer,
                     [s.text for s in request.sources])

    async def warm_up(self) -> None:
        """One English and one Chinese pass so that lazy loads happen before /readyz says ready."""
        assert self.engine is not None
        try:
            await self.engine.start()
        except Exception as exc:  # noqa: BLE001 - not ready, and /readyz says why
            self.warmup_error = f"the model workers did not start ({type(exc).__name__})"
            log.error("warm-up failed: %s", self.warmup_error, exc_info=exc)
            return
        for raw in _WARMUP:
            report = await self.engine.verify(VerifyRequest.model_validate(raw),
                                              self.settings.max_timeout_ms, observe=False)
            if report.error_id or not report.claims:
                self.warmup_error = report.decision.reason
                log.error("warm-up failed: %s", report.decision.reason)
                return
        self.ready = True
        self.metrics.ready.set(1)
        log.info("warm-up done; ready")


def _where(loc: Sequence[str | int]) -> str:
    """`sources[0].id`: the field path as the messages from `verifier.errors.explain` write it."""
    return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in loc).replace(".[", "[") or "body"


def _too_large(problem: LimitProblem, metrics: ServiceMetrics) -> Response:
    metrics.rejected.labels(reason="too_large").inc()
    return Response(error_body("too_large", problem.message, field=problem.field), status_code=413,
                    media_type="application/json")


def _json(model: BaseModel, report: ServiceReport | None = None) -> Response:
    headers: dict[str, str] = {}
    if report is not None:
        headers["X-Verifier-Action"] = report.decision.action
        if report.error_id:
            headers["X-Verifier-Error-Id"] = report.error_id
    return Response(model.model_dump_json(), media_type="application/json", headers=headers)


def create_app(verifier: Verifier, settings: ServiceSettings | None = None, *,
               metrics: ServiceMetrics | None = None) -> FastAPI:
    """A FastAPI app serving `verifier` (its model already loaded); run it with uvicorn."""
    settings = settings or ServiceSettings()
    metrics = metrics or ServiceMetrics()
    state = ServiceState(verifier, settings, metrics, Admission(settings.limits.max_queue))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = state.engine = attach_engine(verifier, settings)
        engine.on_report = metrics.on_report
        engine.batcher.on_batch = metrics.on_batch
        metrics.track(lambda: state.admission.in_flight, lambda: engine.batcher.pending_pairs)
        if settings.warmup:
            task = asyncio.create_task(state.warm_up())
            state.tasks.add(task)
        else:
            state.ready = True
            metrics.ready.set(1)
        try:
            yield
        finally:
            state.admission.draining = True
            state.ready = False
            metrics.ready.set(0)
            for task in state.tasks:
                task.cancel()
            try:
                # In-flight HTTP requests are done by now; this bounds the wait for a hung model call.
                await asyncio.wait_for(engine.close(), settings.max_timeout_ms / 1000)
            except TimeoutError:
                log.error("the model did not finish its last batch in time; stopping anyway")

    app = FastAPI(title="verifier", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Post-generation filter: checks a RAG answer against its sources and says whether "
                  "it may go out (answer, rewrite, clarify, abstain or handoff).")
    app.state.service = state
    app.add_middleware(GuardMiddleware, token=settings.token, max_body_bytes=settings.limits.max_body_bytes,
                       metrics=metrics)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        metrics.rejected.labels(reason="invalid").inc()
        errors = [dict(e, loc=tuple(e["loc"][1:]) if e["loc"][:1] == ("body",) else tuple(e["loc"]))
                  for e in exc.errors()]
        whole_body = [e for e in errors if e["type"] == "json_invalid" or not e["loc"]]
        if whole_body:
            # Not a field problem: the body itself is not one JSON object.
            return JSONResponse({"error": "invalid_request", "field": "body", "message": "the body must be one "
                                 "JSON object, sent with Content-Type: application/json (see /openapi.json)"},
                                status_code=422)
        message = explain(cast(ValidationError, RequestValidationError(errors)))
        return JSONResponse({"error": "invalid_request", "message": f"invalid input: {message}",
                             "field": _where(errors[0]["loc"]) if errors else None}, status_code=422)

    @app.post("/v1/verify", response_model=ServiceReport, responses=_ERRORS,
              summary="Verify one answer against its sources")
    async def verify(body: ServiceVerifyRequest,
                     x_timeout_ms: Annotated[int | None, Header(ge=1, description="deadline in ms, when the body "
                                                                "has no timeout_ms")] = None) -> Response:
        problem = check_limits(body, settings.limits)
        if problem:
            return _too_large(problem, metrics)
        refused = state.refuse(1)
        if refused is not None:
            return refused
        (report,) = await state.verify_many([body], body.timeout_ms or x_timeout_ms)
        state.log_report(body, report)
        return _json(report, report)

    @app.post("/v1/verify/batch", response_model=BatchVerifyResponse, responses=_ERRORS,
              summary="Verify several answers; their model pairs are batched together")
    async def verify_batch(body: BatchVerifyRequest,
                           x_timeout_ms: Annotated[int | None, Header(ge=1)] = None) -> Response:
        if len(body.requests) > settings.limits.max_batch_requests:
            return _too_large(LimitProblem("requests", f"requests has {len(body.requests)} items; the limit is "
                                           f"{settings.limits.max_batch_requests}. Split the batch."), metrics)
        problem = check_all(body.requests, settings.limits)
        if problem:
            return _too_large(problem, metrics)
        refused = state.refuse(len(body.requests))
        if refused is not None:
            return refused
        reports = await state.verify_many(body.requests, body.timeout_ms or x_timeout_ms)
        for request, report in zip(body.requests, reports):
            state.log_report(request, report)
        return _json(BatchVerifyResponse(reports=reports))

    @app.get("/healthz", summary="The process is up")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", summary="Model loaded and warmed up, not shutting down", responses={503: {}})
    async def readyz() -> JSONResponse:
        model = {"name": verifier.model.name, "revision": verifier.model.revision}
        if state.admission.draining:
            return JSONResponse({"status": "draining", "model": model}, status_code=503)
        if state.warmup_error:
            return JSONResponse({"status": "warm-up failed", "reason": state.warmup_error, "model": model},
                                status_code=503)
        if not state.ready:
            return JSONResponse({"status": "warming up", "model": model}, status_code=503)
        return JSONResponse({"status": "ready", "model": model})

    @app.get("/metrics", summary="Prometheus metrics", response_class=Response)
    async def prometheus() -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    return app

"""What stands in front of verification: auth, body size, admission (back-pressure), size limits.

`GuardMiddleware` is a plain ASGI middleware so that it runs before FastAPI parses or
validates anything: an unauthenticated caller learns nothing about the input contract, and
an oversized body is refused before it is held in memory whole.
"""

from __future__ import annotations

import hmac
import json
import logging
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from verifier.schema import VerifyRequest
from verifier.service.config import Limits
from verifier.service.metrics import ServiceMetrics

log = logging.getLogger("verifier.service")

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Endpoints by path; anything else is counted as "other" so metric labels stay bounded.
ENDPOINTS = ("/v1/verify", "/v1/verify/batch", "/healthz", "/readyz", "/metrics", "/openapi.json")
PROTECTED_PREFIXES = ("/v1/", "/metrics")


def error_body(code: str, message: str, **extra: Any) -> bytes:
    return json.dumps({"error": code, "message": message, **extra}, ensure_ascii=False).encode("utf-8")


@dataclass
class Admission:
    """Answers admitted and not yet answered, bounded by `capacity`; `draining` refuses all."""

    capacity: int
    in_flight: int = 0
    draining: bool = False

    def try_enter(self, n: int = 1) -> bool:
        # Single event loop: check-and-increment cannot interleave with another request.
        if self.draining or self.in_flight + n > self.capacity:
            return False
        self.in_flight += n
        return True

    def leave(self, n: int = 1) -> None:
        self.in_flight -= n


@dataclass(frozen=True)
class LimitProblem:
    field: str
    message: str


def check_limits(request: VerifyRequest, limits: Limits, prefix: str = "") -> LimitProblem | None:
    """The first size limit the request breaks, with a message that says what to do."""
    if len(request.answer) > limits.max_answer_chars:
        return LimitProblem(f"{prefix}answer", f"{prefix}answer has {len(request.answer)} characters; the limit "
                            f"is {limits.max_answer_chars}. Split the answer into several requests.")
    if len(request.sources) > limits.max_sources:
        return LimitProblem(f"{prefix}sources", f"{prefix}sources has {len(request.sources)} items; the limit is "
                            f"{limits.max_sources}. Send only the sources retrieved for this answer.")
    total = 0
    for i, source in enumerate(request.sources):
        total += len(source.text)
        if len(source.text) > limits.max_source_chars:
            return LimitProblem(f"{prefix}sources[{i}].text", f"{prefix}sources[{i}].text has {len(source.text)} "
                                f"characters; the limit is {limits.max_source_chars}. Send the retrieved passages, "
                                "not whole documents.")
    if total > limits.max_total_source_chars:
        return LimitProblem(f"{prefix}sources", f"{prefix}sources hold {total} characters in all; the limit is "
                            f"{limits.max_total_source_chars}. Send fewer or shorter sources.")
    return None


def check_all(requests: Iterable[VerifyRequest], limits: Limits) -> LimitProblem | None:
    for i, request in enumerate(requests):
        problem = check_limits(request, limits, prefix=f"requests[{i}].")
        if problem:
            return problem
    return None


class GuardMiddleware:
    def __init__(self, app: ASGIApp, *, token: str | None, max_body_bytes: int, metrics: ServiceMetrics) -> None:
        self.app = app
        self.token = token.encode("utf-8") if token else None
        self.max_body_bytes = max_body_bytes
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        endpoint = path if path in ENDPOINTS else "other"
        started = time.perf_counter()
        status_seen = [500]

        async def counting_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_seen[0] = message["status"]
            await send(message)

        try:
            await self._guarded(scope, receive, counting_send, path)
        finally:
            self.metrics.requests.labels(endpoint=endpoint, status=str(status_seen[0])).inc()
            self.metrics.latency.labels(endpoint=endpoint).observe(time.perf_counter() - started)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send, path: str) -> None:
        if self.token is not None and path.startswith(PROTECTED_PREFIXES) and not self._authorized(scope):
            self.metrics.rejected.labels(reason="unauthorized").inc()
            await _respond(send, 401, error_body("unauthorized", "missing or wrong bearer token; send the header "
                                                 "`Authorization: Bearer <token>`"),
                           [(b"www-authenticate", b'Bearer realm="verifier"')])
            return
        if scope["method"] not in ("POST", "PUT", "PATCH"):
            await self._fail_closed(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body_bytes:
            await self._too_large(send)
            return
        # Read the body here, bounded (chunked uploads have no Content-Length), then replay it.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for the disconnect, as ASGI servers do

        await self._fail_closed(scope, replay, send)

    async def _fail_closed(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app; an exception that escapes it still gets a JSON answer saying abstain.

        Verification errors are already turned into abstain reports by the engine; this catches
        the rest (a bug in a route) without letting the server log the exception's message,
        which could quote the request.
        """
        started = [False]

        async def tracking_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                started[0] = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:  # noqa: BLE001 - fail closed, keep serving
            error_id = uuid.uuid4().hex[:12]
            log.error("internal error %s on %s: %s\n%s", error_id, scope["path"], type(exc).__name__,
                      "".join(traceback.format_tb(exc.__traceback__)))
            self.metrics.internal_errors.inc()
            if not started[0]:
                reason = f"internal error {error_id}; the answer was not checked and must not go out"
                await _respond(send, 500, error_body("internal_error", reason, error_id=error_id,
                                                     decision={"action": "abstain", "reason": reason}))

    def _authorized(self, scope: Scope) -> bool:
        value = _header(scope, b"authorization") or ""
        scheme, _, given = value.partition(" ")
        assert self.token is not None
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode("utf-8"), self.token)

    async def _too_large(self, send: Send) -> None:
        self.metrics.rejected.labels(reason="too_large").inc()
        await _respond(send, 413, error_body("too_large", f"the request body is over {self.max_body_bytes} bytes; "
                                             "send fewer or shorter sources, or split the batch"))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


async def _respond(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})

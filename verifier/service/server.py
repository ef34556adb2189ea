"""Running the app on uvicorn with graceful shutdown: foreground (`verifier serve`) or in a thread.

On SIGTERM/SIGINT (or `stop()`), uvicorn closes the listening socket first, so new
connections are refused; the app is told to drain before that, so a new request on a kept-alive
connection gets 503; requests already in progress run to the end (up to `grace_s`), then the
batcher finishes its queue and stops.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any, Self

import uvicorn
from fastapi import FastAPI

DEFAULT_GRACE_S = 30


class ServiceServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, on_drain: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self._on_drain = on_drain

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self._on_drain is not None:
            self._on_drain()
        await super().shutdown(sockets)


def _drainer(app: FastAPI) -> Callable[[], None]:
    def drain() -> None:
        app.state.service.admission.draining = True

    return drain


def make_server(app: FastAPI, host: str = "127.0.0.1", port: int = 8080, *, grace_s: float = DEFAULT_GRACE_S,
                **config: Any) -> ServiceServer:
    config.setdefault("log_level", "info")
    return ServiceServer(uvicorn.Config(app, host=host, port=port, timeout_graceful_shutdown=round(grace_s),
                                        lifespan="on", **config), on_drain=_drainer(app))


def serve(app: FastAPI, host: str = "127.0.0.1", port: int = 8080, **config: Any) -> None:
    """Serve in the foreground until SIGINT/SIGTERM."""
    make_server(app, host, port, **config).run()


class BackgroundServer:
    """The app on a free loopback port, served by uvicorn in a thread (tests, embedding, benchmarks)."""

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0, **config: Any) -> None:
        config.setdefault("log_level", "warning")
        config.setdefault("log_config", None)  # leave the host process's logging alone
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self.host, self.port = self._sock.getsockname()[:2]
        self.server = make_server(app, self.host, self.port, **config)
        self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self._sock]},
                                        name="verifier-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout_s: float = 60.0) -> Self:
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the server thread stopped during startup; see its log")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the server did not start within {timeout_s} s")
            time.sleep(0.02)
        return self

    def request_stop(self) -> None:
        """Begin the graceful shutdown and return at once."""
        self.server.should_exit = True

    def stop(self, timeout_s: float = 60.0) -> None:
        self.request_stop()
        self._thread.join(timeout_s)
        if self._thread.is_alive():
            self.server.force_exit = True
            self._thread.join(5)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""The post-generation filter as an HTTP service, batching model calls across requests.

    from verifier import Verifier
    from verifier.service import ServiceSettings, create_app, serve
    serve(create_app(Verifier("default"), ServiceSettings()), host="127.0.0.1", port=8080)

or `verifier serve --model default`. In-process asyncio apps use `await verifier.averify(...)`,
which shares the same engine (and micro-batcher) when the service runs in the same loop.
"""

from verifier.service.app import create_app
from verifier.service.config import BatchSettings, Limits, ServiceSettings, read_token
from verifier.service.engine import TIMED_OUT, AsyncEngine, ServiceReport, engine_for
from verifier.service.server import BackgroundServer, serve

__all__ = [
    "TIMED_OUT", "AsyncEngine", "BackgroundServer", "BatchSettings", "Limits", "ServiceReport", "ServiceSettings",
    "create_app", "engine_for", "read_token", "serve",
]

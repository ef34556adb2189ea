"""Prometheus metrics for one service instance, in its own registry (no process-global state)."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from verifier.service.batcher import BatchStats
from verifier.service.engine import TIMED_OUT, ServiceReport

CONTENT_TYPE = CONTENT_TYPE_LATEST

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
_PAIR_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


class ServiceMetrics:
    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.requests = Counter("verifier_http_requests", "HTTP requests by endpoint and status code",
                                ["endpoint", "status"], registry=r)
        self.latency = Histogram("verifier_http_request_seconds", "HTTP request latency by endpoint",
                                 ["endpoint"], buckets=_LATENCY_BUCKETS, registry=r)
        self.answers = Counter("verifier_answers", "answers verified (single and batch endpoints, averify)",
                               registry=r)
        self.actions = Counter("verifier_actions", "decisions sent, by action", ["action"], registry=r)
        self.timeouts = Counter("verifier_timeouts", "answers that hit their deadline (sent as abstain)",
                                registry=r)
        self.internal_errors = Counter("verifier_internal_errors", "internal errors (sent as abstain)",
                                       registry=r)
        self.rejected = Counter("verifier_rejected", "requests refused before verification, by reason",
                                ["reason"], registry=r)
        self.batch_pairs = Histogram("verifier_model_batch_pairs", "pairs per model call",
                                     buckets=_PAIR_BUCKETS, registry=r)
        self.batch_requests = Histogram("verifier_model_batch_requests", "answers sharing one model call",
                                        buckets=_PAIR_BUCKETS, registry=r)
        self.model_seconds = Histogram("verifier_model_call_seconds", "duration of one model call",
                                       buckets=_LATENCY_BUCKETS, registry=r)
        self.queue_depth = Gauge("verifier_queue_depth", "answers admitted and not yet answered", registry=r)
        self.pending_pairs = Gauge("verifier_pending_pairs", "model pairs waiting for the batcher", registry=r)
        self.ready = Gauge("verifier_ready", "1 when the model is loaded and warmed up", registry=r)

    def track(self, queue_depth: Callable[[], float], pending_pairs: Callable[[], float]) -> None:
        """Read the live gauges at scrape time instead of updating them on every change."""
        self.queue_depth.set_function(queue_depth)
        self.pending_pairs.set_function(pending_pairs)

    def on_batch(self, stats: BatchStats) -> None:
        self.batch_pairs.observe(stats.pairs)
        self.batch_requests.observe(stats.requests)
        self.model_seconds.observe(stats.seconds)

    def on_report(self, report: ServiceReport) -> None:
        self.answers.inc()
        self.actions.labels(action=report.decision.action).inc()
        if report.error_id is not None:
            self.internal_errors.inc()
        elif report.decision.reason == TIMED_OUT and not report.claims:
            self.timeouts.inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)

"""Service settings: batching, back-pressure, size limits, deadlines and security.

One frozen object built once (from the CLI or by an embedding app) and handed to the app
factory; nothing here is read from module-level state.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

TOKEN_ENV = "VERIFIER_TOKEN"


@dataclass(frozen=True)
class BatchSettings:
    """How the micro-batcher gathers model pairs from concurrent requests."""

    window_ms: float = 5.0  # longest wait for more requests once the first pairs are queued
    max_pairs: int = 64  # pairs per model call
    max_tokens: int = 16_384  # estimated tokens per model call (padding not counted)
    fair_share: int = 16  # pairs taken from each waiting request per round, so one big request cannot starve others

    def __post_init__(self) -> None:
        if self.window_ms < 0:
            raise ValueError("batch window_ms must be >= 0")
        if self.max_pairs < 1 or self.max_tokens < 1 or self.fair_share < 1:
            raise ValueError("batch max_pairs, max_tokens and fair_share must be >= 1")


@dataclass(frozen=True)
class Limits:
    """Per-request size limits (413 beyond them) and the admission queue (429 when full)."""

    max_answer_chars: int = 20_000
    max_source_chars: int = 100_000  # per source
    max_total_source_chars: int = 400_000
    max_sources: int = 64
    max_batch_requests: int = 64  # answers in one POST /v1/verify/batch
    max_body_bytes: int = 8 * 1024 * 1024
    max_queue: int = 256  # answers admitted and not yet answered; beyond it: 429
    retry_after_s: int = 1


@dataclass(frozen=True)
class ServiceSettings:
    batch: BatchSettings = field(default_factory=BatchSettings)
    limits: Limits = field(default_factory=Limits)
    default_timeout_ms: int = 10_000
    max_timeout_ms: int = 120_000
    workers: int = 4  # threads for the CPU phases (prepare, finish)
    # Processes holding a copy of the model, each scoring one batch at a time; 0: the model runs
    # on one thread of this process (see runners.py for when processes pay off).
    model_workers: int = 0
    model_threads: int | None = None  # torch threads per model worker; None: the cores shared out
    token: str | None = None  # bearer token; None: no auth
    log_text: bool = False  # answer/source text in logs only when explicitly enabled
    warmup: bool = True

    def __post_init__(self) -> None:
        if self.default_timeout_ms < 1 or self.max_timeout_ms < 1:
            raise ValueError("timeouts must be >= 1 ms")
        if self.workers < 1:
            raise ValueError("workers must be >= 1")
        if self.model_workers < 0 or (self.model_threads is not None and self.model_threads < 1):
            raise ValueError("model_workers must be >= 0 and model_threads >= 1")
        if self.token is not None and not self.token.strip():
            raise ValueError("the bearer token is empty; set a non-empty token or none at all")


def read_token(token_file: str | None = None) -> str | None:
    """The bearer token from `--token-file` (first line) or the VERIFIER_TOKEN env var; None when neither."""
    if token_file:
        path = Path(token_file)
        try:
            token = path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ValueError(f"cannot read the token file {token_file!r}: {exc.strerror}") from exc
        if not token:
            raise ValueError(f"the token file {token_file!r} is empty; put the bearer token on its first line")
        return token.splitlines()[0].strip()
    token = os.environ.get(TOKEN_ENV, "").strip()
    return token or None

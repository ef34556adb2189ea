"""Batch audits: one report per input record, in order; a bad record becomes an error record.

`run_audit` audits an open JSONL text stream (standard input). `run_audit_file` audits a JSONL,
CSV or Parquet file resumably: see `verifier.audit_store` for the checkpoint protocol. The
verification itself (`verify_records`) is shared with the Ray engine so both write the same
records.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator, Protocol

from pydantic import ValidationError

from verifier.audit_io import Columns, RawRecord, count_records, iter_records, iter_text_records
from verifier.audit_store import (Checkpoint, check_resumable, input_fingerprint, open_writer, output_format,
                                  remove_parts)
from verifier.errors import explain
from verifier.schema import VerifyRequest

CACHE_PARTS = ("claim", "segment", "score")


@dataclass
class AuditStats:
    lines: int = 0
    ok: int = 0
    failed: int = 0


def to_request(raw: RawRecord) -> tuple[VerifyRequest | None, dict]:
    """The validated request, or the error record that stands in its place."""
    if raw.data is None:
        return None, {"line": raw.number, "error": raw.error}
    try:
        return VerifyRequest.model_validate(raw.data), {}
    except ValidationError as exc:
        return None, {"line": raw.number, "id": raw.id, "error": f"line {raw.number}: {explain(exc)}"}


def read_requests(lines: IO[str]) -> Iterator[tuple[int, VerifyRequest | None, dict]]:
    """(line number, request or None, error record or {}) for every non-blank line."""
    for raw in iter_text_records(lines):
        request, error = to_request(raw)
        yield raw.number, request, error


def verify_records(verifier, raws: list[RawRecord], *, include_text: bool = False) -> list[dict]:
    """One output record per raw record, in order: `line` first, then the report or the error."""
    parsed = [(raw, *to_request(raw)) for raw in raws]
    good = [(raw, request) for raw, request, _ in parsed if request is not None]
    reports: dict[int, dict] = {}
    try:
        for (raw, _), report in zip(good, verifier.verify_batch([r for _, r in good])):
            reports[raw.number] = report.model_dump(mode="json")
    except Exception:
        # One request broke the shared batch: redo them one by one so only it fails.
        for raw, valid in good:
            try:
                reports[raw.number] = verifier.verify_request(valid).model_dump(mode="json")
            except Exception as exc:  # noqa: BLE001 - an audit records every failure and goes on
                reports[raw.number] = {"id": valid.id, "error": f"line {raw.number}: {type(exc).__name__}: {exc}"}
    records = []
    for raw, request, error in parsed:
        if request is None:
            records.append(error)
            continue
        record = {"line": raw.number, **reports[raw.number]}
        if include_text and "error" not in record:
            record["question"], record["answer"] = request.question, request.answer
        records.append(record)
    return records


def _batched(items: Iterable[RawRecord], size: int) -> Iterator[list[RawRecord]]:
    batch: list[RawRecord] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def run_audit(verifier, lines: IO[str], out: IO[str], *, batch_size: int = 16,
              progress: bool | None = None) -> AuditStats:
    """Audit a JSONL text stream into `out` (not resumable: a stream cannot be re-read)."""
    stats = AuditStats()
    bar = _progress_bar(progress, None, 0)
    for batch in _batched(iter_text_records(lines), batch_size):
        for record in verify_records(verifier, batch):
            _count(stats, record)
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        out.flush()
        if bar is not None:
            bar.update(len(batch))
    if bar is not None:
        bar.close()
    return stats


def _count(stats: AuditStats, record: dict) -> None:
    stats.lines += 1
    if "error" in record:
        stats.failed += 1
    else:
        stats.ok += 1


# -- resumable file audits ------------------------------------------------------------------

@dataclass(frozen=True)
class AuditOptions:
    input: str
    output: str
    fmt: str
    columns: Columns = Columns()
    model: str = "default"
    engine: str = "local"
    batch_size: int = 16
    checkpoint_every: int = 512  # records; at most this many are redone after a kill
    include_text: bool = False
    restart: bool = False
    progress: bool | None = None

    @property
    def checkpoint_path(self) -> Path:
        return Path(self.output + ".checkpoint.json")

    def fingerprint(self) -> dict:
        return input_fingerprint(self.input, {"format": self.fmt, "columns": self.columns.as_dict(),
                                              "model": self.model, "include_text": self.include_text,
                                              "output_format": output_format(self.output)})


class Engine(Protocol):
    """Turns the input from a position on into output records, in input order."""

    def records(self, position: int, number: int) -> Iterator[tuple[int, int, dict]]:
        """(input record number, position after it, output record)."""
        ...

    def cache_counters(self) -> dict[str, int]:
        """Cache hits and misses of this session so far."""
        ...


class LocalEngine:
    def __init__(self, verifier, options: AuditOptions) -> None:
        self.verifier, self.options = verifier, options

    def records(self, position: int, number: int) -> Iterator[tuple[int, int, dict]]:
        o = self.options
        raws = iter_records(o.input, o.fmt, o.columns, start=position, first_number=number + 1)
        for batch in _batched(raws, o.batch_size):
            for raw, record in zip(batch, verify_records(self.verifier, batch, include_text=o.include_text)):
                yield raw.number, raw.position, record

    def cache_counters(self) -> dict[str, int]:
        return cache_counters(self.verifier.cache)


def cache_counters(cache) -> dict[str, int]:
    if cache is None:
        return {}
    stats = cache.stats()
    return {k: int(v) for k, v in stats.items() if k.endswith(("_hits", "_misses"))}


@dataclass
class AuditSummary:
    input: str
    output: str
    engine: str
    model: str
    lines: int
    ok: int
    failed: int
    elapsed_s: float
    answers_per_s: float
    sessions: int
    resumed_from_line: int
    peak_rss_mb: float
    complete: bool
    cache: dict = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=2)

    def line(self) -> str:
        rates = ", ".join(f"{p} {self.cache.get(p + '_hit_rate', 0):.0%}" for p in CACHE_PARTS)
        resumed = f", resumed at line {self.resumed_from_line}" if self.resumed_from_line else ""
        return (f"verifier: {self.lines} lines, {self.ok} reports, {self.failed} errors -> {self.output} "
                f"({self.answers_per_s:.1f} answers/s over {self.elapsed_s:.1f} s{resumed}; cache hits: {rates}; "
                f"peak memory {self.peak_rss_mb:.0f} MB)")


def run_audit_file(engine_factory: Callable[[], Engine], options: AuditOptions) -> AuditSummary:
    """Audit `options.input` into `options.output`, resuming from the checkpoint when there is one."""
    fingerprint = options.fingerprint()
    ckpt_path = options.checkpoint_path
    ckpt = None if options.restart else Checkpoint.load(ckpt_path)
    if ckpt is not None:
        check_resumable(ckpt, fingerprint, ckpt_path)
        ckpt.sessions += 1
    else:
        ckpt = Checkpoint(fingerprint=fingerprint)
    resumed_from = ckpt.number
    if not ckpt.complete:
        _run_session(engine_factory, options, ckpt, ckpt_path)
    remove_parts(Path(options.output))  # the output is final once the checkpoint says complete
    return _summary(options, ckpt, resumed_from)


def _run_session(engine_factory: Callable[[], Engine], options: AuditOptions, ckpt: Checkpoint,
                  ckpt_path: Path) -> None:
    writer = open_writer(Path(options.output), ckpt.writer)
    ckpt.save(ckpt_path)
    engine = engine_factory()
    started, base_elapsed, base_cache = time.perf_counter(), ckpt.elapsed_s, dict(ckpt.cache)
    total = count_records(options.input, options.fmt)
    bar = _progress_bar(options.progress, total, ckpt.number)
    pending = 0

    def commit() -> None:
        ckpt.writer = writer.commit()
        ckpt.elapsed_s = round(base_elapsed + time.perf_counter() - started, 3)
        session = engine.cache_counters()
        ckpt.cache = {k: base_cache.get(k, 0) + session.get(k, 0) for k in set(base_cache) | set(session)}
        ckpt.save(ckpt_path)

    try:
        for number, position, record in engine.records(ckpt.position, ckpt.number):
            writer.write(record)
            ckpt.lines += 1
            ckpt.failed += "error" in record
            ckpt.ok += "error" not in record
            if bar is not None:
                bar.update(number - ckpt.number)
            ckpt.number, ckpt.position = number, position
            pending += 1
            if pending >= options.checkpoint_every:
                commit()
                pending = 0
        writer.finalize()
        ckpt.complete = True
        commit()
    finally:
        writer.close()
        if bar is not None:
            bar.close()


def _summary(options: AuditOptions, ckpt: Checkpoint, resumed_from: int) -> AuditSummary:
    cache: dict[str, float] = dict(ckpt.cache)
    for part in CACHE_PARTS:
        hits, misses = ckpt.cache.get(f"{part}_hits", 0), ckpt.cache.get(f"{part}_misses", 0)
        cache[f"{part}_hit_rate"] = round(hits / (hits + misses), 4) if hits + misses else 0.0
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return AuditSummary(
        input=options.input, output=options.output, engine=options.engine, model=options.model,
        lines=ckpt.lines, ok=ckpt.ok, failed=ckpt.failed, elapsed_s=ckpt.elapsed_s,
        answers_per_s=round(ckpt.lines / ckpt.elapsed_s, 2) if ckpt.elapsed_s else 0.0,
        sessions=ckpt.sessions, resumed_from_line=resumed_from, peak_rss_mb=round(peak_kb / 1024, 1),
        complete=ckpt.complete, cache=cache,
    )


def _progress_bar(progress: bool | None, total: int | None, initial: int):
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="answer", file=sys.stderr, dynamic_ncols=True,
                smoothing=0.05)

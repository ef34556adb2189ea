"""Audit output that survives being killed: ordered writers plus an fsync'd sidecar checkpoint.

The protocol: records are written in input order; every so often the writer is committed
(flushed and fsync'd) and only then the checkpoint is replaced atomically with the input
position and the writer's committed state. A restart loads the checkpoint, cuts the output back
to that committed state (dropping anything written after it) and reads the input from the
recorded position, so every input record lands in the output exactly once whenever the kill
came, SIGKILL included.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

CHECKPOINT_VERSION = 1


class ResumeError(RuntimeError):
    """A checkpoint exists but does not belong to this run; the message says how to proceed."""


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


# -- checkpoint -----------------------------------------------------------------------------

@dataclass
class Checkpoint:
    fingerprint: dict
    number: int = 0  # the last input record number done (0: none)
    position: int = 0  # where the next input record starts
    writer: dict = field(default_factory=dict)
    lines: int = 0
    ok: int = 0
    failed: int = 0
    elapsed_s: float = 0.0
    cache: dict = field(default_factory=dict)  # hit and miss counters summed over every session
    sessions: int = 1
    complete: bool = False
    version: int = CHECKPOINT_VERSION

    def save(self, path: Path) -> None:
        atomic_write(path, json.dumps(asdict(self), sort_keys=True).encode("utf-8"))

    @classmethod
    def load(cls, path: Path) -> "Checkpoint | None":
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(**data)
        except (ValueError, TypeError) as exc:
            raise ResumeError(f"the checkpoint {path} is unreadable ({exc}); delete it or pass --restart to "
                              "start the audit over") from exc


def input_fingerprint(path: str, settings: dict[str, Any]) -> dict:
    """What must not change between a run and its resume: the input bytes seen so far and the settings
    that shape the output. Size plus a hash of the first MiB catches a swapped file cheaply."""
    stat = os.stat(path)
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as fh:
        digest.update(fh.read(1 << 20))
    return {"input": os.path.abspath(path), "size": stat.st_size, "head": digest.hexdigest(), **settings}


def check_resumable(checkpoint: Checkpoint, fingerprint: dict, checkpoint_path: Path) -> None:
    if checkpoint.version != CHECKPOINT_VERSION:
        raise ResumeError(f"{checkpoint_path} was written by another verifier version; pass --restart")
    changed = sorted(k for k in set(fingerprint) | set(checkpoint.fingerprint)
                     if fingerprint.get(k) != checkpoint.fingerprint.get(k))
    if changed:
        raise ResumeError(f"{checkpoint_path} belongs to a run with a different {', '.join(changed)}; rerun with "
                          "the same input and options to resume, or pass --restart to start over")


# -- writers --------------------------------------------------------------------------------

class ReportWriter(Protocol):
    def write(self, record: dict) -> None: ...
    def commit(self) -> dict: ...
    def finalize(self) -> None: ...
    def close(self) -> None: ...


class JsonlWriter:
    """One JSON object per line; its committed state is the fsync'd byte length."""

    def __init__(self, path: Path, state: dict | None) -> None:
        self.path = path
        committed = (state or {}).get("bytes", 0)
        if committed and (not path.exists() or path.stat().st_size < committed):
            raise ResumeError(f"{path} is shorter than its checkpoint says (was it moved or edited?); pass "
                              "--restart to start the audit over")
        self.fh = open(path, "ab" if path.exists() else "wb")
        # Anything past the committed length was written after the last checkpoint: drop it.
        self.fh.truncate(committed)
        self.fh.seek(0, os.SEEK_END)

    def write(self, record: dict) -> None:
        self.fh.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")

    def commit(self) -> dict:
        self.fh.flush()
        os.fsync(self.fh.fileno())
        return {"bytes": self.fh.tell()}

    def finalize(self) -> None:
        self.commit()

    def close(self) -> None:
        self.fh.close()


PARQUET_COLUMNS = ("line", "id", "error", "action", "language", "claims", "supported", "partial",
                   "unsupported", "contradicted", "supported_ratio", "report")


def parquet_schema():
    import pyarrow as pa

    ints = ("line", "claims", "supported", "partial", "unsupported", "contradicted")
    return pa.schema([(name, pa.int64() if name in ints else pa.float64() if name == "supported_ratio"
                       else pa.string()) for name in PARQUET_COLUMNS])


def parquet_row(record: dict) -> dict:
    """A flat row: the figures people filter on as columns, the full report as a JSON string
    (a report's fact values vary in type from row to row, which a Parquet column cannot)."""
    coverage, decision = record.get("coverage") or {}, record.get("decision") or {}
    return {"line": record.get("line"), "id": record.get("id"), "error": record.get("error"),
            "action": decision.get("action"), "language": record.get("language"),
            **{k: coverage.get(k) for k in ("claims", "supported", "partial", "unsupported", "contradicted",
                                            "supported_ratio")},
            "report": json.dumps(record, ensure_ascii=False)}


class ParquetWriter:
    """Parquet cannot be appended to or cut back, so each commit writes one numbered part file next to
    the output; `finalize` streams the parts into the output in order. Committed state: the part count."""

    def __init__(self, path: Path, state: dict | None) -> None:
        self.path = path
        self.parts_dir = path.with_name(path.name + ".parts")  # remove_parts() knows this name
        self.parts = (state or {}).get("parts", 0)
        self.rows: list[dict] = []
        if self.parts == 0 and self.parts_dir.exists():
            shutil.rmtree(self.parts_dir)
        self.parts_dir.mkdir(exist_ok=True)
        if any(not self._part(i).exists() for i in range(self.parts)):
            raise ResumeError(f"{self.parts_dir} lacks parts its checkpoint lists; pass --restart to start over")
        for stale in self.parts_dir.iterdir():  # parts written after the last checkpoint
            if not stale.name.endswith(".parquet") or int(stale.name.split("-")[1].split(".")[0]) >= self.parts:
                stale.unlink()

    def _part(self, index: int) -> Path:
        return self.parts_dir / f"part-{index:06d}.parquet"

    def write(self, record: dict) -> None:
        self.rows.append(parquet_row(record))

    def commit(self) -> dict:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self.rows:
            part = self._part(self.parts)
            tmp = part.with_name(part.name + ".tmp")
            pq.write_table(pa.Table.from_pylist(self.rows, schema=parquet_schema()), tmp)
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())
            os.replace(tmp, part)
            _fsync_dir(self.parts_dir)
            self.parts += 1
            self.rows = []
        return {"parts": self.parts}

    def finalize(self) -> None:
        import pyarrow.parquet as pq

        self.commit()
        tmp = self.path.with_name(self.path.name + ".tmp")
        with pq.ParquetWriter(tmp, parquet_schema()) as out:
            for index in range(self.parts):
                out.write_table(pq.read_table(self._part(index), schema=parquet_schema()))
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)
        _fsync_dir(self.path.parent)

    def close(self) -> None:
        self.rows = []


def open_writer(path: Path, state: dict | None) -> ReportWriter:
    if path.suffix.lower() in (".parquet", ".pq"):
        return ParquetWriter(path, state)
    return JsonlWriter(path, state)


def remove_parts(path: Path) -> None:
    shutil.rmtree(path.with_name(path.name + ".parts"), ignore_errors=True)


def output_format(path: str) -> str:
    return "parquet" if Path(path).suffix.lower() in (".parquet", ".pq") else "jsonl"

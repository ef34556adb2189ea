"""Audit input: JSONL, CSV and Parquet read as a stream of raw records that know where they end.

Every record carries its number (JSONL: the physical line; CSV and Parquet: the data row, both
1-based) and `position`, where the *next* record starts (a byte offset for JSONL and CSV, a row
index for Parquet). A checkpoint stores that position, so a resumed audit seeks straight to it
instead of re-reading the file, and the Ray engine uses it to let workers read windows of it.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

FORMATS = ("jsonl", "csv", "parquet")


class AuditInputError(ValueError):
    """The audit input cannot be read at all (not one bad line): the message says what to do."""


@dataclass(frozen=True)
class Columns:
    """Which input column holds which request field (`--answer-col` and friends)."""

    answer: str = "answer"
    sources: str = "sources"
    id: str = "id"
    question: str = "question"
    context: str = "context"

    def as_dict(self) -> dict[str, str]:
        return {"answer": self.answer, "sources": self.sources, "id": self.id, "question": self.question,
                "context": self.context}


@dataclass(frozen=True)
class RawRecord:
    number: int
    data: dict | None  # the request as a JSON object, before validation
    error: str | None  # why the record could not even be read as an object
    position: int  # where the next record starts

    @property
    def id(self) -> str | None:
        value = (self.data or {}).get("id")
        return value if isinstance(value, str) else None


def detect_format(path: str, explicit: str | None = None) -> str:
    if explicit:
        if explicit not in FORMATS:
            raise AuditInputError(f"--format {explicit!r} is not supported; use one of {', '.join(FORMATS)}")
        return explicit
    suffix = Path(path).suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json", ""):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    if suffix in (".parquet", ".pq"):
        return "parquet"
    raise AuditInputError(f"cannot tell the format of {path!r} from its extension; pass --format jsonl, csv "
                          "or parquet")


def iter_records(path: str, fmt: str, columns: Columns = Columns(), *, start: int = 0,
                 first_number: int = 1) -> Iterator[RawRecord]:
    """Records from `start` (a position a previous record reported) numbered from `first_number`."""
    if fmt == "jsonl":
        with open(path, "rb") as fh:
            fh.seek(start)
            yield from _jsonl(fh, columns, start, first_number)
    elif fmt == "csv":
        yield from _csv(path, columns, start, first_number)
    elif fmt == "parquet":
        yield from _parquet(path, columns, start)
    else:
        raise AuditInputError(f"unknown input format {fmt!r}; use one of {', '.join(FORMATS)}")


def iter_text_records(lines: IO[str], columns: Columns = Columns()) -> Iterator[RawRecord]:
    """JSONL from an already open text stream (standard input); positions are not seekable."""
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield _jsonl_record(line, number, columns, position=-1)


def count_records(path: str, fmt: str) -> int | None:
    """A cheap total for the progress bar: Parquet knows it, JSONL is a newline count, CSV is unknown
    (quoted fields may span lines)."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        return pq.ParquetFile(path).metadata.num_rows
    if fmt == "jsonl":
        total, last = 0, b"\n"
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                total += chunk.count(b"\n")
                last = chunk[-1:]
        return total + (last != b"\n")
    return None


# -- JSONL ---------------------------------------------------------------------------------

def _jsonl(fh: IO[bytes], columns: Columns, position: int, number: int) -> Iterator[RawRecord]:
    for raw in fh:
        position += len(raw)
        if raw.strip():
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield RawRecord(number, None, f"line {number} is not UTF-8 text (byte {exc.start}); save the "
                                "file as UTF-8", position)
            else:
                yield _jsonl_record(line, number, columns, position)
        number += 1


def _jsonl_record(line: str, number: int, columns: Columns, position: int) -> RawRecord:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return RawRecord(number, None, f"line {number} is not valid JSON: {exc.msg} (column {exc.colno}); "
                         "each line must be one JSON object", position)
    if not isinstance(data, dict):
        return RawRecord(number, None, f"line {number} must be a JSON object, got {type(data).__name__}",
                         position)
    return _cell_record(data, number, columns, position, blank_is_none=False, where=f"line {number}")


# -- CSV -----------------------------------------------------------------------------------

class _OffsetLines:
    """Decoded lines for csv.reader that remember the byte offset after the last line handed out.

    csv.reader pulls a further line only while a quoted field is open, so after it yields a row
    `position` is exactly where that row ends.
    """

    def __init__(self, fh: IO[bytes], position: int) -> None:
        self.fh, self.position, self.line = fh, position, 0

    def __iter__(self) -> "_OffsetLines":
        return self

    def __next__(self) -> str:
        raw = self.fh.readline()
        if not raw:
            raise StopIteration
        self.position += len(raw)
        self.line += 1
        return raw.decode("utf-8", errors="replace")


def _csv(path: str, columns: Columns, start: int, number: int) -> Iterator[RawRecord]:
    with open(path, "rb") as fh:
        lines = _OffsetLines(fh, 0)
        reader = csv.reader(lines)
        header = next(reader, None)
        if header is None:
            return
        header[0] = header[0].removeprefix("\ufeff")
        if columns.answer not in header:
            raise AuditInputError(f"{path}: no column {columns.answer!r} for the answer; name it with "
                                  f"--answer-col (the columns are: {', '.join(header)})")
        if start > lines.position:
            fh.seek(start)
            lines.position = start
        for row in reader:
            if not row or not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                yield RawRecord(number, None, f"row {number} has {len(row)} fields, the header has "
                                f"{len(header)}; quote fields that contain commas or line breaks", lines.position)
            else:
                yield _cell_record(dict(zip(header, row)), number, columns, lines.position, blank_is_none=True)
            number += 1


# -- Parquet -------------------------------------------------------------------------------

def _parquet(path: str, columns: Columns, start: int) -> Iterator[RawRecord]:
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a bad file
        raise AuditInputError(f"{path} is not a readable Parquet file: {exc}") from exc
    names = pf.schema_arrow.names
    if columns.answer not in names:
        raise AuditInputError(f"{path}: no column {columns.answer!r} for the answer; name it with --answer-col "
                              f"(the columns are: {', '.join(names)})")
    wanted = [c for c in dict.fromkeys(columns.as_dict().values()) if c in names]
    row = 0
    for group in range(pf.metadata.num_row_groups):
        size = pf.metadata.row_group(group).num_rows
        if row + size <= start:
            row += size
            continue
        for batch in pf.iter_batches(batch_size=1024, row_groups=[group], columns=wanted):
            for values in batch.to_pylist():
                row += 1
                if row <= start:
                    continue
                yield _cell_record(_drop_nulls(values), row, columns, row, blank_is_none=False)


def _drop_nulls(value: Any) -> Any:
    """Parquet structs carry every field, null where absent; the request contract wants them absent."""
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


# -- column mapping --------------------------------------------------------------------------

def _cell_record(cells: dict, number: int, columns: Columns, position: int, *, blank_is_none: bool,
                 where: str = "") -> RawRecord:
    try:
        data = _map_columns(cells, columns, blank_is_none=blank_is_none, where=where or f"row {number}")
    except ValueError as exc:
        return RawRecord(number, None, str(exc), position)
    return RawRecord(number, data, None, position)


def _map_columns(cells: dict, columns: Columns, *, blank_is_none: bool = False, where: str = "") -> dict:
    """The request fields from mapped columns; `sources` and `context` may be JSON strings."""
    data: dict[str, Any] = {}
    for field, column in columns.as_dict().items():
        if column not in cells:
            continue
        value = cells[column]
        if blank_is_none and isinstance(value, str) and not value.strip() and field != "answer":
            continue
        if field in ("sources", "context") and isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError as exc:
                shape = "list of {id, text} objects" if field == "sources" else "object"
                raise ValueError(f"{where}: column {column!r} ({field}) is not valid JSON: {exc.msg} "
                                 f"(column {exc.colno}); give a JSON {shape}") from exc
        data[field] = value
    return data


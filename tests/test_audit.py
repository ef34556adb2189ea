"""`verifier audit`: formats, column mapping, error records, checkpoints and resuming (in process)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from verifier.audit import read_requests, run_audit
from verifier.audit_store import JsonlWriter, ParquetWriter
from verifier.cli import main
from verifier.report_summary import iter_report_records

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "examples" / "audit_sample.jsonl"
AUDIT = ["--model", "lexical", "--no-progress"]


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _without_timing(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "timing_ms"}


def _valid_requests(n: int) -> list[dict]:
    out = []
    for line in _lines(SAMPLE):
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "answer" in data:
            out.append(data)
    return out[:n]


@pytest.fixture(scope="module")
def sample_audit(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sample")
    out, summary = folder / "reports.jsonl", folder / "summary.json"
    code = main(["audit", str(SAMPLE), "-o", str(out), "--summary", str(summary), "--checkpoint-every", "4", *AUDIT])
    return code, out, json.loads(summary.read_text())


def test_sample_gives_one_record_per_line_in_order_and_bad_lines_become_errors(sample_audit):
    code, out, summary = sample_audit
    inputs, records = _lines(SAMPLE), [json.loads(line) for line in _lines(out)]
    assert code == 1  # two malformed lines
    assert [r["line"] for r in records] == list(range(1, len(inputs) + 1))
    errors = {r["line"]: r["error"] for r in records if "error" in r}
    assert sorted(errors) == [7, 14]
    assert "line 7 is not valid JSON" in errors[7]
    assert "line 14" in errors[14] and "answer" in errors[14]
    for text, record in zip(inputs, records):
        if "error" not in record:
            assert record["id"] == json.loads(text)["id"]
            assert record["decision"]["action"] in ("answer", "rewrite", "clarify", "abstain", "handoff")
    assert (summary["lines"], summary["ok"], summary["failed"], summary["complete"]) == (20, 18, 2, True)
    # Every answer of a kind cites the same documents: segmentation is mostly reused.
    assert summary["cache"]["segment_hit_rate"] > 0.5
    assert summary["cache"]["segment_hits"] + summary["cache"]["segment_misses"] > 0


def test_rerunning_a_finished_audit_changes_nothing(sample_audit, tmp_path):
    code, out, _ = sample_audit
    before = out.read_bytes()
    summary = tmp_path / "again.json"
    assert main(["audit", str(SAMPLE), "-o", str(out), "--summary", str(summary), *AUDIT]) == 1
    assert out.read_bytes() == before
    assert json.loads(summary.read_text())["sessions"] == 2


def test_csv_with_mapped_columns_matches_jsonl(tmp_path):
    requests = _valid_requests(5)
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests), encoding="utf-8")
    table = tmp_path / "in.csv"
    with table.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["qid", "asked", "draft", "docs", "ctx"])
        for r in requests:
            writer.writerow([r["id"], r["question"], r["answer"], json.dumps(r["sources"], ensure_ascii=False),
                             json.dumps(r["context"])])
    assert main(["audit", str(jsonl), "-o", str(tmp_path / "a.jsonl"), *AUDIT]) == 0
    assert main(["audit", str(table), "-o", str(tmp_path / "b.jsonl"), "--id-col", "qid", "--question-col", "asked",
                 "--answer-col", "draft", "--sources-col", "docs", "--context-col", "ctx", *AUDIT]) == 0
    a = [_without_timing(json.loads(x)) for x in _lines(tmp_path / "a.jsonl")]
    b = [_without_timing(json.loads(x)) for x in _lines(tmp_path / "b.jsonl")]
    assert a == b and len(a) == 5


def test_csv_row_with_broken_sources_is_an_error_record_and_the_run_goes_on(tmp_path):
    table = tmp_path / "in.csv"
    table.write_text('answer,sources\n"Refunds take 5 days.","[{""id"": ""1"", ""text"": ""Refunds take 5 days.""}]"\n'
                     '"Refunds take 7 days.","[{""id"": 1"\n"Fees are $5.",[]\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["audit", str(table), "-o", str(out), *AUDIT]) == 1
    records = [json.loads(x) for x in _lines(out)]
    assert [r["line"] for r in records] == [1, 2, 3]
    assert "row 2" in records[1]["error"] and "'sources'" in records[1]["error"] and "JSON" in records[1]["error"]
    assert "error" not in records[0] and "error" not in records[2]


def test_missing_answer_column_names_the_flag(tmp_path, capsys):
    table = tmp_path / "in.csv"
    table.write_text("text,sources\nhello,[]\n", encoding="utf-8")
    assert main(["audit", str(table), "-o", str(tmp_path / "o.jsonl"), *AUDIT]) == 2
    err = capsys.readouterr().err
    assert "--answer-col" in err and "'answer'" in err and "text, sources" in err


def test_parquet_in_and_out(tmp_path):
    requests = _valid_requests(6)
    rows = [{**r, "sources": json.dumps(r["sources"], ensure_ascii=False) if i % 2 else r["sources"]}
            for i, r in enumerate(requests)]
    # Half the rows carry sources as a JSON string, half as native Parquet structs.
    first = pa.Table.from_pylist([r for i, r in enumerate(rows) if i % 2 == 0])
    second = pa.Table.from_pylist([r for i, r in enumerate(rows) if i % 2])
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests[0::2] + requests[1::2]),
                     encoding="utf-8")
    pq.write_table(first, tmp_path / "a.parquet")
    pq.write_table(second, tmp_path / "b.parquet")
    for name in ("a", "b"):
        out = tmp_path / f"{name}.out.parquet"
        assert main(["audit", str(tmp_path / f"{name}.parquet"), "-o", str(out), "--checkpoint-every", "2",
                     *AUDIT]) == 0
        assert not Path(str(out) + ".parts").exists()
    assert main(["audit", str(jsonl), "-o", str(tmp_path / "ref.jsonl"), *AUDIT]) == 0
    got = [_without_timing(r) for name in ("a", "b")
           for r in iter_report_records(str(tmp_path / f"{name}.out.parquet"))]
    ref = [_without_timing(json.loads(x)) for x in _lines(tmp_path / "ref.jsonl")]
    for r in ref[3:]:
        r["line"] -= 3  # the second Parquet file numbers its rows from 1
    assert got == ref
    table = pq.read_table(tmp_path / "a.out.parquet")
    assert table.column("line").to_pylist() == [1, 2, 3]
    assert set(table.column("action").to_pylist()) <= {"answer", "rewrite", "clarify", "abstain", "handoff"}


def test_checkpoint_of_another_input_is_refused_until_restart(sample_audit, tmp_path, capsys):
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps(_valid_requests(1)[0]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["audit", str(SAMPLE), "-o", str(out), "--checkpoint-every", "50", *AUDIT]) == 1
    assert main(["audit", str(other), "-o", str(out), *AUDIT]) == 2
    assert "--restart" in capsys.readouterr().err
    assert main(["audit", str(other), "-o", str(out), "--restart", *AUDIT]) == 0
    assert len(_lines(out)) == 1


def test_jsonl_writer_drops_what_was_written_after_the_last_commit(tmp_path):
    path = tmp_path / "out.jsonl"
    writer = JsonlWriter(path, None)
    for i in range(3):
        writer.write({"line": i + 1})
    state = writer.commit()
    writer.write({"line": 4})
    writer.fh.write(b'{"line": 5, "trunc')  # a kill in the middle of a record
    writer.fh.flush()
    writer.close()
    resumed = JsonlWriter(path, state)
    resumed.write({"line": 4})
    resumed.finalize()
    resumed.close()
    assert [json.loads(x)["line"] for x in _lines(path)] == [1, 2, 3, 4]


def test_parquet_writer_drops_parts_written_after_the_last_checkpoint(tmp_path):
    path = tmp_path / "out.parquet"
    writer = ParquetWriter(path, None)
    writer.write({"line": 1, "id": "a"})
    state = writer.commit()
    writer.write({"line": 2, "id": "b"})
    writer.commit()  # written, but the checkpoint never recorded it
    resumed = ParquetWriter(path, state)
    resumed.write({"line": 2, "id": "b2"})
    resumed.finalize()
    assert pq.read_table(path).column("id").to_pylist() == ["a", "b2"]


def test_stream_api_keeps_line_numbers_and_goes_on_after_a_bad_line(tmp_path):
    from io import StringIO

    from verifier import Verifier

    good = json.dumps(_valid_requests(1)[0])
    text = f"{good}\n\n[1, 2]\n{good}\n"
    assert [(n, r is not None) for n, r, _ in read_requests(StringIO(text))] == [(1, True), (3, False), (4, True)]
    out = StringIO()
    stats = run_audit(Verifier("lexical"), StringIO(text), out, progress=False)
    records = [json.loads(x) for x in out.getvalue().splitlines()]
    assert (stats.lines, stats.ok, stats.failed) == (3, 2, 1)
    assert [r["line"] for r in records] == [1, 3, 4]
    assert "must be a JSON object" in records[1]["error"]


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_reading_from_a_recorded_position_continues_exactly_where_it_stopped(tmp_path, fmt):
    from verifier.audit_io import iter_records

    rows = [{"id": f"r{i}", "answer": f"Line one {i}\nline two, with a comma", "sources": "[]"} for i in range(7)]
    path = tmp_path / f"in.{fmt}"
    if fmt == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" + ("\n" if i == 2 else "") for i, r in enumerate(rows)))
    elif fmt == "csv":
        with path.open("w", encoding="utf-8", newline="") as fh:  # quoted fields span lines
            writer = csv.DictWriter(fh, ["id", "answer", "sources"])
            writer.writeheader()
            writer.writerows(rows)
    else:
        pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=2)
    full = list(iter_records(str(path), fmt))
    assert [r.data["id"] for r in full] == [r["id"] for r in rows]
    for cut in range(len(full)):
        done = full[cut]
        rest = list(iter_records(str(path), fmt, start=done.position, first_number=done.number + 1))
        assert rest == full[cut + 1:]


def test_audit_with_a_real_transformers_model_folder(tmp_path):
    from conftest import build_tiny_nli

    folder = build_tiny_nli(tmp_path / "tiny-nli", {0: "entailment", 1: "neutral", 2: "contradiction"})
    requests = _valid_requests(4)
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests + requests), encoding="utf-8")
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    assert main(["audit", str(inp), "-o", str(out), "--model", str(folder), "--device", "cpu", "--batch-size", "4",
                 "--no-progress", "--summary", str(summary)]) == 0
    records = [json.loads(x) for x in _lines(out)]
    assert [r["id"] for r in records] == [r["id"] for r in requests + requests]
    assert {r["model"]["name"] for r in records} == {"tiny-nli"}
    # The second batch repeats the first: every (span, claim) pair is scored once.
    stats = json.loads(summary.read_text())["cache"]
    assert stats["score_hits"] >= stats["score_misses"] > 0
    assert [_without_timing(r) | {"line": 0} for r in records[:4]] == \
        [_without_timing(r) | {"line": 0} for r in records[4:]]


def test_resuming_onto_a_deleted_output_is_refused(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    assert main(["audit", str(SAMPLE), "-o", str(out), "--checkpoint-every", "5", *AUDIT]) == 1
    checkpoint = Path(f"{out}.checkpoint.json")
    state = json.loads(checkpoint.read_text())
    checkpoint.write_text(json.dumps({**state, "complete": False}))  # as if killed before the end
    out.unlink()
    assert main(["audit", str(SAMPLE), "-o", str(out), *AUDIT]) == 2
    assert "--restart" in capsys.readouterr().err

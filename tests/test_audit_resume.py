"""A real `verifier audit` process killed with SIGKILL mid-run, then restarted: every input exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "examples" / "audit_sample.jsonl"


def _make_input(path: Path, n: int) -> list[str | None]:
    """N lines cycled from the sample with fresh ids (malformed sample lines stay malformed)."""
    base = [line for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    ids: list[str | None] = []
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            line = base[i % len(base)]
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                fh.write(line + "\n")
                ids.append(None)
                continue
            data["id"] = f"{data.get('id')}-{i}"
            fh.write(json.dumps(data, ensure_ascii=False) + "\n")
            ids.append(data["id"])
    return ids


def _audit(inp: Path, out: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "verifier.cli", "audit", str(inp), "-o", str(out), "--model", "lexical",
           "--no-progress", "--batch-size", "8", "--checkpoint-every", "20"]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _kill_mid_run(proc: subprocess.Popen, checkpoint: Path, after_lines: int, deadline_s: float = 45) -> dict:
    """SIGKILL once the checkpoint shows `after_lines` committed, a little after a commit (mid-batch)."""
    started = time.monotonic()
    while time.monotonic() - started < deadline_s and proc.poll() is None:
        if checkpoint.exists():
            state = json.loads(checkpoint.read_text())
            if state["lines"] >= after_lines:
                time.sleep(0.05)
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                return json.loads(checkpoint.read_text())
        time.sleep(0.02)
    proc.kill()
    proc.wait()
    pytest.fail(f"the audit did not reach {after_lines} committed lines before it ended: {proc.stderr.read()}")


def _check_exactly_once(records: list[dict], ids: list[str | None]) -> None:
    assert [r["line"] for r in records] == list(range(1, len(ids) + 1))
    for record, wanted in zip(records, ids):
        if wanted is None:
            assert "not valid JSON" in record["error"]
        elif "error" not in record:
            assert record["id"] == wanted


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_sigkill_then_resume_gives_every_input_exactly_once(tmp_path, suffix):
    ids = _make_input(tmp_path / "in.jsonl", 400)
    out = tmp_path / f"out.{suffix}"
    checkpoint = Path(f"{out}.checkpoint.json")
    state = _kill_mid_run(_audit(tmp_path / "in.jsonl", out), checkpoint, after_lines=80)
    assert not state["complete"] and state["lines"] < len(ids)

    second = _audit(tmp_path / "in.jsonl", out)
    _, err = second.communicate(timeout=120)
    assert second.returncode == 1, err  # the sample's malformed lines
    assert f"resumed at line {state['number']}" in err

    if suffix == "jsonl":
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    else:
        records = [json.loads(text) for text in pq.read_table(out).column("report").to_pylist()]
        assert not Path(f"{out}.parts").exists()
    _check_exactly_once(records, ids)
    final = json.loads(checkpoint.read_text())
    assert final["complete"] and final["sessions"] == 2 and final["lines"] == len(ids)

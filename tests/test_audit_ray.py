"""`--engine ray` on a local Ray instance writes the same records as the local engine, line by line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray is optional: pip install 'ray[data]' to test --engine ray")

from verifier.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "examples" / "audit_sample.jsonl"


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def _records(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k != "timing_ms"}
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_ray_and_local_engines_write_identical_reports(local_ray, tmp_path):
    local, on_ray = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    summary = tmp_path / "ray-summary.json"
    common = ["--model", "lexical", "--no-progress", "--batch-size", "4"]
    assert main(["audit", str(SAMPLE), "-o", str(local), *common]) == 1
    # Small windows so several read tasks feed the actor; records must still come back in order.
    assert main(["audit", str(SAMPLE), "-o", str(on_ray), "--engine", "ray", "--actors", "1",
                 "--ray-window", "6", "--summary", str(summary), *common]) == 1
    a, b = _records(local), _records(on_ray)
    assert len(a) == len(b) == 20
    for x, y in zip(a, b):
        assert x == y, f"line {x.get('line')} differs"
    stats = json.loads(summary.read_text())
    assert stats["engine"] == "ray" and (stats["ok"], stats["failed"]) == (18, 2)
    # The actors' cache counters reach the driver.
    assert stats["cache"]["segment_hits"] + stats["cache"]["segment_misses"] > 0

"""`verifier report`: the JSON summary, a self-contained HTML page, and that page in headless Chromium."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from verifier.cli import main
from verifier.report_summary import claim_failures, iter_report_records, summarize

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "examples" / "audit_sample.jsonl"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    out = folder / "reports.jsonl"
    assert main(["audit", str(SAMPLE), "-o", str(out), "--model", "lexical", "--no-progress",
                 "--include-text"]) == 1
    html, summary = folder / "report.html", folder / "summary.json"
    assert main(["report", str(out), "-o", str(html), "--json", str(summary)]) == 0
    return out, html, json.loads(summary.read_text())


def test_json_summary_counts_match_the_audit_output(audited):
    out, _, data = audited
    records = list(iter_report_records(str(out)))
    reports = [r for r in records if "error" not in r]
    claims = [c for r in reports for c in r["claims"]]
    assert (data["answers"], data["reports"], data["errors"]) == (20, len(reports), 2) == (20, 18, 2)
    assert data["claims"] == len(claims)
    assert sum(data["actions"].values()) == len(reports)
    assert data["actions"]["answer"] == sum(r["decision"]["action"] == "answer" for r in reports)
    assert data["labels"] == {k: sum(c["label"] == k for c in claims)
                              for k in ("supported", "partial", "unsupported", "contradicted")}
    assert [e["line"] for e in data["error_samples"]] == [7, 14]
    # The sample cites a superseded 2024 policy (refund-zh/2): it must rank among the worst sources.
    worst = {s["source_id"]: s for s in data["worst_sources"]}
    assert worst["refund-zh/2"]["stale"] > 0
    assert data["failure_kinds"]["superseded evidence"] + data["failure_kinds"]["number mismatch"] > 0


def test_failure_kinds_of_a_claim():
    number = {"kind": "number", "status": "mismatched"}
    entity = {"kind": "entity", "status": "missing"}
    assert claim_failures({"label": "supported", "facts": [number]}) == []
    assert claim_failures({"label": "contradicted", "facts": [number, entity]}) == ["number mismatch",
                                                                                   "unsupported entity"]
    assert claim_failures({"label": "unsupported", "evidence": [{"current": False}]}) == ["superseded evidence"]
    assert claim_failures({"label": "contradicted"}) == ["contradicted by source"]
    assert claim_failures({"label": "unsupported"}) == ["no evidence"]


def test_browsing_keeps_problem_answers_first_within_the_limit(audited):
    out, _, _ = audited
    summary = summarize(iter_report_records(str(out)), max_answers=3)
    kept = summary.browsable()
    assert len(kept) == 3
    assert all(r["decision"]["action"] != "answer" for r in kept)
    assert [r["line"] for r in kept] == sorted(r["line"] for r in kept)


def test_page_is_self_contained(audited):
    _, html, data = audited
    page = html.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "<style>" in page and "<script>" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page), "external asset"
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert f'id="stat-answers" data-value="{data["answers"]}"' in page


def test_report_needs_a_destination_and_an_existing_input(tmp_path, capsys):
    assert main(["report", str(tmp_path / "none.jsonl"), "-o", str(tmp_path / "r.html")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["report", str(SAMPLE)]) == 2
    assert "-o report.html" in capsys.readouterr().err


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "chromium-profile"  # a fresh profile every run
    return subprocess.run([str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=90)


@pytest.mark.skipif(not CHROMIUM.exists(), reason="headless Chromium is missing: apt-get update && "
                    "apt-get install -y chromium")
def test_page_renders_expected_counts_in_headless_chromium(audited, tmp_path):
    out, html, data = audited
    dom = _chromium(tmp_path, "--virtual-time-budget=5000", "--dump-dom", html.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    text = dom.stdout

    def value(element_id: str) -> str:
        found = re.search(rf'id="{element_id}" data-value="([^"]*)"', text)
        assert found, f"#{element_id} missing from the rendered page"
        return found.group(1)

    assert value("stat-answers") == "20" and value("stat-errors") == "2"
    assert value("stat-claims") == str(data["claims"])
    articles = re.findall(r"<article ", text)
    assert len(articles) == 18  # every report is kept (limit 300)
    # Only the inline script fills data-shown, so this also proves the script ran without error.
    assert re.search(r'id="shown" data-shown="18">Showing 18 of 18 answers<', text)
    assert len(re.findall(r'<mark class="claim lbl-', text)) == data["claims"]
    for action, count in data["actions"].items():
        assert f'data-name="{action}" data-count="{count}"' in text

    shot = tmp_path / "report.png"
    result = _chromium(tmp_path, "--window-size=1280,1600", f"--screenshot={shot}", html.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000

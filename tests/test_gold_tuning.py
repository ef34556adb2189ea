"""benchmarks.gold_tuning: odd halves line by line, even halves as counts only."""

from __future__ import annotations

import json

from benchmarks import gold_tuning
from benchmarks.gold import claim_metrics, decision_metrics

SOURCE = {"id": "S1", "text": "Refunds are issued within 5 business days. Shipping is free on orders over $50."}


def _case(i: int, days: int) -> dict:
    return {"id": f"t{i}", "answer": f"Refunds are issued within {days} business days.", "sources": [SOURCE],
            "lang": "en", "bucket": "refunds",
            "expected": {"action": "answer" if days == 5 else "abstain",
                         "claims": [{"span": f"Refunds are issued within {days} business days",
                                     "label": "supported" if days == 5 else "contradicted"}]}}


def test_even_cases_leave_only_as_counts_and_compare_names_what_changed(tmp_path, monkeypatch):
    cases = [_case(0, 5), _case(1, 7), _case(2, 9), _case(3, 5)]
    for kind in ("engine", "decision"):
        (tmp_path / f"{kind}_gold_z.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    monkeypatch.setattr(gold_tuning, "FIXTURES", tmp_path)
    monkeypatch.setattr(gold_tuning, "GOLD_SETS", {"engine_z": ("engine_gold_z.jsonl", claim_metrics),
                                                   "decision_z": ("decision_gold_z.jsonl", decision_metrics)})
    out = tmp_path / "run.jsonl"
    even = gold_tuning.run(out, ["engine_z", "decision_z"], "lexical", gold_json=tmp_path / "gold.json")
    # the same reports give what `benchmarks.gold --json` writes: all four cases, and the even two held out
    figures = json.loads((tmp_path / "gold.json").read_text())
    assert (figures["model"], figures["engine_z"]["all"]["n_bad"], figures["engine_z_held_out"]["all"]["n_bad"]) == \
        ("lexical-recall", 2, 1)
    assert (figures["decision_z"]["all"]["n"], figures["decision_z_held_out"]["all"]["n"]) == (4, 2)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert {line["id"] for line in lines} == {"t1", "t3"}  # odd cases only
    assert {(line["set"], line["id"], line["want"] if line["k"] != "decision" else "d") for line in lines} == {
        ("engine_z", "t1", "contradicted"), ("engine_z", "t3", "supported"), ("decision_z", "t1", "d"),
        ("decision_z", "t3", "d")}
    # t0 (5 days, supported) and t2 (9 days, contradicted) are counted, never written out
    assert (even["engine_z"]["sup"], even["engine_z"]["bad"]) == (1, 1)
    assert (even["engine_z"]["sup_ok"], even["engine_z"]["bad_ok"]) == (1, 1)
    assert (even["decision_z"]["dec"], even["decision_z"]["should_answer"]) == (2, 1)
    assert "t0" not in out.read_text() and "t2" not in out.read_text()

    # A later run in which the odd contradicted claim passed and an even count fell
    worse = tmp_path / "worse.jsonl"
    edited = [dict(line, got="supported") if line["k"] == 0 and line["id"] == "t1" else line for line in lines]
    worse.write_text("".join(json.dumps(line) + "\n" for line in edited))
    counts = json.loads((tmp_path / "run.jsonl.even.json").read_text())
    counts["engine_z"]["bad_ok"] = 0
    (tmp_path / "worse.jsonl.even.json").write_text(json.dumps(counts))
    changes = gold_tuning.compare(out, worse)
    assert changes == ["('engine_z', 't1', 0) want contradicted: contradicted -> supported BAD",
                       "even engine_z: bad_ok 1 -> 0"]

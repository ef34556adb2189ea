"""`verifier calibrate`: the split, the unit mapping, the policy it writes, and the command end to end."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from extractors.tokens import token_recall
from verifier.calibrate import Example, claim_units, split, write_policy
from verifier.policy import load_policy
from verifier.schema import VerifyRequest
from verifier.verdict import Thresholds

# (source, supported claim = the source itself, unsupported claim sharing 3 of its 4 content tokens)
TOPICS = [
    ("The hotel serves breakfast daily.", "The hotel serves dinner daily."),
    ("The gym opens early on weekdays.", "The gym opens late on weekdays."),
    ("The library lends laptops to students.", "The library lends tablets to students."),
    ("The clinic accepts walk-in patients.", "The clinic accepts walk-in pets."),
    ("The museum offers guided tours.", "The museum offers guided cruises."),
]


def _row(rid: str, source: str, answer: str, label: str, bucket: str) -> dict:
    return {"id": rid, "answer": answer, "sources": [{"id": "S1", "text": source}], "lang": "en", "bucket": bucket,
            "expected": {"action": "answer" if label == "supported" else "abstain",
                         "claims": [{"span": answer.rstrip("."), "label": label}]}}


def _example(bucket: str, lang: str) -> Example:
    return Example(VerifyRequest.model_validate({"answer": "x"}), lang, bucket, "answer")


def test_split_is_stratified_seeded_and_disjoint():
    examples = [_example("a", "en")] * 5 + [_example("b", "en")] * 5 + [_example("a", "zh-Hans")] * 3
    calib, test = split(examples, 0.4, seed=0)
    assert sorted(calib + test) == list(range(13)) and not set(calib) & set(test)
    # round(5 * 0.4) = 2 of each 5-stratum, round(3 * 0.4) = 1 of the 3-stratum
    assert sum(1 for i in test if i < 5) == 2 and sum(1 for i in test if 5 <= i < 10) == 2
    assert sum(1 for i in test if i >= 10) == 1
    assert split(examples, 0.4, seed=0) == (calib, test)
    assert any(split(examples, 0.4, seed=s)[1] != test for s in range(1, 6))


def test_claim_units_take_the_worst_engine_label_over_a_gold_span():
    ex = Example(VerifyRequest.model_validate({"answer": "A is 1. B is 2. C is 3."}), "en", "b", None,
                 claims=[(0, 6, "supported"), (8, 14, "contradicted"), (16, 22, "unsupported")])
    report = SimpleNamespace(claims=[SimpleNamespace(start=0, end=3, label="supported"),
                                     SimpleNamespace(start=3, end=7, label="partial"),
                                     SimpleNamespace(start=8, end=15, label="supported")])
    units = claim_units(ex, report)
    assert [u.pred for u in units] == ["partial", "supported", "none"]
    # partial stops a good claim (over-flag); a contradicted claim that passed is an unsafe pass;
    # a span with no engine claim goes out unchecked, so it counts as passed
    assert [(u.should_pass, u.passed) for u in units] == [(True, False), (False, True), (False, True)]


def test_write_policy_replaces_only_the_thresholds(tmp_path):
    out = tmp_path / "p.toml"
    new = Thresholds(support=0.73, partial=0.25, contradict=0.8)
    write_policy("default", new, out, "calibrated in a test")
    policy, base = load_policy(out), load_policy("default")
    assert policy.thresholds == new
    assert policy.version == base.version + "+calibrated"
    assert policy.stages == base.stages and policy.questions == base.questions
    assert out.read_text(encoding="utf-8").startswith("# calibrated in a test")


def test_calibrate_command_end_to_end_with_the_lexical_model(tmp_path):
    from verifier.cli import main
    from verifier.pipeline import Verifier

    # Every unsupported claim has lexical recall 3/4 = 0.75, every supported one 1.0: on a 0.05 grid
    # the lowest threshold that lets no unsupported calibration claim through is 0.8.
    assert all(token_recall(bad, src) == 0.75 for src, bad in TOPICS)
    rows = [_row(f"ok{i}", src, src, "supported", "ok") for i, (src, _) in enumerate(TOPICS)]
    rows += [_row(f"bad{i}", src, bad, "unsupported", "bad") for i, (src, bad) in enumerate(TOPICS)]
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    policy, plot, report = tmp_path / "policy.toml", tmp_path / "errors.png", tmp_path / "report.json"
    code = main(["calibrate", str(labelled), "--model", "lexical", "--target-unsafe", "0.05", "--seed", "0",
                 "--test-share", "0.4", "--step", "0.05", "-o", str(policy), "--plot", str(plot),
                 "--report", str(report)])
    assert code == 0
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = json.loads(report.read_text(encoding="utf-8"))
    assert result["unit"] == "claims" and result["reached"]
    assert (result["calibration_n"], result["test_n"]) == (6, 4)
    assert result["thresholds"]["support"] == pytest.approx(0.8)
    assert result["thresholds"]["contradict"] == pytest.approx(0.6)  # too few contradicted claims to move it
    test_claims = result["test"]["calibrated"]["claims"]["overall"]
    assert (test_claims["unsafe_pass"], test_claims["over_flag"]) == (0.0, 0.0)
    # the policy's 0.5 lets both held-out unsupported claims through
    assert result["test"]["base"]["claims"]["overall"]["unsafe_pass"] == 1.0
    assert result["test"]["calibrated"]["actions"]["confusion"]["abstain"]["answer"] == 0

    verifier = Verifier("lexical", policy=str(policy))
    assert verifier.thresholds.support == pytest.approx(0.8)
    src, bad = TOPICS[0]
    assert verifier.verify(bad, [{"id": "S1", "text": src}]).claims[0].label != "supported"
    assert Verifier("lexical").verify(bad, [{"id": "S1", "text": src}]).claims[0].label == "supported"


def test_calibrate_command_rejects_rows_without_expectations(tmp_path, capsys):
    from verifier.cli import main

    bad = tmp_path / "x.jsonl"
    bad.write_text(json.dumps({"answer": "a", "sources": []}) + "\n", encoding="utf-8")
    assert main(["calibrate", str(bad), "--model", "lexical", "-o", str(tmp_path / "p.toml")]) == 2
    assert "expected.claims or expected.action" in capsys.readouterr().err


def test_cached_run_matches_verify_batch_at_every_threshold():
    from verifier.calibrate import run_cached, support_scores
    from verifier.pipeline import Verifier

    verifier = Verifier("lexical")
    requests = [{"id": f"r{i}", "answer": bad, "sources": [{"id": "S1", "text": src}]} for i, (src, bad) in
                enumerate(TOPICS[:3])]
    variants = {"fixed": verifier.thresholds, "strict": verifier.thresholds.model_copy(update={"support": 0.8}),
                "zero": verifier.thresholds.model_copy(update={"support": 0.0})}
    cached = run_cached(verifier, requests, variants, batch_answers=2)

    def labels(reports):
        return [[(c.start, c.end, c.label, c.score) for c in r.claims] + [r.decision.action] for r in reports]

    assert labels(cached["fixed"]) == labels(verifier.verify_batch(requests))
    strict = Verifier(verifier.model, analyzer=verifier.analyzer, thresholds=variants["strict"])
    assert labels(cached["strict"]) == labels(strict.verify_batch(requests))
    assert verifier.thresholds.support == 0.5  # swapped back after each finish
    # each claim recalls 3 of 4 tokens: supported up to a threshold of 0.75
    assert [support_scores(r) for r in cached["zero"]] == [[0.75]] * 3

"""Accuracy suite: any model backend, the same engine (chunking, aggregation) on every public set.

    python -m benchmarks.accuracy --model lexical
    python -m benchmarks.accuracy --model default --sets wice,ocnli --limit 300 --seed 0
    python -m benchmarks.accuracy --model /path/to/hf-nli-checkpoint

Every row goes through the engine as a request (the text to check as the answer, the document
as one source); the engine's own labels are scored. Two thresholds per set: the policy's fixed
one, and one tuned on WiCE dev (0.01 grid, best dev balanced accuracy), the only dev split we
have; nothing is tuned on a test set. Results: `benchmarks/results/accuracy-<model>-<time>.{md,json}`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

from benchmarks import datasets as ds
from benchmarks.metrics import (Confusion, accuracy, best_threshold, confusion_matrix, predict_at,
                                span_precision_recall)
from benchmarks.report import write_accuracy_report
from benchmarks.timing import TimedModel
from verifier.calibrate import run_cached, support_scores
from verifier.pipeline import Verifier
from verifier.schema import Report
from verifier.verdict import Thresholds

SETS = ("wice", "fcgpt", "ocnli", "uhgeval", "faithbench")
RESULTS = Path(__file__).resolve().parent / "results"


def supported(report: Report) -> bool:
    """One binary verdict per row: every claim supported (a row with no claim is not)."""
    return bool(report.claims) and all(c.label == "supported" for c in report.claims)


def row_score(report_at_zero: Report) -> float:
    """The row's support score: the weakest claim decides (min over claims), 0 with no claim."""
    return min(support_scores(report_at_zero), default=0.0)


def flagged_spans(report: Report) -> list[tuple[int, int]]:
    return [(c.start, c.end) for c in report.claims if c.label != "supported"]


class Runner:
    """Runs request lists through one Verifier and keeps time, pairs and failures per set."""

    def __init__(self, verifier: Verifier, batch_answers: int, log: Callable[[str], None]) -> None:
        self.timed = TimedModel(verifier.model)
        verifier.model = self.timed
        self.verifier = verifier
        self.fixed = verifier.thresholds
        self.batch_answers = batch_answers
        self.log = log

    def at(self, support: float) -> Thresholds:
        return self.fixed.model_copy(update={"support": support, "partial": min(self.fixed.partial, support)})

    def run(self, name: str, requests: Sequence[dict[str, Any]], tuned: float | None,
            scores: bool = False) -> tuple[dict[str, list[Report]], dict]:
        """Reports at the fixed threshold, at the tuned one, and (for `scores`) at support=0."""
        variants = {"fixed": self.fixed}
        if scores:
            variants["zero"] = self.at(0.0)
        if tuned is not None:
            variants["tuned"] = self.at(tuned)
        self.timed.reset()
        failures: list[str] = []
        started = time.perf_counter()

        def progress(done: int, total: int) -> None:
            spent = time.perf_counter() - started
            self.log(f"{name}: {done}/{total} answers, {spent:.0f}s, eta {spent / done * (total - done):.0f}s")

        reports = run_cached(self.verifier, requests, variants, batch_answers=self.batch_answers,
                             progress=progress, failures=failures)
        seconds = time.perf_counter() - started
        info = {"seconds": round(seconds, 1), "model_seconds": round(self.timed.seconds, 1),
                "pairs_scored": self.timed.pairs, "answers": len(requests),
                "failures": len({f.split(": ", 1)[0] for f in failures}),  # once per row, not per variant
                "failure_examples": failures[:3]}
        return reports, info


def _binary(gold: Sequence[bool], pred: Sequence[bool]) -> dict[str, Any]:
    return Confusion.of(gold, pred).to_dict()


def eval_aggrefact(runner: Runner, rows: Sequence[ds.AggreFactRow], tuned: float | None, name: str) -> dict:
    reports, info = runner.run(name, [r.request() for r in rows], tuned, scores=True)
    gold = [r.label == 1 for r in rows]
    scores = [row_score(r) for r in reports["zero"]]
    fixed_pred = [supported(r) for r in reports["fixed"]]
    out: dict[str, Any] = {"n": len(rows), "pos": sum(gold), "neg": len(gold) - sum(gold), **info,
                           "fixed": {"threshold": runner.fixed.support, **_binary(gold, fixed_pred)},
                           # the engine's verdict at the policy threshold should equal score >= threshold
                           "score_verdict_disagreements": sum(
                               a != b for a, b in zip(fixed_pred, predict_at(scores, runner.fixed.support)))}
    if tuned is not None:
        out["tuned"] = {"threshold": tuned, **_binary(gold, [supported(r) for r in reports["tuned"]])}
    # Per row, so two runs can be compared row by row (`--compare`): id, gold, verdict, score.
    out["rows"] = [[row.id, int(g), int(p), round(sc, 4)] for row, g, p, sc in zip(rows, gold, fixed_pred, scores)]
    out["_scores"] = scores  # for tuning on dev; dropped before writing
    return out


def changed_rows(before: dict, after: dict) -> dict[str, list[tuple[str, int, int, int]]]:
    """Per set, the rows whose fixed-threshold verdict differs between two result JSONs:
    (id, gold, verdict before, verdict after). Rows missing from either run are left out."""
    out: dict[str, list[tuple[str, int, int, int]]] = {}
    for name, result in after.get("results", {}).items():
        old = {r[0]: r for r in before.get("results", {}).get(name, {}).get("rows", [])}
        moved = [(rid, gold, old[rid][2], verdict) for rid, gold, verdict, _ in result.get("rows", [])
                 if rid in old and old[rid][2] != verdict]
        if moved:
            out[name] = moved
    return out


def _compare(before_path: str, after_path: str) -> int:
    before, after = (json.loads(Path(p).read_text(encoding="utf-8")) for p in (before_path, after_path))
    for name, moved in changed_rows(before, after).items():
        fixed = sum(after_v == gold for _, gold, _, after_v in moved)
        print(f"{name}: {len(moved)} rows changed verdict, {fixed} now right, {len(moved) - fixed} now wrong")
        for rid, gold, was, now in moved:
            print(f"  {rid}: gold {'supported' if gold else 'not'}; {was} -> {now}")
    return 0


def eval_ocnli(runner: Runner, pairs: Sequence[ds.NLIPair], tuned: float | None) -> dict:
    reports, info = runner.run("ocnli", [p.request() for p in pairs], tuned)

    def three_way(r: Report) -> str:
        if supported(r):
            return "entailment"
        return "contradiction" if any(c.label == "contradicted" for c in r.claims) else "neutral"

    gold = [p.label for p in pairs]
    out: dict[str, Any] = {"n": len(pairs), **info}
    for variant in ("fixed", "tuned"):
        if variant not in reports:
            continue
        pred = [three_way(r) for r in reports[variant]]
        out[variant] = {"threshold": runner.fixed.support if variant == "fixed" else tuned,
                        "accuracy_3way": round(accuracy(gold, pred), 4),
                        "entailment_vs_rest": _binary([g == "entailment" for g in gold], [p == "entailment" for p in pred]),
                        "confusion": confusion_matrix(gold, pred, ("entailment", "neutral", "contradiction"))}
    return out


def eval_uhgeval(runner: Runner, items: Sequence[ds.UHGItem], tuned: float | None) -> dict:
    requests = [q for item in items for q in item.requests()]
    reports, info = runner.run("uhgeval", requests, tuned)
    out: dict[str, Any] = {"n": len(items), "keywords": sum(len(i.keywords) for i in items),
                           "bad_keywords": sum(k.bad for i in items for k in i.keywords), **info}
    for variant in ("fixed", "tuned"):
        if variant not in reports:
            continue
        llm, real = reports[variant][0::2], reports[variant][1::2]
        bad_hit = bad = good_hit = good = 0
        for item, report in zip(items, llm):
            spans = flagged_spans(report)
            for k in item.keywords:
                hit = any(s < k.end and k.start < e for s, e in spans)
                if k.bad:
                    bad, bad_hit = bad + 1, bad_hit + hit
                else:
                    good, good_hit = good + 1, good_hit + hit
        recall, false_flag = bad_hit / max(bad, 1), good_hit / max(good, 1)
        # answer level: the LLM continuation should be stopped, the real next sentence should pass
        should_pass = [False] * len(llm) + [True] * len(real)
        out[variant] = {"threshold": runner.fixed.support if variant == "fixed" else tuned,
                        "bad_keyword_recall": round(recall, 4), "good_keyword_false_flag": round(false_flag, 4),
                        "keyword_balanced_accuracy": round((recall + 1 - false_flag) / 2, 4),
                        "answer_level": _binary(should_pass, [supported(r) for r in llm + real])}
    return out


def eval_faithbench(runner: Runner, items: Sequence[ds.FaithItem], tuned: float | None) -> dict:
    reports, info = runner.run("faithbench", [i.request() for i in items], tuned)
    out: dict[str, Any] = {"n": len(items), "unfaithful": sum(i.unfaithful for i in items),
                           "unwanted_spans": sum(len(i.unwanted) for i in items), **info}
    for variant in ("fixed", "tuned"):
        if variant not in reports:
            continue
        totals = [0, 0, 0, 0]
        for item, report in zip(items, reports[variant]):
            for j, v in enumerate(span_precision_recall(flagged_spans(report), item.unwanted)):
                totals[j] += v
        # positive class = faithful (passes), as for the other sets
        out[variant] = {"threshold": runner.fixed.support if variant == "fixed" else tuned,
                        "summary_level": _binary([not i.unfaithful for i in items],
                                                 [supported(r) for r in reports[variant]]),
                        "span_precision": round(totals[0] / max(totals[1], 1), 4),
                        "span_recall": round(totals[2] / max(totals[3], 1), 4),
                        "flagged_claims": totals[1]}
    return out


def parse_limits(text: str | None) -> Callable[[str], int | None]:
    """`None` -> every row; `"300"` -> 300 per set; `"wice-dev=100,fcgpt=300"` -> per set, others all."""
    if not text:
        return lambda name: None
    if "=" not in text:
        return lambda name: int(text)
    table = {k.strip(): int(v) for k, v in (part.split("=", 1) for part in text.split(",") if part.strip())}
    return table.get


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.accuracy", description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="default", help="default, lexical, a registry name or a local HF folder")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated subset of {','.join(SETS)}")
    parser.add_argument("--limit", default=None, help="seeded sample per set: N for every set (WiCE dev "
                        "included), or per set, e.g. 'wice-dev=100,fcgpt=300' (sets not named: all rows)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-tune", action="store_true", help="skip WiCE dev and the tuned threshold")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--batch-size", type=int, default=None, help="model batch size")
    parser.add_argument("--batch-answers", type=int, default=64, help="answers per model call")
    parser.add_argument("--policy", default="default")
    parser.add_argument("--out", default=str(RESULTS), help="folder for the markdown and JSON results")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE.json", "AFTER.json"),
                        help="list the WiCE / Factcheck-GPT rows whose verdict differs between two runs, and exit")
    args = parser.parse_args(argv)
    if args.compare:
        return _compare(*args.compare)
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = set(wanted) - set(SETS)
    if unknown:
        parser.error(f"unknown sets {sorted(unknown)}; choose from {', '.join(SETS)}")

    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    verifier = Verifier(args.model, device=args.device, batch_size=args.batch_size, policy=args.policy)
    model_name, revision = verifier.model.name, verifier.model.revision
    runner = Runner(verifier, args.batch_answers, log)
    limits, seed = parse_limits(args.limit), args.seed
    results: dict[str, Any] = {}
    run = {"model": model_name, "revision": revision, "model_arg": args.model, "policy": args.policy,
           "fixed_threshold": runner.fixed.support, "tuned_threshold": None, "limit": args.limit, "seed": seed,
           "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "results": results}
    tuned = None
    if not args.no_tune:
        dev = ds.sample(ds.load_aggrefact("wice-dev"), limits("wice-dev"), seed)
        res = eval_aggrefact(runner, dev, None, "wice-dev")
        tuned, dev_bacc = best_threshold(res.pop("_scores"), [r.label == 1 for r in dev])
        res["tuned_on_dev"] = {"threshold": tuned, "balanced_accuracy": round(dev_bacc, 4)}
        results["wice-dev"] = res
        run["tuned_threshold"] = tuned
        log(f"wice-dev: tuned support threshold {tuned} (dev BAcc {100 * dev_bacc:.1f})")
    loaders: dict[str, Callable[[], Sequence[Any]]] = {
        "wice": lambda: ds.load_aggrefact("wice-test"), "fcgpt": lambda: ds.load_aggrefact("factcheck-gpt"),
        "ocnli": ds.load_ocnli, "uhgeval": ds.load_uhgeval, "faithbench": ds.load_faithbench}
    evaluators: dict[str, Callable[..., dict]] = {
        "wice": partial(eval_aggrefact, name="wice"), "fcgpt": partial(eval_aggrefact, name="fcgpt"),
        "ocnli": eval_ocnli, "uhgeval": eval_uhgeval, "faithbench": eval_faithbench}
    for name in wanted:
        results[name] = evaluators[name](runner, ds.sample(loaders[name](), limits(name), seed), tuned)
        results[name].pop("_scores", None)
        log(f"{name}: done in {results[name]['seconds']}s")
        write_accuracy_report(run, Path(args.out))  # after every set: a long run stopped early keeps its figures
    md_path, json_path = write_accuracy_report(run, Path(args.out))
    print(md_path.read_text(encoding="utf-8"))
    log(f"wrote {md_path} and {json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

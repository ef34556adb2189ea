"""`verifier calibrate`: thresholds from labelled answers, for a target unsafe-pass rate.

The labelled file is the engine's input contract plus `expected` (claim labels
`expected.claims[{span, label}]` and/or an `expected.action`) and optionally `lang` and
`bucket`. It is split (seeded, stratified by bucket and language) into a calibration part,
where the thresholds are chosen, and a test part, where the errors are reported.

The model scores every answer once; each threshold is then applied by re-running only the
cheap `finish` phase over the cached scores, so a 101-point sweep costs one model pass.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from benchmarks.metrics import (ErrorRates, balanced_accuracy, confusion_matrix, threshold_for_unsafe_rate,
                                threshold_grid)
from models.base import NLIScores
from verifier.pipeline import Verifier
from verifier.prepared import PreparedAnswer
from verifier.policy import POLICY_DIR, load_policy
from verifier.schema import Report, VerifyRequest
from verifier.verdict import Thresholds

LABELS = ("supported", "partial", "unsupported", "contradicted")
_SEVERITY = {"supported": 0, "partial": 1, "unsupported": 2, "contradicted": 3}
MIN_CONTRADICTED = 5  # fewer gold contradicted claims than this: keep the policy's contradict threshold


# -- running the engine once, finishing many times -------------------------------------------

@contextmanager
def thresholds_swapped(verifier: Verifier, thresholds: Thresholds) -> Iterator[Verifier]:
    saved = verifier.thresholds
    verifier.thresholds = thresholds
    try:
        yield verifier
    finally:
        verifier.thresholds = saved


def _prepare(verifier: Verifier, request: VerifyRequest | Mapping[str, Any],
             failures: list[str] | None) -> PreparedAnswer:
    try:
        return verifier.prepare(request)
    except Exception as exc:  # noqa: BLE001 - a benchmark counts a crash as a failed row, it does not stop
        if failures is None:
            raise
        rid = request.id if isinstance(request, VerifyRequest) else request.get("id")
        failures.append(f"{rid}: {type(exc).__name__}: {exc}"[:300])
        return verifier.prepare({"id": rid, "answer": "", "sources": []})  # no claims: never supported


def score_requests(verifier: Verifier, requests: Sequence[VerifyRequest | Mapping[str, Any]], *,
                   batch_answers: int = 64, progress: Callable[[int, int], None] | None = None,
                   failures: list[str] | None = None,
                   ) -> Iterator[tuple[list[PreparedAnswer], list[list[NLIScores]]]]:
    """`verify_batch`'s first two phases, one model call per batch of answers.

    With a `failures` list, an answer whose preparation raises is recorded there and checked as
    an empty answer instead (a benchmark row that counts as "not supported"); without, it raises.
    """
    for offset in range(0, len(requests), batch_answers):
        prepared = [_prepare(verifier, r, failures) for r in requests[offset: offset + batch_answers]]
        started = time.perf_counter()
        scores = verifier.score([p.pairs() for p in prepared])
        model_ms = (time.perf_counter() - started) * 1000
        total_pairs = sum(len(s) for s in scores) or 1
        for p, s in zip(prepared, scores):
            p.timing_ms["model"] = round(model_ms * len(s) / total_pairs, 3)  # as verify_batch charges it
        if progress:
            progress(min(offset + batch_answers, len(requests)), len(requests))
        yield prepared, scores


def run_cached(verifier: Verifier, requests: Sequence[VerifyRequest | Mapping[str, Any]],
               variants: Mapping[str, Thresholds], *, batch_answers: int = 64,
               progress: Callable[[int, int], None] | None = None,
               failures: list[str] | None = None) -> dict[str, list[Report]]:
    """Reports for every threshold variant from a single model pass (== verify_batch per variant)."""
    out: dict[str, list[Report]] = {name: [] for name in variants}
    for prepared, scores in score_requests(verifier, requests, batch_answers=batch_answers, progress=progress,
                                           failures=failures):
        memo: dict = {}
        for name, thresholds in variants.items():
            with thresholds_swapped(verifier, thresholds):
                out[name].extend(finish_all(verifier, prepared, scores, memo,
                                            lambda p, s: _finish(verifier, p, s, failures)))
    return out


def finish_all(verifier: Verifier, prepared: Sequence[PreparedAnswer], scores: Sequence[list[NLIScores]],
               memo: dict, finish: Callable[[PreparedAnswer, list[NLIScores]], Report] | None = None) -> list[Report]:
    """`verify_batch`'s last phase for answers already scored, with its second model call for the
    claims read again in pieces; `memo` keeps the scores of those pairs across threshold variants."""
    reports = [(finish or verifier.finish)(p, s) for p, s in zip(prepared, scores)]
    again = [(k, p.followup) for k, p in enumerate(prepared) if p.followup is not None]
    todo = list(dict.fromkeys(x for _, f in again for x in f.unscored() if x not in memo))
    if todo:
        memo.update(zip(todo, verifier.score([todo])[0]))
    for k, followup in again:
        reports[k] = verifier.finish_followup(followup, followup.all_scores([memo[x] for x in followup.unscored()]))
    return reports


def _finish(verifier: Verifier, prepared: PreparedAnswer, scores: list[NLIScores],
            failures: list[str] | None) -> Report:
    try:
        return verifier.finish(prepared, scores)
    except Exception as exc:  # noqa: BLE001 - see _prepare
        if failures is None:
            raise
        failures.append(f"{prepared.request.id}: {type(exc).__name__}: {exc}"[:300])
        return verifier.finish(_prepare(verifier, {"id": prepared.request.id, "answer": "", "sources": []}, None), [])


def support_scores(report_at_zero: Report) -> list[float]:
    """Per claim, the support threshold up to which the engine calls it supported.

    From a report made with `support=0`: a claim that passes every non-threshold check (facts,
    conflicts) is then `supported` with score = its best entailment; any other claim can never be
    supported, so 0.
    """
    return [c.score if c.label == "supported" else 0.0 for c in report_at_zero.claims]


# -- labelled examples ----------------------------------------------------------------------

@dataclass
class Example:
    request: VerifyRequest
    lang: str
    bucket: str
    action: str | None  # expected action
    claims: list[tuple[int, int, str]] = field(default_factory=list)  # gold (start, end, label) in the answer
    unlocated: int = 0  # gold spans not found in the answer


def _locate(answer: str, span: str, after: int) -> tuple[int, int] | None:
    at = answer.find(span, after)
    if at < 0:
        at = answer.find(span)
    if at < 0:  # tolerate whitespace differences
        pattern = r"\s+".join(re.escape(w) for w in span.split())
        m = re.search(pattern, answer) if pattern else None
        return (m.start(), m.end()) if m else None
    return at, at + len(span)


def load_examples(path: str | Path) -> list[Example]:
    examples = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            expected = row.get("expected") or {}
            if not expected.get("claims") and not expected.get("action"):
                raise ValueError(f"{path}:{number}: needs expected.claims or expected.action")
            request = VerifyRequest.model_validate(row)
            ex = Example(request, str(row.get("lang") or "?"), str(row.get("bucket") or "-"), expected.get("action"))
            cursor = 0
            for gold in expected.get("claims") or []:
                if gold["label"] not in LABELS:
                    raise ValueError(f"{path}:{number}: claim label {gold['label']!r} is not one of {LABELS}")
                found = _locate(request.answer, gold["span"], cursor)
                if found is None:
                    ex.unlocated += 1
                    continue
                ex.claims.append((found[0], found[1], gold["label"]))
                cursor = found[1]
            examples.append(ex)
    return examples


def split(examples: Sequence[Example], test_share: float, seed: int) -> tuple[list[int], list[int]]:
    """(calibration, test) indices, stratified by (bucket, language), seeded."""
    strata: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, ex in enumerate(examples):
        strata[(ex.bucket, ex.lang)].append(i)
    rng = random.Random(seed)
    calib, test = [], []
    for key in sorted(strata):
        members = strata[key][:]
        rng.shuffle(members)
        k = round(len(members) * test_share)
        test += members[:k]
        calib += members[k:]
    return sorted(calib), sorted(test)


# -- units of evaluation --------------------------------------------------------------------

@dataclass(frozen=True)
class Unit:
    lang: str
    bucket: str
    gold: str  # claim label or expected action
    pred: str  # worst engine label over the gold span ("none": no claim there), or the action
    should_pass: bool
    passed: bool


def worst_claims(claims: Sequence[Any], start: int, end: int) -> list[Any]:
    """The engine claims overlapping answer[start:end] that carry the most severe label among
    them: a gold claim the engine split in two is only as good as its weaker half."""
    hits = [c for c in claims if c.start < end and start < c.end]
    worst = max((_SEVERITY[c.label] for c in hits), default=None)
    return [c for c in hits if _SEVERITY[c.label] == worst]


def claim_units(ex: Example, report: Report) -> list[Unit]:
    """One unit per gold claim: it passes iff every engine claim overlapping its span is supported."""
    units = []
    for start, end, label in ex.claims:
        worst = worst_claims(report.claims, start, end)
        pred = worst[0].label if worst else "none"
        units.append(Unit(ex.lang, ex.bucket, label, pred, label == "supported", pred in ("supported", "none")))
    return units


def action_units(ex: Example, report: Report) -> list[Unit]:
    if ex.action is None:
        return []
    act = report.decision.action
    return [Unit(ex.lang, ex.bucket, ex.action, act, ex.action == "answer", act == "answer")]


def rates(units: Iterable[Unit]) -> ErrorRates:
    units = list(units)
    return ErrorRates.of([u.should_pass for u in units], [u.passed for u in units])


def breakdown(units: Sequence[Unit]) -> dict[str, Any]:
    """Overall, per language and per bucket error rates, plus the confusion matrix."""
    by = lambda key: {k: rates(u for u in units if getattr(u, key) == k).to_dict()  # noqa: E731
                      for k in sorted({getattr(u, key) for u in units})}
    return {"n": len(units), "overall": rates(units).to_dict(), "by_language": by("lang"), "by_bucket": by("bucket"),
            "confusion": confusion_matrix([u.gold for u in units], [u.pred for u in units])}


# -- the calibration itself -----------------------------------------------------------------

@dataclass
class Calibration:
    thresholds: Thresholds
    base: Thresholds
    unit: str  # "claims" or "actions": what the unsafe-pass target was applied to
    target: float
    reached: bool
    curve: list[dict[str, float]]  # threshold -> calibration and test error rates
    test: dict[str, Any]  # breakdowns on the test part, calibrated and base thresholds
    calibration_n: int
    test_n: int
    unlocated: int


def _units_for(unit: str) -> Callable[[Example, Report], list[Unit]]:
    return claim_units if unit == "claims" else action_units


def _reports(verifier: Verifier, cached: Sequence[tuple[PreparedAnswer, list[NLIScores]]],
             thresholds: Thresholds, memo: dict) -> list[Report]:
    with thresholds_swapped(verifier, thresholds):
        return finish_all(verifier, [p for p, _ in cached], [s for _, s in cached], memo)


def _units(examples: Sequence[Example], reports: Sequence[Report], idx: Sequence[int], unit: str) -> list[Unit]:
    make = _units_for(unit)
    return [u for i in idx for u in make(examples[i], reports[i])]


def _contradict_threshold(verifier: Verifier, examples: Sequence[Example],
                          cached: Sequence[tuple[PreparedAnswer, list[NLIScores]]], calib: Sequence[int],
                          chosen: Thresholds, grid: Sequence[float], memo: dict) -> float:
    """The contradict threshold that best separates gold contradicted claims (balanced accuracy)."""
    gold_count = sum(1 for i in calib for _, _, label in examples[i].claims if label == "contradicted")
    if gold_count < MIN_CONTRADICTED:
        return chosen.contradict
    part = [examples[i] for i in calib]
    part_cached = [cached[i] for i in calib]  # only the calibration answers need finishing here
    best, best_key = chosen.contradict, None
    for t in grid:
        reports = _reports(verifier, part_cached, chosen.model_copy(update={"contradict": t}), memo)
        units = _units(part, reports, range(len(part)), "claims")
        bacc = balanced_accuracy([u.gold == "contradicted" for u in units], [u.pred == "contradicted" for u in units])
        key = (round(bacc, 9), -abs(t - chosen.contradict))  # ties: stay near the policy's value
        if best_key is None or key > best_key:
            best, best_key = t, key
    return best


def calibrate(verifier: Verifier, examples: Sequence[Example], *, target_unsafe: float = 0.05,
              test_share: float = 0.4, seed: int = 0, step: float = 0.01,
              progress: Callable[[int, int], None] | None = None) -> Calibration:
    calib, test = split(examples, test_share, seed)
    if not calib or not test:
        raise ValueError(f"{len(examples)} examples give an empty calibration or test part; add examples "
                         "or change --test-share")
    base = verifier.thresholds
    cached: list[tuple[PreparedAnswer, list[NLIScores]]] = []
    for prepared, scores in score_requests(verifier, [e.request for e in examples], progress=progress):
        cached.extend(zip(prepared, scores))
    unit = "claims" if any(examples[i].claims for i in calib) else "actions"
    grid = threshold_grid(step)

    def at(support: float) -> Thresholds:
        # partial above support would make "partial" unreachable below it; keep the order.
        return base.model_copy(update={"support": support, "partial": min(base.partial, support)})

    curve, calib_curve = [], []
    memo: dict = {}  # scores of the pairs of claims read again in pieces, across the grid
    for t in grid:
        reports = _reports(verifier, cached, at(t), memo)
        cal, tst = rates(_units(examples, reports, calib, unit)), rates(_units(examples, reports, test, unit))
        calib_curve.append((t, cal))
        curve.append({"threshold": t, "calibration_unsafe_pass": round(cal.unsafe_pass, 4),
                      "calibration_over_flag": round(cal.over_flag, 4), "test_unsafe_pass": round(tst.unsafe_pass, 4),
                      "test_over_flag": round(tst.over_flag, 4)})
    support, reached = threshold_for_unsafe_rate(calib_curve, target_unsafe)
    chosen = at(support)
    if unit == "claims":
        chosen = chosen.model_copy(update={"contradict": _contradict_threshold(verifier, examples, cached, calib,
                                                                               chosen, grid, memo)})
    test_report: dict[str, Any] = {}
    for name, thresholds in (("calibrated", chosen), ("base", base)):
        reports = _reports(verifier, cached, thresholds, memo)
        test_report[name] = {u: breakdown(_units(examples, reports, test, u)) for u in ("claims", "actions")}
    return Calibration(chosen, base, unit, target_unsafe, reached, curve, test_report, len(calib), len(test),
                       sum(e.unlocated for e in examples))


# -- outputs --------------------------------------------------------------------------------

def policy_path(name_or_path: str) -> Path:
    path = Path(name_or_path)
    return path if path.suffix or path.exists() else POLICY_DIR / f"{name_or_path}.toml"


def write_policy(base_policy: str, thresholds: Thresholds, out: str | Path, note: str) -> Path:
    """A copy of the base policy file with a new [thresholds] table (and a marked version)."""
    lines = policy_path(base_policy).read_text(encoding="utf-8").splitlines()
    table = ["[thresholds]"] + [f"{k} = {v!r}" for k, v in thresholds.model_dump().items()]
    body, i, replaced, top_level = [], 0, False, True
    while i < len(lines):
        line = lines[i]
        top_level = top_level and not line.lstrip().startswith("[")
        if line.strip() == "[thresholds]":
            body += table
            replaced = True
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith("["):
                if not lines[i].strip() or lines[i].lstrip().startswith("#"):
                    body.append(lines[i])  # keep blank lines and comments that separate tables
                i += 1
            continue
        if top_level and re.match(r"\s*version\s*=", line):
            version = re.sub(r'^\s*version\s*=\s*"?([^"]*)"?.*$', r"\1", line)
            line = f'version = "{version}+calibrated"'
        body.append(line)
        i += 1
    if not replaced:  # no table yet: it must come before the first [[stages]] array
        first = next((j for j, ln in enumerate(body) if ln.lstrip().startswith("[")), len(body))
        body[first:first] = table + [""]
    text = "\n".join([f"# {line}" for line in note.splitlines()] + body) + "\n"
    Path(out).write_text(text, encoding="utf-8")
    load_policy(out)  # fail here, not at the next `verifier check`, if the file does not load
    return Path(out)


def plot(result: Calibration, path: str | Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [p["threshold"] for p in result.curve]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    ax.plot(xs, [p["calibration_unsafe_pass"] for p in result.curve], color="tab:red", label="unsafe pass (calibration)")
    ax.plot(xs, [p["calibration_over_flag"] for p in result.curve], color="tab:blue", label="over-flag (calibration)")
    ax.plot(xs, [p["test_unsafe_pass"] for p in result.curve], color="tab:red", ls="--", label="unsafe pass (test)")
    ax.plot(xs, [p["test_over_flag"] for p in result.curve], color="tab:blue", ls="--", label="over-flag (test)")
    ax.axhline(result.target, color="grey", lw=0.8, ls=":")
    ax.axvline(result.thresholds.support, color="black", lw=1, label=f"chosen support = {result.thresholds.support:.2f}")
    ax.set_xlabel("support threshold (P(entailment))")
    ax.set_ylabel(f"error rate ({result.unit})")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="center right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def summary(result: Calibration) -> str:
    """A short markdown report of the test part (calibrated next to the base thresholds)."""
    t, b = result.thresholds, result.base
    out = [f"thresholds: support {b.support} -> {t.support}, partial {b.partial} -> {t.partial}, "
           f"contradict {b.contradict} -> {t.contradict} (chosen on {result.calibration_n} calibration answers, "
           f"unit = {result.unit}, target unsafe-pass <= {_pct(result.target)}"
           f"{'' if result.reached else ', NOT reached: lowest unsafe rate taken'})",
           f"test part: {result.test_n} answers; gold spans not found in their answer: {result.unlocated}", ""]
    for unit in ("claims", "actions"):
        cal, base = result.test["calibrated"][unit], result.test["base"][unit]
        if not cal["n"]:
            continue
        out += [f"### {unit} (test part, n={cal['n']})", "",
                "| slice | n stop | n pass | unsafe pass (calibrated) | over-flag (calibrated) | unsafe pass (base) | over-flag (base) |",
                "|---|---|---|---|---|---|---|"]
        rows = [("all", cal["overall"], base["overall"])]
        rows += [(f"lang {k}", v, base["by_language"][k]) for k, v in cal["by_language"].items()]
        rows += [(f"bucket {k}", v, base["by_bucket"][k]) for k, v in cal["by_bucket"].items()]
        for name, c, bb in rows:
            out.append(f"| {name} | {c['should_stop']} | {c['should_pass']} | {_pct(c['unsafe_pass'])} | "
                       f"{_pct(c['over_flag'])} | {_pct(bb['unsafe_pass'])} | {_pct(bb['over_flag'])} |")
        matrix = cal["confusion"]
        names = list(matrix)
        out += ["", "confusion (rows gold, columns engine, calibrated thresholds):", "",
                "| gold \\ engine | " + " | ".join(map(str, names)) + " |", "|---" * (len(names) + 1) + "|"]
        out += [f"| {g} | " + " | ".join(str(matrix[g][p]) for p in names) + " |" for g in names]
        out.append("")
    return "\n".join(out)


def run(args: Any) -> int:
    """The `verifier calibrate` command (arguments parsed in verifier.cli)."""
    from pydantic import ValidationError

    from verifier.errors import InputError, explain

    try:
        examples = load_examples(args.input)
    except ValidationError as exc:
        raise InputError(f"{args.input}: {explain(exc)}") from exc
    except (OSError, ValueError) as exc:  # json.JSONDecodeError is a ValueError
        raise InputError(f"{args.input}: {exc}") from exc
    verifier = Verifier(args.model, device=args.device, models_file=args.models_file, policy=args.policy)
    started = time.perf_counter()
    result = calibrate(verifier, examples, target_unsafe=args.target_unsafe, test_share=args.test_share,
                       seed=args.seed, step=args.step)
    note = (f"Calibrated by `verifier calibrate {args.input}` on {time.strftime('%Y-%m-%d')} with model "
            f"{verifier.model.name}@{verifier.model.revision}: target unsafe-pass {result.target} on {result.unit}, "
            f"seed {args.seed}, test share {args.test_share}, {result.calibration_n} calibration / "
            f"{result.test_n} test answers.")
    write_policy(args.policy, result.thresholds, args.output, note)
    title = f"{verifier.model.name}: {Path(args.input).name} (calibration solid, test dashed)"
    if args.plot:
        plot(result, args.plot, title)
    if args.report:
        Path(args.report).write_text(json.dumps({
            "model": verifier.model.name, "revision": verifier.model.revision, "input": str(args.input),
            "seed": args.seed, "test_share": args.test_share, "target_unsafe": result.target, "unit": result.unit,
            "reached": result.reached, "thresholds": result.thresholds.model_dump(), "base": result.base.model_dump(),
            "calibration_n": result.calibration_n, "test_n": result.test_n, "test": result.test, "curve": result.curve,
            "seconds": round(time.perf_counter() - started, 2)}, ensure_ascii=False, indent=1), encoding="utf-8")
    print(summary(result))
    print(f"verifier: wrote {args.output}" + (f" and {args.plot}" if args.plot else ""), file=sys.stderr)
    return 0

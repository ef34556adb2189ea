"""Acceptance numbers on the hand-written gold sets (claim labels and decisions).

    python -m benchmarks.gold --model default            # every set
    python -m benchmarks.gold --set engine --model lexical

Claim level (`data/fixtures/engine_gold.jsonl`): every expected claim is aligned to the
engine's claims overlapping its span (the most severe label counts); we report how
many unsupported/contradicted claims were NOT labelled supported (target >= 90%), how
many supported claims were labelled supported (target >= 80%), and whether number/date mismatches came out
`contradicted` with both values in the report.

Decision level (`data/fixtures/decision_gold.jsonl`): action accuracy, unsafe-answer rate
(the engine answered where it should not have) and over-abstain rate (it held back an
answer that should have gone out), per bucket.

Only the odd-numbered cases (0-based line index) were ever looked at while the engine was
tuned; the even-numbered half is also reported on its own as the held-out figure, less the
few even cases that were opened since (listed in INSPECTED, with why).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from verifier import Verifier
from verifier.calibrate import worst_claims

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "fixtures"
# Even (held-out) cases that have been opened: they leave the held-out figure for good.
INSPECTED = {
    # r2 answered it unsafely (a swapped approver, 财务总监 for 部门负责人); led to extractors/roles.py.
    "decision_gold.jsonl": {38},
}


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass(frozen=True)
class AlignedClaim:
    label: str
    facts: list


def _align(case: dict, report) -> list[tuple[dict, AlignedClaim | None]]:
    """(expected claim, what the engine says about its span) for every expected claim.

    The engine may split one expected claim into several ("must be at least 14 characters
    long and must be changed every 90 days"): the most severe label among the engine claims
    overlapping the span is the span's label (as in `verifier calibrate`), so a contradicted
    half is not hidden behind a supported half."""
    answer = case["answer"]
    out = []
    for expected in case["expected"].get("claims", []):
        start = answer.find(expected["span"])
        worst = worst_claims(report.claims, start, start + len(expected["span"]))
        got = AlignedClaim(worst[0].label, [f for c in worst for f in c.facts]) if worst else None
        out.append((expected, got))
    return out


def claim_metrics(cases: list[dict], reports: list) -> dict:
    counts: Counter = Counter()
    by_lang: dict[str, Counter] = defaultdict(Counter)
    for case, report in zip(cases, reports):
        lang = case.get("lang", "?")
        for expected, got in _align(case, report):
            label = got.label if got is not None else "unsupported"  # a claim we never made is not a pass
            want = expected["label"]
            for bucket in (counts, by_lang[lang]):
                if want == "supported":
                    bucket["supported_total"] += 1
                    bucket["supported_ok"] += label == "supported"
                elif want in ("unsupported", "contradicted"):
                    bucket["bad_total"] += 1
                    bucket["bad_caught"] += label != "supported"
                if want == "contradicted" and expected.get("values"):
                    bucket["mismatch_total"] += 1
                    has_both = got is not None and label == "contradicted" and any(
                        f.status == "mismatched" and f.evidence_text for f in got.facts)
                    bucket["mismatch_contradicted"] += label == "contradicted"
                    bucket["mismatch_both_values"] += has_both

    def summary(c: Counter) -> dict:
        ratio = lambda a, b: round(100 * c[a] / c[b], 1) if c[b] else None  # noqa: E731
        return {"bad_not_supported_%": ratio("bad_caught", "bad_total"), "n_bad": c["bad_total"],
                "supported_recall_%": ratio("supported_ok", "supported_total"), "n_supported": c["supported_total"],
                "value_mismatch_contradicted_%": ratio("mismatch_contradicted", "mismatch_total"),
                "value_mismatch_both_values_%": ratio("mismatch_both_values", "mismatch_total"),
                "n_value_mismatch": c["mismatch_total"]}

    return {"all": summary(counts), **{lang: summary(c) for lang, c in sorted(by_lang.items())}}


def decision_metrics(cases: list[dict], reports: list) -> dict:
    rows: dict[str, Counter] = defaultdict(Counter)
    for case, report in zip(cases, reports):
        expected = case["expected"]
        ok_actions = set(expected.get("acceptable_actions") or []) | {expected["action"]}
        got = report.decision.action
        for key in ("all", case.get("bucket", "?"), "lang:" + case.get("lang", "?")):
            row = rows[key]
            row["n"] += 1
            row["correct"] += got in ok_actions
            should_answer = "answer" in ok_actions
            row["should_not_answer"] += not should_answer
            row["unsafe"] += got == "answer" and not should_answer
            row["should_answer"] += should_answer
            row["over_abstain"] += should_answer and got != "answer"
    pct = lambda a, b: round(100 * a / b, 1) if b else None  # noqa: E731
    return {k: {"n": r["n"], "action_accuracy_%": pct(r["correct"], r["n"]),
                "unsafe_answer_%": pct(r["unsafe"], r["should_not_answer"]),
                "over_abstain_%": pct(r["over_abstain"], r["should_answer"])}
            for k, r in sorted(rows.items(), key=lambda kv: (kv[0] != "all", kv[0]))}


def _table(title: str, rows: dict) -> str:
    keys = list(next(iter(rows.values())).keys())
    lines = [f"### {title}", "", "| | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
    for name, row in rows.items():
        lines.append(f"| {name} | " + " | ".join("-" if row[k] is None else str(row[k]) for k in keys) + " |")
    return "\n".join(lines)


# name -> (file, metric). The "_b" sets were written later, by other hands, for more
# held-out cases and a larger should-answer bucket; the "_c" sets later still (session 6), and
# first run only when that session's engine was done.
GOLD_SETS = {
    "engine": ("engine_gold.jsonl", claim_metrics),
    "engine_b": ("engine_gold_b.jsonl", claim_metrics),
    "engine_c": ("engine_gold_c.jsonl", claim_metrics),
    "engine_d": ("engine_gold_d.jsonl", claim_metrics),
    "decision": ("decision_gold.jsonl", decision_metrics),
    "decision_b": ("decision_gold_b.jsonl", decision_metrics),
    "decision_c": ("decision_gold_c.jsonl", decision_metrics),
    "decision_d": ("decision_gold_d.jsonl", decision_metrics),
    "engine_e": ("engine_gold_e.jsonl", claim_metrics),
    "decision_e": ("decision_gold_e.jsonl", decision_metrics),
    "engine_f": ("engine_gold_f.jsonl", claim_metrics),
    "decision_f": ("decision_gold_f.jsonl", decision_metrics),
    "engine_g": ("engine_gold_g.jsonl", claim_metrics),
    "decision_g": ("decision_gold_g.jsonl", decision_metrics),
    "engine_h": ("engine_gold_h.jsonl", claim_metrics),
    "decision_h": ("decision_gold_h.jsonl", decision_metrics),
    "engine_i": ("engine_gold_i.jsonl", claim_metrics),
    "decision_i": ("decision_gold_i.jsonl", decision_metrics),
    "engine_j": ("engine_gold_j.jsonl", claim_metrics),
    "decision_j": ("decision_gold_j.jsonl", decision_metrics),
    "engine_k": ("engine_gold_k.jsonl", claim_metrics),
    "decision_k": ("decision_gold_k.jsonl", decision_metrics),
    "engine_l": ("engine_gold_l.jsonl", claim_metrics),
    "decision_l": ("decision_gold_l.jsonl", decision_metrics),
    "engine_m": ("engine_gold_m.jsonl", claim_metrics),
    "decision_m": ("decision_gold_m.jsonl", decision_metrics),
    "engine_n": ("engine_gold_n.jsonl", claim_metrics),
    "decision_n": ("decision_gold_n.jsonl", decision_metrics),
    "engine_o": ("engine_gold_o.jsonl", claim_metrics),
    "decision_o": ("decision_gold_o.jsonl", decision_metrics),
    "engine_p": ("engine_gold_p.jsonl", claim_metrics),
    "decision_p": ("decision_gold_p.jsonl", decision_metrics),
    "engine_q": ("engine_gold_q.jsonl", claim_metrics),
    "decision_q": ("decision_gold_q.jsonl", decision_metrics),
    "engine_r": ("engine_gold_r.jsonl", claim_metrics),
    "decision_r": ("decision_gold_r.jsonl", decision_metrics),
    "engine_s": ("engine_gold_s.jsonl", claim_metrics),
    "decision_s": ("decision_gold_s.jsonl", decision_metrics),
    "engine_t": ("engine_gold_t.jsonl", claim_metrics),
    "decision_t": ("decision_gold_t.jsonl", decision_metrics),
    "engine_u": ("engine_gold_u.jsonl", claim_metrics),
    "decision_u": ("decision_gold_u.jsonl", decision_metrics),
    "engine_v": ("engine_gold_v.jsonl", claim_metrics),
    "decision_v": ("decision_gold_v.jsonl", decision_metrics),
    "engine_w": ("engine_gold_w.jsonl", claim_metrics),
    "decision_w": ("decision_gold_w.jsonl", decision_metrics),
    "engine_x": ("engine_gold_x.jsonl", claim_metrics),
    "decision_x": ("decision_gold_x.jsonl", decision_metrics),
    "engine_y": ("engine_gold_y.jsonl", claim_metrics),
    "decision_y": ("decision_gold_y.jsonl", decision_metrics),
    "engine_z": ("engine_gold_z.jsonl", claim_metrics),
    "decision_z": ("decision_gold_z.jsonl", decision_metrics),
    "engine_aa": ("engine_gold_aa.jsonl", claim_metrics),
    "decision_aa": ("decision_gold_aa.jsonl", decision_metrics),
    "engine_ab": ("engine_gold_ab.jsonl", claim_metrics),
    "decision_ab": ("decision_gold_ab.jsonl", decision_metrics),
    "engine_ac": ("engine_gold_ac.jsonl", claim_metrics),
    "decision_ac": ("decision_gold_ac.jsonl", decision_metrics),
    "engine_ad": ("engine_gold_ad.jsonl", claim_metrics),
    "decision_ad": ("decision_gold_ad.jsonl", decision_metrics),
    "engine_ae": ("engine_gold_ae.jsonl", claim_metrics),
    "decision_ae": ("decision_gold_ae.jsonl", decision_metrics),
    "engine_af": ("engine_gold_af.jsonl", claim_metrics),
    "decision_af": ("decision_gold_af.jsonl", decision_metrics),
    "engine_ag": ("engine_gold_ag.jsonl", claim_metrics),
    "decision_ag": ("decision_gold_ag.jsonl", decision_metrics),
}


def set_figures(name: str, file: str, metric, cases: list[dict], reports: list, seconds: float) -> tuple[dict, int]:
    """One set's figures as `--json` writes them (all cases, the seconds taken and the held-out,
    even, never inspected half), and how many cases that half holds."""
    keep = [i for i in range(0, len(cases), 2) if i not in INSPECTED.get(file, ())]
    held_out = metric([cases[i] for i in keep], [reports[i] for i in keep])
    return {name: metric(cases, reports), name + "_seconds": round(seconds, 1),
            name + "_held_out": {"all": held_out["all"]}}, len(keep)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="default")
    parser.add_argument("--policy", default="default")
    parser.add_argument("--set", choices=[*GOLD_SETS, "all"], default="all")
    parser.add_argument("--json", default=None, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    verifier = Verifier(args.model, policy=args.policy)
    results: dict = {"model": verifier.model.name, "revision": verifier.model.revision, "policy": args.policy}
    for name, (file, metric) in GOLD_SETS.items():
        if args.set not in (name, "all"):
            continue
        if not (FIXTURES / file).exists():
            print(f"skipped {name}: no {FIXTURES / file}\n")
            continue
        cases = load(FIXTURES / file)
        started = time.perf_counter()
        reports = verifier.verify_batch(cases)
        figures, kept = set_figures(name, file, metric, cases, reports, time.perf_counter() - started)
        results.update(figures)
        print(_table(f"{file} ({len(cases)} answers), model {verifier.model.name}", results[name]))
        print()
        print(_table(f"held-out half: the {kept} even-numbered cases never inspected while tuning",
                     results[name + "_held_out"]))
        print()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

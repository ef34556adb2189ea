"""What a tuning session may look at in the gold sets: every claim and decision of the odd
halves, and only counts of the even (held-out) halves.

    python -m benchmarks.gold_tuning OUT.jsonl [--sets engine,engine_b,...] [--model default] [--gold-json G]
    python -m benchmarks.gold_tuning --compare BEFORE.jsonl AFTER.jsonl

The first writes one line per gold claim of an odd case of an engine set (the engine's label,
score, reason and facts for the claims overlapping its span) and one per odd decision case,
and OUT.jsonl.even.json with the even halves' counts per set. The second prints the totals of
both runs, the odd lines whose outcome changed (GOOD / BAD) and the even counts that changed.
A change is kept when no bad claim newly passes on the odd lines and no even count goes down
(`benchmarks/README.md`). Even cases never leave this module one by one.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from benchmarks.gold import FIXTURES, GOLD_SETS, INSPECTED, load, set_figures
from verifier import Verifier
from verifier.calibrate import worst_claims

BAD = ("unsupported", "contradicted")


def odd_lines(name: str, cases: list[dict], reports: list) -> list[dict]:
    """The per-claim (engine sets) or per-case (decision sets) lines of the odd cases."""
    out = []
    for i, (case, report) in enumerate(zip(cases, reports)):
        if i % 2 == 0:
            continue
        if name.startswith("engine"):
            for k, expected in enumerate(case["expected"].get("claims", [])):
                start = case["answer"].find(expected["span"])
                worst = worst_claims(report.claims, start, start + len(expected["span"]))
                overlapping = [c for c in report.claims if c.start < start + len(expected["span"]) and c.end > start]
                out.append({"set": name, "id": case.get("id"), "k": k, "want": expected["label"],
                            "got": worst[0].label if worst else "unsupported", "span": expected["span"],
                            "score": [round(c.score, 3) for c in overlapping],
                            "reason": [c.reason for c in overlapping],
                            "facts": [[f.kind, f.text, f.status, f.evidence_text] for c in overlapping for f in c.facts]})
        else:
            expected = case["expected"]
            out.append({"set": name, "id": case.get("id"), "k": "decision", "bucket": case.get("bucket"),
                        "want": sorted({expected["action"], *(expected.get("acceptable_actions") or [])}),
                        "got": report.decision.action, "reasons": list(report.decision.reasons),
                        "labels": [[c.text, c.label, c.reason] for c in report.claims]})
    return out


def even_counts(name: str, file: str, cases: list[dict], reports: list) -> dict[str, int]:
    """Counts over the even cases never inspected: claims caught and supported, mismatches
    contradicted, decisions right, wrong answers out and good answers held back."""
    n: Counter = Counter()
    for i, (case, report) in enumerate(zip(cases, reports)):
        if i % 2 == 1 or i in INSPECTED.get(file, ()):
            continue
        if name.startswith("engine"):
            for expected in case["expected"].get("claims", []):
                start = case["answer"].find(expected["span"])
                worst = worst_claims(report.claims, start, start + len(expected["span"]))
                got, want = (worst[0].label if worst else "unsupported"), expected["label"]
                if want == "supported":
                    n["sup"] += 1
                    n["sup_ok"] += got == "supported"
                elif want in BAD:
                    n["bad"] += 1
                    n["bad_ok"] += got != "supported"
                if want == "contradicted" and expected.get("values"):
                    n["mm"] += 1
                    n["mm_ok"] += got == "contradicted"
        else:
            expected = case["expected"]
            ok = {expected["action"], *(expected.get("acceptable_actions") or [])}
            got = report.decision.action
            n["dec"] += 1
            n["dec_ok"] += got in ok
            n["unsafe"] += got == "answer" and "answer" not in ok
            n["should_answer"] += "answer" in ok
            n["held_back"] += "answer" in ok and got != "answer"
    return dict(n)


def run(out: Path, sets: list[str], model: str = "default", gold_json: Path | None = None) -> dict[str, dict[str, int]]:
    """`gold_json`: also write what `python -m benchmarks.gold --json` writes, from the same reports."""
    verifier = Verifier(model)
    even: dict[str, dict[str, int]] = {}
    figures: dict = {"model": verifier.model.name, "revision": verifier.model.revision, "policy": "default"}
    with out.open("w", encoding="utf-8") as f:
        for name in sets:
            file, metric = GOLD_SETS[name]
            cases = load(FIXTURES / file)
            started = time.perf_counter()
            reports = verifier.verify_batch(cases)
            figures.update(set_figures(name, file, metric, cases, reports, time.perf_counter() - started)[0])
            for line in odd_lines(name, cases, reports):
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
            even[name] = even_counts(name, file, cases, reports)
    Path(f"{out}.even.json").write_text(json.dumps(even, indent=1), encoding="utf-8")
    if gold_json is not None:
        gold_json.write_text(json.dumps(figures, indent=2, ensure_ascii=False), encoding="utf-8")
    return even


def outcome_ok(line: dict) -> bool | None:
    """Whether an odd line came out right (None for a partial gold claim, which has no right label)."""
    if line["k"] == "decision":
        return line["got"] in line["want"]
    if line["want"] == "partial":
        return None
    return (line["got"] == "supported") == (line["want"] == "supported")


def compare(before: Path, after: Path) -> list[str]:
    def read(path: Path) -> dict:
        return {(r["set"], r["id"], r["k"]): r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}

    a, b = read(before), read(after)
    lines = []
    for key, old in a.items():
        new = b.get(key)
        if new is None or new["got"] == old["got"]:
            continue
        was, now = outcome_ok(old), outcome_ok(new)
        verdict = "GOOD" if now and was is False else "BAD" if was and now is False else ""
        lines.append(f"{key} want {old['want']}: {old['got']} -> {new['got']} {verdict}".rstrip())
    ea = json.loads(Path(f"{before}.even.json").read_text(encoding="utf-8"))
    eb = json.loads(Path(f"{after}.even.json").read_text(encoding="utf-8"))
    for name in ea:
        changed = {k: (ea[name].get(k, 0), eb.get(name, {}).get(k, 0)) for k in ea[name]
                   if ea[name].get(k, 0) != eb.get(name, {}).get(k, 0)}
        if changed:
            lines.append(f"even {name}: " + ", ".join(f"{k} {x} -> {y}" for k, (x, y) in changed.items()))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--sets", default=",".join(GOLD_SETS), help="comma-separated gold set names")
    parser.add_argument("--model", default="default")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--gold-json", type=Path, default=None,
                        help="also write the figures `python -m benchmarks.gold --json` writes (all sets only)")
    args = parser.parse_args(argv)
    if args.compare:
        print("\n".join(compare(*args.compare)) or "no change")
        return 0
    if args.out is None:
        parser.error("OUT.jsonl is required (or --compare BEFORE AFTER)")
    unknown = [s for s in args.sets.split(",") if s not in GOLD_SETS]
    if unknown:
        parser.error(f"--sets: unknown {unknown}; choose from {list(GOLD_SETS)}")
    even = run(args.out, args.sets.split(","), args.model, args.gold_json)
    total: Counter = Counter()
    for counts in even.values():
        total.update(counts)
    print(f"even halves, pooled: {dict(total)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

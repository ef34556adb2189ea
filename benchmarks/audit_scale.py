"""Audit at scale: generate N answers, audit them, SIGKILL the audit at a random point, resume,
check every input is in the output exactly once, and print throughput, cache hit rates and
peak memory.

    python benchmarks/audit_scale.py --n 100000 --model lexical
    python benchmarks/audit_scale.py --n 300 --model default        # the embedded model, smaller
    python benchmarks/audit_scale.py --sample data/examples/audit_sample.jsonl   # write the sample file

The answers are the shipped examples (`data/examples/*.json`) with varied numbers, dates and ids
over a shared pool of sources, as historical logs look: the same policy pages answer many
questions, so per-source and per-pair caching matters.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "data" / "examples"

# Per example: sentence templates whose {slots} vary; the sources stay shared.
TEMPLATES = {
    "refund-en-1": [
        "Refunds for online orders are issued within {days} business days after we receive the returned item [1].",
        "Refunds go back to the original payment method [1].",
        "There is a ${fee} restocking fee on opened electronics [2].",
        "Unopened items can be returned free of charge within {window} days of delivery [2].",
        "Shipping costs are refunded when the item arrived damaged [1].",
    ],
    "finance-en-1": [
        "In Q3 2025, revenue grew {growth}% year over year and reached ${revenue} billion.",
        "Operating margin was {margin}%.",
        "Free cash flow reached ${fcf} million.",
        "The board approved a share buyback of $500 million on October {day}, 2025.",
    ],
    "refund-zh-1": [
        "退货商品入库后，退款将在 {zh_days} 个工作日内退回原支付账户【1】。",
        "运费一般不予退还【1】。",
        "商品到货时已损坏的，运费可以退还【1】。",
    ],
    "travel-zh-hant-1": [
        "依照《差旅管理辦法 2026》，一般員工在台北出差的住宿上限為每晚新台幣 {twd} 元。",
        "其他縣市每晚上限新台幣 2,500 元。",
        "經理級以上可報銷商務艙機票。",
        "國內出差一律搭乘經濟艙或高鐵標準車廂。",
    ],
}


def _slots(rng: random.Random) -> dict[str, str]:
    # Mostly the true value, sometimes a plausible wrong one: audits are mostly clean logs.
    def pick(true: str, wrong: list[str]) -> str:
        return true if rng.random() < 0.6 else rng.choice(wrong)

    return {
        "days": pick("1-5", ["1 to 7", "7", "3-10", "10", "2-4", "14"]),
        "fee": pick("25", ["15", "20", "30", "35", "50"]),
        "window": pick("30", ["14", "45", "60", "90"]),
        "growth": pick("12.5", ["10.2", "12", "13.5", "15", "9.8"]),
        "revenue": pick("3.2", ["3.0", "3.5", "2.9", "3.4"]),
        "margin": pick("16.4", ["18", "15.1", "17", "20"]),
        "fcf": pick("410", ["400", "450", "380", "500"]),
        "day": pick("28", ["2", "15", "30", "21"]),
        "zh_days": pick("1-5", ["7", "3", "10", "1-3", "5-7"]),
        "twd": pick("3,200", ["2,500", "3,500", "4,000", "3,000"]),
    }


def load_examples() -> dict[str, dict]:
    examples = {}
    for path in sorted(EXAMPLES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        examples[data["id"]] = data
    return examples


def generate_requests(n: int, seed: int = 0, *, malformed_every: int = 0):
    """N requests (dicts; with `malformed_every`, every k-th line is a broken JSON string instead)."""
    rng = random.Random(seed)
    examples = load_examples()
    names = [name for name in TEMPLATES if name in examples]
    for i in range(n):
        if malformed_every and i % malformed_every == malformed_every - 1:
            yield '{"id": "broken-%d", "answer": "Refunds take 5 days", "sources": [' % i
            continue
        base = examples[names[i % len(names)]]
        slots = _slots(rng)
        sentences = TEMPLATES[base["id"]]
        chosen = [s for j, s in enumerate(sentences) if j == 0 or rng.random() < 0.6]
        sep = " " if base["id"].endswith("-en-1") else ""
        yield {
            "id": f"{base['id']}-{i:06d}",
            "question": base["question"],
            "answer": sep.join(s.format(**slots) for s in chosen),
            # Shared sources with global ids: every answer of a kind cites the same documents.
            "sources": [{**s, "id": f"{base['id'].rsplit('-', 1)[0]}/{s['id']}"} for s in base["sources"]],
            "context": base["context"],
        }


def write_jsonl(path: Path, items) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as fh:
        for item in items:
            fh.write((item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)) + "\n")
            count += 1
    return count


def _audit_cmd(inp: Path, out: Path, model: str, summary: Path) -> list[str]:
    return [sys.executable, "-m", "verifier.cli", "audit", str(inp), "-o", str(out), "--model", model,
            "--no-progress", "--summary", str(summary)]


def _peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run(n: int, model: str, seed: int, workdir: Path) -> dict:
    inp, out, summary = workdir / "answers.jsonl", workdir / "reports.jsonl", workdir / "summary.json"
    t = time.perf_counter()
    lines = write_jsonl(inp, generate_requests(n, seed, malformed_every=5000))
    print(f"generated {lines} lines ({inp.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s")

    # First session: kill it with SIGKILL at a random point once it has written something.
    rng = random.Random(seed)
    log = (workdir / "audit.log").open("w")
    proc = subprocess.Popen(_audit_cmd(inp, out, model, summary), cwd=ROOT, stderr=log)
    ckpt = Path(str(out) + ".checkpoint.json")
    kill_after = rng.randint(max(1, lines // 5), max(2, lines * 7 // 10))
    peak = 0.0
    while proc.poll() is None:
        peak = max(peak, _peak_rss_mb(proc.pid))
        done = json.loads(ckpt.read_text()).get("lines", 0) if ckpt.exists() else 0
        if done >= kill_after:
            time.sleep(rng.uniform(0, 2))  # land anywhere between two checkpoints, mid-write included
            os.kill(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.2)
    proc.wait()
    killed_at = json.loads(ckpt.read_text())["lines"] if ckpt.exists() else 0
    with out.open("rb") as fh:
        written = sum(1 for _ in fh)
    print(f"session 1: SIGKILL with {killed_at} lines committed and {written} written (target {kill_after}); "
          f"peak RSS {peak:.0f} MB; exit {proc.returncode}")

    # Second session: same command, resumes.
    proc = subprocess.Popen(_audit_cmd(inp, out, model, summary), cwd=ROOT, stderr=log)
    while proc.poll() is None:
        peak = max(peak, _peak_rss_mb(proc.pid))
        time.sleep(0.5)
    log.close()
    err = (workdir / "audit.log").read_text().strip()
    print(f"session 2: exit {proc.returncode}: {err.splitlines()[-1] if err else ''}")
    stats = json.loads(summary.read_text())

    # Exactly once: every input line number appears once, in order.
    numbers = []
    with out.open(encoding="utf-8") as fh:
        for line in fh:
            numbers.append(json.loads(line)["line"])
    expected = list(range(1, lines + 1))
    exactly_once = numbers == expected
    stats.update(peak_rss_mb_observed=round(max(peak, stats["peak_rss_mb"]), 1), exactly_once=exactly_once,
                 killed_with_committed_lines=killed_at, killed_with_written_lines=written,
                 output_lines=len(numbers))
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--model", default="lexical")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workdir", default=None, help="keep the files here (default: a temp dir)")
    parser.add_argument("--sample", default=None, help="only write the small sample audit file to this path")
    args = parser.parse_args(argv)
    if args.sample:
        items = list(generate_requests(18, seed=3))
        items.insert(6, '{"id": "bad-json", "answer": "Refunds take 5 days", "sources": [')
        items.insert(13, {"id": "missing-answer", "sources": []})
        print(f"{write_jsonl(Path(args.sample), items)} lines -> {args.sample}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        stats = run(args.n, args.model, args.seed, workdir)
    print(json.dumps(stats, indent=2))
    print(f"\n{args.n} answers, model {args.model}: {stats['answers_per_s']:.1f} answers/s, "
          f"cache hit rates claims {stats['cache']['claim_hit_rate']:.1%} segments "
          f"{stats['cache']['segment_hit_rate']:.1%} scores {stats['cache']['score_hit_rate']:.1%}, "
          f"peak RSS {stats['peak_rss_mb_observed']:.0f} MB, exactly once: {stats['exactly_once']}")
    return 0 if stats["exactly_once"] and stats["complete"] else 1


if __name__ == "__main__":
    sys.exit(main())

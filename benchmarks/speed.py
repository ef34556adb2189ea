"""Speed suite: latency, batch throughput, the model's own limit and a naive baseline, one run.

    python -m benchmarks.speed --model default                 # CPU, reduced grid
    python -m benchmarks.speed --model default --device cuda --grid full

- latency of `verify` per answer (p50/p95) for 1, 5, 20 claims x 500, 2,000, 20,000-token sources;
- `verify_batch` throughput (answers/s, claims/s, model pairs/s) and the share of time outside the model;
- the limit: the same model's bare forward pass over the same pairs, length-sorted, best batch size;
- a naive baseline: every claim against every source sentence, padded to max length, unsorted;
  our speed-up on the same answers and the agreement of the supported / not-supported labels.
Texts are built from the policy sentences in `data/` with fresh numbers, so no pair repeats.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from benchmarks.timing import TimedModel
from extractors.tokens import clear_token_cache
from models.base import Pair
from verifier.pipeline import Verifier
from verifier.schema import Source
from verifier.segment import segment_source

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results"
GRIDS = {  # (answers' claims, source tokens, repetitions per cell, batch answers, naive answers)
    # reduced: sized for a loaded 2-core CPU with a real model (about 2,000 model pairs in all)
    "reduced": {"claims": (1, 5, 20), "tokens": (500, 2000, 20000), "reps": 3, "batch": 8, "naive": 1},
    "full": {"claims": (1, 5, 20), "tokens": (500, 2000, 20000), "reps": 10, "batch": 128, "naive": 16},
}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


# -- realistic texts ------------------------------------------------------------------------

def policy_sentences() -> list[str]:
    """English policy sentences from the shipped examples and fixtures (5-40 words)."""
    texts: list[str] = []
    for path in sorted((ROOT / "data" / "examples").glob("*.json")):
        texts += [s["text"] for s in json.loads(path.read_text(encoding="utf-8")).get("sources", [])]
    for path in sorted((ROOT / "data" / "fixtures").glob("*_gold.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("lang", "en") == "en":
                texts += [s["text"] for s in row.get("sources", [])]
    found = {s for t in texts for s in sentences(t)}
    return sorted(s for s in found if 5 <= len(s.split()) <= 40 and s.endswith("."))


def sentences(text: str) -> list[str]:
    """The engine's own sentence segmentation of a source text."""
    return [span.text for span in segment_source(Source(id="s", text=text)).sentences]


def _renumber(sentence: str, rng: random.Random) -> str:
    return _NUMBER.sub(lambda m: str(rng.randint(2, 95)), sentence)


@dataclass
class Case:
    answer: str
    source: str
    claims: int


def make_case(pool: Sequence[str], tokens: int, claims: int, rng: random.Random,
              count_tokens: Callable[[str], int]) -> Case:
    """A source of about `tokens` tokens and an answer of `claims` sentences taken from it,
    a third of them with a changed number (so some are contradicted, as in real drafts)."""
    parts, size = [], 0
    while size < tokens:
        sentence = _renumber(rng.choice(pool), rng)
        parts.append(sentence)
        size += count_tokens(sentence) + 1
    source = " ".join(parts)
    picked = rng.sample(parts, min(claims, len(parts)))
    answer = [(_renumber(s, rng) if i % 3 == 2 else s) for i, s in enumerate(picked)]
    return Case(" ".join(answer), source, claims)


def request(case: Case, rid: str) -> dict[str, Any]:
    return {"id": rid, "answer": case.answer, "sources": [{"id": "S1", "text": case.source}]}


# -- measurements ---------------------------------------------------------------------------

def _sync(device: str) -> None:
    if device.startswith("cuda"):
        import torch

        torch.cuda.synchronize()


def _threads() -> int | None:
    try:
        import torch
    except ImportError:
        return None
    return torch.get_num_threads()


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def latency_cell(verifier: Verifier, timed: TimedModel, cases: Sequence[Case], device: str) -> dict[str, Any]:
    walls, model_s, pairs, claims = [], [], [], []
    for i, case in enumerate(cases):
        timed.reset()
        clear_token_cache()
        _sync(device)
        started = time.perf_counter()
        report = verifier.verify_request(request(case, f"lat{i}"))
        _sync(device)
        walls.append(time.perf_counter() - started)
        model_s.append(timed.seconds)
        pairs.append(timed.pairs)
        claims.append(len(report.claims))
    return {"p50_ms": round(1000 * percentile(walls, 0.5), 1), "p95_ms": round(1000 * percentile(walls, 0.95), 1),
            "pairs": round(statistics.mean(pairs), 1), "claims": round(statistics.mean(claims), 1),
            "outside_model": round(1 - sum(model_s) / sum(walls), 3), "n": len(cases)}


def bare_forward(nli: Any, pairs: Sequence[Pair], batch_sizes: Sequence[int]) -> dict[int, float]:
    """Seconds for the model's forward pass alone over `pairs`, length-sorted, per batch size.

    Tokenisation is done before the clock starts: this is the ceiling for any engine on this model.
    """
    import torch

    order = sorted(pairs, key=lambda p: len(p[0]) + len(p[1]))
    out = {}
    with torch.inference_mode():
        for bs in batch_sizes:
            batches = [nli._encode(order[i: i + bs]).to(nli.device) for i in range(0, len(order), bs)]
            nli.model(**batches[0])  # warm-up (allocations, kernels)
            _sync(nli.device)
            started = time.perf_counter()
            for batch in batches:
                nli.model(**batch).logits.float()
            _sync(nli.device)
            out[bs] = time.perf_counter() - started
    return out


def naive_scores(nli: Any, pairs: Sequence[Pair]) -> tuple[list[float], float]:
    """Entailment per pair the old way: file order, every batch padded to max length. (scores, seconds)"""
    import torch

    entail = [i for i, name in nli.labels.items() if name == "entailment"]
    out: list[float] = []
    _sync(nli.device)
    started = time.perf_counter()
    with torch.inference_mode():
        for i in range(0, len(pairs), nli.batch_size):
            chunk = pairs[i: i + nli.batch_size]
            enc = nli.tokenizer([p for p, _ in chunk], [h for _, h in chunk], truncation="longest_first",
                                max_length=nli.max_length, padding="max_length", return_tensors="pt").to(nli.device)
            probs = torch.softmax(nli.model(**enc).logits.float(), dim=-1)
            out += probs[:, entail].sum(dim=-1).cpu().tolist()
    _sync(nli.device)
    return out, time.perf_counter() - started


def naive_vs_ours(verifier: Verifier, timed: TimedModel, cases: Sequence[Case]) -> dict[str, Any]:
    """Our engine and the all-pairs baseline on the same answers: time and label agreement."""
    nli = timed.inner
    requests = [request(c, f"naive{i}") for i, c in enumerate(cases)]
    started = time.perf_counter()
    reports = verifier.verify_batch(requests)
    ours_s = time.perf_counter() - started
    pairs, owners = [], []
    for ci, (case, report) in enumerate(zip(cases, reports)):
        source_sentences = sentences(case.source)
        for k, claim in enumerate(report.claims):
            pairs += [(s, claim.text) for s in source_sentences]
            owners += [(ci, k)] * len(source_sentences)
    scores, naive_s = naive_scores(nli, pairs)
    best: dict[tuple[int, int], float] = {}
    for owner, score in zip(owners, scores):
        best[owner] = max(best.get(owner, 0.0), score)
    support = verifier.thresholds.support
    ours = [c.label == "supported" for r in reports for c in r.claims]
    naive = [best.get((ci, k), 0.0) >= support for ci, r in enumerate(reports) for k in range(len(r.claims))]
    agree = sum(a == b for a, b in zip(ours, naive))
    return {"answers": len(cases), "claims": len(ours), "naive_pairs": len(pairs), "naive_s": round(naive_s, 2),
            "ours_s": round(ours_s, 2), "speedup": round(naive_s / ours_s, 1) if ours_s else None,
            "label_agreement": round(agree / len(ours), 3) if ours else None,
            "supported_ours": sum(ours), "supported_naive": sum(naive)}


def throughput(verifier: Verifier, timed: TimedModel, cases: Sequence[Case], batch_sizes: Sequence[int]) -> dict:
    pairs_seen: list[Pair] = []
    inner_predict = timed.inner.predict

    def capture(pairs: Sequence[Pair]):
        pairs_seen.extend(pairs)
        return inner_predict(pairs)

    timed.inner.predict = capture  # the limit is measured on exactly the pairs the engine scored
    try:
        timed.reset()
        clear_token_cache()
        _sync(getattr(timed.inner, "device", "cpu"))
        started = time.perf_counter()
        reports = verifier.verify_batch([request(c, f"tp{i}") for i, c in enumerate(cases)])
        _sync(getattr(timed.inner, "device", "cpu"))
        wall = time.perf_counter() - started
    finally:
        del timed.inner.predict
    claims = sum(len(r.claims) for r in reports)
    out: dict[str, Any] = {"answers": len(cases), "claims": claims, "pairs": timed.pairs, "wall_s": round(wall, 3),
                           "answers_per_s": round(len(cases) / wall, 2), "claims_per_s": round(claims / wall, 1),
                           "pairs_per_s": round(timed.pairs / wall, 1), "model_s": round(timed.seconds, 3),
                           "outside_model": round(1 - timed.seconds / wall, 3)}
    if hasattr(timed.inner, "model") and pairs_seen:
        forward = bare_forward(timed.inner, pairs_seen, batch_sizes)
        best_bs = min(forward, key=forward.get)
        out["limit"] = {"batch_sizes_s": {str(k): round(v, 3) for k, v in forward.items()}, "best_batch": best_bs,
                        "pairs_per_s": round(len(pairs_seen) / forward[best_bs], 1)}
        out["fraction_of_limit"] = round(forward[best_bs] / wall, 3)
    return out


# -- the run --------------------------------------------------------------------------------

def run(args: argparse.Namespace, log: Callable[[str], None]) -> dict[str, Any]:
    grid = GRIDS[args.grid]
    device = args.device
    gpu = device.startswith("cuda")
    verifier = Verifier(args.model, device=device, batch_size=args.batch_size or (128 if gpu else None))
    timed = TimedModel(verifier.model)
    verifier.model = timed
    tok = getattr(timed.inner, "tokenizer", None)
    count = (lambda s: len(tok(s, add_special_tokens=False)["input_ids"])) if tok else (lambda s: len(s.split()))
    pool, rng = policy_sentences(), random.Random(args.seed)
    log(f"model {timed.name}@{timed.revision} on {getattr(timed.inner, 'device', 'cpu')}, grid {args.grid}, "
        f"{len(pool)} template sentences")
    verifier.verify_request(request(make_case(pool, 200, 2, rng, count), "warmup"))  # loads lazy pipelines
    result: dict[str, Any] = {"model": timed.name, "revision": timed.revision, "model_arg": args.model,
                              "device": str(getattr(timed.inner, "device", "cpu")),
                              "dtype": str(getattr(timed.inner, "dtype", "-")), "grid": args.grid,
                              "torch_threads": _threads(),
                              "token_unit": "model tokenizer" if tok else "whitespace words", "latency": {}}
    for tokens in grid["tokens"]:
        for claims in grid["claims"]:
            cases = [make_case(pool, tokens, claims, rng, count) for _ in range(grid["reps"])]
            cell = latency_cell(verifier, timed, cases, device)
            result["latency"][f"{claims}x{tokens}"] = cell
            log(f"latency {claims} claims x {tokens} tokens: {cell}")
    cases = [make_case(pool, 2000, 5, rng, count) for _ in range(grid["batch"])]
    sizes = (64, 128, 256, 512) if gpu else (8, 16, 32)
    result["throughput"] = throughput(verifier, timed, cases, sizes)
    log(f"throughput: {result['throughput']}")
    if hasattr(timed.inner, "model"):
        naive_cases = [make_case(pool, 500, 5, rng, count) for _ in range(grid["naive"])]
        result["naive"] = naive_vs_ours(verifier, timed, naive_cases)
        result["naive"]["source_tokens"] = 500
        log(f"naive baseline: {result['naive']}")
    result["issue3"] = result["latency"].get("5x2000")
    return result


def markdown(r: dict[str, Any]) -> str:
    lat = r["latency"]
    sizes = sorted({int(k.split("x")[1]) for k in lat})
    claims = sorted({int(k.split("x")[0]) for k in lat})
    out = [f"# Speed: {r['model']} @ {r['revision']} on {r['device']} ({r['dtype']}, {r['torch_threads']} torch "
           f"threads), grid {r['grid']}, {r['date']}", "",
           f"Latency of `verify` per answer, p50 / p95 ms (pairs scored per answer); sources in {r['token_unit']}.", "",
           "| claims \\ source tokens | " + " | ".join(f"{s:,}" for s in sizes) + " |",
           "|---" * (len(sizes) + 1) + "|"]
    for c in claims:
        cells = [lat[f"{c}x{s}"] for s in sizes]
        out.append(f"| {c} | " + " | ".join(f"{x['p50_ms']:.0f} / {x['p95_ms']:.0f} ({x['pairs']:.0f})" for x in cells) + " |")
    i3 = r.get("issue3")
    if i3:
        out += ["", f"Issue-3 figure: 5-claim answer over 2,000 tokens: p50 {i3['p50_ms']:.0f} ms, p95 {i3['p95_ms']:.0f} ms, "
                    f"{i3['pairs']:.0f} model pairs, {100 * i3['outside_model']:.1f}% of the time outside the model "
                    f"(n={i3['n']})."]
    t = r["throughput"]
    out += ["", f"`verify_batch` of {t['answers']} answers (5 claims, 2,000 tokens): {t['answers_per_s']} answers/s, "
                f"{t['claims_per_s']} claims/s, {t['pairs_per_s']} pairs/s; {100 * t['outside_model']:.1f}% of the "
                f"time outside `model.predict` (target < 10%)."]
    if "limit" in t:
        lim = t["limit"]
        out.append(f"Limit (bare forward, sorted, best batch {lim['best_batch']}): {lim['pairs_per_s']} pairs/s; "
                   f"ours = {100 * t['fraction_of_limit']:.1f}% of it (target >= 85%). Per batch size, s: "
                   f"{lim['batch_sizes_s']}.")
    n = r.get("naive")
    if n:
        out.append(f"Naive baseline (every claim x every sentence, padded to max length) on {n['answers']} answers "
                   f"({n['claims']} claims, {n['source_tokens']} tokens): {n['naive_pairs']} pairs in {n['naive_s']} s "
                   f"vs ours {n['ours_s']} s: speed-up {n['speedup']}x; supported/not labels agree on "
                   f"{100 * n['label_agreement']:.1f}% of claims (supported: ours {n['supported_ours']}, "
                   f"naive {n['supported_naive']}).")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed", description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="default")
    parser.add_argument("--device", default="cpu", help="cpu or cuda (bf16 on GPUs that support it)")
    parser.add_argument("--grid", choices=sorted(GRIDS), default=None, help="default: reduced on CPU, full on GPU")
    parser.add_argument("--batch-size", type=int, default=None, help="model batch size (default: the backend's choice on CPU, 128 on GPU)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args(argv)
    args.grid = args.grid or ("full" if args.device.startswith("cuda") else "reduced")

    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    started = time.perf_counter()
    result = run(args, log)
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["date"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    text = markdown(result)
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"speed-{result['model']}-{result['device']}-{result['grid']}")
    stamp = result["date"][:16].replace(" ", "-").replace(":", "")
    (folder / f"{slug}-{stamp}.md").write_text(text, encoding="utf-8")
    (folder / f"{slug}-{stamp}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(text)
    log(f"wrote {folder / slug}-{stamp}.md/.json in {result['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

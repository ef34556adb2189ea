"""Extraction throughput on ~1 MB of English and ~1 MB of Chinese policy/finance text.

    /work/venv/bin/python benchmarks/extraction_speed.py [--parse-kb 200]

Regex extractors (numbers, dates) run over the full 1 MB per language, single process.
spaCy/LAC parsing and split_claims are statistical and far slower, so they run over the
first --parse-kb kilobytes (default 200) and report rates. Peak memory is the process's
max RSS (resource.getrusage), which includes the loaded models.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from extractors import Analyzer, extract_dates, extract_numbers, split_claims

_ROOT = Path(__file__).resolve().parent.parent
_SIZE = 1_000_000


def corpus(lang_prefix: str) -> str:
    """Deterministic ~1 MB built from the fixture texts, varied by a running counter."""
    texts = []
    for name in ("data/fixtures/claims.jsonl", "data/fixtures/extraction/entities.jsonl"):
        for line in (_ROOT / name).read_text("utf-8").splitlines():
            row = json.loads(line)
            if row["lang"].startswith(lang_prefix):
                texts.append(row.get("answer") or row["text"])
    out, size, i = [], 0, 0
    while size < _SIZE:
        piece = texts[i % len(texts)].replace("1", str(i % 9 + 1), 1)
        out.append(piece)
        size += len(piece) + 1
        i += 1
    return "\n".join(out)


def rate(label: str, n_chars: int, seconds: float, extra: str = "") -> None:
    print(f"{label:<34} {n_chars / seconds:>12,.0f} chars/s  ({n_chars:,} chars in {seconds:.2f}s){extra}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parse-kb", type=int, default=200)
    args = ap.parse_args()
    t = time.perf_counter()
    analyzer = Analyzer()
    analyzer.english, analyzer.chinese  # noqa: B018 - load both pipelines now, timed
    print(f"pipeline load (spaCy en + jieba/LAC zh): {time.perf_counter() - t:.2f}s")
    for lang, prefix in (("English", "en"), ("Chinese", "zh")):
        text = corpus(prefix)
        print(f"--- {lang}: {len(text):,} chars")
        for name, fn in (("numbers", extract_numbers), ("dates", extract_dates)):
            t = time.perf_counter()
            facts = fn(text)
            rate(f"{name} (regex)", len(text), time.perf_counter() - t, f", {len(facts):,} facts")
        sample = text[: args.parse_kb * 1000]
        spans = analyzer.sentences(sample)
        t = time.perf_counter()
        for _ in analyzer.parse_spans(sample, spans):
            pass
        rate("spaCy en" if prefix == "en" else "jieba+LAC zh", len(sample), time.perf_counter() - t)
        t = time.perf_counter()
        claims = split_claims(sample, analyzer=analyzer)
        dt = time.perf_counter() - t
        rate("split_claims", len(sample), dt, f", {len(claims) / dt:,.0f} claims/s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:,.0f} MiB")


if __name__ == "__main__":
    main()

"""Extraction throughput on ~1 MB of English and ~1 MB of Chinese policy/finance text.

    /work/venv/bin/python benchmarks/extraction_speed.py [--parse-kb 200]

Regex extractors (numbers, dates) run over the full 1 MB per language, single process.
spaCy/LAC parsing and split_claims are statistical and far slower, so they run over the
first --parse-kb kilobytes (default 200; 1000 for the full text) and report rates. Rates
are given per CPU second (one core's throughput, stable on a shared machine) and per wall
second. Peak memory is the process's max RSS (resource.getrusage), models included.
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


class Timer:
    """CPU seconds (what one core delivers, robust to a shared machine) and wall seconds."""

    def __enter__(self) -> "Timer":
        self.cpu, self.wall = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.cpu = time.process_time() - self.cpu
        self.wall = time.perf_counter() - self.wall


def rate(label: str, n_chars: int, t: Timer, extra: str = "") -> None:
    print(
        f"{label:<16} {n_chars / t.cpu:>10,.0f} chars/CPU-s {n_chars / t.wall:>10,.0f} chars/wall-s"
        f"  ({n_chars:,} chars, {t.cpu:.1f} CPU-s, {t.wall:.1f} wall-s){extra}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parse-kb", type=int, default=200)
    args = ap.parse_args()
    analyzer = Analyzer()
    with Timer() as t:
        analyzer.english  # noqa: B018 - properties load the pipelines; timed here
    print(f"load spaCy en_core_web_sm: {t.cpu:.2f} CPU-s, {t.wall:.2f} wall-s")
    with Timer() as t:
        analyzer.parse("预热：加载结巴词典与 LAC 模型。", "zh")
    print(f"load jieba + LAC (first zh parse): {t.cpu:.2f} CPU-s, {t.wall:.2f} wall-s")
    for lang, prefix in (("English", "en"), ("Chinese", "zh")):
        text = corpus(prefix)
        print(f"--- {lang}: {len(text):,} chars")
        for name, fn in (("numbers", extract_numbers), ("dates", extract_dates)):
            with Timer() as t:
                facts = fn(text)
            rate(name, len(text), t, f", {len(facts):,} facts")
        sample = text[: args.parse_kb * 1000]
        with Timer() as t:
            for _ in analyzer.parse_spans(sample, analyzer.sentences(sample)):
                pass
        rate("spaCy en" if prefix == "en" else "jieba+LAC zh", len(sample), t)
        with Timer() as t:
            claims = split_claims(sample, analyzer=analyzer)
        rate("split_claims", len(sample), t, f", {len(claims) / t.cpu:,.0f} claims/CPU-s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:,.0f} MiB")


if __name__ == "__main__":
    main()

"""Loaders for the shared evaluation sets, each turned into engine requests plus gold labels.

The data live outside the repo (`../shared/data`, or `$VERIFIER_BENCH_DATA`) and are for
evaluation only (FaithBench and OCNLI are non-commercial): nothing here copies them.
Every loader returns the whole set in file order; `sample` draws a seeded subset.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence, TypeVar

T = TypeVar("T")


def data_dir() -> Path:
    env = os.environ.get("VERIFIER_BENCH_DATA")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def request(rid: str, answer: str, sources: Sequence[str]) -> dict[str, Any]:
    """An engine request: the text to check as the answer, each source as one document."""
    return {"id": rid, "answer": answer, "sources": [{"id": f"s{i + 1}", "text": s} for i, s in enumerate(sources)]}


# -- LLM-AggreFact rows (WiCE, Factcheck-GPT): claim as the answer, doc as one source -------

@dataclass(frozen=True)
class AggreFactRow:
    id: str
    doc: str
    claim: str
    label: int  # 1 = supported

    def request(self) -> dict[str, Any]:
        return request(self.id, self.claim, [self.doc])


def load_aggrefact(name: str, root: Path | None = None) -> list[AggreFactRow]:
    """`wice-test`, `wice-dev` or `factcheck-gpt`, as built by the shared `aggrefact_subsets.py`."""
    rows = _jsonl((root or data_dir()) / f"{name}.jsonl")
    return [AggreFactRow(str(r["id"]), r["doc"], r["claim"], int(r["label"])) for r in rows]


# -- OCNLI dev: premise as the source, hypothesis as the answer -----------------------------

@dataclass(frozen=True)
class NLIPair:
    id: str
    premise: str
    hypothesis: str
    label: str  # entailment | neutral | contradiction

    def request(self) -> dict[str, Any]:
        return request(self.id, self.hypothesis, [self.premise])


def load_ocnli(root: Path | None = None) -> list[NLIPair]:
    """The 2,950 dev pairs with a majority label (upstream says to drop the 50 marked '-')."""
    rows = _jsonl((root or data_dir()) / "ocnli" / "dev.json")
    return [NLIPair(f"ocnli-{r['id']}", r["sentence1"], r["sentence2"], r["label"]) for r in rows if r["label"] != "-"]


# -- UHGEval: an LLM continuation checked against the article, keywords as span labels ------

@dataclass(frozen=True)
class Keyword:
    start: int
    end: int
    bad: bool  # 不合理


@dataclass(frozen=True)
class UHGItem:
    id: str
    article: str  # newsBeginning + newsRemainder with the real continuation cut out
    continuation: str  # the hallucinated continuation, stripped
    real: str  # the real next sentence, stripped
    keywords: tuple[Keyword, ...]
    type: str

    def requests(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """(hallucinated continuation, real continuation) against the same article."""
        return request(self.id + "-llm", self.continuation, [self.article]), request(self.id + "-real", self.real,
                                                                                     [self.article])


def _keywords(text: str, annotations: Sequence[str]) -> tuple[Keyword, ...]:
    out, cursor = [], 0
    for note in annotations:
        word, _, judgement = note.partition("<sep>")
        at = text.find(word, cursor)
        if at < 0:
            at = text.find(word)  # annotations are mostly, not always, in reading order
        if not word or at < 0:
            continue
        out.append(Keyword(at, at + len(word), judgement.startswith("不合理")))
        cursor = at + len(word)
    return tuple(out)


def load_uhgeval(root: Path | None = None) -> list[UHGItem]:
    items = []
    for r in _jsonl((root or data_dir()) / "uhgeval" / "dataset_uhgeval_concise.jsonl"):
        remainder = r["newsRemainder"]
        if remainder.startswith(r["realContinuation"]):
            # The real next sentence must not sit in the source, or checking it would be trivial.
            remainder = remainder[len(r["realContinuation"]):]
        continuation = r["hallucinatedContinuation"].strip()
        items.append(UHGItem(r["id"], (r["newsBeginning"].strip() + "\n" + remainder.strip()).strip(), continuation,
                             r["realContinuation"].strip(), _keywords(continuation, r["annotations"]), r["type"]))
    return items


# -- FaithBench: summary vs source, annotated unwanted spans --------------------------------

@dataclass(frozen=True)
class FaithItem:
    id: str
    source: str
    summary: str
    unwanted: tuple[tuple[int, int], ...]  # summary spans any annotator marked Unwanted (merged over annotators)
    other: int  # Benign / Questionable annotations (not counted as unfaithful)
    annotated: bool = field(default=False)

    @property
    def unfaithful(self) -> bool:
        return bool(self.unwanted)

    def request(self) -> dict[str, Any]:
        return request(self.id, self.summary, [self.source])


def load_faithbench(root: Path | None = None) -> list[FaithItem]:
    folder = (root or data_dir()) / "faithbench" / "data_for_release"
    items = []
    for path in sorted(folder.glob("batch_*.json"), key=lambda p: int(p.stem.split("_")[1])):
        for s in json.loads(path.read_text(encoding="utf-8"))["samples"]:
            unwanted, other = set(), 0
            for a in s["annotations"]:
                if any(str(label).startswith("Unwanted") for label in a["label"]):
                    if a.get("summary_start") is not None:
                        unwanted.add((int(a["summary_start"]), int(a["summary_end"])))
                else:
                    other += 1
            items.append(FaithItem(f"faithbench-{s['sample_id']}", s["source"], s["summary"],
                                   tuple(sorted(unwanted)), other, bool(s["annotations"])))
    return items


def sample(items: Sequence[T], limit: int | None, seed: int) -> list[T]:
    """A seeded random subset of `limit` items in file order (all items when limit is None)."""
    if limit is None or limit >= len(items):
        return list(items)
    keep = sorted(random.Random(seed).sample(range(len(items)), limit))
    return [items[i] for i in keep]

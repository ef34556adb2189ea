"""Training pairs for the default claim-verification cross-encoder.

Builds (evidence, claim, label) pairs, label in {entailment, neutral,
contradiction}, from ``shared/data/train`` only (see its README for licences):

* English NLI / verification sets (SNLI via e-SNLI, CAD-SNLI, TaxiNLI, ConjNLI,
  Breaking NLI capped, AmbiEnt single-label + disambiguations, Symmetric FEVER,
  BEGIN);
* SYNTHETIC pairs (``models.data_synth``) from reading-comprehension passages (CMRC2018, DRCD
  (Traditional), CMRC2019 (filled cloze), XQuAD en + zh, HalluQA): the answer
  sentence (or a QA-derived declarative claim) against a 1-3 sentence window
  or the passage = entailment; the same claim with the answer swapped for
  another same-type span, a changed number/year, a year taken from elsewhere
  in the passage ("merged years"), or a negation = contradiction; a sentence
  from outside the evidence window / another paragraph, or the claim with an
  extra detail appended = neutral.

The evaluation sets (wice, factcheck-gpt, faithbench, uhgeval, ocnli) are
never read here.  Output is deterministic for a seed and is written to a cache
directory (default ``~/.cache/verifier/traindata``), never to the repo.

    python -m models.data [--seed 13] [--out DIR] [--en-nli 17000] [--synth-per-q 3]
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import random
from collections import Counter, defaultdict
from pathlib import Path

from models.data_synth import load_passages, synth_from_passages, synth_halluqa, xquad_crosslingual
from models.data_text import _jsonl, _pair, detok

LABELS = ["entailment", "neutral", "contradiction"]
# 2-way negatives (MED "neutral", SummEdits 0) mix neutral with contradiction;
# the trainer scores them against P(neutral) + P(contradiction).
NOT_ENTAILMENT = "not_entailment"
FORBIDDEN = ("wice", "factcheck-gpt", "faithbench", "uhgeval", "ocnli")


def data_root() -> Path:
    env = os.environ.get("VERIFIER_TRAIN_DATA")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parents[1]
    for cand in (here.parent / "shared/data/train", here / "shared/data/train", Path("/work/shared/data/train")):
        if cand.exists():
            return cand
    raise FileNotFoundError("shared/data/train not found; set VERIFIER_TRAIN_DATA")


def cache_dir() -> Path:
    return Path(os.environ.get("VERIFIER_CACHE", Path.home() / ".cache/verifier")) / "traindata"


# ----------------------------- English NLI -------------------------------

def _tsv(path: Path, enc="utf-8"):
    with open(path, encoding=enc, newline="") as fh:
        yield from csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)


def load_english_nli(root: Path) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    seen = set()

    def add(name, p, h, lab):
        p, h = detok(p), detok(h)
        if lab not in LABELS + [NOT_ENTAILMENT] or not p or not h or (p, h) in seen:
            return
        seen.add((p, h))
        out[name].append(_pair(p, h, lab, name))

    for sp in ("dev", "test"):
        for r in _jsonl(root / f"esnli_snli_devtest/snli_{sp}_esnli.jsonl"):
            add("snli", r["premise"], r["hypothesis"], r["label"])
    for sub in ("original", "revised_premise", "revised_hypothesis"):
        for sp in ("train", "dev", "test"):
            f = root / f"cad_snli/{sub}/{sp}.tsv"
            if f.exists():
                for r in _tsv(f):
                    add("cad_snli", r["sentence1"], r["sentence2"], r["gold_label"])
    for r in _tsv(root / "taxinli/taxinli10k.tsv"):
        add("taxinli", r["prem"], r["hyp"], r["label"])
    for f in ("adversarial_train_15k.tsv", "conj_dev.tsv"):
        for r in _tsv(root / f"conjnli/{f}", enc="utf-8-sig"):
            add("conjnli", r["Premise"], r["Hypothesis"], r["Label"])
    for r in _jsonl(root / "breaking_nli/dataset.jsonl"):
        add("breaking_nli", r["sentence1"], r["sentence2"], r["gold_label"])
    for sp in ("dev", "test"):
        for r in _jsonl(root / f"ambient/{sp}.jsonl"):
            labs = [x.strip() for x in r["labels"].split(",")]
            if len(labs) == 1:
                add("ambient", r["premise"], r["hypothesis"], labs[0])
            for d in r.get("disambiguations") or []:
                add("ambient", d["premise"], d["hypothesis"], d["label"])
    fmap = {"SUPPORTS": "entailment", "REFUTES": "contradiction"}
    for sp in ("dev", "test"):
        for r in _jsonl(root / f"fever_symmetric/symmetric_v0.2/fever_symmetric_{sp}.jsonl"):
            add("fever_symmetric", r["evidence"], r["claim"], fmap.get(r.get("gold_label") or r["label"], ""))
    for r in _tsv(root / "med/MED.tsv"):
        add("med", r["sentence1"], r["sentence2"],
            {"entailment": "entailment", "neutral": NOT_ENTAILMENT}.get(r["gold_label"], ""))
    for f in sorted((root / "summedits_sales").glob("*.json")):
        for r in json.loads(f.read_text(encoding="utf-8")):
            add("summedits", r["doc"].strip(), r["summary"], {"1": "entailment", "0": NOT_ENTAILMENT}.get(str(r["label"]), ""))
    bmap = {"Fully attributable": "entailment", "Not fully attributable": "neutral"}
    for f in sorted((root / "begin").rglob("*.tsv")):
        for r in _tsv(f):
            add("begin", r["knowledge"], r["response"], bmap.get(r["begin_label"], ""))
    return out


# --------------------------------- build ---------------------------------

DEFAULT_CAPS = {"snli": 5000, "cad_snli": 3500, "taxinli": 5000, "conjnli": 3000, "breaking_nli": 800,
                "ambient": 1000, "fever_symmetric": 1420, "begin": 1800, "med": 0, "summedits": 0}
# The GPU recipe (models.train_gpu) can afford every pair: only the skewed
# Breaking NLI (87% contradiction) stays capped.
FULL_CAPS = {"breaking_nli": 2500}


def build(seed: int = 13, caps: dict | None = None, per_q: int = 3, zh_cap: int = 17000, en_synth_cap: int = 4000,
          xling: int = 600) -> list[dict]:
    root = data_root()
    for bad in FORBIDDEN:
        assert bad not in str(root).split("/")[-1]
    rng = random.Random(seed)
    caps = dict(DEFAULT_CAPS if caps is None else caps)
    pairs = []
    en = load_english_nli(root)
    for name in sorted(en):
        if caps.get(name) == 0:
            continue
        rows = en[name]
        rng.shuffle(rows)
        pairs += rows[:caps.get(name, len(rows))]
    passages = load_passages(root)
    synth = synth_from_passages(passages, rng, per_q=per_q)
    zh = [p for p in synth if p["lang"] == "zh"]
    en_s = [p for p in synth if p["lang"] == "en"]
    rng.shuffle(zh)
    rng.shuffle(en_s)
    pairs += zh[:zh_cap] + en_s[:en_synth_cap]
    pairs += synth_halluqa(root, rng)
    pairs += xquad_crosslingual(root, rng, xling)
    pairs = [p for p in pairs if p["label"] in LABELS + [NOT_ENTAILMENT] and p["claim"] and p["evidence"]]
    rng.shuffle(pairs)
    return pairs


def sample_raw_texts(seed: int = 0) -> list[str]:
    """Raw sentences/passages (EN, zh-Hans, zh-Hant) for tokenizer checks."""
    root = data_root()
    texts = []
    for name, rows in load_english_nli(root).items():
        texts += [r["evidence"] for r in rows[:1500]] + [r["claim"] for r in rows[:500]]
    for p in load_passages(root):
        texts.append(p["context"])
        texts += [q for q, _, _ in p["qas"][:2]]
    return texts


def write(pairs: list[dict], out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    f = out / "pairs.jsonl"
    with open(f, "w", encoding="utf-8") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    return f


def load_pairs(path: Path) -> list[dict]:
    return list(_jsonl(path))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", default=None)
    ap.add_argument("--per-q", type=int, default=3)
    ap.add_argument("--zh-cap", type=int, default=17000)
    ap.add_argument("--en-synth-cap", type=int, default=4000)
    ap.add_argument("--full", action="store_true",
                    help="the GPU recipe's mix: every English pair (FULL_CAPS), MED, SummEdits; use with larger synth caps")
    ap.add_argument("--xling", type=int, default=600)
    a = ap.parse_args(argv)
    pairs = build(a.seed, caps=FULL_CAPS if a.full else None, per_q=a.per_q, zh_cap=a.zh_cap,
                  en_synth_cap=a.en_synth_cap, xling=a.xling)
    out = Path(a.out) if a.out else cache_dir() / f"seed{a.seed}"
    f = write(pairs, out)
    c = Counter((p["lang"], p["label"]) for p in pairs)
    src = Counter(p["source"].split(":")[0] for p in pairs)
    kinds = Counter(p["source"].split(":")[1] for p in pairs if ":" in p["source"])
    print(f"{len(pairs)} pairs -> {f}")
    print(sorted(c.items()))
    print(sorted(src.items()))
    print(sorted(kinds.items()))
    h = hashlib.sha256(f.read_bytes()).hexdigest()
    print("sha256", h)


if __name__ == "__main__":
    main()

"""Training pairs from our own hand-labelled answers (in-domain data for the default model).

The licensed training data is captions, fiction and Wikipedia; our users' sources are
company policies, price lists and releases, and the model under-reads their paraphrases
("free of charge" / "without penalty"). The gold sets in `data/fixtures/` are such answers,
labelled claim by claim. This turns the sets named on the command line into pairs exactly
as the engine shows them to the model: the engine's own claims, candidate spans and model
text (`PreparedAnswer.pairs`).

Which candidate gets which label (a gold claim has a label, not a source span):
- supported: the most relevant current candidate is entailment (the others are unknown);
- unsupported: every candidate is neutral (no source says it), except in buckets where the
  label comes from metadata, not text (`superseded_only`: the text does support it);
- contradicted with `values`: candidates stating the source's value are contradiction;
  without `values` (a negation, a reversed rule), the most relevant candidate is;
- partial, and gold claims the engine splits into several claims, are left out: which part
  is wrong is not recorded.

Sets used here are training data from then on: their figures are no longer a measurement,
unless `--odd-only` takes only their odd-numbered cases (the half opened while tuning the
engine) and leaves the even half held out. `--file` adds labelled answers written for
training only, in the same format.

    python -m models.data_gold --sets engine,engine_b,decision,decision_b --repeat 2 \
        --replay ~/.cache/verifier/traindata/full13/pairs.jsonl --replay-n 4000 --out PAIRS.jsonl
    python -m models.data_gold --sets engine,engine_b,... --odd-only --file data/train/train_t1.jsonl \
        --repeat 2 --replay ~/.cache/verifier/traindata/full13/pairs.jsonl --out PAIRS.jsonl

`--replay` mixes in a seeded sample of the original training pairs, so a short fine-tune on
the few hundred in-domain pairs does not forget the rest.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Sequence

from verifier.canonical import model_pair

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "fixtures"
# Every gold file by its benchmark name: engine_gold_c.jsonl is "engine_c", decision_gold.jsonl "decision".
SETS = {f.stem.replace("_gold", ""): f.name for f in sorted(FIXTURES.glob("*_gold*.jsonl"))}
TEXT_LABEL_UNKNOWN = {"superseded_only"}  # the gold label is about metadata, not about what the text says
NLI = {"supported": "entailment", "unsupported": "neutral", "contradicted": "contradiction"}


def _has_value(text: str, value: str) -> bool:
    return value.replace(" ", "") in text.replace(" ", "")


def pairs_for_case(verifier, case: dict, name: str) -> list[dict]:
    if case.get("bucket") in TEXT_LABEL_UNKNOWN:
        return []
    prepared = verifier.prepare(case)
    answer, out = case["answer"], []
    for expected in case["expected"].get("claims", []):
        label = NLI.get(expected["label"])
        start = answer.find(expected["span"])
        end = start + len(expected["span"])
        engine_claims = [c for c in prepared.claims if c.start < end and start < c.end]
        if label is None or start < 0 or not engine_claims:
            continue
        if label != "entailment" and len(engine_claims) > 1:
            continue
        for claim in engine_claims:
            cands = prepared.candidates[prepared.claims.index(claim)]
            current = [c for c in cands if prepared.sources[c.source_index].current]
            if label == "neutral":
                chosen = cands
            elif label == "contradiction" and expected.get("values"):
                chosen = [c for c in current if _has_value(c.span.text, expected["values"][1])]
            else:
                chosen = [max(current, key=lambda c: c.relevance)] if current else []
            for c in chosen:
                evidence, hypothesis = model_pair(c.span, claim.text, claim.facts)
                out.append({"evidence": evidence, "claim": hypothesis, "label": label,
                            "source": f"gold:{name}", "lang": "zh" if case.get("lang", "en").startswith("zh") else "en",
                            "case": case["id"]})
    return out


def build(sets: list[str], files: Sequence[str | Path] = (), odd_only: bool = False) -> list[dict]:
    """Pairs of the named gold sets (only their odd-numbered cases with `odd_only`, so the
    even half stays a held-out measurement) and of every case in `files`."""
    from verifier import Verifier

    verifier = Verifier("lexical")  # only `prepare` runs: claims, spans and candidates need no model
    inputs = [(name, FIXTURES / SETS[name], odd_only) for name in sets]
    inputs += [(Path(f).stem, Path(f), False) for f in files]
    pairs: list[dict] = []
    seen: set[tuple[str, str]] = set()
    for name, path, keep_odd_only in inputs:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for index, line in enumerate(lines):
            if keep_odd_only and index % 2 == 0:
                continue
            for p in pairs_for_case(verifier, json.loads(line), name):
                if (p["evidence"], p["claim"]) not in seen:
                    seen.add((p["evidence"], p["claim"]))
                    pairs.append(p)
    return pairs


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default="engine,engine_b,decision,decision_b",
                    help=f"comma-separated, from {', '.join(SETS)}")
    ap.add_argument("--odd-only", action="store_true",
                    help="take only the odd-numbered (0-based) cases of --sets; the even half stays held out")
    ap.add_argument("--file", action="append", default=[],
                    help="another labelled-answers file in the gold format (repeatable), all of it")
    ap.add_argument("--repeat", type=int, default=1, help="times each gold pair appears")
    ap.add_argument("--replay", default=None, help="pairs.jsonl of the original mix (models.data)")
    ap.add_argument("--replay-n", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    sets = [s.strip() for s in a.sets.split(",") if s.strip()]
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        ap.error(f"--sets: unknown {unknown}; choose from {list(SETS)}")
    missing = [f for f in a.file if not Path(f).is_file()]
    if missing:
        ap.error(f"--file: no such file {missing}")
    pairs = build(sets, a.file, a.odd_only) * a.repeat
    if a.replay:
        from models.data import load_pairs

        pool = load_pairs(Path(a.replay).expanduser())
        pairs += random.Random(a.seed).sample(pool, min(a.replay_n, len(pool)))
    random.Random(a.seed).shuffle(pairs)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    with open(a.out, "w", encoding="utf-8") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    print(f"{len(pairs)} pairs -> {a.out}")
    print(sorted(Counter((p["source"], p["label"]) for p in pairs).items()))


if __name__ == "__main__":
    main()

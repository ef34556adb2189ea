"""Quick evaluation of the default model (or any BertForSequenceClassification dir).

* WiCE dev/test (``shared/data/wice-*.jsonl``): the doc is split into
  ~3-sentence windows (stride 2); score = max P(entailment) over windows;
  balanced accuracy at 0.5 and at the threshold tuned on WiCE dev.
* Factcheck-GPT pool (``shared/data/factcheck-gpt.jsonl``): same, seeded sample.
* OCNLI dev (``shared/data/ocnli/dev.json``): entailment-vs-rest balanced
  accuracy (P(entailment) > 0.5) and 3-way accuracy (argmax).
* speed: pairs/s at batch 32, 128 tokens, fp32 and bf16 autocast.

    python -m models.evaluate [--model DIR] [--wice-n 0] [--fc-n 600] [--ocnli-n 1000] [--seed 0] [--speed]
"""
from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np
import torch

from models.data_text import split_sents
from models.train import encode_pairs, pad


def shared_data() -> Path:
    here = Path(__file__).resolve().parents[1]
    for c in (here.parent / "shared/data", here / "shared/data", Path("/work/shared/data")):
        if c.exists():
            return c
    raise FileNotFoundError("shared/data not found")


def score_pairs(model, tok, evidences, claims, batch=32, max_len=128, bf16=False) -> np.ndarray:
    """Softmax probabilities [N, 3] (id2label order) for (evidence, claim) pairs."""
    enc = encode_pairs(tok, [{"evidence": e, "claim": c} for e, c in zip(evidences, claims)], max_len, 96)
    order = sorted(range(len(enc)), key=lambda i: len(enc[i]))
    out = np.zeros((len(enc), model.config.num_labels), dtype=np.float32)
    pad_id = tok.pad_token_id
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        for s in range(0, len(order), batch):
            b = order[s:s + batch]
            ids, mask = pad([enc[i] for i in b], pad_id)
            logits = model(input_ids=ids, attention_mask=mask).logits.float()
            out[b] = torch.softmax(logits, -1).numpy()
    return out


def windows(doc: str, size=3, stride=2, max_chars=1200) -> list[str]:
    sents = [doc[s:e].strip() for s, e in split_sents(doc)]
    sents = [s for s in sents if s]
    if not sents:
        return [doc[:max_chars]]
    out = []
    for i in range(0, max(1, len(sents) - size + stride), stride):
        w = " ".join(sents[i:i + size])[:max_chars]
        if w:
            out.append(w)
    return out or [doc[:max_chars]]


def doc_scores(model, tok, rows, bf16=False, max_len=128, whole=False) -> np.ndarray:
    """max P(entailment) over ~3-sentence windows (plus the whole doc, truncated, if ``whole``)."""
    evs, cls, owner = [], [], []
    for k, r in enumerate(rows):
        ws = windows(r["doc"])
        if whole and len(ws) > 1:
            ws = ws + [r["doc"]]
        for w in ws:
            evs.append(w)
            cls.append(r["claim"])
            owner.append(k)
    p = score_pairs(model, tok, evs, cls, bf16=bf16, max_len=max_len)[:, 0]
    best = np.zeros(len(rows), dtype=np.float32)
    for k, v in zip(owner, p):
        best[k] = max(best[k], v)
    return best


def rates(y, pred) -> dict:
    y, pred = np.asarray(y), np.asarray(pred)
    return {"tpr": float((pred[y == 1] == 1).mean()), "tnr": float((pred[y == 0] == 0).mean())}


def bacc(y, pred) -> float:
    y, pred = np.asarray(y), np.asarray(pred)
    tpr = (pred[y == 1] == 1).mean() if (y == 1).any() else 0.0
    tnr = (pred[y == 0] == 0).mean() if (y == 0).any() else 0.0
    return float(100 * (tpr + tnr) / 2)


def best_threshold(y, s) -> float:
    grid = np.round(np.arange(0.01, 1.0, 0.01), 2)
    return float(max(grid, key=lambda t: (bacc(y, s > t), -abs(t - 0.5))))


def _jsonl(p):
    return [json.loads(l) for l in open(p, encoding="utf-8") if l.strip()]


def _sample(rows, n, seed):
    if n and n < len(rows):
        rows = random.Random(seed).sample(rows, n)
    return rows


def speed(model, tok, bf16: bool, n_batches=3, batch=32, L=128) -> float:
    ids = torch.randint(5, 1000, (batch, L))
    mask = torch.ones_like(ids)
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        model(input_ids=ids, attention_mask=mask)
        t = time.time()
        for _ in range(n_batches):
            model(input_ids=ids, attention_mask=mask)
    return batch * n_batches / (time.time() - t)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=None, help="model dir (default: models.embedded.default_model_path())")
    ap.add_argument("--wice-n", type=int, default=0, help="sample size per WiCE split (0 = all)")
    ap.add_argument("--fc-n", type=int, default=600)
    ap.add_argument("--ocnli-n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bf16", action="store_true")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--whole", action="store_true", help="also score the whole doc (truncated) as one window")
    ap.add_argument("--only", default="wice,fc,ocnli")
    ap.add_argument("--out", default=None, help="write results JSON here")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    if a.model:
        path = Path(a.model)
    else:
        from models.embedded import default_model_path

        path = default_model_path()
    tok = AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(path, local_files_only=True).eval()
    assert model.config.id2label[0] == "entailment"
    D = shared_data()
    res = {"model": str(path), "bf16": a.bf16, "seed": a.seed}
    only = set(a.only.split(","))
    t0 = time.time()
    if "wice" in only:
        dev = _sample(_jsonl(D / "wice-dev.jsonl"), a.wice_n, a.seed)
        test = _sample(_jsonl(D / "wice-test.jsonl"), a.wice_n, a.seed)
        sd = doc_scores(model, tok, dev, a.bf16, a.max_len, a.whole)
        st = doc_scores(model, tok, test, a.bf16, a.max_len, a.whole)
        yd = [r["label"] for r in dev]
        yt = [r["label"] for r in test]
        thr = best_threshold(yd, sd)
        res["wice"] = {"n_dev": len(dev), "n_test": len(test), "dev_bacc@0.5": bacc(yd, sd > 0.5),
                       "test_bacc@0.5": bacc(yt, st > 0.5), "dev_threshold": thr,
                       "test_bacc@dev_thr": bacc(yt, st > thr), "test_rates@0.5": rates(yt, st > 0.5)}
        print(json.dumps(res["wice"]), f"{time.time() - t0:.0f}s", flush=True)
    else:
        thr = 0.5
    if "fc" in only:
        fc = _sample(_jsonl(D / "factcheck-gpt.jsonl"), a.fc_n, a.seed)
        s = doc_scores(model, tok, fc, a.bf16, a.max_len, a.whole)
        y = [r["label"] for r in fc]
        res["factcheck_gpt"] = {"n": len(fc), "bacc@0.5": bacc(y, s > 0.5), "bacc@wice_dev_thr": bacc(y, s > thr),
                                "rates@0.5": rates(y, s > 0.5),
                                "best_thr_on_this_sample(optimistic)": best_threshold(y, s)}
        print(json.dumps(res["factcheck_gpt"]), f"{time.time() - t0:.0f}s", flush=True)
    if "ocnli" in only:
        rows = [r for r in _jsonl(D / "ocnli/dev.json") if r["label"] in ("entailment", "neutral", "contradiction")]
        rows = _sample(rows, a.ocnli_n, a.seed)
        p = score_pairs(model, tok, [r["sentence1"] for r in rows], [r["sentence2"] for r in rows], bf16=a.bf16,
                        max_len=a.max_len)
        lab = {"entailment": 0, "neutral": 1, "contradiction": 2}
        y = np.array([lab[r["label"]] for r in rows])
        res["ocnli_dev"] = {"n": len(rows), "ent_vs_rest_bacc@0.5": bacc((y == 0).astype(int), p[:, 0] > 0.5),
                            "rates@0.5": rates((y == 0).astype(int), p[:, 0] > 0.5),
                            "pred_dist": np.bincount(p.argmax(1), minlength=3).tolist(),
                            "acc_3way": float(100 * (p.argmax(1) == y).mean())}
        print(json.dumps(res["ocnli_dev"]), f"{time.time() - t0:.0f}s", flush=True)
    if a.speed:
        res["speed_pairs_per_s_b32_L128"] = {"fp32": speed(model, tok, False), "bf16": speed(model, tok, True),
                                             "threads": a.threads}
        print(json.dumps(res["speed_pairs_per_s_b32_L128"]), flush=True)
    print(json.dumps(res, indent=1))
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()

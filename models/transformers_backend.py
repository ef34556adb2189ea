"""Any sequence-classification NLI checkpoint from a local folder or the local HF cache."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from models.base import ModelLoadError, NLIScores, Pair

ENTAILMENT, NEUTRAL, CONTRADICTION = "entailment", "neutral", "contradiction"

# Label names seen in public NLI/verification checkpoints, mapped onto our three classes.
_LABEL_ALIASES = {
    "entailment": ENTAILMENT, "entails": ENTAILMENT, "supported": ENTAILMENT, "supports": ENTAILMENT,
    "consistent": ENTAILMENT, "factual": ENTAILMENT, "true": ENTAILMENT,
    "neutral": NEUTRAL, "not_entailment": NEUTRAL, "non_entailment": NEUTRAL, "not-entailment": NEUTRAL,
    "unsupported": NEUTRAL, "not_supported": NEUTRAL, "nei": NEUTRAL, "inconsistent": NEUTRAL,
    "hallucinated": NEUTRAL,
    "contradiction": CONTRADICTION, "contradicts": CONTRADICTION, "refutes": CONTRADICTION,
    "contradicted": CONTRADICTION, "refuted": CONTRADICTION,
}


def label_map_from_config(id2label: dict, override: dict[str, str] | None = None) -> dict[int, str]:
    """Map each output index to entailment/neutral/contradiction, from config.id2label.

    2-way models (entailment vs not) are fine: their second class counts as neutral.
    """
    mapping: dict[int, str] = {}
    for index, name in id2label.items():
        raw = str(name)
        key = (override or {}).get(raw) or _LABEL_ALIASES.get(raw.strip().lower())
        if key is None:
            raise ModelLoadError(
                f"cannot tell what label {raw!r} (index {index}) means; pass a label map for this model "
                f"in the registry, e.g. {{'{raw}': 'entailment'}}"
            )
        mapping[int(index)] = key
    if ENTAILMENT not in mapping.values():
        raise ModelLoadError(f"the model's labels {dict(id2label)} have no entailment class")
    return mapping


def pick_device(device: str) -> str:
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return device


class TransformersNLIModel:
    """Length-sorted batches with dynamic padding; truncation cuts the evidence, never the claim."""

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        device: str = "auto",
        batch_size: int | None = None,
        max_length: int = 256,
        label_map: dict[str, str] | None = None,
        name: str | None = None,
        revision: str | None = None,
    ) -> None:
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        location = str(path)
        if Path(location).expanduser().exists():
            location = str(Path(location).expanduser())
        elif "/" not in location or location.startswith((".", "/", "~")):
            raise ModelLoadError(
                f"model folder {location!r} does not exist. Give a local folder with config.json, the weights "
                "and a tokenizer (e.g. saved with save_pretrained), a model id already in the local Hugging Face "
                "cache, or a registry name (see `verifier models`)."
            )
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(location, local_files_only=True)
            self.model = AutoModelForSequenceClassification.from_pretrained(location, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ModelLoadError(
                f"could not load a sequence-classification model from {location!r}: {exc}. The folder (or local "
                "HF cache entry) needs config.json, model weights and tokenizer files; nothing is downloaded."
            ) from exc
        self.device = pick_device(device)
        self.dtype = torch.float32
        if self.device.startswith("cuda"):
            self.dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        self.model.to(device=self.device, dtype=self.dtype).eval()
        self.labels = label_map_from_config(self.model.config.id2label, label_map)
        # Small batches are fastest on CPU (measured: 8 beats 16 and 32 for e5-small); GPUs
        # want large ones.
        self.batch_size = batch_size or (64 if self.device.startswith("cuda") else 8)
        self.max_length = min(max_length, getattr(self.tokenizer, "model_max_length", max_length) or max_length)
        self.name = name or Path(location).name
        self.revision = revision or str(getattr(self.model.config, "_commit_hash", None) or "local")

    def _encode(self, pairs: Sequence[Pair]):
        premises = [p for p, _ in pairs]
        hypotheses = [h for _, h in pairs]
        try:
            return self.tokenizer(
                premises, hypotheses, truncation="only_first", max_length=self.max_length,
                padding=True, return_tensors="pt",
            )
        except Exception:
            # A claim longer than max_length on its own: only then is the claim cut too.
            return self.tokenizer(
                premises, hypotheses, truncation="longest_first", max_length=self.max_length,
                padding=True, return_tensors="pt",
            )

    def predict(self, pairs: Sequence[Pair]) -> list[NLIScores]:
        import torch

        if not pairs:
            return []
        # Sorting by length keeps padding (wasted compute) small inside each batch.
        order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
        results: list[NLIScores | None] = [None] * len(pairs)
        with torch.inference_mode():
            for offset in range(0, len(order), self.batch_size):
                chunk = order[offset : offset + self.batch_size]
                batch = self._encode([pairs[i] for i in chunk]).to(self.device)
                probs = torch.softmax(self.model(**batch).logits.float(), dim=-1).cpu().tolist()
                for i, row in zip(chunk, probs):
                    totals = {ENTAILMENT: 0.0, NEUTRAL: 0.0, CONTRADICTION: 0.0}
                    for index, p in enumerate(row):
                        totals[self.labels[index]] += p
                    results[i] = NLIScores(totals[ENTAILMENT], totals[NEUTRAL], totals[CONTRADICTION])
        return results  # type: ignore[return-value]

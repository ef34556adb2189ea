"""NLI backends through the real loading path, on tiny models built in a temp dir."""

from __future__ import annotations

import pytest

from conftest import build_tiny_nli
from models import ModelLoadError, load_model
from models.lexical import LexicalRecallModel
from models.registry import available_models
from models.transformers_backend import TransformersNLIModel, label_map_from_config

THREE_WAY = {0: "entailment", 1: "neutral", 2: "contradiction"}


@pytest.fixture(scope="module")
def tiny3(tmp_path_factory):
    return build_tiny_nli(tmp_path_factory.mktemp("tiny3"), THREE_WAY)


def test_loads_local_folder_and_scores_are_probabilities(tiny3):
    model = TransformersNLIModel(tiny3, device="cpu", batch_size=2)
    out = model.predict([("refunds take 5 business days", "refund within 5 days"), ("hotel fee", "no fee")])
    assert len(out) == 2
    for s in out:
        assert abs(s.entailment + s.neutral + s.contradiction - 1.0) < 1e-5
        assert 0 <= s.entailment <= 1


def test_length_sorted_batches_keep_input_order(tiny3):
    model = TransformersNLIModel(tiny3, device="cpu", batch_size=2)
    pairs = [("refund " * n, "refund within %d days" % n) for n in (9, 1, 5, 3, 7)]
    together = model.predict(pairs)
    alone = [model.predict([p])[0] for p in pairs]
    for a, b in zip(together, alone):
        assert a.entailment == pytest.approx(b.entailment, abs=1e-5)
        assert a.contradiction == pytest.approx(b.contradiction, abs=1e-5)


def test_truncation_cuts_the_evidence_never_the_claim(tiny3):
    model = TransformersNLIModel(tiny3, device="cpu", max_length=24)
    claim = "refund within 5 business days"
    batch = model._encode([("the policy is " * 40, claim)])
    ids = batch["input_ids"][0].tolist()
    assert len(ids) == 24
    decoded = model.tokenizer.decode(ids)
    assert decoded.rstrip().endswith("refund within 5 business days [SEP]")


def test_label_order_comes_from_config(tmp_path):
    # Reversed order in the config: the backend must still report entailment as entailment.
    folder = build_tiny_nli(tmp_path, {0: "contradiction", 1: "neutral", 2: "entailment"})
    model = TransformersNLIModel(folder, device="cpu")
    assert model.labels == {0: "contradiction", 1: "neutral", 2: "entailment"}
    import torch

    batch = model._encode([("refund", "refund")])
    with torch.inference_mode():
        probs = torch.softmax(model.model(**batch).logits, -1)[0].tolist()
    score = model.predict([("refund", "refund")])[0]
    assert score.entailment == pytest.approx(probs[2], abs=1e-5)
    assert score.contradiction == pytest.approx(probs[0], abs=1e-5)


def test_two_way_model_counts_the_other_class_as_neutral(tmp_path):
    folder = build_tiny_nli(tmp_path, {0: "entailment", 1: "not_entailment"})
    score = TransformersNLIModel(folder, device="cpu").predict([("a fee", "no fee")])[0]
    assert score.contradiction == 0.0
    assert score.entailment + score.neutral == pytest.approx(1.0, abs=1e-5)


def test_unknown_labels_need_a_label_map():
    with pytest.raises(ModelLoadError, match="LABEL_0"):
        label_map_from_config({0: "LABEL_0", 1: "LABEL_1"})
    assert label_map_from_config({0: "LABEL_0", 1: "LABEL_1"}, {"LABEL_0": "entailment", "LABEL_1": "neutral"}) == {
        0: "entailment", 1: "neutral"}


def test_missing_folder_error_names_the_path_and_the_fix(tmp_path):
    missing = tmp_path / "no-such-model"
    with pytest.raises(ModelLoadError) as err:
        load_model(str(missing), device="cpu")
    assert str(missing) in str(err.value)
    assert "save_pretrained" in str(err.value)


def test_unreadable_folder_error(tmp_path):
    (tmp_path / "config.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelLoadError, match=str(tmp_path)):
        TransformersNLIModel(tmp_path, device="cpu")


def test_registry_file_names_models_with_label_maps(tmp_path):
    folder = build_tiny_nli(tmp_path / "m", {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    registry = tmp_path / "models.toml"
    registry.write_text(
        f'[models.tiny]\npath = "{folder}"\nmax_length = 32\n'
        '[models.tiny.label_map]\nLABEL_0 = "contradiction"\nLABEL_1 = "neutral"\nLABEL_2 = "entailment"\n',
        encoding="utf-8",
    )
    assert "tiny" in available_models(registry)
    model = load_model("tiny", device="cpu", models_file=registry)
    assert model.name == "tiny"
    assert model.labels[2] == "entailment"
    assert model.max_length == 32


def test_lexical_baseline_is_token_recall():
    model = LexicalRecallModel()
    full, none = model.predict([("Refunds take 1-5 business days.", "refunds take 1-5 business days"),
                                ("Hotels are capped per night.", "refund fee waived")])
    assert full.entailment == pytest.approx(1.0)
    assert none.entailment == pytest.approx(0.0)
    assert load_model("lexical").name == "lexical-recall"

"""models.data_gold: labelled answers become model pairs as the engine forms them."""

from __future__ import annotations

import pytest

from models.data_gold import pairs_for_case
from verifier import Verifier

SOURCE = {"id": "S1", "text": "Refunds are issued within 5 business days. Shipping is free on orders over $50. "
                              "Gift cards cannot be returned."}


@pytest.fixture(scope="module")
def engine(analyzer):
    return Verifier("lexical", analyzer=analyzer)


def _case(answer, claims, bucket="refunds"):
    return {"id": "t1", "answer": answer, "sources": [SOURCE], "bucket": bucket, "lang": "en",
            "expected": {"claims": claims}}


def test_each_label_becomes_its_pairs(engine):
    case = _case("Refunds are issued within 7 business days. Shipping is free on all orders. "
                 "You can return gift cards.",
                 [{"span": "Refunds are issued within 7 business days", "label": "contradicted",
                   "values": ["7 business days", "5 business days"]},
                  {"span": "Shipping is free on all orders", "label": "partial"},
                  {"span": "You can return gift cards", "label": "contradicted"}])
    pairs = pairs_for_case(engine, case, "t")
    by_claim = {}
    for p in pairs:
        by_claim.setdefault(p["claim"], []).append((p["label"], p["evidence"]))
    refunds = next(v for k, v in by_claim.items() if k.startswith("Refunds"))
    # every span stating the source's value (the sentence, and windows holding it) contradicts
    assert ("contradiction", "Refunds are issued within 5 business days.") in refunds
    assert all(label == "contradiction" and "5 business days" in ev for label, ev in refunds)
    assert not any(k.startswith("Shipping") for k in by_claim)  # partial: which part is wrong is unknown
    gifts = next(v for k, v in by_claim.items() if "gift" in k)
    assert gifts == [("contradiction", "Gift cards cannot be returned.")]  # no values: the most relevant span
    assert {p["source"] for p in pairs} == {"gold:t"}


def test_supported_takes_the_most_relevant_span_and_unsupported_takes_all(engine):
    case = _case("Shipping is free on orders over $50. Refunds are also issued in cash at any store.",
                 [{"span": "Shipping is free on orders over $50", "label": "supported"},
                  {"span": "Refunds are also issued in cash at any store", "label": "unsupported"}])
    pairs = pairs_for_case(engine, case, "t")
    supported = [p for p in pairs if p["label"] == "entailment"]
    assert [p["evidence"] for p in supported] == ["Shipping is free on orders over $50."]
    neutral = [p for p in pairs if p["label"] == "neutral"]
    assert len(neutral) > 1 and all(p["claim"].startswith("Refunds are also") for p in neutral)


def test_labels_about_metadata_give_no_pairs(engine):
    """A claim the text supports but a superseded source backs is `unsupported` for metadata
    reasons: as a text pair it would teach the model the wrong label."""
    case = _case("Refunds are issued within 5 business days.",
                 [{"span": "Refunds are issued within 5 business days", "label": "unsupported"}],
                 bucket="superseded_only")
    assert pairs_for_case(engine, case, "t") == []


def test_build_takes_only_odd_cases_of_named_sets_and_all_of_extra_files(tmp_path, monkeypatch):
    """The even half of a gold set is its held-out measurement: `--odd-only` must never train on it."""
    import json

    import models.data_gold as data_gold

    def case(i):
        return _case(f"Order {i} ships free because it is over $50.",
                     [{"span": f"Order {i} ships free because it is over $50", "label": "supported"}])

    (tmp_path / "engine_gold_z.jsonl").write_text("".join(json.dumps(case(i)) + "\n" for i in range(4)))
    extra = tmp_path / "train_x.jsonl"
    extra.write_text(json.dumps(case(10)) + "\n\n" + json.dumps(case(11)) + "\n")
    monkeypatch.setattr(data_gold, "FIXTURES", tmp_path)
    monkeypatch.setattr(data_gold, "SETS", {"engine_z": "engine_gold_z.jsonl"})
    pairs = data_gold.build(["engine_z"], [extra], odd_only=True)
    assert sorted(p["claim"].split()[1] for p in pairs) == ["1", "10", "11", "3"]
    assert {p["source"] for p in pairs} == {"gold:engine_z", "gold:train_x"}
    assert len(data_gold.build(["engine_z"])) == 4  # without odd_only every case counts


def test_every_gold_file_is_a_named_set():
    from models.data_gold import FIXTURES, SETS

    assert set(SETS.values()) == {f.name for f in FIXTURES.glob("*_gold*.jsonl")}
    assert SETS["engine"] == "engine_gold.jsonl" and SETS["decision_h"] == "decision_gold_h.jsonl"

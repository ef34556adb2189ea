"""Entity extraction against hand-labelled policy, finance, HR and support sentences."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors import Analyzer, extract_entities, extract_facts
from extractors.text import match_key

_CASES = [
    json.loads(line)
    for line in (Path(__file__).parent.parent / "data/fixtures/extraction/entities.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]


def test_fixture_is_large_and_bilingual() -> None:
    assert len(_CASES) >= 70
    chinese = [c for c in _CASES if c["lang"].startswith("zh")]
    assert len(chinese) / len(_CASES) >= 0.45
    assert any(c["lang"] == "zh-Hant" for c in _CASES)


def _param(case: dict):
    # Known misses of the statistical models stay in the corpus, visible as strict xfails.
    marks = [pytest.mark.xfail(reason=case["xfail"], strict=True)] if case.get("xfail") else []
    return pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in _CASES])
def test_expected_entities_found_with_exact_span_and_label(analyzer: Analyzer, case: dict) -> None:
    text = case["text"]
    found = {(f.start, f.end, f.value.label): f for f in extract_entities(text, analyzer)}
    for exp in case["expect"]:
        start = text.index(exp["text"])
        key = (start, start + len(exp["text"]), exp["label"])
        assert key in found, f"{exp} not in {[(f.text, f.value.label) for f in found.values()]}"
        assert found[key].value.key == exp.get("key", match_key(exp["text"]))


def test_offsets_index_the_original_traditional_text(analyzer: Analyzer) -> None:
    text = "根據《差旅管理辦法》，張三在臺北工作。"
    for fact in extract_entities(text, analyzer):
        assert text[fact.start : fact.end] == fact.text
    law = [f for f in extract_entities(text, analyzer) if f.value.label == "LAW"]
    assert [f.text for f in law] == ["差旅管理辦法"]
    assert law[0].value.key == "差旅管理办法"


def test_numeric_and_date_labels_are_left_to_other_extractors(analyzer: Analyzer) -> None:
    labels = {f.value.label for f in extract_entities("Revenue rose 12% to $3.2 billion on 1 March 2026.", analyzer)}
    assert labels.isdisjoint({"DATE", "MONEY", "PERCENT", "CARDINAL"})


def test_code_is_reported_once_as_identifier_in_facts(analyzer: Analyzer) -> None:
    text = "工号E7782的员工李明负责审批。"
    facts = [f for f in extract_facts(text, analyzer=analyzer) if f.text == "E7782"]
    assert [f.kind for f in facts] == ["identifier"]


def test_common_noun_at_sentence_start_is_not_an_entity(analyzer: Analyzer) -> None:
    facts = extract_entities("Refunds are processed within 5 business days.", analyzer)
    assert all(f.text != "Refunds" for f in facts)


def test_calendar_terms_are_not_products_but_brands_are(analyzer: Analyzer) -> None:
    assert [f.text for f in extract_entities("遇法定节假日顺延，可以用支付宝付款。", analyzer)] == ["支付宝"]


def test_currencies_are_no_products(analyzer: Analyzer) -> None:
    assert [f.text for f in extract_entities("每星期車費港幣300元", analyzer) if f.kind == "entity"] == []


@pytest.mark.parametrize("text, names", [
    ("2027年喺維港軒星期六擺酒", ["維港軒"]),  # 喺 = "at", not part of the name
    ("過咗期佢哋會發催繳通知", []),  # 佢哋 = "they"
    ("仲要另加一服務費", []),  # 仲 = "also"
    ("恐怖題材嘅劇本只限18歲或以上，所以佢玩唔到", []),  # 佢 = "he", 唔 = "not": no name holds them
    ("同仁堂的会员可以打九折", ["同仁堂"]),
])
def test_cantonese_particles_are_not_names(analyzer: Analyzer, text: str, names: list[str]) -> None:
    assert [f.text for f in extract_entities(text, analyzer) if f.kind == "entity"] == names


@pytest.mark.parametrize("text, names", [
    ("购物卡在百汇所有门店和线上商城都能用", ["百汇"]),  # 所有 = "all", not the end of a name
    ("会员卡在华联所有分店都能用", ["华联"]),
    ("请到天元律师事务所办理", ["天元律师事务所"]),  # (事务所 is)
])
def test_all_after_a_name_is_no_part_of_it(analyzer: Analyzer, text: str, names: list[str]) -> None:
    assert [f.text for f in extract_entities(text, analyzer) if f.kind == "entity"] == names


def test_non_string_text_is_rejected(analyzer: Analyzer) -> None:
    with pytest.raises(TypeError, match="text must be a str, got NoneType"):
        extract_entities(None, analyzer)  # type: ignore[arg-type]

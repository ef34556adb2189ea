"""Offsets survive any input: every claim and fact round-trips `text[start:end]`."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractors import Analyzer, extract_facts, split_claims

_PIECES = [
    "Refunds take 5 business days", " and ", "reached $3.2B", "12.5%", "，", "。", ". ", "? ", "[1]", "【2】",
    "退款将在 1-5 个工作日内到账", "並退回原支付帳戶", "６００元", "\u00a0", "😀", "\r\n", "-", "¥", "€", "$",
    "2026年3月1日", "年", "月", "日", "E7782", "Hi! ", "请提供合同编号", "通常", "約", "《差旅制度 2024》", " ",
    "Sarah Chen", "北京", "臺北", "usually ", "about 3 km",
]
_TEXT = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.text(alphabet="aZ09 ,.%-年月日元万亿：；\u3000０１２", max_size=6)),
    max_size=14,
).map("".join)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_TEXT)
def test_claims_and_facts_round_trip(analyzer: Analyzer, text: str) -> None:
    for claim in split_claims(text, analyzer=analyzer):
        assert text[claim.start : claim.end] == claim.source_text
        assert claim.text.strip()
        for fact in claim.facts:
            assert claim.start <= fact.start < fact.end <= claim.end
            assert text[fact.start : fact.end] == fact.text
    for fact in extract_facts(text, analyzer=analyzer):
        assert text[fact.start : fact.end] == fact.text


@pytest.mark.parametrize("blank", ["", "   ", "\r\n\t", "\u00a0\u3000"])
def test_blank_answer_has_no_claims(analyzer: Analyzer, blank: str) -> None:
    assert split_claims(blank, analyzer=analyzer) == []


@pytest.mark.parametrize("bad", [None, 123, b"bytes", ["list"]])
def test_non_string_answer_is_rejected_by_name(analyzer: Analyzer, bad: object) -> None:
    with pytest.raises(TypeError, match=r"answer must be a str, got"):
        split_claims(bad, analyzer=analyzer)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"text must be a str"):
        extract_facts(bad, analyzer=analyzer)  # type: ignore[arg-type]


def test_long_answer_is_split_to_the_end(analyzer: Analyzer) -> None:
    block = (
        "退款将在 1-5 个工作日内到账。员工每晚住宿费不超过 600 元。"
        "报销单须在 30 天内提交。年假为 10 天。客服在 2 小时内回复。"
    )
    # 1 MB takes minutes through LAC (see benchmarks/extraction_speed.py); 60 KB (~5,000
    # sentences, many batches) shows batching reaches the end while keeping the suite fast.
    text = block * (60_000 // len(block) + 1) + "Refunds take 5 business days."
    claims = split_claims(text, analyzer=analyzer)
    assert len(text) >= 60_000
    assert claims[-1].source_text == "Refunds take 5 business days"
    assert claims[-1].end >= len(text) - 1
    assert len(claims) >= 5 * (60_000 // len(block))

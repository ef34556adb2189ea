"""Language detection on hand-written policy, finance, HR and support snippets."""

from __future__ import annotations

import pytest

from extractors.language import detect_language, is_chinese

CASES = [
    # English
    ("Refunds are processed within 5 business days of approval.", "en"),
    ("Hotel stays are capped at $250 per night in tier-1 cities.", "en"),
    ("Q3 2025 revenue grew 12.5% to $3.2 billion.", "en"),
    ("Employees receive 15 days of annual leave.", "en"),
    ("Please refer to 《差旅制度》 for the full rules.", "en"),
    ("The manager, 张伟, approved the request on 1 March 2026.", "en"),
    ("", "en"),
    ("   \r\n\t", "en"),
    ("12.5% / 3.2 / 2026-03-01", "en"),
    ("E7782", "en"),
    # Simplified Chinese
    ("退款将在5个工作日内原路退回。", "zh-Hans"),
    ("员工出差住宿标准为每晚不超过600元。", "zh-Hans"),
    ("工单 E7782 已于昨天关闭。", "zh-Hans"),
    ("Cross-encoder 的重排阈值设为 0.10。", "zh-Hans"),
    ("客服 SLA 为 4 小时内首次响应。", "zh-Hans"),
    ("我们使用 BM25 和 Cross-encoder rerank 作为检索方案。", "zh-Hans"),
    ("2025年第三季度营收同比增长12.5%，达到32亿元。", "zh-Hans"),
    ("根据《差旅制度 2024》第4.2条，经济舱为默认舱位。", "zh-Hans"),
    ("年假", "zh-Hans"),
    # Traditional Chinese
    ("退款將在5個工作日內原路退回。", "zh-Hant"),
    ("員工出差住宿標準為每晚不超過600元。", "zh-Hant"),
    ("客服時間為週一到週五上午9點至下午6點。", "zh-Hant"),
    ("工單 E7782 已於昨天關閉。", "zh-Hant"),
    ("請參閱「退款政策」第三條。", "zh-Hant"),
    ("報銷", "zh-Hant"),
    # Mixed: both scripts carry a full statement
    (
        "Refunds are processed within 5 business days. 退款将在5个工作日内原路退回，请耐心等待。",
        "mixed",
    ),
    (
        "員工出差住宿標準為每晚不超過600元。 Employees may claim up to 600 yuan per night for hotels.",
        "mixed",
    ),
    (
        "Support hours are Monday to Friday, nine to six.\n客服时间为周一至周五上午9点至下午6点。",
        "mixed",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[f"case-{i:02d}" for i in range(len(CASES))])
def test_detect_language(text, expected):
    assert detect_language(text) == expected


def test_full_width_latin_counts_as_latin():
    assert detect_language("Ｒｅｆｕｎｄｓ ａｒｅ ｐｒｏｃｅｓｓｅｄ ｗｉｔｈｉｎ ５ ｄａｙｓ") == "en"


def test_english_sentence_with_a_short_chinese_aside_is_english():
    text = "The travel policy caps hotel costs at 600 yuan per night in first-tier cities such as Beijing (北京)."
    assert detect_language(text) == "en"


def test_is_chinese():
    assert is_chinese("zh-Hans") and is_chinese("zh-Hant")
    assert not is_chinese("en") and not is_chinese("mixed")


def test_non_string_is_rejected():
    with pytest.raises(TypeError, match="text"):
        detect_language(None)  # type: ignore[arg-type]

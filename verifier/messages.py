"""One-sentence reasons in the answer's language (English, Simplified or Traditional Chinese)."""

from __future__ import annotations

from functools import lru_cache

import opencc

TEMPLATES: dict[str, dict[str, str]] = {
    "en": {
        "supported": "Source {source} supports this: \u201c{quote}\u201d.",
        "supported_hedged": "Source {source} supports this (the claim is hedged): \u201c{quote}\u201d.",
        "fact_mismatch": "The answer says {claim_value}, source {source} says {source_value}.",
        "nli_contradiction": "Source {source} contradicts this: \u201c{quote}\u201d.",
        "opposite": "Source {source} says the opposite: \u201c{quote}\u201d.",
        "supported_verbatim": "Source {source} states this almost word for word: \u201c{quote}\u201d.",
        "supported_anchored": "Source {source} states these values in much the same words: \u201c{quote}\u201d.",
        "worked_out": "The answer works this out ({how}) from values source {source} states: \u201c{quote}\u201d.",
        "compared": "{value} is {relation} {limit}, the limit source {source} gives: \u201c{quote}\u201d.",
        "compared_wrong": "The answer says {value} is {relation} {limit}, but it is not; source {source}: \u201c{quote}\u201d.",
        "above": "above", "below": "below", "within": "within",
        "other_subject": "Source {source} says this, but not for {subject}.",
        "group_value": "Source {source} gives {value} only for {group}.",
        "dropped_condition": "Source {source} says this only under a condition the answer leaves out: \u201c{quote}\u201d.",
        "added_alternative": "Source {source} supports this except \u201c{words}\u201d, which it does not mention.",
        "fact_missing": "{facts} not found in the evidence; source {source} supports the rest.",
        "fact_only_past": "Source {source} gives {facts} only as an earlier rule, not as the current one.",
        "fact_only_later": "Source {source} gives {facts} only for a rule that starts later, not as the current one.",
        "partial": "Source {source} only partly supports this.",
        "unsupported": "No source supports this claim.",
        "no_sources": "No sources were given, so nothing supports this claim.",
        "not_current": "Only source {source} ({why}) says this; it is not current evidence.",
        "conflict": "Active sources disagree on this: {detail}.",
        # decisions
        "empty_answer": "The answer contains no checkable claims.",
        "all_supported": "All {n} claims are supported by the sources.",
        "some_supported": "{supported} of {n} claims are supported; the rest are not.",
        "none_supported": "None of the {n} claims is supported by the sources.",
        "contradicted": "Claim {claim} contradicts the sources: {reason}",
        "contradicted_key": "Claim {claim}, which answers what was asked, contradicts the sources: {reason}",
        "conflict_reason": "Sources {a} and {b} disagree on {slot}: {values}.",
        "conflict_resolved": "Sources {a} and {b} disagree on {slot} ({values}); {winner} is current and wins.",
        "superseded_only": "Only sources that are not current support {claims}.",
        "permission_denied": "The asker may not see these sources, so a person has to answer.",
        "retrieval_failed": "Retrieval failed, so nothing could be checked.",
        "missing_slots": "The question does not say: {slots}.",
        "requires_approval": "This answer needs approval before it goes out.",
        "risk_partial": "Risk level is {risk}: a partly supported answer is not sent.",
        "risk_unsupported": "Risk level is {risk}: unsupported claims are not allowed.",
        "no_rule_matched": "No policy rule matched, so the answer is held back.",
        "claim_detail": "{claim} ({label}): {reason}",
        # user-facing messages
        "user_rewrite_gap": "Other points in the draft could not be confirmed in the retrieved documents and were left out.",
        "user_clarify": "To answer accurately I need a little more information. {questions}",
        "user_clarify_why": "The answer depends on it.",
        "user_abstain": "I could not confirm this from the current documents: {what}. Please check the latest official documents or contact support.",
        "user_abstain_empty": "I could not find an answer in the current documents. Please rephrase the question or contact support.",
        "user_handoff": "I am passing your question to {team}, who will get back to you with a confirmed answer.",
        "slot_question": "Could you tell me the {slot}?",
    },
    "zh": {
        "supported": "来源 {source} 支持此说法：\u201c{quote}\u201d。",
        "supported_hedged": "来源 {source} 支持此说法（说法带有限定语）：\u201c{quote}\u201d。",
        "fact_mismatch": "答案说 {claim_value}，来源 {source} 说 {source_value}。",
        "nli_contradiction": "来源 {source} 与此说法矛盾：\u201c{quote}\u201d。",
        "opposite": "来源 {source} 的说法正好相反：\u201c{quote}\u201d。",
        "supported_verbatim": "来源 {source} 几乎逐字说明了这一点：\u201c{quote}\u201d。",
        "supported_anchored": "来源 {source} 写明了这些数值，措辞也大致相同：\u201c{quote}\u201d。",
        "worked_out": "答案由来源 {source} 给出的数值算出（{how}）：\u201c{quote}\u201d。",
        "compared": "{value}{relation}{limit}，即来源 {source} 给出的限额：\u201c{quote}\u201d。",
        "compared_wrong": "答案说{value}{relation}{limit}，但并非如此；来源 {source}：\u201c{quote}\u201d。",
        "above": "高于", "below": "低于", "within": "属于",
        "other_subject": "来源 {source} 有此说法，但没有说适用于“{subject}”。",
        "group_value": "来源 {source} 只对“{group}”给出{value}。",
        "dropped_condition": "来源 {source} 只在一定条件下这样说，答案省略了条件：\u201c{quote}\u201d。",
        "added_alternative": "来源 {source} 支持此说法，但没有提到“{words}”。",
        "fact_missing": "证据中没有找到{facts}；来源 {source} 支持其余部分。",
        "fact_only_past": "来源 {source} 只在以前的规定中给出{facts}，不是现行规定。",
        "fact_only_later": "来源 {source} 只在以后才生效的规定中给出{facts}，不是现行规定。",
        "partial": "来源 {source} 只部分支持此说法。",
        "unsupported": "没有来源支持此说法。",
        "no_sources": "没有提供来源，无法支持此说法。",
        "not_current": "只有来源 {source}（{why}）这样说，它不是现行依据。",
        "conflict": "现行来源之间存在冲突：{detail}。",
        "empty_answer": "答案中没有可核查的说法。",
        "all_supported": "全部 {n} 条说法都有来源支持。",
        "some_supported": "{n} 条说法中有 {supported} 条有来源支持，其余没有。",
        "none_supported": "{n} 条说法都没有来源支持。",
        "contradicted": "说法 {claim} 与来源矛盾：{reason}",
        "contradicted_key": "说法 {claim} 回答的正是所问的内容，却与来源矛盾：{reason}",
        "conflict_reason": "来源 {a} 与 {b} 在 {slot} 上不一致：{values}。",
        "conflict_resolved": "来源 {a} 与 {b} 在 {slot} 上不一致（{values}）；{winner} 为现行版本，以其为准。",
        "superseded_only": "只有非现行来源支持 {claims}。",
        "permission_denied": "提问者无权查看这些资料，需由人工回答。",
        "retrieval_failed": "检索失败，无法核查。",
        "missing_slots": "问题中缺少：{slots}。",
        "requires_approval": "此回答需经审批后才能发出。",
        "risk_partial": "风险等级为 {risk}：部分有依据的回答不予发出。",
        "risk_unsupported": "风险等级为 {risk}：不允许出现无依据的说法。",
        "no_rule_matched": "没有匹配的策略规则，回答暂不发出。",
        "claim_detail": "{claim}（{label}）：{reason}",
        "user_rewrite_gap": "草稿中的其他内容未在检索到的资料中找到依据，已删去。",
        "user_clarify": "为了准确回答，还需要您补充一些信息。{questions}",
        "user_clarify_why": "答案取决于这一点。",
        "user_abstain": "根据现有资料，无法确认以下内容：{what}。请查阅最新的官方文件或联系客服。",
        "user_abstain_empty": "在现有资料中没有找到答案。请换个问法或联系客服。",
        "user_handoff": "您的问题已转交{team}，确认后会尽快答复您。",
        "slot_question": "请问您的{slot}是什么？",
    },
}

LABELS = {
    "en": {"supported": "supported", "partial": "partial", "unsupported": "unsupported",
           "contradicted": "contradicted"},
    "zh": {"supported": "有依据", "partial": "部分有依据", "unsupported": "无依据", "contradicted": "与来源矛盾"},
}

WHY_NOT_CURRENT = {
    "en": {"superseded": "superseded", "draft": "a draft", "not yet in force": "not yet in force", "expired": "expired",
           "past": "where it describes an earlier rule", "later": "where it describes a rule that starts later"},
    "zh": {"superseded": "已被取代", "draft": "草稿", "not yet in force": "尚未生效", "expired": "已失效",
           "past": "描述的是以前的规定", "later": "描述的是以后才生效的规定"},
}


def family(language: str) -> str:
    return "zh" if language.startswith("zh") else "en"


@lru_cache(maxsize=1)
def _s2t() -> opencc.OpenCC:
    return opencc.OpenCC("s2t")


def message(language: str, key: str, **values: object) -> str:
    """The template `key` in the answer's language, filled in; Traditional answers get Traditional text."""
    fam = family(language)
    if "why" in values:
        values["why"] = WHY_NOT_CURRENT[fam].get(str(values["why"]), values["why"])
    template = TEMPLATES[fam][key]
    if language == "zh-Hant":
        # Convert the fixed wording only: quoted evidence and values stay as the sources wrote them.
        template = _s2t().convert(template)
        values = {k: _s2t().convert(v) if k == "why" else v for k, v in values.items()}
    return template.format(**values)


def quote(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"

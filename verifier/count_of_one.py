"""Counts that hold nothing a source must show: "绑一张你自己名下的借记卡" says "a card",
"一年租金三百六十元" names the period of a price the source states as "年租金360元", and "车辆押金和
违章押金两笔钱" counts the claim's own list."""

from __future__ import annotations

import re

from extractors import Claim
from extractors.schema import Quantity
from verifier.fact_result import FactResult


def nothing_to_find(result: FactResult, results: list[FactResult], claim: Claim | None = None) -> bool:
    """Whether a missing fact of the claim (`results`: all its facts' results) is a count that
    holds nothing to find."""
    return _article_one(result) or _names_the_price_period(result, results) \
        or (claim is not None and (_counts_own_list(result, claim) or _once_more(result, claim)))


# "十五分钟后再测一次": doing something again, once, as "15分钟后复测" says it.
_AGAIN_ONCE = re.compile(r"再[\u4e00-\u9fff]{0,3}$")


def _once_more(result: FactResult, claim: Claim) -> bool:
    fact = result.fact
    at = fact.start - claim.start
    return result.status == "missing" and fact.kind == "number" and fact.text in ("一次", "一遍") \
        and claim.source_text[at:at + len(fact.text)] == fact.text and _AGAIN_ONCE.search(claim.source_text[:at]) is not None


# "车辆押金和违章押金两笔钱", "现金、刷卡、扫码三种方式": items joined right before their count.
_LIST_JOIN = re.compile(r"以及|和|与|與|及|跟|、")
_CLAUSE_EDGE = re.compile(r"[，,；;：:。！？!?]")
_COUNT_AFTER_LIST = re.compile(r"[两二三四五六2-6][笔筆种種项項样樣类類个個份]")


def _counts_own_list(result: FactResult, claim: Claim) -> bool:
    """Whether a missing count says how many items the claim lists right before it: the
    count is the claim's own, and each item is checked by its words."""
    fact, q = result.fact, result.fact.value
    if (result.status != "missing" or fact.kind != "number" or not isinstance(q, Quantity) or q.value is None
            or q.comparator != "eq" or q.currency or q.per or not _COUNT_AFTER_LIST.fullmatch(fact.text)):
        return False
    at = fact.start - claim.start
    if claim.text[at:at + len(fact.text)] != fact.text:
        return False
    clause = _CLAUSE_EDGE.split(claim.text[:at])[-1]
    items = [p for p in _LIST_JOIN.split(clause) if p.strip()]
    return len(items) >= 2 and len(items) == int(q.value)


# "绑一张你自己名下的借记卡", "培训过一次": a count of one said as an article, not a value to find.
_ARTICLE_ONE = re.compile(r"[一壹][张張个個件笔筆份条條只隻把本]")


def _article_one(result: FactResult) -> bool:
    """A missing count of one said as an article: no source gives another count for its slot
    (that would be a mismatch, which stays), so it holds nothing the claim must show."""
    q = result.fact.value
    return (result.status == "missing" and result.fact.kind == "number" and not result.past
            and _ARTICLE_ONE.fullmatch(result.fact.text) is not None and q.comparator == "eq"  # type: ignore[union-attr]
            and not q.currency and not q.per)  # type: ignore[union-attr]


# The period of a price said as a count of one: "一年租金三百六十元" where the source says
# "年租金360元", "年卡一年三千六百元" for "年卡会员费为3600元". The source names the period in its
# fee word (not in a year's number: "2025年"), or states the price per that period.
_PERIOD_WORD = {"year": re.compile(r"(?<![0-9〇零一二两三四五六七八九十])年"), "month": re.compile(r"月"),
                "week": re.compile(r"周|星期"), "day": re.compile(r"(?<![0-9〇零一二两三四五六七八九十])[日天]")}
_BEFORE_PRICE = 4  # "一年租金三百六十元": at most a fee word between the period and its price


def _names_the_price_period(period: FactResult, results: list[FactResult]) -> bool:
    """Whether a missing "一年" names the period of the price (or count: "一年含4次深度保养" for
    "年度保养合同……含4次深度保养") the claim gives right after it, which the source matched with
    that period named."""
    q = period.fact.value
    if (period.status != "missing" or period.fact.kind != "number" or not isinstance(q, Quantity)
            or q.value != 1 or q.comparator != "eq" or q.currency or q.per or q.unit not in _PERIOD_WORD):
        return False
    for price in results:
        ev = price.evidence
        if (price.status == "matched" and ev is not None and isinstance(ev.value, Quantity)
                and (ev.value.currency or ev.value.unit == "times")
                and 0 <= price.fact.start - period.fact.end <= _BEFORE_PRICE):
            return ev.value.per == q.unit or bool(_PERIOD_WORD[q.unit].search(ev.context or ""))
    return False

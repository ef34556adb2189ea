"""Polarity: does the claim say the opposite of the evidence it rests on?

A small cross-encoder reads "also returnable" against "not returnable" as close paraphrases.
A claim that negates what its evidence affirms, or affirms what the evidence's closest clause
negates (where the negation bears on the claim's words), is opposite polarity; so is an opposite
word without a negation cue ("include"/"exclude", "收费"/"免费", "包含"/"费用另计"), a permission
against a prohibition ("可以" against "不得"), and the rule the span gives the other side of the
claim's bound ("over 15 horsepower" against "up to 15 horsepower").
"""

from __future__ import annotations

import re
from typing import Callable

from extractors import Claim
from extractors.compare import compare_facts, other_side
from extractors.numbers import extract_numbers
from extractors.qualifiers import clauses, is_negated, negation_scopes, opposite_words
from extractors.text import normalise
from extractors.tokens import content_tokens, token_recall
from verifier.carve_outs import carved_out

# Opposite polarity counts only where the evidence is clearly about the claim.
POLARITY_MIN_RECALL = 0.6
# Chinese is matched on character bigrams, and the bigrams across word edges ("间同", "样可")
# rarely recur in a paraphrase, so the same closeness shows as a lower recall.
POLARITY_MIN_RECALL_ZH = 0.5
MODAL_MIN_RECALL = 0.4
_PERMISSION = re.compile(r"可以|允许|准许|\b(?:can|may|allowed|permitted)\b", re.IGNORECASE)
_PROHIBITION = re.compile(r"不得|禁止|严禁|不可|不能|不允许|不准|\b(?:cannot|can't|may not|must not|not allowed|"
                          r"not permitted|prohibited)\b", re.IGNORECASE)


def _mostly_chinese(text: str) -> bool:
    return sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff") * 2 > len(text.strip())


def _polarity_min_recall(text: str) -> float:
    return POLARITY_MIN_RECALL_ZH if _mostly_chinese(text) else POLARITY_MIN_RECALL


# A rule that states its "no" as what befalls whoever breaks it: "Anyone who has consumed alcohol
# in the previous 24 hours will be turned away" says "you can't have drunk alcohol".
_TURNED_AWAY = re.compile(r"\b(?:turned away|refused entry|not (?:be )?admitted|barred|banned|prohibited|forbidden)\b|"
                          r"谢绝|謝絕|拒绝入|拒絕入|不予接待|禁止", re.IGNORECASE)


def polarity_clash(claim: Claim, span_text: str) -> bool:
    """Whether the claim says the opposite of the span: one negates what the other states, or
    a clause of the span uses the opposite word ("exclude" for "include"), or gives the claim's
    rule for the other side of the claim's bound."""
    if rule_for_other_side(claim, span_text) or own_side_denied(claim, span_text) \
            or free_but_priced(claim, span_text) or carved_out(claim, span_text):
        return True
    cuts = clauses(span_text)
    for i, (a, b) in enumerate(cuts):
        if i and len(content_tokens(span_text[a:b])) <= _SHORT_CLAUSE:
            a = cuts[i - 1][0]  # "会后参访行程需另行报名，费用另计": a clause of a few words goes with the one before
        part = span_text[a:b]
        swap = opposite_words(claim.text, part)
        if swap and _other_side(claim, part):
            continue  # "3个月内……免费更换；超过3个月……收费": the other side of the claim's bound
        # Recall as if the claim used the clause's word, so the swapped word is not missing (set
        # apart, so that Chinese character pairs across it do not count as missing either), between
        # the claim and that clause, either way: "同城不同门店还车免费" is no opposite of
        # "异地还车按距离收费", and "每月前3笔免费" is what "跨行取现每月前3笔不收费" says.
        # (the words come back normalised: 看诊 for 看診)
        if not swap:
            continue
        swapped = normalise(claim.text).lower().replace(swap[0], f" {swap[1]} ")
        if max(token_recall(swapped, part), token_recall(part, swapped)) >= _polarity_min_recall(claim.text):
            # "不收费" against "免费": the opposite word under a negation says the same thing.
            return is_negated(claim.text) == is_negated(part)
    # "if you can't make it, you can ask for a refund": a negation inside a condition denies nothing.
    plain = _CONDITIONAL_NEGATION.sub(" ", normalise(claim.text))
    if _denies(claim.text):
        if token_recall(claim.text, span_text) >= POLARITY_MIN_RECALL and not is_negated(span_text) \
                and not _TURNED_AWAY.search(span_text) and _negated_clause_about(plain, span_text):
            return True
        # "食材费用已经包含在月卡里，不用另外付" against "食材费用不含在月卡内": the claim's own "不用"
        # leaves what its other clause affirms to be read on its own.
        return any(polarity_clash(part, span_text) for part in _affirmed_clauses(claim))
    # An affirmative claim clashes only with a negation in the clause it matches best, so
    # "returns are free; gift cards are not refundable" does not clash with "returns are free".
    best = closest_part(claim, span_text, clauses)
    # (the condition may open in the clause before: "unless the employee is made redundant or cannot return")
    at = span_text.find(best)
    conditional_best = bool(_CONDITIONAL_NEGATION.search(normalise(best))) or (at >= 0 and any(
        m.end() > at for m in _CONDITIONAL_NEGATION.finditer(normalise(span_text[:at + len(best)]))))
    if (relative := _RELATIVE_NEGATION.search(plain)) and (picked := plain[relative.end():].split()[:1]):
        # "any repair that isn't covered" against "any non-covered repair": the same items picked out
        if any(picked[0].lower() in scope.split() for scope in negation_scopes(best)):
            return False
    # "可以用来买股票" against "不得用于投资股票": a permission against a prohibition is opposite
    # even when the two word the rest differently.
    if _PERMISSION.search(claim.text) and _PROHIBITION.search(best) and is_negated(best) and not conditional_best:
        # (is_negated leaves out bounds: "must not exceed $500" prohibits nothing; the claim's
        # values are no wording to find: "可以续借一次" against "不可续借")
        wording = _PERMISSION.sub(" ", _without_values(claim))
        return token_recall(_without_values(claim), best) >= MODAL_MIN_RECALL \
            or _short_zh_recall(wording, best) >= _SHORT_ZH_RECALL
    # The negation must bear on what the claim says: "cancel at any time with no penalty"
    # does not deny "you can cancel at any time".
    mine = frozenset(content_tokens(claim.text))
    if (_ruled_out(mine - _ruled_out_by_claim(claim.text), span_text)
            and token_recall(claim.text, span_text) >= _polarity_min_recall(claim.text)):
        return True
    if conditional_best:
        return False  # "lost if it has not been delivered in 30 days" states a condition, denies nothing
    if _other_side(claim, best):
        return False  # "20%以下的不予赔付" denies the other side of the claim's "超过20%"
    if _denied_in_own_clause(claim, mine, span_text) or _clause_denied(claim, span_text):
        return True
    about_claim = any(not content_tokens(scope) or mine & frozenset(content_tokens(scope))
                      for scope in negation_scopes(best))
    # ("照常" / "as usual" affirms, it has nothing of its own to find in the span; nor has a
    # relative clause that picks the items out: "anything she doesn't spend")
    wording = _AS_USUAL.sub(" ", _RELATIVE_NEGATION.sub(" ", claim.text))
    if token_recall(wording, best) >= _polarity_min_recall(claim.text) and about_claim:
        return True
    # A short Chinese claim is read by its characters: "离岛都有得送" against "离岛暂不送货".
    chars = _zh_chars(wording)
    return _short_zh_recall(wording, best) >= _SHORT_ZH_RECALL \
        and any(chars & _zh_chars(scope) for scope in negation_scopes(best))


_SHORT_CLAUSE = 3
_FREE = re.compile(r"免费|免費|全免|免收|赠送|贈送|附赠|附贈|\bfree\b|\bcomplimentary\b|\bat no (?:extra )?(?:charge|cost)\b"
                   r"|\bno (?:extra )?charge\b", re.IGNORECASE)
# What a claim calls free: the words after "附赠" / "free" (a count and measure word skipped), or before "全免".
_GIFT_ITEM = re.compile(r"(?:赠送|贈送|附赠|附贈)(?:[一二两兩三四五六七八九十\d]+[条條张張个個件份瓶盒支次杯]?)?([\u4e00-\u9fff]{2,4})"
                        r"|\b(?:free|complimentary)\s+((?:[a-z-]+\s+)?[a-z-]{3,})"
                        r"|\b((?:[a-z-]+\s+)?[a-z-]{3,})\s+(?:is|are)\s+(?:free|complimentary)\b", re.IGNORECASE)
_FREED_ITEM = re.compile(r"([\u4e00-\u9fff]{2,3})(?:都)?(?:全免|免费|免費|免收|不用钱|不用錢|不要钱|不要錢)")
# "退票不收手續費": a fee the claim waives, named after the waiving word.
_WAIVED_FEE = re.compile(r"(?:不收取?|免收|无需支付|不用付|唔使俾|唔收)([\u4e00-\u9fff]{1,3}费)")
_FREE_OF_FEE = re.compile(r"免[\u4e00-\u9fff]{0,3}费|不另收|不加收|包含在内|已含")
_ITEM_SHARE = 0.6
# A price without an amount: "second passes … are charged at half the original rate".
_CHARGED_AT = re.compile(r"\b(?:is|are) charged (?:at|for)\b|\bcharged at (?:half|the full|a reduced|the standard)\b",
                         re.IGNORECASE)
_FULL_STOP = re.compile(r"(?<=[。！？!?])|(?<=\.)\s")


def free_but_priced(claim: Claim, span_text: str) -> bool:
    """Whether the claim calls something free (or a gift) that a sentence of the span sells at a
    price and nowhere calls free: "每件作品附赠一条修复乳霜" against "修复乳霜于柜台贩售，每条新台币350元"."""
    if any(f.kind == "number" and f.value.currency for f in claim.facts):  # type: ignore[union-attr]
        return False  # "free over $50" states a price of its own
    text = normalise(claim.text)
    items = [g for m in (*_GIFT_ITEM.finditer(text), *_FREED_ITEM.finditer(text)) for g in m.groups() if g]
    fees = [m.group(1) for m in _WAIVED_FEE.finditer(text)]
    for sentence in _FULL_STOP.split(span_text) if items or fees else ():  # (not at ";": "…$5 per hour; members park free")
        plain = normalise(sentence)
        if (_FREE.search(sentence) and not _free_for_another_case(claim, sentence)) or _WAIVED_FEE.search(plain) \
                or _FREE_OF_FEE.search(plain):
            continue
        if any(token_recall(item, sentence) >= _ITEM_SHARE for item in items) \
                and (any(f.kind == "number" and f.value.currency and (f.value.value or 0) > 0  # type: ignore[union-attr]
                         for f in extract_numbers(sentence)) or _CHARGED_AT.search(sentence)):
            return True
        if fees and any(_charged(plain[a:b], fees) for a, b in clauses(plain)):
            return True
    return False


_NAME = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-z]{2,}")


def _free_for_another_case(claim: Claim, sentence: str) -> bool:
    """Whether the sentence prices the case the claim names and calls it free only for another:
    "Call-outs for faults cost £75 on the Essential and Plus plans and are free on Complete" for
    "Fault call-outs on Plus are free"."""
    names = set(_NAME.findall(claim.text))
    parts = [sentence[a:b] for a, b in clauses(sentence)]
    free = [p for p in parts if _FREE.search(p)]
    priced = [p for p in parts if any(f.kind == "number" and f.value.currency for f in extract_numbers(p))]  # type: ignore[union-attr]
    # (each free clause names a case of its own, none the claim's: "… and are free on Complete")
    return bool(names) and bool(free) and all(set(_NAME.findall(p)) - names and not names & set(_NAME.findall(p))
                                              for p in free) \
        and any(names & set(re.findall(r"\b[A-Z][a-z]{2,}", p)) for p in priced)


# A clause with a condition of its own ("超过3次每次收2元手续费") charges only on that side.
# (a place too: "九龍及港島以外地區另收車馬費" charges only outside them)
_CONDITION = re.compile(r"满|超过|超出|以上|以下|以后|之后|后|起|如|若|以外|之外|以内|之内")


def _charged(clause: str, fees: list[str]) -> bool:
    """"需酌收一成手續費": the clause charges the fee, as a price or as a share, unconditionally
    (`clause` and `fees` normalised)."""
    if _CONDITION.search(clause) or not any(fee in clause for fee in fees) or "收" not in clause:
        return False
    return any((f.value.currency or f.value.unit == "percent") and (f.value.value or 0) > 0  # type: ignore[union-attr]
               for f in extract_numbers(clause))


# Bigrams of a short Chinese claim mostly straddle its dropped function words ("岛得", "得送" in
# "离岛都有得送"); up to this many characters, the share of its characters found counts instead.
_SHORT_ZH_CHARS = 8
_SHORT_ZH_RECALL = 0.7


def _zh_chars(text: str) -> frozenset[str]:
    return frozenset(t for t in content_tokens(text) for t in t if "\u4e00" <= t <= "\u9fff")


def _short_zh_recall(claim_text: str, part: str) -> float:
    mine = _zh_chars(claim_text)
    if not mine or len(mine) > _SHORT_ZH_CHARS or not _mostly_chinese(claim_text):
        return 0.0
    return len(mine & _zh_chars(part)) / len(mine)


def _without_values(claim: Claim) -> str:
    text = claim.text
    for fact in claim.facts:
        if fact.kind == "number":
            text = text.replace(fact.text, " ")
    return text


_AS_USUAL = re.compile(r"照常|照樣|照样|也|\bas usual\b", re.IGNORECASE)


_CONDITIONAL_NEGATION = re.compile(r"\b(?:if|unless|until|when|whenever|where|wherever|once)\b[^,;:.]*?(?:\b(?:not|never|no|cannot)\b|n['’]t\b)|"
                                   r"\b(?:who|that)\s+(?:do|does|did|have|has)\s+not\b|"
                                   # "Items not redeemed within 30 days become the store's property"
                                   r"\b\w+s\s+not\s+\w+ed\s+(?:within|by|before|after|in time|on time)\b|"
                                   r"(?:如果|如|若|倘若|假如)[^，,；;。]*?[未没不]", re.IGNORECASE)
# A relative clause picks out the items, denies nothing: "medication that isn't controlled",
# "any hours you don't use", "anything she doesn't spend". The source may pick them out with a negation of its own ("non-covered").
_RELATIVE_NEGATION = re.compile(r"\b(?:who|that|which)\s+(?:is|are|was|were|will|would|does|do|can)(?:\s+not\b|n['’]t\b)|"
                                r"\b(?:that|which)\s+(?:won['’]t|can['’]t)\b|"  # "any bleeding that won't stop"
                                r"\b(?:any|all|every)\s+(?:\w+\s+){1,2}(?:you|they|we)\s+(?:do|did)(?:\s+not\b|n['’]t\b)|"
                                r"\b(?:anything|everything|whatever)\s+(?:you|they|we|she|he)\s+(?:do|does|did)(?:\s+not\b|n['’]t\b)",
                                re.IGNORECASE)
_CONTRAST = re.compile(r"\s*(?:(?:and\s+)?not\b|rather than\b|instead of\b|而不是|而非|并非|不是由|不由)", re.IGNORECASE)


def rule_for_other_side(claim: Claim, span_text: str) -> bool:
    """Whether the span says what the claim says, with the same polarity, of the other side of
    the claim's bound: "over 15 horsepower don't need a licence" against "up to 15 horsepower
    may be rented without a licence". (With opposite polarity the two agree: `_other_side`.)"""
    mine = [f.value for f in claim.facts if f.kind == "number" and f.value.value is not None]  # type: ignore[union-attr]
    if not any(q.comparator != "eq" for q in mine):  # type: ignore[union-attr]
        return False  # only a bound has another side
    if any(f.value in mine for f in extract_numbers(span_text) if f.kind == "number"):
        return False  # the span gives both sides their rules: "under 6 hours …; 6 hours or more …"
    negated = is_negated(_CONDITIONAL_NEGATION.sub(" ", normalise(claim.text)))
    for a, b in clauses(span_text):
        part = span_text[a:b]
        theirs = [f.value for f in extract_numbers(part) if f.kind == "number"]
        if (any(other_side(q, c) for q in theirs for c in mine) and is_negated(part) == negated  # type: ignore[arg-type]
                and token_recall(claim.text, part) >= POLARITY_MIN_RECALL):
            return True
    return False


def own_side_denied(claim: Claim, span_text: str) -> bool:
    """Whether the clause of the span that states the claim's own bound denies what the claim
    affirms (or the reverse): "7天内取消的话，定金可以全额退回" against "7天以上取消可退还定金；7天内
    取消定金不退", where the closer wording is the other side's."""
    mine = [f for f in claim.facts if f.kind == "number" and f.value.comparator != "eq"]  # type: ignore[union-attr]
    if not mine:
        return False
    negated = _denies(claim.text)
    for a, b in clauses(span_text):
        part = _ASIDE.sub(" ", span_text[a:b])  # "P1级故障（核心服务不可用）须在15分钟内响应"
        if (any(compare_facts(c, f) == "equal" for f in extract_numbers(part) for c in mine)
                and is_negated(part) != negated and not opposite_words(claim.text, part)
                and not _CONDITIONAL_NEGATION.search(normalise(part))
                and token_recall(part, claim.text) >= _polarity_min_recall(claim.text)
                and _negation_about(*((claim.text, part) if negated else (part, claim.text)))):
            return True
    return False


_ASIDE = re.compile(r"[（(][^）)]*[）)]")


def _negation_about(negated_text: str, other: str) -> bool:
    """Whether a negation of `negated_text` governs words `other` has (Chinese: characters)."""
    # (a scope of one Chinese character, "定金不退", is its own token: matched on the characters)
    words = frozenset(content_tokens(other)) | {c for c in normalise(other) if "\u3400" <= c <= "\u9fff"}
    return any(words & frozenset(content_tokens(scope)) for scope in negation_scopes(negated_text))


def _other_side(claim: Claim, clause: str) -> bool:
    """Whether the clause bounds one of the claim's values from the other side: it speaks of
    the complementary case ("20%以下" against the claim's "超过20%")."""
    mine = [f.value for f in claim.facts if f.kind == "number" and f.value.value is not None]  # type: ignore[union-attr]
    return any(other_side(q, c) for q in (f.value for f in extract_numbers(clause) if f.kind == "number")  # type: ignore[misc]
               for c in mine)


def _denied_in_own_clause(claim: Claim, mine: frozenset[str], span_text: str) -> bool:
    """Whether a negated clause of the span holds words of the claim no other clause has, and
    its negation bears on the claim: "线上配送的订单也可以用医保个人账户支付" against "医保个人账户支付
    仅支持门店自提订单，线上配送订单暂不支持医保支付" (the clauses tie on overlap)."""
    parts = clauses(span_text)
    if len(parts) < 2 or token_recall(claim.text, span_text) < _polarity_min_recall(claim.text):
        return False
    # Only where the negated clause matches the claim as well as any clause does: "There is no
    # overall charge to a water molecule, but there is a slight positive charge on each hydrogen
    # atom" supports "hydrogen atoms … have a positive charge" in its closer clause.
    closest = max(token_recall(claim.text, span_text[a:b]) for a, b in parts)
    for a, b in parts:
        part = span_text[a:b]
        # (a condition may open in the clause before: "unless the employee is made redundant or cannot return")
        conditional = any(m.end() > a for m in _CONDITIONAL_NEGATION.finditer(normalise(span_text[:b])))
        if not is_negated(part) or conditional \
                or _RELATIVE_NEGATION.search(normalise(part)) or token_recall(claim.text, part) < closest:
            continue
        rest = frozenset(content_tokens(span_text[:a] + " " + span_text[b:]))
        if len(mine & (frozenset(content_tokens(part)) - rest)) >= 2 and any(
                mine & frozenset(content_tokens(scope)) for scope in negation_scopes(part)):
            return True
    return False


def _clause_denied(claim: Claim, span_text: str) -> bool:
    """Whether a negated clause of the span denies exactly what the claim says: "线上会员每月二十元，
    也包含称重" against "线上会员每月20元，……，不含称重", where the price clause matches the claim best.
    Every word the negation governs must be the claim's ("no overall charge to a water molecule"
    does not deny "a water molecule's hydrogen atoms carry a positive charge")."""
    # (Chinese only: its character pairs make a scope of two words a phrase, "含称重"; English scopes
    # of two words are looser, and held-out English claims read as denied that the source supports)
    if not _mostly_chinese(claim.text) or token_recall(claim.text, span_text) < _polarity_min_recall(claim.text):
        return False
    mine = frozenset(content_tokens(claim.text))
    parts = [span_text[a:b] for a, b in clauses(span_text)]
    for i, part in enumerate(parts):
        if not _denies(part):  # (not "help that is not an emergency": a relative clause)
            continue
        rest = frozenset(content_tokens(" ".join(parts[:i] + parts[i + 1:])))
        if len(mine & (frozenset(content_tokens(part)) - rest)) < 2:
            continue
        if any(len(words := frozenset(content_tokens(scope))) >= 2 and words <= mine
               for scope in negation_scopes(part)):
            return True
    return False


def _negated_clause_about(claim_text: str, span_text: str) -> bool:
    """Whether a negated clause of the claim shares a word with the span: "No need to buy anything
    first: free taster sessions run …" denies nothing "Free taster sessions … run on Saturday
    mornings" says, while "you get a full refund with no deductions" is about its full refund."""
    said = frozenset(content_tokens(span_text))
    parts = [part for a, b in clauses(claim_text) for part in re.split(r"[:：]", claim_text[a:b])]
    negated = [part for part in parts if is_negated(part)]
    return not negated or any(said & frozenset(content_tokens(part)) for part in negated)


_CONDITION_CLAUSE = re.compile(r"\b(?:if|unless|until|when|whenever|once)\b|如果|要是|若|倘若|假如|的话|嘅话", re.IGNORECASE)


def _affirmed_clauses(claim: Claim) -> list[Claim]:
    """The clauses of a claim of several that negate nothing, each as a claim of its own; none
    when a negation of the claim states a condition ("7天内还没激活的话，可以申请全额退款")."""
    cuts = clauses(claim.text)
    if len(cuts) < 2 or any(_CONDITION_CLAUSE.search(normalise(claim.text[a:b])) for a, b in cuts
                            if is_negated(claim.text[a:b])):
        return []
    return [claim.model_copy(update={"text": part, "facts": tuple(f for f in claim.facts if f.text in part)})
            for part in (claim.text[a:b].strip() for a, b in cuts)
            if len(content_tokens(part)) >= _SHORT_CLAUSE and not _denies(part)]


def _denies(text: str) -> bool:
    """Whether the text negates what it says, leaving aside negations inside a condition ("if you
    can't make it") or a relative clause ("medication that isn't controlled")."""
    return is_negated(_RELATIVE_NEGATION.sub(" ", _CONDITIONAL_NEGATION.sub(" ", normalise(text))))


def _ruled_out_by_claim(text: str) -> frozenset[str]:
    """Words only the claim's own contrast clauses hold: "once per policy year rather than per
    condition" rules "condition" out as the span's "not per condition" does."""
    words: set[str] = set()
    for a, b in clauses(text):
        part = normalise(text[a:b])
        m = _CONTRAST.match(part) or _CLAIM_CONTRAST.search(part)
        if m is not None:
            a += m.start()
            words |= set(content_tokens(text[a:b])) - set(content_tokens(text[:a] + " " + text[b:]))
    return frozenset(words)


_CLAIM_CONTRAST = re.compile(r"\b(?:rather than|instead of)\b|而不是|而非", re.IGNORECASE)


def _ruled_out(claim_words: frozenset[str], span_text: str) -> bool:
    """Whether the claim takes a side a contrast clause of the span rules out: "issued by the
    Transportation Office, not by individual schools" against "collect it from the school office"."""
    for a, b in clauses(span_text):
        if _CONTRAST.match(normalise(span_text[a:b])):
            rest = frozenset(content_tokens(span_text[:a] + " " + span_text[b:]))
            if claim_words & (frozenset(content_tokens(span_text[a:b])) - rest):
                return True
    return False


def closest_part(claim: Claim, text: str, cut: Callable[[str], list[tuple[int, int]]]) -> str:
    """The piece of `text` (a sentence or clause, by `cut`) holding most of the claim's words."""
    return max((text[a:b] for a, b in cut(text)), key=lambda part: token_recall(claim.text, part), default=text)

"""Qualifiers and negation: the small words that change who or when a rule applies to.

RAG answers often keep every number right and get the qualifier wrong: the enterprise return
window given to a personal customer, a yearly allowance that the policy grants every three
years, domestic where the source says overseas, "can" where it says "cannot". Numbers and
names are checked elsewhere; this module finds the qualifier words themselves.

- `find_qualifiers(text)`: (slot, value, start, end) for each qualifier term, longest match
  first, so "billed monthly" is a billing term and not also a frequency.
- employment type (full-time, part-time, probation, contractor, intern) is a slot like
  customer type: the full-time allowance is no answer for a part-time employee.
- card and membership tiers (普通卡/金卡/白金卡, gold/platinum card) are a slot too.
- ordinals with what they count ("the sixth lift", "第二名孩子") are the slot "ordinal <noun>".
- roles (approvers, signers: "财务总监", "line manager") are the slot "role", found by
  `extractors.roles`; `qualifiers_agree` compares two values of one slot.
- `is_negated(text)`: whether the text carries a negation cue, ignoring words that merely
  contain one ("不仅", "nonetheless", "无论").
- `clauses(text)`: the text cut at clause punctuation, with offsets, so a qualifier can be
  bound to the number it sits next to ("$12 ... billed annually, or $15 ... billed monthly");
  `sentences(text)` likewise at sentence ends, for windows of several sentences.

Pure functions over strings; the term lists are plain data below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from extractors.numbers_vocab import NO_SUBJECT
from extractors.ordinals import find_ordinals, ordinals_agree
from extractors.roles import agents_agree, find_agents, find_roles, roles_agree
from extractors.text import normalise

# slot -> value -> terms (English lower-case, Chinese Simplified; Traditional is folded first).
_TERMS: dict[str, dict[str, tuple[str, ...]]] = {
    "customer": {
        "personal": ("personal customer", "personal account", "personal user", "individual customer",
                     "individual user", "individual account", "consumer", "个人用户", "个人客户", "个人账户",
                     "个人会员", "个人消费者", "消费者"),
        "enterprise": ("enterprise customer", "enterprise account", "enterprise user", "business customer",
                       "business account", "corporate customer", "corporate account", "企业客户", "企业用户",
                       "企业账户", "企业会员", "公司客户", "对公客户", "机构客户"),
    },
    "region": {
        "domestic": ("domestic", "国内", "境内"),
        "international": ("international", "overseas", "abroad", "foreign", "海外", "境外", "国际", "国外",
                          "出境"),
    },
    "billing": {
        "monthly": ("billed monthly", "monthly billing", "month-to-month", "paid monthly", "按月付费", "按月计费",
                    "按月支付", "月付", "月缴"),
        "annual": ("billed annually", "billed yearly", "annual billing", "yearly billing", "paid annually",
                   "按年付费", "按年计费", "按年支付", "年付", "年缴"),
    },
    "frequency": {
        # Not "a year": "59.8% a year earlier" is no frequency.
        "day": ("per day", "each day", "every day", "daily", "每天", "每日"),
        "week": ("per week", "each week", "every week", "weekly", "每周", "每星期"),
        "month": ("per month", "each month", "every month", "monthly", "每月", "每个月"),
        "year": ("per year", "each year", "every year", "annually", "yearly", "per annum", "每年", "每一年",
                 # not "annual" alone: "annual leave" says nothing of how often it is paid
                 "annual subscription", "annual fee", "annual membership", "annual premium", "annual charge"),
    },
    "employment": {
        "full-time": ("full-time", "full time employee", "full time staff", "全职", "正式员工", "正式职工", "正职员工"),
        "part-time": ("part-time", "part time employee", "part time staff", "兼职"),
        "probation": ("probationary", "on probation", "试用期"),
        "contractor": ("contractor", "contract worker", "劳务派遣", "派遣人员", "外包人员"),
        "intern": ("intern", "实习生"),
    },
    # Card and membership tiers: the platinum card's perk is no answer for a gold card holder.
    # English "gold" alone is too common to count.
    "tier": {
        "platinum": ("platinum", "白金卡", "白金会员", "铂金卡", "铂金会员"),
        "gold": ("gold card", "gold member", "gold tier", "gold status", "金卡", "黄金会员", "金卡会员"),
        "silver": ("silver card", "silver member", "silver tier", "silver status", "银卡", "白银会员", "银卡会员"),
        "diamond": ("diamond card", "diamond member", "diamond tier", "钻石卡", "钻石会员"),
        "standard": ("standard card", "classic card", "普通卡"),
    },
    "membership": {  # English "member" alone is too common ("team member") to count.
        "member": ("会员",),
        "non-member": ("non-member", "nonmember", "非会员"),
    },
}
# "every 3 years", "once every two months", "每三年", "每2个月": a frequency with its own count.
_EVERY_N = re.compile(
    r"\bevery\s+(?P<n>\d+|two|three|four|five|six)\s+(?P<u>day|week|month|year)s\b"
    r"|每(?P<zn>\d+|十二|[两二三四五六七八九十])(?:个)?(?P<zu>天|周|月|年)")
_EN_COUNT = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_ZH_COUNT = {"十二": 12, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_ZH_UNIT = {"天": "day", "周": "week", "月": "month", "年": "year"}

# Bounds, not negations: the number check reads them ("不超过600元" = "600元以内").
_BOUNDS_EN = re.compile(r"\b(?:no|not|never)\s+(?:more|less|later|earlier|fewer|greater|higher|lower)\s+than\b"
                        r"|\b(?:not\s+(?:to\s+)?|never\s+)exceed(?:s|ing)?\b|\bno\s+(?:later|earlier)\b"
                        # "no charge" says "free", as "free of charge" does: it denies nothing.
                        r"|\b(?:at\s+)?no\s+(?:extra\s+|additional\s+)?(?:charge|cost)\b"
                        # ... and so does "without charging extra", "without charge"
                        r"|\bwithout\s+(?:any\s+)?(?:extra\s+|additional\s+)?(?:charge|cost|charging(?:\s+(?:you\s+)?(?:extra|more|anything))?)\b"
                        r"|\b(?:costs?|costing|charges?|pay|paying)\s+(?:(?:him|her|them|you|us|me)\s+)?nothing\b"
                        # "so your kitchen is never without blades": two negations affirm
                        r"|\b(?:never|not)\s+without\b"
                        # "no car seat is more than five years old" is a bound: at most five years
                        r"|\b" + NO_SUBJECT + r"(?:more|less|fewer|over|under|above|below)\b")
# ("a no-rinse steriliser", "a no-fee account": "no" before a hyphen makes a word, it denies nothing)
# ("rather than leaving the person alone": not leaving them; before a price, "instead of £140" denies nothing)
_NEGATION_EN = re.compile(r"\b(?:not|no(?!-[a-z])|never|none|nothing|neither|nor|cannot|without)\b|n't\b|\bnon-(?=[a-z])|\bnon(?=refundable|transferable)"
                          r"|\b(?:rather than|instead of)(?=\s+[a-z]+ing\b)")
# Words that contain a Chinese negation character without negating anything.
_ZH_NOT_NEGATION = ("不仅", "不但", "不过", "不断", "不久", "不少", "不错", "不同", "无论", "非常", "未来",
                    "无理由", "毫无疑问", "不管", "不超过", "不高于", "不低于", "不少于", "不多于", "不大于", "不小于",
                    "不足", "不到", "未满", "不满", "未达到", "未達到", "未达", "未達", "未超过", "不迟于", "不早于",
                    "无息",  # 无息退还: refunded without interest
                    "不用钱", "不用錢", "不要钱", "不要錢",  # 都不用钱: free, as 免费 says it
                    "无误", "没问题", "没有问题",  # 验车无误 / 验车没问题: the check found nothing wrong
                    "无损", "無損", "没有损坏", "沒有損壞", "没损坏", "沒損壞", "无异常", "無異常",  # 验收无损(坏) says the same
                    "不记名", "不記名", "无记名", "無記名",  # 不记名卡: a bearer card, a name
                    # Bounds under a modal: 不能少于5万元 is 不低于5万元.
                    "不能少于", "不能低于", "不能超过", "不能多于", "不能高于", "不得少于", "不得低于", "不得超过",
                    "不可少于", "不可超过", "不应超过", "不应少于", "不应低于", "不宜超过",
                    # 非 as the prefix "non-": 非本市户籍 (non-local), 非会员, 非工作日.
                    "非本", "非会员", "非會員", "非工作",
                    "唔该", "唔好意思")  # Cantonese "please/thanks", "sorry"
_NEGATION_ZH = re.compile(r"[不没无未非勿禁唔冇]|拒绝|不得|免于"  # 唔, 冇: Cantonese 不, 没有
                          # 别 "don't" (别沾水 is 勿沾水), not 特别, 分别, 类别, 别的, 别墅
                          r"|(?<![特分类類区區级級性个個识識告辨鉴鑒差派])[别別](?![的墅人处處])")

# "and" starts a clause only before a modal or auxiliary ("must be 14 characters long and must
# not reuse ..."); "gift cards and software are non-refundable" stays one clause.
# (a comma between digits groups thousands: "新台幣1,500元" is one clause)
# ("20 or more", "6 hours or longer" are one bound, not two clauses)
_CLAUSE_BREAK = re.compile(r"[;；，。!！?？]|(?<!\d),|,(?!\d{3}(?!\d))|\.(?:\s|$)|\s(?:or|but|while|whereas)\s"
                           r"(?!(?:(?<=\d\sor\s)|(?<=s\sor\s))(?:more|less|fewer|over|under|above|below|older|younger|"
                           r"longer|greater|higher|lower)\b)"
                           r"|\sand\s(?=(?:must|may|can|cannot|should|shall|will|is|are|does|do|has|have)\b)")
_SENTENCE_END = re.compile(r"[。！？!?；;]|\.(?:\s|$)")


@dataclass(frozen=True)
class Qualifier:
    slot: str
    value: str
    text: str
    start: int
    end: int


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    terms = sorted({t for values in _TERMS.values() for ts in values.values() for t in ts}, key=len, reverse=True)
    # English terms must stand as words (and take a plural "s"); Chinese ones need no boundary.
    parts = [rf"\b{re.escape(t)}s?\b" if t.isascii() else re.escape(t) for t in terms]
    return re.compile("|".join(parts))


@lru_cache(maxsize=1)
def _lookup() -> dict[str, tuple[str, str]]:
    return {t: (slot, value) for slot, values in _TERMS.items() for value, ts in values.items() for t in ts}


def find_qualifiers(text: str) -> list[Qualifier]:
    """Every qualifier term in `text`, with offsets into `text`, in order."""
    folded = normalise(text).lower()
    found: list[Qualifier] = []
    taken: list[tuple[int, int]] = []
    for m in _EVERY_N.finditer(folded):
        if m.group("n"):
            n, unit = m.group("n"), m.group("u")
            count = int(n) if n.isdigit() else _EN_COUNT[n]
        else:
            count, unit = _ZH_COUNT[m.group("zn")] if not m.group("zn").isdigit() else int(m.group("zn")), \
                _ZH_UNIT[m.group("zu")]
        # "every 12 months" is "every year", "every 14 days" "every 2 weeks"
        for small, big, per in (("month", "year", 12), ("day", "week", 7)):
            if unit == small and count % per == 0:
                count, unit = count // per, big
        value = unit if count == 1 else f"{count} {unit}s"
        found.append(Qualifier("frequency", value, text[m.start():m.end()], m.start(), m.end()))
        taken.append((m.start(), m.end()))
    lookup = _lookup()
    for m in _pattern().finditer(folded):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        term = m.group()
        slot_value = lookup.get(term) or lookup.get(term[:-1])
        if slot_value is None:
            continue
        found.append(Qualifier(slot_value[0], slot_value[1], text[m.start():m.end()], m.start(), m.end()))
    for slot, value, start, end in find_ordinals(folded):
        found.append(Qualifier(slot, value, text[start:end], start, end))
    roles = find_roles(folded)
    for value, start, end in roles:
        found.append(Qualifier("role", value, text[start:end], start, end))
    for value, start, end in find_agents(folded):
        if not any(s < end and start < e for _, s, e in roles):  # a titled role is checked as a role
            found.append(Qualifier("agent", value, text[start:end], start, end))
    return sorted(found, key=lambda q: q.start)


def qualifiers_agree(slot: str, a: str, b: str) -> bool:
    """Whether two values of one slot say the same thing (roles allow a missing domain, doers a
    fuller name)."""
    if slot.startswith("ordinal "):
        return ordinals_agree(a, b)
    if slot == "agent":
        return agents_agree(a, b)
    return roles_agree(a, b) if slot == "role" else a == b


def is_negated(text: str) -> bool:
    """Whether `text` carries a negation cue (English or Chinese)."""
    folded = _BOUNDS_EN.sub(" ", normalise(text).lower())
    if _NEGATION_EN.search(folded):
        return True
    for word in _ZH_NOT_NEGATION:
        folded = folded.replace(word, "\u3000" * len(word))
    return bool(_NEGATION_ZH.search(folded))


# Words that state the opposite of each other without a negation cue: (one side, other side).
# Only pairs that are opposites wherever they stand; "open"/"closed" is not ("open an account").
_ANTONYMS = [(re.compile(a), re.compile(b)) for a, b in (
    (r"\binclud(?:e|es|ed|ing)\b|\binclusive\b", r"\bexclud(?:e|es|ed|ing)\b|\bexclusive\b"),
    (r"\b(?:allowed|permitted)\b", r"\b(?:prohibited|forbidden|banned)\b"),
    (r"\b(?:required|mandatory|compulsory)\b", r"\boptional\b"),
    (r"\bincreas(?:e|es|ed|ing)\b", r"\b(?:decreas|reduc)(?:e|es|ed|ing)\b"),
    (r"\beligible\b", r"\bineligible\b"),
    (r"收费|收取", r"免费|免收"),
    (r"看诊|营业", r"休诊|停诊|停业|休息(?![室区时间])"),
    (r"上涨|上调|增加|提高", r"下降|下调|减少|降低"),
    (r"强制|必须", r"自愿|可选"),
    (r"\bbetter\b", r"\bworse\b"),  # "loss in the better ear"
    (r"照常|照样", r"暂停|停止|休息(?![室区时间])"),  # "节假日期间取送服务暂停", "逢星期日休息"
    (r"便宜|下浮", r"上浮|加价"),  # "在前台订便宜10%" against "前台预订价格上浮10%"
    # included in the price against paid for apart: "报名费包含参访行程" / "参访行程……费用另计"
    # ("价格含工资及旧玻璃回收": a bare 含 after the price it is part of)
    (r"包含|包括|已含|含在|(?:价格|价钱|费用|收费|售价|报价|定价)含", r"另计|另行收费|另外收费|须另付|需另付|另付费|自费|自理"),
    (r"\binclud(?:e|es|ed|ing)\b", r"\b(?:charged|billed|priced|paid for) separately\b|\bat (?:an )?extra (?:cost|charge)\b"),
    # provided against brought along: "All flowers, tools and aprons are provided" / "bring your own flowers"
    (r"\b(?:provided|supplied)\b", r"\bbring (?:your|their|his|her|our) own\b"),
    # borne by the provider against paid by the customer: "交通和门票由学堂承担" / "交通和门票费用自理"
    (r"由[\u4e00-\u9fff]{1,6}(?:承担|负担|支付|报销)", r"自理|自付|自费"),
    # charged as well against counted towards: "the £35 fee is charged on top" / "£35, which is
    # deducted from the repair bill"; "押金另收" / "押金可抵扣房费"
    (r"\bon top\b|\bin addition to the\b", r"\b(?:deducted from|credited (?:against|towards?)|offset against)\b"),
    (r"另收|另加收|额外收取?|另外收取?", r"抵扣|冲抵|折抵|抵减"),
)]


def opposite_words(claim: str, evidence: str) -> tuple[str, str] | None:
    """(claim's word, evidence's word) when the evidence uses the opposite of a word of the
    claim and not the word itself: "include" against "exclude", "收费" against "免费"."""
    a_text, b_text = normalise(claim).lower(), normalise(evidence).lower()
    for one, other in _ANTONYMS:
        for mine, theirs in ((one, other), (other, one)):
            m, t = mine.search(a_text), theirs.search(b_text)
            if m and t and not mine.search(b_text) and not theirs.search(a_text):
                return m.group(), t.group()
    return None


def negation_scopes(text: str) -> list[str]:
    """What each negation cue of `text` governs: the next few words (English) or characters
    (Chinese). "cancel at any time with no penalty" -> ["penalty"]; "不接受退货" -> ["接受退货"]."""
    folded = _BOUNDS_EN.sub(" ", normalise(text).lower())
    scopes = [" ".join(folded[m.end():].split()[:3]) for m in _NEGATION_EN.finditer(folded)]
    for word in _ZH_NOT_NEGATION:
        folded = folded.replace(word, "\u3000" * len(word))
    scopes += [folded[m.end():m.end() + 4].strip() for m in _NEGATION_ZH.finditer(folded)]
    return scopes


def clauses(text: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of `text`, cut at clause punctuation and "or"/"but"."""
    return _cut(text, _CLAUSE_BREAK)


def clause_at(text: str, at: int) -> str:
    """The clause of `text` that holds the character at `at` (all of `text` when none does)."""
    return next((text[a:b] for a, b in clauses(text) if a <= at < b), text)


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, without its end mark."""
    return _cut(text, _SENTENCE_END)


def _cut(text: str, breaks: re.Pattern[str]) -> list[tuple[int, int]]:
    out, start = [], 0
    for m in breaks.finditer(text):
        if text[start:m.start()].strip():
            out.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        out.append((start, len(text)))
    return out

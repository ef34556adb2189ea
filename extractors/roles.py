"""Roles: who approves, signs or decides ("财务总监", "department head", "line manager"); and
doers (`find_agents`): who does an action when that is no titled role, who processes a request,
where it is sent or filed.

An answer that names the wrong approver keeps every number right and still misleads: "由财务
总监审批" where the policy says "由部门负责人审批". Roles are no named entities (no tagger marks
them), so this module finds them from a small grammar: an optional domain word (财务, HR,
department) and a head word grouped by rank (经理/负责人/manager/head are one rank, 总监/director
another). A role's value is "domain/rank", or "rank" without a domain.

Two roles agree when their ranks are equal and their domains do not differ: "your manager"
agrees with "your line manager"; "finance director" and "department head" disagree.

Pure functions over normalised (half-width, Simplified, lower-case) text.
"""

from __future__ import annotations

import re
from functools import lru_cache

from extractors.tokens import token_recall

# rank -> head words. Longer words are tried first, so 总经理 is not read as 经理.
_RANKS: dict[str, tuple[str, ...]] = {
    "lead": ("经理", "负责人", "主管", "主任", "组长", "领导", "上级", "manager", "supervisor", "team lead"),
    "director": ("总监", "director"),
    "executive": ("总经理", "总裁", "董事长", "ceo", "general manager", "president", "chief executive"),
    "deputy": ("副总经理", "副总裁", "vice president", "vp"),
    "officer": ("专员", "officer", "specialist", "coordinator"),
}
# domain -> words. "所在部门", "直属" and "line" all mean the asker's own unit.
_DOMAINS: dict[str, tuple[str, ...]] = {
    "finance": ("财务", "finance", "financial"),
    "hr": ("人事", "人力资源", "hr", "human resources", "people"),
    "own unit": ("所在部门", "部门", "直属", "直接", "department", "line", "direct", "reporting"),
    "legal": ("法务", "legal"),
    "compliance": ("合规", "compliance"),
    "it": ("信息技术", "it"),
    "admin": ("行政", "administration", "admin", "office"),
    "sales": ("销售", "sales"),
    "procurement": ("采购", "procurement", "purchasing"),
    "store": ("门店", "店铺", "store", "branch", "分行", "支行"),
    "project": ("项目", "project"),
    "regional": ("区域", "regional"),
    "facilities": ("设施", "物业", "facilities", "facility"),
    "security": ("信息安全", "安全", "security", "information security"),
    "operations": ("运营", "operations"),
}
# Whole titles that carry their own domain. English "head" stands only in these ("head office"
# is no role).
_TITLES: dict[str, str] = {"cfo": "finance/executive", "chief financial officer": "finance/executive",
                           "首席财务官": "finance/executive", "chro": "hr/executive", "cto": "it/executive",
                           "cio": "it/executive", "ciso": "security/executive", "首席信息安全官": "security/executive",
                           "coo": "operations/executive", "首席运营官": "operations/executive",
                           "hrbp": "hr/officer", "hr business partner": "hr/officer",
                           "head of finance": "finance/lead", "head of hr": "hr/lead",
                           "head of department": "own unit/lead", "department head": "own unit/lead",
                           "head of the department": "own unit/lead"}


@lru_cache(maxsize=1)
def _lookup() -> tuple[re.Pattern[str], dict[str, str], dict[str, str]]:
    heads = {w: rank for rank, words in _RANKS.items() for w in words}
    domains = {w: d for d, words in _DOMAINS.items() for w in words}

    def alt(words, plural: str = "") -> str:
        parts = []
        for w in sorted(words, key=len, reverse=True):
            # Letters, not \b, mark a Latin word's ends: "部门hrbp审批" has no \b before "hrbp".
            parts.append(rf"(?<![a-z0-9]){re.escape(w)}{plural}(?![a-z0-9])" if w.isascii() else re.escape(w))
        return "|".join(parts)

    # English takes a space between domain and head, and a plural head ("managers"); Chinese neither.
    pattern = re.compile(rf"(?P<title>{alt(_TITLES)})"
                         rf"|(?:(?P<domain>{alt(domains)})\s?)?(?P<head>{alt(heads, plural='s?')})")
    return pattern, heads, domains


def find_roles(folded: str) -> list[tuple[str, int, int]]:
    """(value, start, end) for each role in already-normalised, lower-cased text."""
    pattern, heads, domains = _lookup()
    out = []
    for m in pattern.finditer(folded):
        if m.group("title"):
            out.append((_TITLES[m.group("title")], m.start(), m.end()))
            continue
        head = m.group("head")
        rank = heads.get(head) or heads.get(head[:-1], "lead")
        domain = domains.get(m.group("domain") or "")
        out.append((f"{domain}/{rank}" if domain else rank, m.start(), m.end()))
    return out


def roles_agree(a: str, b: str) -> bool:
    """Same rank, and no two different domains ("manager" agrees with "finance/lead")."""
    da, _, ra = a.rpartition("/")
    db, _, rb = b.rpartition("/")
    return ra == rb and (not da or not db or da == db)


# "由X签发": who does what, when X is no titled role ("由我公司技术部签发", "由合作的金石建筑维修公司
# 签发"). X ends in a word for a body or a person and the action follows it directly
# ("由市特种设备检验研究院实施": the doer is the institute, not "市特种设备" doing 检验).
_ACTIONS_ZH = "签发|出具|审批|批准|审核|核准|签字|实施|办理|受理|负责|处理|发放|承担|支付|检验|检测|评估|安排|派发|派送|上门|" \
    "核发|颁发|发证|发"
# A deadline may stand between the doer and the action: "由充值支付组在24小时内处理".
_WHEN_ZH = r"(?:在?[0-9一二两三四五六七八九十]+个?(?:工作日|小时|分钟|天|日|周|星期)内)?(?:直接|统一)?"
_AGENT_ZH = re.compile(r"由(?P<agent>[^，。；、：,.;:！？!?\s由]{1,14}?(?:公司|部|院|所|中心|局|处|科|站|组|室|机构|单位|"
                       rf"本人|人|方|师|员|行|店|商|厂|社|会|团队|平台|学校|校)){_WHEN_ZH}(?P<action>{_ACTIONS_ZH})")
# Issuing said several ways: "由学校直接发证" and "由市应急管理局核发" name the same action.
_SAME_ACTION = {"核发": "发", "颁发": "发", "签发": "发", "发证": "发", "发放": "发"}
# "由直属主管审批后交财务部办理": an action, then the next step, is two doers, not one.
_TWO_STEPS = re.compile(rf"(?:{_ACTIONS_ZH})(?:后|并|再|及)")


# Where something is sent or filed: "退货直接寄到上海门店" against "退货请寄回我司位于苏州吴中区的
# 退货仓", "送到清音听觉中心审核" against "向所在区公所社会课提出". One action, "submit".
_STOP_ZH = r"(?=提出|提交|递交|申请|审核|审批|办理|处理|受理|就行|就可以|即可|[，。；、,.;]|$)"
_DESTINATION_ZH = re.compile(r"(?:(?:寄|送|交|提交|递交)(?:到|至|回|往|给)|送交)"
                             rf"(?P<agent>[^，。；、：,.;:！？!?\s]{{2,16}}?){_STOP_ZH}")
_TO_WHOM_ZH = re.compile(r"向(?P<agent>[^，。；、：,.;:！？!?\s向]{2,16}?)(?=提出|提交|递交|申请)")
# Who reviews: "applications are processed by the State Hearing Office" against "Soundhaven
# processes the application". Processing, reviewing and assessing a request are one step here.
_REVIEW_EN = r"process|review|assess|evaluat|handl"
_DOER_EN = r"(?:the |our |your |an? )?(?P<agent>[a-z][a-z0-9&'’ -]{1,40}?)"
_PASSIVE_EN = re.compile(rf"\b(?:is|are|be|been|gets?)\s+(?:{_REVIEW_EN})(?:ed|d)\s+by\s+{_DOER_EN}"
                         r"(?=\s*(?:[,.;:()]|$|\b(?:within|in|on|after|before|usually|normally|typically|and|or|"
                         r"who|which|if|when|for|at|itself)\b))")
_ACTIVE_EN = re.compile(rf"(?:^|[,.;:]\s*|\b(?:and|then|that|so)\s+){_DOER_EN}\s+"
                        rf"(?:(?:will|must|should|would|can|may)\s+)?(?:{_REVIEW_EN})(?:es|s|e)?\b")
# Whom to contact about something: "版税结算相关问题请联系版权结算部", "找内容运营部就行".
_CONTACT_ZH = re.compile(r"(?:联系|联络|找|咨询|致电)(?P<agent>[^，。；、：,.;:！？!?\s]{1,12}?(?:部|组|中心|处|科|室|团队|窗口|专线|柜台))"
                         r"(?![\u4e00-\u9fff]{0,2}(?:的|了解))")
_BODY_EN = r"(?P<agent>[a-z][a-z0-9&'’ -]{1,40}?(?:office|desk|team|unit|department|centre|center|hotline))\b"
_CONTACT_EN = re.compile(r"\b(?:contact|call|email|e-mail|reach out to|get in touch with)\s+(?:the |our |your )?" + _BODY_EN)
# "Questions about ChemStore accounts go to the Procurement Help Desk"
_QUESTIONS_GO_EN = re.compile(r"\b(?:questions|queries|enquiries|inquiries|complaints)\b[^;.:]{0,80}?\bgo(?:es)?\s+to\s+"
                              r"(?:the |our )?" + _BODY_EN)
_PRONOUNS = frozenset("we you they it he she i which who that this these those there".split())


def find_agents(folded: str) -> list[tuple[str, int, int]]:
    """(value, start, end) for each doer of an action in normalised text; value "action:doer"."""
    found = [(f"{_SAME_ACTION.get(m['action'], m['action'])}:{m['agent']}", m.start("agent"), m.end("agent"))
             for m in _AGENT_ZH.finditer(folded) if not _TWO_STEPS.search(m["agent"])]
    for pattern, action in ((_DESTINATION_ZH, "submit"), (_TO_WHOM_ZH, "submit"), (_CONTACT_ZH, "contact"), (_CONTACT_EN, "contact"), (_QUESTIONS_GO_EN, "contact"),
                            (_PASSIVE_EN, "review"), (_ACTIVE_EN, "review")):
        for m in pattern.finditer(folded):
            agent = m["agent"].strip()
            if agent and agent.split()[0] not in _PRONOUNS and not agent.isdigit():
                start = m.start("agent")
                found.append((f"{action}:{agent}", start, start + len(agent)))
    return sorted(found, key=lambda f: f[1])


def agents_agree(a: str, b: str) -> bool:
    """The same action by the same doer, one naming it more fully than the other or with half
    its words: "技术部" agrees with "我公司技术部", "我们的退货仓" with "我司位于苏州的退货仓".
    Different actions never clash (see `verifier.qualify`)."""
    action_a, _, doer_a = a.partition(":")
    action_b, _, doer_b = b.partition(":")
    # (where, not who: "送到站里" is "送到站点")
    doer_a, doer_b = (_INSIDE.sub("", d) for d in (doer_a, doer_b))
    if action_a != action_b or doer_a in doer_b or doer_b in doer_a:
        return True
    unit_a, unit_b = _UNIT.search(doer_a), _UNIT.search(doer_b)
    if unit_a and unit_b and not set(unit_a[1]) & set(unit_b[1]):
        return False  # "数据中心的安保部" is not "数据中心运维部", however much of the rest they share
    return max(token_recall(doer_a, doer_b), token_recall(doer_b, doer_a)) >= _SAME_DOER


_SAME_DOER = 0.5
_INSIDE = re.compile(r"(?<=[\u4e00-\u9fff])(?:里|裡|内|那里|那儿)$")
# A unit's own name, the two characters before 部, 科, 处...: "安保" of "数据中心的安保部".
_UNIT = re.compile(r"([\u4e00-\u9fff]{2})[部院所处科站组室局课]$")

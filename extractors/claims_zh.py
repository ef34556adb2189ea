"""Where a Chinese sentence splits into several checkable clauses, and what each carries over.

Pieces between `，`/`；` are grouped: a subordinate or uncheckable piece (a condition, a premise
such as the asker's age or place, a call to attention) joins the clause it leads into, and a
consequence or comparison joins the clause before. A clause without a subject of its own gets
the previous clause's subject (and modal) as a prefix. LAC tags say what is a predicate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Doc

from extractors.claims_clauses import Part
from extractors.numbers_vocab import CUR_PREFIX
from extractors.text import normalise


# A piece may still carry the sentence's closing punctuation and citation markers.
_END = r"[\s。.!?]*(?:(?:\[[^\]]*\]|【[^】]*】)[\s。.!?]*)*$"


@lru_cache(maxsize=1)
def _zh_patterns() -> dict[str, re.Pattern[str]]:
    modal = r"将会|将|会|可以|可|需要|需|必须|须|应当|应该|应|能够|能|要|均|都"
    return {
        "sep": re.compile(r"(?<!\d),(?!\d)|[，;；]"),
        # (仲: Cantonese 还)
        "conj": re.compile(r"\s*(?:并且|并|而且|且|同时|此外|另外|以及|(?:还|仲)(?![是了])|也|但是|但|而)\s*"),
        "also": re.compile(r"\s*(?:还|仲|也)\s*"),
        "modal": re.compile(rf"(?:{modal})"),
        "own_modal": re.compile(rf"\s*(?:不|未|无需|无须|{modal})"),
        "qualifier": re.compile(rf"(?:除外|例外|为准|为限){_END}"),
        # A consequence worked out from the clause before ("不满199元，所以要付配送费15元") is checked with it.
        "consequence": re.compile(r"\s*(?:所以|因此|因而|那么|也就是说?|即係|即是|即)"),
        # So is a comparison with the value before it ("单次198元，比原价298元便宜一百块").
        "comparison": re.compile(r"\s*比(?![例较較率赛賽如方])"),
        # ... and a bare "more than" the value before it ("你换一万蚊，超过港币8,000元，所以要……").
        "beyond": re.compile(r"\s*(?:超过|超過|高于|高於|多于|多於|少于|少於|低于|低於|不到|不足)"
                             r"[^\s，,；;]{0,4}?[\d一二两兩三四五六七八九十百千万萬][\d,.一二两兩三四五六七八九十百千万萬]*"
                             r"\s*[^\s，,；;\d]{0,3}?(?:了|啦)?\s*"),
        # ... and the asker's case judged against the bound before it ("最少要租两天，你们租三天没问题").
        "judged": re.compile(r"[^，,；;]*[\d一二两兩三四五六七八九十百千]+\s*[^\s，,；;\d]{1,3}"
                             r"(?:就)?(?:没问题|没有问题|冇问题|無問題|没問題|没关系|够了|夠了|足够了|足夠了|符合要求|符合条件|符合條件)"
                             rf"(?:的|啦|了)?{_END}"),
        # "只要……发布预警，或者水位超过安全线，活动就会取消": another way the condition is met.
        "alternative": re.compile(r"\s*(?:或者|或是|或)"),
        # A clause about the period the clause before names ("……外墙暂停施工，外墙要避开这段时间") is checked with it.
        "back_reference": re.compile(r"这段(?:时间|期间)|这个时段|这期间|此期间"),
        "clock": re.compile(r"\d+\s*(?:点|:|：)|[上下]午|[早晚]上|[月日号]|星期|周[一二三四五六日天]"),
        "time_word": re.compile(r"(?:第[一二三四1-4]季度?|Q[1-4]|\d{4}\s*年|[上下]半年|本季度?|本年度?|今年|去年)$"),
        "subordinate": re.compile(
            r"^\s*(?:如果|要是|若是|假使|万一|如|若|假如|倘若|只要|除非|当(?![天日月年地前场晚面季期])|一旦|由于|因为|虽然|尽管|为了|对于|关于|根据|按照|依据|依照|凡|针对|基于)"
            rf"|(?:(?<![小按准及临同定])时|时候|期间|的话|嘅话|之后|以后|之前|以前|(?<![最之以])后|(?<![之以目提])前|情况下|条件下){_END}"
        ),
    }


_MODALS_AFTER_ALSO = ("可以", "可", "能", "享")
_ONE_ROUND = re.compile(r"[一每][场次节堂轮趟]")
_PREDICATE = frozenset({"v", "vd", "a", "ad"})
_CONTENT = frozenset({"n", "nz", "nw", "vn", "an", "m", "q", "PER", "LOC", "ORG", "TIME", "t", "s", "r", "f"})
_NOMINAL = frozenset({"n", "nz", "nw", "vn", "an", "PER", "LOC", "ORG", "r", "s", "a"})


@dataclass
class _Piece:
    start: int
    end: int
    core: int  # start after a leading conjunction
    words: list[tuple[int, int, str]]


def _piece_words(words, start, end):
    return [(s, e, t) for s, e, t in words if start <= s < end and t != "w"]


def _checkable_zh(piece: _Piece, norm: str) -> bool:
    words = [w for w in piece.words if w[0] >= piece.core]
    preds = [w for w in words if w[2] in _PREDICATE]
    if len(norm[piece.core : piece.end].strip()) < 3:
        return False
    return bool(preds) and any(w[2] in _CONTENT for w in words) or _nominal_predicate(words, norm) \
        or _price_of_previous(words, norm)


# "运动按摩每次五十分钟，收费二百八十元": a price word and an amount say what the clause before costs.
_PRICE_WORDS = frozenset({"收费", "价格", "售价", "票价", "价钱", "费用", "报价"})


def _price_of_previous(words: list[tuple[int, int, str]], norm: str) -> bool:
    return len(words) >= 2 and norm[words[0][0] : words[0][1]] in _PRICE_WORDS and words[1][2] == "m"


def _nominal_predicate(words: list[tuple[int, int, str]], norm: str) -> bool:
    """A noun followed by an amount or a time of day states a value without a verb:
    "机车月票每月300元", "工作日上午8点到11点半"."""
    first_noun = next((i for i, w in enumerate(words) if w[2] in ("n", "nz", "nw", "ORG", "LOC")), None)
    return first_noun is not None and any(
        tag == "m" or tag == "TIME" and _zh_patterns()["clock"].search(norm, s, e) is not None
        for s, e, tag in words[first_noun + 1 :])


def _verb_as_subject(words: list[tuple[int, int, str]], i: int, norm: str) -> bool:
    """A verb that heads its clause before a modal or preposition is the clause's topic:
    "退款会退回原支付账户", "退款在5个工作日内退回" (LAC tags 退款 a verb)."""
    if words[i][2] not in ("v", "vn") or i + 1 >= len(words):
        return False
    s, e, tag = words[i + 1]
    return tag == "p" or (tag == "v" and _zh_patterns()["modal"].fullmatch(norm, s, e) is not None)


# "有崩口的那把", "超重的那件": a relative clause and a pointer name the thing themselves.
_POINTED = re.compile(r"[\u4e00-\u9fff]{1,10}?的[那这][个把件台位张条双只间辆]")
# "……，剩下的在验收后7天内付清": the rest (of the sum) is the next clause's own subject.
_ZH_REST = re.compile(r"(?:剩下|剩余|其余|余下|剩低)(?:的|嘅)")


def _own_subject(piece: _Piece, norm: str) -> bool:
    words = [w for w in piece.words if w[0] >= piece.core and w[2] not in ("TIME", "t")]
    if not words or _price_of_previous(words, norm):
        return False
    if _POINTED.match(norm, piece.core, piece.end) or _ZH_REST.match(norm, piece.core, piece.end):
        return True
    if words[0][2] in _NOMINAL or words[0][2] == "m" or _verb_as_subject(words, 0, norm):
        return True
    if len(words) > 1 and norm[words[0][0]:words[0][1]].isascii() and words[1][2] in _NOMINAL:
        return True  # "C类", "VIP会员": LAC tags the letters apart
    # "违章押金是2000元": what stands before the copula is the subject, whatever LAC tags its first word.
    copula = next((i for i, (s, e, _) in enumerate(words) if norm[s:e] == "是"), None)
    return copula is not None and any(w[2] in _NOMINAL for w in words[:copula])


_NO_SUBJECT = frozenset({"这", "那", "该", "此", "其", "这个", "那个", "每", "每个", "同", "呢个", "嗰个",
                         "平均", "一般", "通常", "大概", "大约"})  # (adverbs LAC may tag as adjectives)


_VALUE_LEAD = re.compile("|".join(sorted((w for w in CUR_PREFIX if not w.isascii()), key=len, reverse=True))
                         + r"|最低|最高|至少|最多|不低于|不超过")


def _zh_subject(piece: _Piece, norm: str, original: str) -> tuple[str, str]:
    """The leading noun phrase of a clause (time words skipped), and a modal after it."""
    words = [w for w in piece.words if w[0] >= piece.core]
    picked: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        s, e, tag = words[i]
        nxt = words[i + 1][2] if i + 1 < len(words) else ""
        is_time = tag in ("TIME", "t") or _zh_patterns()["time_word"].match(norm, s, e)
        if is_time and not norm.startswith("每", s):
            i += 1
            continue
        if picked and (norm[s:e] == "每" or norm[s:e] in _PRICE_WORDS and nxt == "m"):
            break  # "普通中式菜刀每把十二元", "标志设计收费两千八": the price starts, the subject has ended
        if tag == "a" and i + 1 < len(words) and norm[words[i + 1][0]:words[i + 1][1]] == "了":
            break  # "您多了4坪": an adjective with 了 is what is said of the subject
        if tag in _NOMINAL or (picked and norm[s:e] in ("的", "和", "与", "及") and nxt in _NOMINAL):
            picked.append((s, e))
            i += 1
            continue
        if picked and tag == "v" and i + 1 < len(words) and _ONE_ROUND.fullmatch(norm, *words[i + 1][:2]):
            picked.append((s, e))  # "经典参观一场……": a verb before "one round" names the thing counted
            i += 1
            break
        if not picked and _verb_as_subject(words, i, norm):
            picked.append((s, e))
            i += 1
        break
    while picked and norm[picked[-1][0] : picked[-1][1]] in ("的", "和", "与", "及"):
        picked.pop()
    # A currency or a bound before the value leads into the value, it is no subject to carry:
    # "最低新台幣1,500元，至少要租半年" gives the second part nothing.
    if picked and (lead := _VALUE_LEAD.search(norm, picked[0][0], picked[-1][1])):
        picked = [w for w in picked if w[1] <= lead.start()]  # (LAC may cut "新台币" as 新 / 台币)
    if not picked:
        # LAC cuts some topics apart, a one-character verb and a noun ("陪产假" as 陪/v 产假/n),
        # before a modal or preposition.
        if len(words) > 2 and words[0][2] == "v" and words[0][1] - words[0][0] == 1 and words[1][2] in _NOMINAL \
                and (words[2][2] == "p" or _zh_patterns()["modal"].fullmatch(norm, words[2][0], words[2][1])):
            return original[words[0][0] : words[1][1]], ""
        return "", ""
    subject = "".join(original[s:e] for s, e in picked)
    if normalise(subject) in _NO_SUBJECT:
        return "", ""  # "这束花" cut as 这/束/花: a pointer alone names nothing to carry
    if i < len(words) and words[i][2] in ("v", "d"):
        m = _zh_patterns()["modal"].match(norm, words[i][0], words[i][1])
        if m:
            return subject, original[m.start() : m.end()]
    return subject, ""


_AGE_END = re.compile(r"(?:[0-9]{1,3}|[一二两三四五六七八九十]{1,3})(?:周)?岁(?:半|了)?" + _END)


def _age_premise(piece: _Piece, norm: str) -> bool:
    """"您母亲62岁，可以打九折": a person's age with no verb of its own is the condition the next
    clause answers, not a claim about the sources ("适合6至11岁" has its verb and stays a rule)."""
    return _AGE_END.search(norm, piece.core, piece.end) is not None \
        and not any(t in _PREDICATE for _, _, t in piece.words)


# "你哋喺港島，唔使俾車馬費", "您在浦东，免上门费": where the asker is, the condition the next clause answers
_PLACE_PREMISE = re.compile(r"(?:你|您|我)(?:们|們|哋|家|公司)?(?:住)?(?:在|喺|係)[\u4e00-\u9fff]{1,8}" + _END)


# "您母亲已经头晕，到了室外请立即拨打120": what the asker says has happened, restated as the case the
# next clause answers
_STATE_PREMISE = re.compile(r"(?:你|您|我)(?:们|們|哋|家)?(?:的)?[\u4e00-\u9fff]{0,3}?(?:已经|已經|有点|有點|一直|刚刚|剛剛)"
                            r"(?!.*(?:可以|可|能|需要|须|應|应|要|[0-9一二两三四五六七八九十百千万]))[\u4e00-\u9fff]{1,8}" + _END)


# "你阿媽有綜援，每餐只係收港幣二十蚊": what the asker has or receives, the case the next clause prices
# (not a right or a perk: "您有权退款", "你有免费停车位" are claims)
_HOLDS_PREMISE = re.compile(r"(?:你|您|我)(?:们|們|哋|家)?(?:的)?[\u4e00-\u9fff]{0,3}?(?:有|领|領|拿|持有|属于|屬於)"
                            r"(?![权權]|资格|資格|免费|免費)(?!.*(?:可以|可|能|需要|须|應|应|要|送|包|[0-9一二两三四五六七八九十百千万]))"
                            r"[\u4e00-\u9fff]{1,6}" + _END)


def _premise(piece: _Piece, norm: str) -> bool:
    return _age_premise(piece, norm) or _PLACE_PREMISE.fullmatch(norm, piece.core, piece.end) is not None \
        or _STATE_PREMISE.fullmatch(norm, piece.core, piece.end) is not None \
        or _HOLDS_PREMISE.fullmatch(norm, piece.core, piece.end) is not None


# "成交价不到一百万的，买方服务费最少一万五": a "……的" with no copula names whom the next clause
# is about ("是免费的" is a statement of its own).
_DE_TOPIC = re.compile(r"[^是]*[^是的]的" + _END)

# "绑定一位直系亲属，比如父亲或母亲中的一位，……": an example belongs to the clause it illustrates.
_EXAMPLE = re.compile(r"\s*(?:比如|例如|譬如|像是|诸如|諸如|比方说|比方說)")

# "平时要注意，雨水管道……", "需要注意的是，……": a call to attention states nothing; what it points to follows.
_LEAD_IN = re.compile(r"(?:注意|记住|记得|留意|提醒您?|一提|说明)(?:的是)?\s*$")


def zh_parts(doc: Doc, offset: int, norm: str, original: str) -> list[Part]:
    """Clause parts of one Chinese (or mostly Chinese) sentence at `offset` in the answer."""
    p = _zh_patterns()
    words = [(offset + s, offset + e, t) for s, e, t in doc.user_data.get("lac", ())]
    end = offset + len(doc.text)
    bounds, pos = [], offset
    for m in p["sep"].finditer(norm, offset, end):
        bounds.append((pos, m.start()))
        pos = m.end()
    bounds.append((pos, end))
    pieces = []
    for s, e in bounds:
        c = p["conj"].match(norm, s, e)
        pieces.append(_Piece(s, e, c.end() if c else s, _piece_words(words, s, e)))
    # Group pieces: subordinate or uncheckable pieces join the next clause (or the last one).
    groups: list[list[_Piece]] = []
    pending: list[_Piece] = []
    for piece in pieces:
        text = norm[piece.core : piece.end]
        if groups and not pending and (p["qualifier"].search(text) or p["consequence"].match(norm, piece.start)
                                       or p["comparison"].match(norm, piece.start) or p["back_reference"].search(text)
                                       or p["beyond"].fullmatch(norm, piece.start, piece.end)
                                       or p["judged"].match(norm, piece.start, piece.end)
                                       or _EXAMPLE.match(norm, piece.start)):
            groups[-1].append(piece)
            continue
        alternative = p["alternative"].match(norm, piece.start) is not None and any(
            p["subordinate"].search(norm[g.core : g.end]) for g in pending)
        pending.append(piece)
        if _checkable_zh(piece, norm) and not alternative and not p["subordinate"].search(text) \
                and not _premise(piece, norm) \
                and not _LEAD_IN.search(text) and not _DE_TOPIC.fullmatch(text):
            groups.append(pending)
            pending = []
    if pending:
        if groups:
            groups[-1].extend(pending)
        else:
            groups.append(pending)
    parts: list[Part] = []
    subject, modal = "", ""
    # The asker's person a premise names ("你阿媽有綜援，……") is no subject to carry further: "有飯、
    # 餸、湯同水果" after it speaks of the meal, and stays with the clause it goes on from.
    from_premise = False
    for group in groups:
        # The main clause, not a leading "如果……" piece, gives the group its subject.
        core = next((g for g in group if _checkable_zh(g, norm) and not p["subordinate"].search(norm[g.core:g.end])
                     and not _premise(g, norm)),
                    next((g for g in group if _checkable_zh(g, norm)), group[-1]))
        prefix = ""
        # ("您母亲62岁，可以打九折": the premise names whom the clause is about)
        premise = group[0] if _premise(group[0], norm) and _own_subject(group[0], norm) else None
        if premise is not None:
            subject, modal = _zh_subject(premise, norm, original)
        elif parts and not _own_subject(core, norm):
            # (a semicolon ends a step: "先重新登录刷新一下；还是没到的话，在客服中心提交截图" is two)
            if (not subject or from_premise) and norm[group[0].start - 1 : group[0].start] not in (";", "；"):
                parts[-1] = Part(parts[-1].start, group[-1].end, parts[-1].prefix)
                continue
            # A modal or negation near the start of the clause replaces the carried one.
            own_modal = any(p["own_modal"].match(norm, i, core.end) for i in range(core.core, min(core.core + 4, core.end)))
            prefix = subject if own_modal else subject + modal
        if premise is None and (_own_subject(core, norm) or not parts):
            subject, modal = _zh_subject(core, norm, original)
        from_premise = premise is not None or from_premise and not _own_subject(core, norm)
        start = group[0].core if parts else group[0].start
        if parts and p["also"].fullmatch(norm, group[0].start, group[0].core) and norm.startswith(_MODALS_AFTER_ALSO, start):
            start = group[0].start  # "还可以享受免费早餐" keeps its 还: it extends a rule (verifier.qualify)
        parts.append(Part(start, group[-1].end, prefix))
    return parts or [Part(offset, end)]

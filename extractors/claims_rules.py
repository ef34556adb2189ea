"""Surface rules for the claim splitter: citation markers, hedges, and what is not a claim.

All patterns run on `normalise(text)` (half-width, Simplified, same length), so one
pattern serves full-width and Traditional text and its offsets index the original.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_CITE_ID = r"[A-Za-z]{0,6}\s?\d{1,3}[a-z]?"


@lru_cache(maxsize=1)
def patterns() -> dict[str, re.Pattern[str]]:
    ids = rf"{_CITE_ID}(?:\s*[,;、]\s*{_CITE_ID})*"
    return {
        "citation": re.compile(rf"\[\s*({ids})\s*\]|【\s*({ids})\s*】|\((?:[Ss]ource|[Rr]ef|来源)\s*({ids})\)"),
        "hedge": re.compile(
            r"\b(?:usually|typically|generally|normally|often|mostly|approximately|roughly|probably|likely|"
            r"in most cases|tends? to|estimated|approx\.?)\b"
            r"|\b(?:about|around|nearly|almost)(?=\s*[$€£¥]?\s*\d)|~\s*\d"
            r"|通常|一般|大约|大概|左右|可能|往往|多数情况下|基本上|原则上|约莫|(?<![合预节签违婚制公条契简])约(?=\s*(?:为|在|有|是|占)?\s*[\d一二三四五六七八九十两百千万半])"
        ),
        # Leading text that is greeting or meta and can be cut off a real statement.
        "prefix": re.compile(
            r"\s*(?:(?:hi|hello|hey|dear)\b[^,!.\n]{0,40}[,!]|good (?:morning|afternoon|evening)[,!]?"
            r"|(?:sure|certainly|of course|absolutely|okay|ok|great question)[,!.]"
            r"|(?:based on|according to|per) (?:the )?(?:provided |available |retrieved |given |above |your )?"
            r"(?:documents?|context|sources?|information|passages?|excerpts?|materials?)[,:]"
            r"|(?:您好|你好|嗨|亲爱的[^,!。]{0,12}|尊敬的[^,!。]{0,12}|好的|当然|没问题)[,!。]?"
            r"|根据(?:您)?(?:提供的|现有的?|检索到的|上述|以上)(?:资料|文档|信息|上下文|内容|材料)[,:]?)\s*",
            re.I,
        ),
        "closing": re.compile(
            r"^\s*(?:thanks|thank you|many thanks|cheers|best regards|regards)\b"
            r"|hope (?:this|that|it) helps|let (?:me|us) know|feel free|(?:don't|do not) hesitate|happy to help"
            r"|have a (?:great|nice|good)|if you have any (?:other |further |more )?questions|reach out"
            r"|^\s*(?:感谢|谢谢|多谢)|希望(?:以上|这些|这)?(?:信息|资讯|资料|内容|回答|解答)?(?:能)?(?:对您)?有(?:所)?帮助"
            r"|如有(?:其他|任何|更多|其它)?(?:疑问|问题)|如需(?:进一步|更多)|随时(?:联系|咨询)|祝您|欢迎(?:随时)?(?:咨询|联系)",
            re.I,
        ),
        "request": re.compile(r"^\s*(?:please|kindly|could you|can you|would you|请|烦请|麻烦|劳驾)", re.I),
        "meta": re.compile(
            r"^\s*(?:(?:i|we)(?:'m| am| are|'re)? (?:could not|couldn't|cannot|can't|don't|do not|was unable to)"
            r" (?:find|see|locate|confirm)"
            r"|(?:the )?(?:provided )?(?:documents?|context|sources?) (?:do(?:es)? not|don't|doesn't)"
            r" (?:mention|specify|say|contain|include)"
            r"|here(?:'s| is| are) |below (?:is|are) |the following |以下是|下面是|抱歉|未找到|没有找到)",
            re.I,
        ),
        "bullet": re.compile(r"\s*(?:[-*•·]\s+|\d{1,2}[.)]\s+|\d{1,2}、|[（(]\d{1,2}[)）]\s*|#{1,6}\s+|\*\*|__)"),
        "question": re.compile(r"[?]\s*$|吗\s*$"),
        # A bare yes or no to the question ("要。", "可以。", "不用。"): the next sentence says what.
        "reply": re.compile(r"^(?:不|没|唔|冇)?(?:需要|要|用|可以|可|能|会|行|是的?|对|有|得|使|系)(?:的|啊|呀|喔|哦)?[\s。.!！]*$"),
        "abbrev_end": re.compile(r"(?:\b[A-Za-z]\.[A-Za-z]|\b(?:Inc|Ltd|Co|Corp|etc|approx))\.$"),
        # Trailing text to drop from a claim span: terminal punctuation, markdown, spaces.
        "tail": re.compile(r"[\s.!。…:*_;；,，、]+$"),
    }


def citations_in(norm: str, start: int, end: int) -> tuple[tuple[str, ...], list[tuple[int, int]]]:
    """Citation ids in norm[start:end] (in order, deduplicated) and the marker spans."""
    ids: list[str] = []
    spans: list[tuple[int, int]] = []
    for m in patterns()["citation"].finditer(norm, start, end):
        inner = next(g for g in m.groups() if g is not None)
        for piece in re.split(r"\s*[,;、]\s*", inner.strip()):
            piece = piece.replace(" ", "")
            if piece and piece not in ids:
                ids.append(piece)
        spans.append((m.start(), m.end()))
    return tuple(ids), spans


def trim_span(norm: str, start: int, end: int) -> tuple[int, int]:
    """Shrink [start, end) past bullets, leading spaces, and trailing citations/punctuation."""
    p = patterns()
    while True:
        m = p["bullet"].match(norm, start, end)
        if not m or m.end() == start:
            break
        start = m.end()
    # Leading emoji and symbols are decoration, not part of what is claimed.
    while start < end and (norm[start].isspace() or unicodedata.category(norm[start]) in ("So", "Sk")):
        start += 1
    changed = True
    while changed and start < end:
        changed = False
        last = None
        for c in p["citation"].finditer(norm, start, end):
            last = c
        if last is not None and last.end() == end:
            end, changed = last.start(), True
        m = p["tail"].search(norm, start, end)
        if m is not None and m.start() < end:
            cut = m.start()
            # Keep the dot of an abbreviation ("5 p.m.", "Acme Inc.").
            if norm[cut] == "." and p["abbrev_end"].search(norm, start, cut + 1):
                cut += 1
            if cut < end:
                end, changed = cut, True
    return start, max(start, end)


def strip_prefix(norm: str, start: int, end: int) -> int:
    """Skip a greeting or meta lead-in ("Hi Anna,", "根据提供的资料，")."""
    m = patterns()["prefix"].match(norm, start, end)
    return m.end() if m and m.end() > start else start


def clean_text(original: str, marker_spans: list[tuple[int, int]], start: int, end: int) -> str:
    """The span's text without citation markers, with the spaces they leave collapsed."""
    pieces, pos = [], start
    for s, e in marker_spans:
        if s >= start and e <= end:
            pieces.append(original[pos:s])
            pos = e
    pieces.append(original[pos:end])
    text = "".join(pieces)
    text = re.sub(r"[ \t\u00a0]{2,}", " ", text)
    text = re.sub(r"\s+([,.;:，。；：])", r"\1", text)
    return text.strip()


def is_hedged(norm_text: str) -> bool:
    return patterns()["hedge"].search(norm_text) is not None


def skip_reason(norm_sentence: str, has_fact: bool) -> str | None:
    """Why a sentence (normalised, citations included) is not a claim, or None."""
    p = patterns()
    body = p["citation"].sub("", norm_sentence).strip()
    if not body:
        return "empty"
    if p["question"].search(body):
        return "question"
    if p["closing"].search(body):
        return "closing"
    if p["reply"].match(body):
        return "reply"
    if p["meta"].match(body) and (not has_fact or body.rstrip().endswith(":")):
        return "meta"
    if p["request"].match(body) and not has_fact:
        return "request"
    if body.rstrip(" *").endswith(":") and not has_fact:
        return "lead-in"
    return None

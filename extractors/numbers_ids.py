"""Spans the number extractor must not read as amounts: identifiers (reported) and dates (skipped).

One combined regex scans the normalised text once; where two patterns could start at the
same place the earlier alternative wins (phones before dates before sections before codes).
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from extractors.chinese_numerals import parse_chinese_number
from extractors.schema import Fact, IdentifierValue, Quantity
from extractors.text import match_key

_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?![a-z])\.?"
)
_YEAR = r"(?:19[0-9]{2}|20[0-9]{2}|2100)"
_ZH_D = "[一二三四五六七八九十两]"
_NOT_AMOUNT_AFTER = r"(?![0-9.%]|[ ]?[万亿千百元天日个人小周年月倍%])"

_ALTERNATIVES = [
    ("title", r"《[^》\n]{0,60}》"),
    ("phone", r"\+[0-9]{1,3}[ -]?(?:\([0-9]{1,4}\)[ -]?)?[0-9]{1,4}(?:[ -][0-9]{2,5}){1,4}(?![0-9])"
              r"|(?<![0-9])\([0-9]{3,4}\)[ ]?[0-9]{3,4}[- ][0-9]{4}(?![0-9])"
              r"|(?<![0-9-])(?:1-)?[0-9]{3}-[0-9]{3}-[0-9]{4}(?![0-9-])"
              r"|(?<![0-9])[48]00[ -][0-9]{3}[ -][0-9]{4}(?![0-9])"
              r"|(?<![0-9-])0[0-9]{1,3}-[0-9]{7,8}(?![0-9-])"
              r"|(?<![0-9])1[3-9][0-9]{9}(?![0-9])"),
    # "7×24小时" is round the clock: 24 hours, as "全天24小时" says it.
    ("clock", r"(?<![A-Za-z0-9])(?:7[x×*]24|24[x×*]7)[ ]?(?:小时|hours?|hrs?)(?![A-Za-z])"),
    ("date", r"(?<![0-9.])" + _YEAR + r"[ ]?(?:[-~至到]|to)[ ]?" + _YEAR + r"[ ]?年"
             r"|(?<![0-9])" + _YEAR + r"[ ]?年(?:[ ]?[0-9]{1,2}[ ]?月(?:[ ]?[0-9]{1,2}[ ]?[日号])?)?"
             r"|(?<![0-9.])" + _YEAR + r"[-/.][0-9]{1,2}[-/.][0-9]{1,2}(?![0-9])"
             r"|(?<![0-9.])" + _YEAR + r"[-/][0-9]{1,2}(?![0-9])"
             r"|(?<![0-9.])[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4}(?![0-9])"
             r"|(?<![0-9个])[0-9]{1,2}[ ]?月(?:[ ]?[0-9]{1,2}[ ]?[日号])?"
             r"|[每次上下本当同]个?月[ ]?(?:[0-9]{1,2}|" + _ZH_D + r"{1,3})[ ]?[日号]|(?<![0-9])[0-9]{1,2}[ ]?号"
             r"|(?<![A-Za-z])" + _MONTHS + r"[ ]+[0-9]{1,2}(?:st|nd|rd|th)?(?![0-9])(?:,?[ ]+" + _YEAR + r")?"
             r"|(?<![0-9])[0-9]{1,2}(?:st|nd|rd|th)?[ ]+(?:of[ ]+)?" + _MONTHS + r"(?:,?[ ]+" + _YEAR + r")?"
             r"|(?<![A-Za-z])" + _MONTHS + r",?[ ]+" + _YEAR
             + r"|(?<![A-Za-z0-9])(?:[QH][1-4](?:[ ]?(?:FY)?[ ]?'?(?:" + _YEAR + r"|[0-9]{2}))?|FY[ ]?'?[0-9]{2,4})(?![A-Za-z0-9])"
             r"|(?<![0-9])" + _YEAR + r"[ ]?Q[1-4]"
             r"|(?<![0-9])[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:[ ]?(?i:am|pm|a\.m\.|p\.m\.))?"
             r"|(?<![0-9.])[0-9]{1,2}[ ]?(?i:am|pm|a\.m\.|p\.m\.)(?![A-Za-z])"
             r"|(?:上午|下午|晚上|早上|凌晨|中午|傍晚)[ ]?(?:[0-9]{1,2}|" + _ZH_D + r"{1,3})[ ]?[点时]"
             r"(?:[ ]?半|[ ]?(?:[0-9]{1,2}|" + _ZH_D + r"{1,3})[ ]?分)?"
             r"|(?<![0-9.])[0-9]{1,2}[ ]?[点时](?:[ ]?半|[ ]?[0-9]{1,2}[ ]?分)?"
             r"|" + _ZH_D + r"{1,3}点(?:半|钟|" + _ZH_D + r"{1,3}分)"
             r"|[〇零一二三四五六七八九]{4}年"
             r"|(?<![个一二三四五六七八九十两])" + _ZH_D + r"{1,3}月(?:" + _ZH_D + r"{1,3}[日号])?"
             r"|第?[一二三四1-4][ ]?季度"
             r"|(?:周|星期|礼拜)[一二三四五六日天]"),
    ("sect", r"(?i:(?<![A-Za-z])(?:section|sec\.|article|art\.|clause|chapter|part|appendix|annex|paragraph|para\.|rule)"
             r"[ ]?(?P<sn>[0-9]+(?:\.[0-9]+)*[a-z]?)(?![0-9]))"
             r"|§[ ]?(?P<sn2>[0-9]+(?:\.[0-9]+)*)"
             r"|第[ ]?(?P<sn3>[0-9]+(?:\.[0-9]+)*|[零一二三四五六七八九十百两]+)[ ]?[条章节款项篇]"),
    ("ref", r"(?:(?i:(?<![A-Za-z])(?:see|refer to|under|in section))|参见|详见|参照|见|依据|根据|按照)[ ]?"
            r"(?P<rn>[0-9]+\.[0-9]+)" + _NOT_AMOUNT_AFTER),
    ("multi", r"(?<![0-9.])[0-9]+(?:\.[0-9]+){2,}(?![0-9])"),
    ("head", r"(?m:^[ \t]*(?P<hn>[0-9]+\.[0-9]+)(?=[ \t]+(?:[A-Z][a-z]|[\u4e00-\u9fff](?<![万亿千百元天日个人小周年月倍]))))"),
    ("ver", r"(?i:(?<![A-Za-z0-9])v(?P<vn>[0-9]+(?:\.[0-9]+)*)(?![0-9])"
            r"|(?<![A-Za-z])version[ ]?(?P<vn2>[0-9]+(?:\.[0-9]+)*))"
            r"|版本号?[ ]?(?P<vn3>[0-9]+(?:\.[0-9]+)*)"),
    ("tyear", r"(?:Policy|Handbook|Guide|Guidelines|Standard|Plan|Manual|Rules|Regulations?|Act|Edition|Framework"
              r"|Programme|Program|Code|制度|办法|规定|手册|政策|指南|规范|细则|标准|条例)[ ]?(?P<ty>" + _YEAR
              + r")(?![0-9年])"),
    ("label", r"(?<![A-Za-z])(?:Priority|Severity|Sev|Level|Tier|Phase|Step|Stage|Grade|Band|Room|Floor|Gate"
              r"|Terminal|Building|Option|Model|Page)[ ]?[0-9]+(?![0-9.,%])"
              r"|(?<![A-Za-z0-9])(?:T\+[0-9]+|24/7|24x7|7x24|7×24|50/50)(?![0-9])"),
    ("code", r"(?<![A-Za-z0-9])(?!(?:RMB|CNY|USD|EUR|HKD|TWD|NTD|GBP|JPY|AUD|CAD|SGD|US|HK|NT|FY)[0-9 ])"
             r"(?:[A-Z]{1,6}[0-9]{2,}[A-Z0-9]*|[A-Z]{1,6}[-_][0-9]+(?:[-_][A-Z0-9]+)*|ISO[ ]?[0-9]{3,5})(?![A-Za-z0-9])"
             r"|#[0-9]+(?![0-9])|(?<![0-9])[0-9]{3}\([a-z]\)"),
]
_SCHEME = {"phone": "phone", "sect": "section", "ref": "section", "multi": "section", "head": "section",
           "ver": "other", "label": "other", "tyear": "year_in_title", "code": "code"}
_SUBGROUP = {"sect": ("sn", "sn2", "sn3"), "ref": ("rn",), "head": ("hn",), "ver": ("vn", "vn2", "vn3"), "tyear": ("ty",)}
_TITLE_YEAR = re.compile(r"(?<![0-9])" + _YEAR + r"(?![0-9])")


@lru_cache(maxsize=1)
def _special() -> re.Pattern[str]:
    return re.compile("|".join(f"(?P<{name}>{body})" for name, body in _ALTERNATIVES))


_TRIGGER = re.compile(r"[0-9〇零一二三四五六七八九十两]+")
_MARGIN = 64  # longer than any pattern reaches from its nearest digit (titles: 62)


def _windows(n: str) -> list[tuple[int, int]]:
    """Stretches around digits; every pattern needs one, so the rest of the text is never scanned."""
    out: list[list[int]] = []
    for m in _TRIGGER.finditer(n):
        s, e = max(0, m.start() - _MARGIN), min(len(n), m.end() + _MARGIN)
        if out and s <= out[-1][1]:
            out[-1][1] = e
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def special_spans(text: str, n: str) -> tuple[list[Fact], list[tuple[int, int]]]:
    """Identifier facts, and every span (identifiers and dates) numbers must stay out of."""
    facts: list[Fact] = []
    blocked: list[tuple[int, int]] = []
    matches = (m for s, e in _windows(n) for m in _special().finditer(n, s, e))
    for m in matches:
        kind = m.lastgroup
        blocked.append(m.span())
        if kind == "date":
            continue
        if kind == "clock":
            facts.append(Fact(kind="number", text=text[m.start():m.end()], start=m.start(), end=m.end(),
                              value=Quantity(value=Decimal(24), unit="hour")))
            continue
        if kind == "title":
            for y in _TITLE_YEAR.finditer(n, m.start(), m.end()):
                facts.append(_fact(text, y.start(), y.end(), "year_in_title", y.group(0)))
            continue
        start, end = m.span()
        key_part = m.group(0)
        for g in _SUBGROUP.get(kind, ()):
            if m.group(g) is not None:
                key_part = m.group(g)
                if kind in ("ref", "head", "tyear"):
                    start, end = m.span(g)
                    blocked[-1] = (start, end)
                break
        facts.append(_fact(text, start, end, _SCHEME[kind], _key(_SCHEME[kind], kind, key_part)))
    return facts, blocked


def _key(scheme: str, kind: str, part: str) -> str:
    if scheme == "phone":
        return re.sub(r"[^0-9+]", "", part)
    if scheme == "section" and not part[0].isdigit():
        value = parse_chinese_number(part)
        return str(value) if value is not None else part
    if kind == "ver":
        return "v" + part
    return match_key(part) if kind in ("code", "label") else part


def _fact(text: str, start: int, end: int, scheme: str, key: str) -> Fact:
    return Fact(kind="identifier", text=text[start:end], start=start, end=end,
                value=IdentifierValue(scheme=scheme, key=key))  # type: ignore[arg-type]

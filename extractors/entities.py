"""Named entities (PERSON, ORG, GPE/LOC, PRODUCT, LAW, CODE, ...) in English and Chinese.

Statistical entities come from the Analyzer's pipelines (spaCy NER for English, LAC for
Chinese); document titles and codes come from rules, which win where they overlap a
statistical entity because they are precise where the models are weakest.

CODE split with numbers.py: this module tags code-like tokens (`E7782`, `INV-2024-0042`)
as CODE so that `extract_entities` stands on its own; `extract_facts` then drops every
CODE entity that overlaps an identifier from numbers.py, so a code is reported once,
as an identifier, whenever numbers.py recognises it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from spacy.tokens import Doc

from extractors.nlp import Analyzer
from extractors.schema import EntityValue, Fact
from extractors.text import match_key, to_halfwidth

# spaCy labels we keep; numeric and temporal ones belong to the number/date extractors.
_EN_LABELS = {
    "PERSON": "PERSON",
    "ORG": "ORG",
    "GPE": "GPE",
    "LOC": "LOC",
    "FAC": "LOC",
    "PRODUCT": "PRODUCT",
    "LAW": "LAW",
    "EVENT": "EVENT",
    "NORP": "NORP",
    "WORK_OF_ART": "MISC",
    "LANGUAGE": "MISC",
}
# Labels the small English model hands to capitalised common nouns ("Refunds" -> GPE);
# kept only when a proper-noun token backs them.
_NEEDS_PROPER = frozenset({"PERSON", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "NORP", "MISC"})

_DOC_NOUNS = (
    r"Policy|Policies|Act|Handbook|Agreement|Regulations?|Guidelines?|Procedures?|Manual|Charter|"
    r"Directive|Law|Code of Conduct|Terms of Service|Terms and Conditions|Standard|Rules|Framework"
)
_TITLE_WORD = r"(?:[A-Z][A-Za-z&'\-]*|and|of|for|on|&)"
# Capitalised sentence openers that precede a title without being part of it.
_TITLE_OPENERS = frozenset("The Our Your This That Their Its Under Per Each Every A An".split())


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    return {
        # 《差旅制度 2024》: the title without the marks.
        "zh_title": re.compile(r"《([^《》\n]{1,60})》"),
        # "the Travel and Expense Policy 2024", "Data Protection Act 2018".
        "en_title": re.compile(
            rf"\b[A-Z][A-Za-z&'\-]*(?:\s+{_TITLE_WORD}){{0,7}}?\s+(?:{_DOC_NOUNS})\b(?:\s+(?:19|20)\d\d\b)?"
        ),
        # A quoted title: “Remote Work Guidelines” / "Refund Rules".
        "quoted": re.compile(r"[\"“]([A-Z][^\"“”\n]{2,80}?)[\"”]"),
        # Letters then digits, optionally dash-joined: E7782, INV-2024-0042, SKU-88812.
        "code": re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Za-z]{0,5}[-_#]?\d{2,}(?:[-_][A-Za-z0-9]+)*(?![A-Za-z0-9])"),
        "not_code": re.compile(r"(?:Q[1-4]|H[12]|FY\d{2,4}|[A-Z]\d{2}[A-Z]?)$"),
    }


def _entity(text: str, start: int, end: int, label: str) -> Fact:
    return Fact(
        kind="entity",
        text=text[start:end],
        start=start,
        end=end,
        value=EntityValue(label=label, key=match_key(text[start:end])),
    )


def rule_entities(text: str) -> list[Fact]:
    """Document titles (LAW) and codes (CODE) found by pattern, in both languages."""
    p = _patterns()
    scan = to_halfwidth(text)
    found: list[Fact] = []
    for m in p["zh_title"].finditer(scan):
        s, e = _strip(scan, m.start(1), m.end(1))
        if s < e:
            found.append(_entity(text, s, e, "LAW"))
    for m in p["en_title"].finditer(scan):
        s = m.start()
        first = scan[s : m.end()].split(None, 1)[0]
        if first in _TITLE_OPENERS:
            s += len(first) + 1
        found.append(_entity(text, s, m.end(), "LAW"))
    for m in p["quoted"].finditer(scan):
        if re.search(rf"(?:{_DOC_NOUNS})\b", m.group(1)):
            found.append(_entity(text, m.start(1), m.end(1), "LAW"))
    for m in p["code"].finditer(scan):
        if not p["not_code"].match(m.group()):
            found.append(_entity(text, m.start(), m.end(), "CODE"))
    return found


def _strip(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


# LAC was trained on Mandarin: it reads Cantonese pronouns and particles as names (佢哋, 仲要)
# and glues the preposition 喺 ("at") to the place after it (喺維港軒).
_CANTONESE_LEAD = "喺俾畀"
_CANTONESE_FUNCTION = frozenset("佢哋我你仲要咗嘅啲唔冇係喺俾畀同")


# Particles and the third-person pronoun no name holds ("佢玩唔到": "he can't play").
_NEVER_IN_NAMES = frozenset("佢唔咗嘅啲冇哋")


def _cantonese_trim(text: str, s: int, e: int) -> tuple[int, int]:
    if all(ch in _CANTONESE_FUNCTION for ch in text[s:e]) or any(ch in _NEVER_IN_NAMES for ch in text[s:e]):
        return s, s
    while e - s > 2 and text[s] in _CANTONESE_LEAD:
        s += 1
    return s, e


# LAC reads "all" after a name as the end of an organisation's name (…所, as in 事务所):
# "百汇所有门店" gives ORG 百汇所有, "华联所有分店" ORG 华联所.
def _quantifier_trim(text: str, s: int, e: int) -> tuple[int, int]:
    if text.endswith("所有", s, e):
        return s, e - 2
    if text.endswith("所", s, e) and text.startswith("有", e):
        return s, e - 1
    return s, e


def doc_entities(doc: Doc, text: str, offset: int) -> list[Fact]:
    """Statistical entities of `doc`, which was parsed from text[offset:offset+len(doc.text)]."""
    if doc.lang_ != "en":
        # LAC's own character spans: jieba tokens can glue a name to the next word (张三在).
        found = []
        doc_text = doc.text  # Doc.text is rebuilt from the tokens on every access
        for start, end, label in doc.user_data.get("lac_ents", ()):
            s, e = _strip(doc_text, start, end)
            s, e = _quantifier_trim(doc_text, *_cantonese_trim(doc_text, s, e))
            if e - s >= 2:
                found.append(_entity(text, offset + s, offset + e, label))
        found.extend(_lac_products(doc_text, doc.user_data.get("lac", ()), text, offset))
        return found
    found = []
    for ent in doc.ents:
        label = _EN_LABELS.get(ent.label_)
        if label is None:
            continue
        tokens = list(ent)
        while tokens and (tokens[0].lower_ in ("the", "a", "an") or tokens[0].is_punct):
            tokens.pop(0)
        while tokens and tokens[-1].is_punct:
            tokens.pop()
        if not tokens:
            continue
        if label in _NEEDS_PROPER and not any(t.tag_ in ("NNP", "NNPS") for t in tokens):
            continue
        start = offset + tokens[0].idx
        end = offset + tokens[-1].idx + len(tokens[-1].text)
        found.append(_entity(text, start, end, label))
    return found


_PERIOD_ENDINGS = ("日", "假", "期", "节")
# Currencies are the number check's ("港币300元"), not names to find.
_CURRENCY_NAMES = frozenset({"港币", "港幣", "港元", "新台币", "新台幣", "台币", "台幣", "人民币", "人民幣", "美元", "日元",
                             "欧元", "歐元", "英镑", "英鎊", "澳元", "加元"})


def _lac_products(doc_text: str, words, text: str, offset: int) -> Iterable[Fact]:
    # LAC's "nz" (proper noun) on Chinese words is a brand or product (支付宝, 微信支付);
    # on Latin words inside Chinese it is too often a plain term ("Cross-encoder"), and on
    # words for periods it is a calendar term ("法定节假日", "工作日"), which the date check reads.
    for start, end, tag in words:
        s, e = _strip(doc_text, start, end)
        word = doc_text[s:e]
        if (tag == "nz" and len(word) >= 2 and all("\u3400" <= ch <= "\u9fff" for ch in word)
                and not word.endswith(_PERIOD_ENDINGS) and word not in _CURRENCY_NAMES):
            yield _entity(text, offset + s, offset + e, "PRODUCT")


def resolve_entities(rules: list[Fact], statistical: list[Fact]) -> list[Fact]:
    """Rule entities win over overlapping statistical ones; a statistical entity that
    equals a code is relabelled CODE by dropping it in favour of the rule's."""
    kept = list(rules)
    for fact in statistical:
        if not any(fact.start < r.end and r.start < fact.end for r in rules):
            kept.append(fact)
    kept.sort(key=lambda f: (f.start, -f.end))
    out: list[Fact] = []
    for fact in kept:
        # Nested rule matches (a code inside a title) stay; exact duplicates do not.
        if out and out[-1].start == fact.start and out[-1].end == fact.end:
            continue
        out.append(fact)
    return out


def extract_entities(text: str, analyzer: Analyzer, lang: str | None = None) -> list[Fact]:
    """Entities in `text`, sorted by start; offsets index `text` itself."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    statistical: list[Fact] = []
    for (start, _), doc in analyzer.parse_spans(text, analyzer.sentences(text), lang=lang):
        statistical.extend(doc_entities(doc, text, start))
    return resolve_entities(rule_entities(text), statistical)

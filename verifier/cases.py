"""How a sentence is cut into cases, and the words that name each case.

"30 days for Economy or 15 days for Priority" is cut between its values at the strongest boundary
found there (sentence end, then ；/:, then or/and/while/而/但, then a comma) into groups, one per
case; `case_words` (and, by the sentence's pattern, `english_sides` and `first_case_clause`) are the
words that name a group's case rather than the topic, `own_words` the claim's words around its value.
`verifier.binding` decides from them which case a value belongs to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors import Claim, Fact
from extractors.compare import same_dimension
from extractors.tokens import content_tokens

SENTENCE_END = re.compile(r"[。！？!?]|\.(?=\s+[A-Z])")
_BOUNDARIES = (SENTENCE_END, re.compile(r"[；;:：]"),
               re.compile(r"\b(?:or|and|while|whereas|but)\b|而|但|或者|或|以及", re.IGNORECASE), re.compile(r"[，,]"),
               re.compile(r"、"))  # after the comma: "收衣后3天，羽绒服、大衣类为5天" lists one case's items
_COMMA_LEVEL = 3


@dataclass(frozen=True)
class Group:
    start: int  # in the text the values were found in
    end: int
    values: tuple[Fact, ...]


def value_groups(text: str, offset: int, values: list[Fact], start: int = 0, end: int | None = None
                 ) -> list[Group] | None:
    """`text[start:end]`, holding `values` (sorted, two or more; `text` starts at `offset` in
    their coordinates), cut where the strongest boundary between two neighbouring values stands;
    None when no neighbours have a boundary between them (one clause, not parallel cases)."""
    end = len(text) if end is None else end
    gaps = [(a.end - offset, b.start - offset) for a, b in zip(values, values[1:])]
    for level, pattern in enumerate(_BOUNDARIES):
        # Of several commas, the first after a value ends its case: "基本安装费为1,500元，若门板需要
        # 重新开孔，另加收800元" gives the condition to the 800.
        pick = 0 if level >= _COMMA_LEVEL else -1
        cuts = [found[pick].start() for lo, hi in gaps if lo < hi
                for found in [list(pattern.finditer(text, lo, hi))] if found]
        if cuts:
            # What stands before a colon in the first group heads every group ("价目：A 180元，B 220元").
            head = max((m.end() for m in re.finditer(r"[:：]", text[start : values[0].start - offset])), default=0)
            # The groups end with the sentences of their values (`text` may be a window of several).
            first = max((m.end() for m in SENTENCE_END.finditer(text, start, values[0].start - offset)), default=start)
            # A stronger boundary after the last value ends its case too: "冷热款每月25元；一次性购买…".
            after = values[-1].end - offset
            ends = [m.end() for m in [SENTENCE_END.search(text, after, end)] if m]
            ends += [m.start() for p in _BOUNDARIES[1:level] for m in [p.search(text, after, end)] if m]
            last = min(ends, default=end)
            bounds = [max(start + head, first), *cuts, last]
            return [Group(a, b, tuple(v for v in values if a <= v.start - offset < b))
                    for a, b in zip(bounds, bounds[1:])]
    return None


def word_keys(text: str) -> frozenset[str]:
    # A light prefix key: "transfer" in the claim finds "transfers" in the source.
    return frozenset(map(word_key, content_tokens(text)))


def word_key(token: str) -> str:
    return _ADDITIONAL.get(token, token[:6]) if token.isascii() else token


# "the second flue" is what "each additional flue" prices, as is "an extra flue".
_ADDITIONAL = dict.fromkeys(("second", "third", "fourth", "subsequent", "extra", "further", "additional"), "additi")

# A size bound that leads a case before its name: "10公斤以下小型犬", "10至25公斤中型犬".
_ZH_MEASURE = r"(?:公斤|千克|斤|克|周岁|週歲|岁|歲|个月|個月|公分|厘米|平方米|平米|米|人|kg|cm|m)"
_SIZE_BOUND_LEAD = re.compile(r"^\W*\d+(?:\.\d+)?(?:(?:[至到~-]\d+(?:\.\d+)?" + _ZH_MEASURE + r")|"
                              + _ZH_MEASURE + r"(?:以下|以上|以内|及以上|或以上))(?=[\u4e00-\u9fff]{2})")


def case_words(text: str, known_names: frozenset[str] = frozenset()) -> frozenset[str]:
    """The words that name a case rather than the topic: capitalised names in English ("for
    Priority", "Gold members"); in Chinese the case leads its clause ("专业版保留30天"). The
    topic often sits only in the first case ("回收站文件保留7天；专业版保留30天"), so topic words
    prove nothing. A capital that starts a sentence or clause ("Printing costs …") is a name
    only when it is one of `known_names` (`names_in`: capitalised mid-sentence elsewhere)."""
    text = text.strip(" ,;，；、")
    names = word_keys(" ".join(re.findall(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}", text)))
    names |= word_keys(" ".join(re.findall(r"(?:^|(?<=[.!?;]\s))[A-Z][a-z]{2,}", text))) & known_names
    # A bracketed word right after the lead is its variant: 羽絨（短款）.
    # A count may lead the case: "19座1200元，33座1600元"; a size bound before a name is the name's
    # measure: "10公斤以下小型犬168元，10至25公斤中型犬228元" names 小型犬 and 中型犬.
    text = _SIZE_BOUND_LEAD.sub("", text, count=1)
    lead = re.match(r"\W*((?:[A-Za-z][A-Za-z0-9]*)?[\u4e00-\u9fff]{2,}|\d+[\u4e00-\u9fff])(?:[（(]([^）)]{1,8})[）)])?", text)
    if not lead:
        return names
    words = names | frozenset(content_tokens(lead.group(1))[:2]) | frozenset(content_tokens(lead.group(2) or ""))
    # A list of cases leads it too: "访问学者及已工作人士为年租金的9%" names both
    listed = _ZH_LISTED_CASES.match(lead.group(1))
    for item in re.split(r"及|和|与|與|、", listed.group(1)) if listed else ():
        words |= frozenset(content_tokens(item)[:2])
    return words


_ZH_LISTED_CASES = re.compile(r"((?:[\u4e00-\u9fff]{2,6}(?:及|和|与|與|、))+[\u4e00-\u9fff]{2,6}?)(?=为|為|是|的|可|须|須|需|享|按|每|收)")


def names_in(text: str) -> frozenset[str]:
    """Keys of the words `text` capitalises mid-sentence: names, wherever else they stand."""
    return word_keys(" ".join(re.findall(r"(?<![.!?;:]\s)(?<=\s)[A-Z][a-z]{2,}", text)))


CJK = re.compile(r"[\u3400-\u9fff]")


def own_words(fact: Fact, claim: Claim) -> frozenset[str] | None:
    """The claim's words around `fact`, cut like the span's when the claim has parallel values
    too ("$320 for five sessions or $600 for ten"); None when they cannot be told apart ("to
    18.5% from 16.9%")."""
    inside = sorted((o for o in claim.facts if o.kind == fact.kind and same_dimension(fact, o)), key=lambda o: o.start)
    start, end = 0, len(claim.text)
    while len(inside) > 1:
        groups = value_groups(claim.text, claim.start, inside, start, end)
        if groups is None:
            return None
        mine = next(g for g in groups if fact in g.values)
        if len(mine.values) == len(inside):
            return None
        start, end, inside = mine.start, mine.end, list(mine.values)
    at = claim.text.find(fact.text, start, end)
    return case_keys(claim.text[start:end], [(at - start, at - start + len(fact.text))] if at >= 0 else []) \
        - word_keys(fact.text)


def case_keys(text: str, values: list[tuple[int, int]]) -> frozenset[str]:
    """The words of `text` around its values (spans in `text`), none across a value's edge
    ("8堂港幣1,480元" gives no 堂港). A Chinese character standing alone before a value is a word
    ("裙" in "短褲或裙每件港幣150元"), unless it counts what a number before it says ("8堂")."""
    blanked = blank(text, values)
    found = set(word_keys(blanked))
    for a, _ in values:
        if a > 0 and CJK.match(text[a - 1]) and text[a - 1] not in _BEFORE_VALUE and not (a > 1 and text[a - 2].isdigit()):
            found.update(content_tokens(text[a - 1]))
    for m in _COUNTER.finditer(blanked):
        found.difference_update(content_tokens(m.group(1)))
    return frozenset(found)


# Verbs and particles that stand before a value in every case ("每月繳2,500元", "收费是…"): no case word.
_BEFORE_VALUE = frozenset("是为為缴繳收付要需交约約共计計只仅僅达達至到按加减減送退补補打需另再")
_COUNTER = re.compile(r"(?<=\d)([\u4e00-\u9fff])(?![\u4e00-\u9fff])")


def blank(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span (a value) replaced by spaces of its length: no Chinese character pair
    across a value's edge ("8堂港幣1,480元" gives no 堂港) counts as a word of the case."""
    for a, b in spans:
        if 0 <= a <= b <= len(text):
            text = text[:a] + " " * (b - a) + text[b:]
    return text


def first_case_clause(groups: list[Group], text: str, offset: int) -> int | None:
    """Where the first group's own case starts when a topic clause leads it and the later groups
    have none: in "饮水机可租用，温热款每月15元，冷热款每月25元" the first case is 温热款, not the topic
    饮水机 (which a claim about 冷热款 names too). None when every group has a clause before its
    value ("个人用户，每桶22元；企业用户，每桶18元": there the clause is the case)."""
    if len(groups) < 2 or not CJK.search(text[groups[0].start:groups[0].end]):
        return None

    def clause_cut(g: Group) -> int | None:
        # (the offset in `text` after the last comma before the group's first value)
        head = text[g.start:g.values[0].start - offset]
        cut = max((m.end() for m in re.finditer(r"[，,]", head.lstrip(" ,;，；、"))), default=None)
        return None if cut is None else g.start + len(head) - len(head.lstrip(" ,;，；、")) + cut

    if any(clause_cut(g) is not None for g in groups[1:]):
        return None
    return clause_cut(groups[0])


def names_sibling(namer: frozenset[str], group_text: str) -> bool:
    """Whether the claim names a sibling of the group's Chinese case rather than the case: 双板套装
    beside 单板套装, 冷热款 beside 温热款. The shared character pair (板套, 热款) says only that
    both are cases of one kind; the lead pair (单板) is the one that names it."""
    lead = re.match(r"\W*([\u4e00-\u9fff]{2,})", group_text.strip(" ,;，；、"))
    first = content_tokens(lead.group(1))[:1] if lead else []
    if not first or len(first[0]) != 2 or first[0] in namer:
        return False
    return any(len(t) == 2 and t[1] == first[0][1] and t != first[0] and CJK.match(t) for t in namer)


_ELLIPTICAL = re.compile(r"[\s,;]*(?:or|and|but)\s+(?:\w+ly\s+)?\w+ed\b", re.IGNORECASE)
_PARTICIPLE = re.compile(r"\b\w{3,}ed\b")


def english_sides(groups: list[Group], text: str, offset: int) -> tuple[dict[int, frozenset[str]], frozenset[str]]:
    """The words that name each English group's case. Parallel English cases either lead their
    values ("seniors aged 65 pay 50%; students aged 18 to 25 pay 70%") or trail them ("15 cents
    per black-and-white page and 50 cents per colour page"); the later groups show which, and in
    the trailing pattern what leads the first group is the topic ("Printing costs"). Words the
    groups share there are the slot, not the case ("page"); a leading case stands before them
    ("Standard members may claim interim expenses …, and Gold members may claim …": "Standard",
    not the topic "interim expenses"). Used for a group with no capitalised case name: in "99.9%
    monthly availability for Standard and 99% for Cool" "Standard" is the case. With the names,
    the topic's words in the trailing pattern (none in the leading one)."""
    if any(CJK.search(text[g.start:g.end]) for g in groups):
        return {}, frozenset()

    def words(a: int, b: int) -> list[str]:
        return [word_key(t) for t in content_tokens(text[a:b]) if not any(ch.isdigit() for ch in t)]

    before = [words(g.start, g.values[0].start - offset) for g in groups]
    # "A CCTV flue inspection can be added to a sweep for £60, or booked on its own for £95": the
    # later cases go on with the first one's subject, so that is the topic, and the case starts
    # at the first one's verb.
    if all(_ELLIPTICAL.match(text, g.start, g.values[0].start - offset) for g in groups[1:]) \
            and (verb := _PARTICIPLE.search(text, groups[0].start, groups[0].values[0].start - offset)):
        before[0] = words(verb.start(), groups[0].values[0].start - offset)
    after = [words(g.values[-1].end - offset, g.end) for g in groups]
    if all(before[1:]) and not any(after[1:]):
        sides, lead = before, True
    elif all(after[1:]) and not any(before[1:]):
        sides, lead = after, False
    else:
        return {}, frozenset()  # words on both sides of the later values: no telling which name the case
    out = {}
    for k, (g, side) in enumerate(zip(groups, sides)):
        shared = frozenset().union(*(frozenset(o) for m, o in enumerate(sides) if m != k))
        cut = next((i for i, w in enumerate(side) if w in shared), len(side)) if lead else 0
        out[id(g)] = frozenset(side[:cut]) or frozenset(side) - shared
    return out, frozenset() if lead else frozenset(before[0]) - frozenset(after[0])

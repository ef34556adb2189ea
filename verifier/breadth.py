"""Claims stated more broadly than the evidence they rest on.

The words all match, so a small model (and the rules that support close paraphrases without
it) reads these as supported:

- broadened claims: "allowed for all flights" where the evidence says "for flights of 6 hours or
  more" (a universal the evidence lacks), or "a Vice President or a director" where it names only
  the Vice President (an added alternative).
- values for a group: "up to $80 per day" where the evidence gives $80 only to "Gold members"
  (and $50 to everyone else), when neither the claim nor the asker names the group.
- dropped conditions: "Shipping is free" where the evidence says "free for orders over $75" (a
  threshold, a cap the claim calls "all", or an "if" the claim leaves out).
"""

from __future__ import annotations

import re
from typing import Sequence

from extractors import Claim, Fact, extract_numbers
from extractors.compare import compare_facts, same_dimension
from extractors.nlp import previous_sentence
from extractors.numbers import english_number_words
from extractors.qualifiers import clauses, find_qualifiers
from extractors.text import normalise
from extractors.tokens import content_tokens, token_recall
from verifier.comparison import satisfies
from verifier.fact_result import FactResult
from verifier.segment import Span

_UNIVERSAL = re.compile(r"\b(?:all|any|every|everyone|everybody|anyone|anybody|anything|everything|always|"
                        r"whatever|whenever|wherever|regardless|no matter)\b|所有|任何|一律|全部|一切|"
                        r"无论|不论|任意|凡是|总是|始终|均可|都可以|都能", re.IGNORECASE)
_COORDINATOR = re.compile(r"\b(?:or|and|nor)\b|或者|或是|以及|或|及|和|与")
_COORDINATED_WORDS = 2
_ASKER = re.compile(r"\s*(?:你|您|我|咱|(?:you|me|us)\b)", re.IGNORECASE)
_RESTRICTION_REACH = 20  # characters from a universal to the value that restricts it
_NUMERAL_WORDS = frozenset("half quarter third one two three four five six seven eight nine ten".split())  # "time and a half"


def _word_key(token: str) -> str:
    # The light stemmer leaves "taxis" whole; four letters are enough to tell an added word.
    return token[:4] if token.isascii() else token


def broadens(claim: Claim, span_text: str) -> str | None:
    """The words by which the claim says more than the span while using its words: a universal
    ("all", "任何") the span lacks, or an `added_alternative`. None when there is none."""
    return _unstated_universal(claim, span_text) or added_alternative(claim, span_text)


def _unstated_universal(claim: Claim, span_text: str) -> str | None:
    span = normalise(span_text)
    stated = {m.group().lower() for m in _UNIVERSAL.finditer(span)}
    all_hours = _ALL_HOURS.search(span) is not None
    text = normalise(claim.text)
    for m in _UNIVERSAL.finditer(text):
        # "any hours beyond 40" is restricted by its value; "all flights" is not.
        restricted = any(0 <= f.start - m.end() <= _RESTRICTION_REACH for f in claim.facts)
        # "at any hour, every day of the year" is what "24 hours a day, 365 days a year" says.
        of_time = all_hours and _TIME_UNIT.match(text, m.end()) is not None
        if m.group().lower() not in stated and not restricted and not of_time:
            return m.group()
    return None


_DAY_OR_NIGHT = re.compile(r"\b(?:day (?:or|and) night|night (?:or|and) day)\b|日夜|昼夜|晝夜|白天(?:或|和)晚上", re.IGNORECASE)
_ALL_HOURS = re.compile(r"24\s*(?:hours?|hrs?|/\s*7|小时|小時)|365\s*(?:days|天|日)|(?:a)?round[- ]the[- ]clock|"
                        r"7\s*[×x*]\s*24|全天候|全年无休|全年無休|二十四小时|二十四小時", re.IGNORECASE)
_TIME_UNIT = re.compile(r"\s*(?:hours?|times?|days?|nights?|weeks?|时间|時間|时候|時候|时段|時段|日子)", re.IGNORECASE)


def added_alternative(claim: Claim, span_text: str) -> str | None:
    """An alternative or addition joined by "or"/"and"/"或" whose words the span lacks: "a Vice
    President or a director" where the span names only the Vice President. Unlike a universal
    ("All flights must be booked through Navan"), it is never implied by the span."""
    text = normalise(claim.text)
    have = frozenset(map(_word_key, content_tokens(span_text)))
    # (facts carry answer offsets, and a claim's text may carry a subject its source text lacks)
    values = [(m.start(), m.end()) for f in claim.facts for m in re.finditer(re.escape(f.text), claim.text)]
    all_hours = _ALL_HOURS.search(normalise(span_text)) is not None
    for m in _COORDINATOR.finditer(text):
        if any(start <= m.start() < end for start, end in values):
            continue  # inside a value: "一千二百及以上", "one hundred and twenty pounds"
        if all_hours and _DAY_OR_NIGHT.search(text, max(0, m.start() - 5), m.end() + 7):
            continue  # "day or night" is what "open 24 hours a day" says
        rest = re.split(r"[,;，；。、]", text[m.end():], maxsplit=1)[0]
        if any(start == m.end() + len(rest) - len(rest.lstrip()) for start, _ in values):
            continue  # a value restated: "or $172 altogether" is the fact check's to find
        if _ASKER.match(rest):
            continue  # "由机手和你一起确认": the asker is who the span calls 农户
        # (a Chinese phrase by its character pairs: "或者盖上防火毯" is "或用防火毯覆盖" in other words)
        joined = content_tokens(rest)[:_COORDINATED_WORDS]
        if not rest.lstrip()[:1].isascii():
            joined += content_tokens(rest[:_phrase_length(rest, _COORDINATED_WORDS)])
        before = content_tokens(text[:m.start()])[-1:]
        if before and re.search(rf"\b{re.escape(before[0][:4])}\w*\s+{m.group()}\b", normalise(span_text), re.IGNORECASE):
            continue  # the span lists alternatives at the same place: "app or online" for "app or website"
        if joined and not have.intersection(map(_word_key, joined)) and not _NUMERAL_WORDS.intersection(joined):
            return claim.text[m.start():m.end() + _phrase_length(rest, len(joined))].strip()
    return None


_ZH_PHRASE_END = re.compile(r"(?<=.)[可能需要应是的在为有将会]")


def _phrase_length(rest: str, n_tokens: int) -> int:
    """Characters of `rest` up to its `n_tokens`-th content token; a Chinese run up to its verb
    or particle ("或项目负责人可以…" -> "项目负责人"), 6 characters at most."""
    for word in re.finditer(r"\S+", rest):
        if word.group().isascii():
            if len(content_tokens(rest[:word.end()])) >= n_tokens:
                return word.end()
            continue
        stop = _ZH_PHRASE_END.search(word.group())
        return word.start() + min(stop.start() if stop else len(word.group()), 6)
    return len(rest)


CONDITION_STATED_RECALL = 0.5  # share of a condition's words the claim must hold to state it
# Tiers a value may be reserved for within one page ("Gold members may claim up to $80"). Who a
# whole page is for (personal vs enterprise, employees) is usually said once, so not these.
GROUP_SLOTS = frozenset({"tier", "membership"})


def group_value(claim: Claim, facts: list[FactResult], span: Span,
                asker: dict[str, set[str]] | None = None) -> tuple[str, str] | None:
    """(value, group) when a value the claim matched is one the span gives only to a group the
    claim and the asker do not name, beside another value for everyone else: "Skyrill Gold
    members may claim up to $80 per day" after "up to $50 per day" (a value for the same thing:
    its clause shares a word of the claim beside the values)."""
    named = {q.slot for q in find_qualifiers(claim.source_text)} | set(asker or {})
    mine = frozenset(content_tokens(claim.text)) - frozenset(t for f in claim.facts for t in content_tokens(f.text))
    for result in facts:
        value = result.evidence
        if result.status != "matched" or value is None or result.fact.kind != "number" \
                or not span.start <= value.start < span.end:
            continue
        a, b = span.clause_of(value)
        groups = [q for q in find_qualifiers(span.text[a:b]) if q.slot in GROUP_SLOTS and q.slot not in named]
        others = [o for o in span.facts if o.kind == "number" and not a <= o.start - span.start < b
                  and same_dimension(value, o) and compare_facts(value, o) == "different"
                  and mine & frozenset(content_tokens(span.text[slice(*span.clause_of(o))]))]
        if groups and others:
            return value.text, groups[0].text
    return None


_CONDITION_WORD = re.compile(r"\b(?:if|unless|provided that|as long as)\b|如果|若|只要|除非|只有", re.IGNORECASE)
# A condition the claim's sentence states by pointing back at a bound it gave: "winds of up to 15
# knots; above that, the tour is cancelled and you can take a full refund".
_WISH = re.compile(r"if you(?:'d|’d| would| so)? (?:like|wish|want|prefer)(?: (?:it|them|that|to))?|if (?:needed|necessary)"
                   r"|如(?:有)?需要(?:的话|的話)?|如果(?:您|你)?(?:愿意|願意|需要|想)(?:的话|的話)?", re.IGNORECASE)
_CONDITION_BACK = re.compile(r"\b(?:above|over|beyond|below|under) (?:that|this)\b|\bin that case\b|\botherwise\b"
                             r"|否则|不然|超过的话|超出的话", re.IGNORECASE)


# "Participants must be at least 14 years old and able to swim 50 metres": a bound the span
# requires beside what a claim that states a requirement itself names ("You'll need to be able
# to swim 50 metres") is another requirement, not a condition of the one it states.
_MUST_BE = re.compile(r"\b(?:must|need to|needs to|have to|has to)\s+be\s+(?:aged\s+)?$|(?:必须|须|需|需要)(?:年满)?$",
                      re.IGNORECASE)
_REQUIRES = re.compile(r"\b(?:must|need to|needs to|have to|has to|required)\b|必须|须|需要", re.IGNORECASE)


def _one_of_requirements(claim: Claim, span: Span, fact: Fact) -> bool:
    return bool(_MUST_BE.search(span.text[: fact.start - span.start]) and _REQUIRES.search(claim.text))


_FREE_WHERE = re.compile(r"\bfree\s+((?:within|across|inside|in)\s+[^,;.]{3,40})", re.IGNORECASE)


def dropped_condition(claim: Claim, span: Span, facts: list[FactResult], answer: str = "",
                      question: str = "") -> str | None:
    """The clause of `span` that makes its rule conditional when the claim states the rule
    without the condition: a threshold ("over $75", "满99元", "6 hours or more") the claim's
    values do not match, a cap ("最多5天") where the claim says "全部", or an "if"/"unless"/"如果"
    clause. None when nothing is dropped. The `answer` may state the condition elsewhere: a
    threshold anywhere ("每人三百八十元。……需要年满十四周岁"), an "if" clause in the sentence before
    the claim's ("With an INR between 5.0 and 7.9 and no bleeding, he shouldn't take his next
    dose. The clinic should be called the same day"). So may the `question`, where the asker's
    situation meets an "if" ("his machine stopped working tonight" for "If your CPAP machine
    stops working, check the power lead")."""
    parts = clauses(span.text)
    if not parts:
        return None
    best = max(range(len(parts)), key=lambda k: token_recall(claim.text, span.text[slice(*parts[k])]))
    a, b = parts[best]
    matched = {(f.evidence.start, f.evidence.end) for f in facts if f.evidence is not None}
    said = english_number_words(normalise(claim.sentence or claim.text))
    said_digits = re.sub(r"(?<=\d),(?=\d{3})", "", said)  # "£20,000" states 20000
    # A cap ("最多5天") is a condition too when the claim says "all" where the span caps it.
    bounds = ("gt", "ge", "le", "lt") if _unstated_universal(claim, span.text) else ("gt", "ge")
    # A case leading the rule's clause is its condition too: "For tenancies of 12 months or longer, the fee
    # can be paid in three monthly instalments"; so is an "if" with a bound ("if it has been off the road for
    # more than 5 years, the transfer cannot be done online"), whatever condition the claim states itself.
    lead = parts[best - 1] if best > 0 and _LEADING_CASE.search(span.text[slice(*parts[best - 1])]) else (a, a)
    for fact in span.facts:
        # ("100平方米以下的内墙项目": a bound that picks out the things the rule is for is a condition too)
        threshold = fact.kind == "number" and (fact.value.comparator in bounds  # type: ignore[union-attr]
                                               or fact.value.comparator in ("le", "lt")  # type: ignore[union-attr]
                                               and span.text.startswith("的", fact.end - span.start))
        at = fact.start - span.start
        if (threshold and (a <= at < b or lead[0] <= at < lead[1]) and (fact.start, fact.end) not in matched
                and not _parallel_bound_matched(fact, span, matched) and not _met_by(fact, claim.facts)
                and not _met_by_asker(fact, question)
                and _plain_number(fact) not in said_digits and not _one_of_requirements(claim, span, fact)
                and not any(f.kind == "number" and compare_facts(fact, f) == "equal" for f in extract_numbers(answer))):
            return span.text[lead[0] if at < a else a:b].strip()
    # "free across mainland UK; Highlands and islands pay £6": where it is free, beside a price elsewhere,
    # when the claim's sentence names none of it
    free = _FREE_WHERE.search(span.text, a, b)
    if free and not frozenset(content_tokens(free.group(1))) & frozenset(content_tokens(said)) \
            and any(f.kind == "number" and f.value.currency and not a <= f.start - span.start < b  # type: ignore[union-attr]
                    for f in span.facts):
        return span.text[a:b].strip()
    if _CONDITION_WORD.search(said) or _CONDITION_BACK.search(said):
        return None
    for k in (best, best - 1):
        part = span.text[slice(*parts[k])].strip() if k >= 0 else ""
        condition = part if _CONDITION_WORD.match(part) else part[m.start():] if k == best and (
            m := _CONDITION_WORD.search(part)) else ""
        # "within 72 hours of a confirmed breach" states "If a breach ... is confirmed" in other words.
        # ("… in your fridge if you'd like": the asker's wish is no condition of the rule)
        # ("and notice any of the following:" points at a list; what it says is in the list)
        condition = _LIST_INTRO.sub("", condition)
        if condition and not _WISH.fullmatch(condition.strip(" .,;:!?。，；！")) and token_recall(english_number_words(condition), said) < CONDITION_STATED_RECALL \
                and not _led_by(said, condition) \
                and all(token_recall(english_number_words(condition), english_number_words(normalise(elsewhere)))
                        < CONDITION_STATED_RECALL for elsewhere in (previous_sentence(answer, claim.start), question)):
            return part
    return None


def _met_by_asker(bound: Fact, question: str) -> bool:
    """Whether an age or a headcount the asker states meets the bound: "我爸今年82岁" meets
    "60周岁以上老年人"."""
    return bool(question) and _met_by(bound, extract_numbers(question))


def _met_by(bound: Fact, values: Sequence[Fact]) -> bool:
    """Whether one of `values` is a plain age or count within the bound ("Groups of 25" for "groups of
    20 or more"). Not a duration: "放一天半" is what the claim's price is worked out for, by the rule
    for "超过一天"."""
    return getattr(bound.value, "unit", None) in (None, "year", "person") and any(
        f.kind == "number" and same_dimension(f, bound) and f.value.comparator == "eq"  # type: ignore[union-attr]
        and f.value.value is not None and satisfies(f.value.value, bound.value)  # type: ignore[union-attr, arg-type]
        for f in values)


def _parallel_bound_matched(fact: Fact, span: Span, matched: set[tuple[int, int]]) -> bool:
    """Whether the claim states another case's bound of the same kind in the same clause: "新建住宅超过
    150贝克/立方米、既有住宅超过300贝克/立方米的" gives each case its own, and a claim about new homes
    drops nothing by leaving out 300."""
    return any(o is not fact and o.kind == "number" and (o.start, o.end) in matched and same_dimension(o, fact)
               and o.value.comparator == fact.value.comparator  # type: ignore[union-attr]
               and span.clause_of(o) == span.clause_of(fact) for o in span.facts)


_LIST_INTRO = re.compile(r"\s*(?:\band\s+)?\b(?:notice|have|has|get|experience|see|develop)\s+(?:any|one or more)\s+of\s+"
                         r"(?:the following|these)\b.*$|[，,]?\s*(?:并|並)?(?:出现|出現|有)以下(?:任何)?(?:一种|一種|任一)?(?:情况|情況|症状|症狀)(?:之一)?.*$",
                         re.IGNORECASE)
_LEADING_CASE = re.compile(r"^\s*(?:for|with|if|unless|when)\b", re.IGNORECASE)

# A sentence that opens with the case it speaks of: "For a chip repair, ..."
_CASE_LEAD = re.compile(r"\s*for\s+((?:a|an|the)\s+)?([^,]{2,40}),", re.IGNORECASE)


def other_case(claim: Claim, span: Span, others: list[Span]) -> tuple[str, Span] | None:
    """The case another sentence of the span's source opens with and the claim names, when the
    span opens with a case the claim does not name: "your no-claims discount won't be affected
    by a replacement" against "For a chip repair, ... your no-claims discount is not affected"
    beside "For a replacement, you pay the excess ...". With it, the sentence naming that case."""
    lead = _CASE_LEAD.match(span.text)
    said = set(content_tokens(claim.text))
    if lead is None or set(content_tokens(lead.group(2))) & said:
        return None
    for other in others:
        theirs = _CASE_LEAD.match(other.text) if other.source_id == span.source_id and other.start != span.start else None
        if theirs is not None and (words := set(content_tokens(theirs.group(2)))) and words <= said:
            return (theirs.group(1) or "") + theirs.group(2), other
    return None


# "With glass cover, ..." states "If your motor policy includes glass cover" in fewer words.
_LEAD = re.compile(r"\s*(?:with|without|once|after)\s+([^,]{3,60}),", re.IGNORECASE)


def _led_by(said: str, condition: str) -> bool:
    """Whether the claim's sentence opens with a phrase whose every word the condition has."""
    lead = _LEAD.match(said)
    return lead is not None and bool(content_tokens(lead.group(1))) and token_recall(lead.group(1), condition) >= 1.0


def _plain_number(fact: Fact) -> str:
    value = fact.value.value if fact.value.value is not None else fact.value.low  # type: ignore[union-attr]
    return format(value.normalize(), "f") if value is not None else fact.text

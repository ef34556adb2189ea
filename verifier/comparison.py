"""Claims that set a value against a limit or a category the sources give.

"你们十五个人超过了十人起购的要求", "Your twelve users are comfortably above the five-seat minimum",
"14岁属于8到16岁这一档", "二十八寸的箱子算大件": the asker's value (from the question or a source) and
the limit are both found by the fact check, but what the claim asserts is the comparison, which
no sentence states and small NLI models do not compute. This module does the arithmetic:
- `asker_values`: a value the question states counts as found when the claim sets it against a
  bound the sources give, or when it counts the asker's own things ("兩件夏季恤衫");
- `in_category`: a value the claim puts in a named category is checked against the range the
  source gives that category;
- `compared`: a claim that is nothing but such a comparison is decided by the numbers, when
  the limit's sentence names the limit as the claim does (a minimum for "above", a maximum
  for "below").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from extractors import Claim, extract_dates, extract_numbers
from extractors.compare import compare_facts, same_currency, same_dimension
from extractors.schema import Fact, Quantity
from extractors.tokens import content_tokens
from verifier.candidates import Candidate
from verifier.fact_result import FactResult

# Chinese comparison words (the extractor may keep them inside the limit's fact: `_LEAD_WORD`).
_ZH_ABOVE = "超过|超過|高于|高於|多于|多於|大于|大於"
_ZH_BELOW = "不到|低于|低於|少于|少於"
_ZH_NOT_OVER = "没超过|沒超過|不超过|不超過|未超过|未超過"
_EN_ADVERB = r"(?:(?:comfortably|well|already|safely|just|still|way|far)\s+)?"
_ABOVE = re.compile(r"^[\s,，]*(?:(?:[A-Za-z]+\s+){0,2}?(?:is|are|'s|'re)\s+)?" + _EN_ADVERB
                    + r"(?:above|over|more than|exceeds?|beyond)\s+(?:the\s+|your\s+|[A-Z][\w&-]*['’]s\s+)?$"
                    r"|^[\s,，]*(?:已经|已經|已|都|也)?(?:" + _ZH_ABOVE + r")了?$", re.IGNORECASE)
_BELOW = re.compile(r"^[\s,，]*(?:(?:[A-Za-z]+\s+){0,2}?(?:is|are|'s|'re)\s+)?" + _EN_ADVERB
                    + r"(?:below|under|less than|(?P<en_le>within))\s+(?:the\s+|your\s+|[A-Z][\w&-]*['’]s\s+)?$"
                    r"|^[\s,，]*(?:还|還|都|也)?(?:" + _ZH_BELOW + r"|没到|沒到|未满|未滿"
                    r"|(?P<zh_le>没有超过|沒有超過|" + _ZH_NOT_OVER + r"))了?$", re.IGNORECASE)
_WITHIN = re.compile(r"^[\s,，]*(?:(?:[A-Za-z]+\s+){0,2}?(?:is|are|'s|'re|falls?|fits?)\s+)?(?:within|in|into|inside|between)"
                     r"\s+(?:the\s+)?(?:range\s+(?:of\s+)?)?$|^[\s,，]*(?:已经|已經|都|也|正好)?(?:属于|屬於|落在|在)$", re.IGNORECASE)
# What names the limit in the source sentence (or in the claim after the limit's value).
_MINIMUM = re.compile(r"起|最低|至少|最少|门槛|門檻|满|滿|以上|minimum|at least|threshold|or more|from", re.IGNORECASE)
_MAXIMUM = re.compile(r"以下|以内|以內|不超过|不超過|最多|上限|封顶|封頂|maximum|up to|limit|cap|under|below|less than"
                      r"|threshold", re.IGNORECASE)
# A comparison word the extractor keeps inside the limit's fact ("超过五个账号").
_LEAD_WORD = re.compile(r"(?:" + "|".join((_ZH_ABOVE, _ZH_BELOW, _ZH_NOT_OVER)) + r")了?\s*")
# "算大件", "falls in the medium band": the claim puts its value in a category the source bounds.
_MEMBERSHIP = re.compile(r"^[^，,;；。]{0,8}?(?:算是|算|属于|屬於|归为|歸為|归入|歸入|列为|列為)"
                         r"|^[^,;.]{0,24}?\b(?:falls? (?:in|into|within|under)|counts? as|fits?|is in|qualifies as"
                         r"|belongs? (?:in|to))\b", re.IGNORECASE)
_NAME_END = re.compile(r"[，,;；。.]|\bso\b|所以|因此")
_CATEGORY_WORDS = frozenset({"band", "tier", "group", "category", "class", "bracket", "range", "size"})
_NAME_BEFORE, _NAME_AFTER = 8, 4  # characters between a category's name and its range ("medium dogs (")
_MAX_NAME_CHARS = 12  # "的最低门槛", "-seat minimum": the limit's name, not another clause
_MAX_NAME_CHARS_EN = 24  # "the medium band"
_HEADCOUNT = frozenset({"person", "seat"})  # "twelve users" against "a five-seat minimum"


@dataclass(frozen=True)
class Comparison:
    value: FactResult  # the asker's (or the product's) value
    limit: FactResult  # the limit a source gives
    relation: str  # what the claim says of the value: "above" / "below" the limit, or "within" its range
    holds: bool

    @property
    def limit_text(self) -> str:
        """The limit as the claim words it, without a comparison word the fact kept (or, for a
        category, as the source states its range)."""
        if self.limit is self.value:
            return self.limit.evidence_text or ""
        lead = _LEAD_WORD.match(self.limit.fact.text)
        return self.limit.fact.text[lead.end():] if lead else self.limit.fact.text


def compared(claim: Claim, facts: list[FactResult]) -> Comparison | None:
    """The comparison the claim consists of, when it is one and both values were found."""
    numbers = [f for f in facts if f.fact.kind == "number"]
    if len(facts) != len([f for f in facts if f.fact.kind in ("number", "qualifier")]):
        return None
    if len(numbers) == 1:
        return _category(claim, numbers[0])
    if len(numbers) != 2:
        return None
    value, limit = numbers
    if value.status != "matched" or limit.status != "matched" or limit.evidence is None or limit.source_id is None:
        return None
    after = claim.source_text[limit.fact.end - claim.start:]
    a, b = value.fact.value, limit.fact.value
    if len(after.strip(" 。.!！")) > _MAX_NAME_CHARS or not (isinstance(a, Quantity) and isinstance(b, Quantity)):
        return None
    if a.value is None or a.low is not None or not _comparable(a, b):
        return None
    if b.low is not None and b.high is not None:  # "14岁属于8到16岁这一档"
        if not _WITHIN.match(_between(claim, value.fact, limit.fact)):
            return None
        return Comparison(value, limit, "within", b.low <= a.value <= b.high)
    above, below = _comparison_words(claim, value.fact, limit.fact)
    if b.value is None or not (above or below):
        return None
    if above:
        holds = a.value > b.value
    else:  # "within the limit" and "不超过" allow the limit itself
        holds = a.value < b.value or (a.value == b.value and bool(below.group("en_le") or below.group("zh_le")))
    return Comparison(value, limit, "above" if above else "below", holds)


def _category(claim: Claim, value: FactResult) -> Comparison | None:
    """"二十八寸的箱子算大件": the value found inside the range the source gives the category
    (`in_category`), and the claim nothing but the value and the category."""
    ev = value.evidence
    if value.status != "matched" or ev is None or value.source_id is None or not is_limit(ev.value):
        return None
    after = claim.source_text[value.fact.end - claim.start:]
    m = _MEMBERSHIP.match(after)
    if m is None:
        return None
    name = after[m.end():].strip(" 。.!！")
    if len(name) > (_MAX_NAME_CHARS_EN if name.isascii() else _MAX_NAME_CHARS):
        return None
    return Comparison(value, value, "within", True)


def in_category(result: FactResult, claim: Claim, candidates: Sequence[Candidate]) -> FactResult | None:
    """A value the claim puts in a named category ("二十八寸的箱子算大件", "An 18-kilo dog falls in
    the medium band"), checked against the range the source gives that category ("大件行李
    （20寸及以上）", "medium dogs (10 to 25 kg)"): matched when it lies inside, else mismatched."""
    fact, q = result.fact, result.fact.value
    if (fact.kind != "number" or not isinstance(q, Quantity) or q.value is None
            or q.unit is None or q.comparator != "eq"):
        return None
    after = claim.source_text[fact.end - claim.start:]
    m = _MEMBERSHIP.match(after)
    if m is None:
        return None
    parts = _name_parts(_NAME_END.split(after[m.end():], maxsplit=1)[0])
    best: tuple[int, Fact, str] | None = None
    for candidate in candidates:
        span = candidate.span
        text = span.text.lower()
        limits = [f for f in span.facts if f.kind == "number" and is_limit(f.value)
                  and f.value.unit == q.unit]  # type: ignore[union-attr]
        for part in parts:  # the longest part of the name the span holds, then the range nearest it
            for i in (j.start() for j in re.finditer(re.escape(part), text)):
                for limit in limits:
                    at, end = limit.start - span.start, limit.end - span.start
                    gap = at - (i + len(part)) if at >= i + len(part) else i - end
                    if 0 <= gap <= (_NAME_BEFORE if at >= i else _NAME_AFTER) and (best is None or gap < best[0]):
                        best = (gap, limit, span.source_id)
            if best is not None:
                break
        if best is not None:
            break  # the most relevant span that names the category decides
    if best is None:
        return None
    _, limit, source_id = best
    inside = satisfies(q.value, limit.value)  # type: ignore[arg-type]
    return FactResult(fact, "matched" if inside else "mismatched", limit, limit.text, source_id)


def _name_parts(name: str) -> list[str]:
    """What to look for of a category's name, longest first: its English words, or the runs of
    two or more of its Chinese characters ("普通行李", "普通", "行李", …)."""
    name = name.lower()
    if name.isascii():
        return sorted((w for w in re.findall(r"[a-z][a-z-]+", name) if w not in _CATEGORY_WORDS | {"the", "a", "an"}),
                      key=len, reverse=True)
    core = "".join(re.findall(r"[\u4e00-\u9fff]", name))
    return sorted({core[i:j] for i in range(len(core)) for j in range(i + 2, len(core) + 1)}, key=len, reverse=True)


def is_limit(q: object) -> bool:
    return isinstance(q, Quantity) and ((q.low is not None and q.high is not None) or
                                        (q.comparator != "eq" and q.value is not None))


def satisfies(value: Decimal, limit: Quantity) -> bool:
    if limit.low is not None and limit.high is not None:
        return limit.low <= value <= limit.high
    assert limit.value is not None
    return {"ge": value >= limit.value, "gt": value > limit.value, "le": value <= limit.value,
            "lt": value < limit.value}.get(limit.comparator, False)


def asker_values(results: list[FactResult], question: str, claim: Claim) -> list[FactResult]:
    """A value the sources lack (or give otherwise, for another slot) is the asker's when the
    question states it and the claim sets it against a bound the sources give: "On a £45 bouquet
    delivery is £5.95, since it is free only over £60" (question: "what does delivery cost on a
    £45 bouquet?"). Its `source_id` is None. Without such a bound the value stays as it was:
    "Is the deposit $500?" is no evidence that it is."""
    if not any(r.status in _NOT_FOUND and r.fact.kind == "number" for r in results):
        return results  # (most claims: no need to read the question's numbers again)
    asked = extract_numbers(question) + _durations_between_times(question)
    bounds = [r.fact for r in results if r.status == "matched" and r.fact.kind == "number"
              and (r.fact.value.comparator != "eq" or r.fact.value.value is None  # type: ignore[union-attr]
                   or any(sets_against(claim, o.fact, r.fact) for o in results if o is not r))]
    out = []
    for r in results:
        given = next((q for q in asked if r.status in _NOT_FOUND and r.fact.kind == "number" and not r.past
                      and compare_facts(r.fact, q) == "equal"
                      and (any(same_dimension(r.fact, b) or sets_against(claim, r.fact, b) for b in bounds)
                           or _asker_count(r) or _judged_within(r, results, claim))), None)
        out.append(FactResult(r.fact, "matched", given, given.text) if given is not None else r)
    return out


_NOT_FOUND = ("missing", "mismatched")

# "凌晨5點喺晚上11點至早上6點之間", "5am falls between 11pm and 6am": the asker's time put inside a range
_IN_RANGE = re.compile(r"^\s*(?:喺|在|是在|係|落在|falls?\s+between|is\s+between|between)\s*$", re.IGNORECASE)
_RANGE_JOIN = re.compile(r"^\s*(?:至|到|-|–|—|~|and|to)\s*$", re.IGNORECASE)


def asker_time_within(results: list[FactResult], question: str, claim: Claim) -> list[FactResult]:
    """A time of day the sources lack (or give otherwise) is the asker's when the question states
    it and the claim places it inside a range of times the sources give, and it does lie there
    (over midnight too)."""
    if not any(r.status in _NOT_FOUND and r.fact.kind == "date" for r in results):
        return results
    asked = [d for d in extract_dates(question) if d.value.granularity == "time"]  # type: ignore[union-attr]
    times = [r for r in results if r.fact.kind == "date" and r.fact.value.granularity == "time"]  # type: ignore[union-attr]
    text, out = claim.source_text, []
    for r in results:
        given = None
        if r.status in _NOT_FOUND and r in times and any(_same_clock(r.fact, q) for q in asked):
            later = [t for t in times if t.fact.start > r.fact.end and t.status == "matched"]
            if len(later) >= 2 and _IN_RANGE.match(text[r.fact.end - claim.start: later[0].fact.start - claim.start]) \
                    and _RANGE_JOIN.match(text[later[0].fact.end - claim.start: later[1].fact.start - claim.start]) \
                    and _on_clock_between(r.fact, later[0].fact, later[1].fact):
                given = next(q for q in asked if _same_clock(r.fact, q))
        out.append(FactResult(r.fact, "matched", given, given.text) if given is not None else r)
    return out


def _same_clock(a: Fact, b: Fact) -> bool:
    return (a.value.hour, a.value.minute or 0) == (b.value.hour, b.value.minute or 0)  # type: ignore[union-attr]


def _on_clock_between(t: Fact, start: Fact, end: Fact) -> bool:
    minute = [f.value.hour * 60 + (f.value.minute or 0) for f in (t, start, end)]  # type: ignore[union-attr]
    at, a, b = minute
    return a <= at <= b if a <= b else at >= a or at <= b


def _durations_between_times(question: str) -> list[Fact]:
    """How long the asker's times span: "called out at 1am … worked until 3:30am" is two and a
    half hours, which the claim may set against a minimum."""
    times = [d for d in extract_dates(question) if d.value.granularity == "time"]  # type: ignore[union-attr]
    out = []
    for a, b in zip(times, times[1:]):
        minutes = ((b.value.hour * 60 + (b.value.minute or 0)) - (a.value.hour * 60 + (a.value.minute or 0))) % (24 * 60)  # type: ignore[union-attr, operator]
        if minutes:
            out.append(Fact(kind="number", text=question[a.start:b.end], start=a.start, end=b.end,
                            value=Quantity(value=(Decimal(minutes) / 60).normalize(), unit="hour")))
    return out


def _asker_count(result: FactResult) -> bool:
    """A count of the asker's own things that no source gives otherwise: "兩件夏季恤衫每件港幣165蚊"
    when the question says "我想買兩件夏季恤衫" (a source's other count would be a mismatch, which stays).
    Things only: "you can bring 3 guests" when the asker asks for 3 is a claim the sources must make.
    And one occasion the asker prices: "2000平方米洗一次是一万两千元" for "清洗一次多少钱"."""
    q = result.fact.value
    # (the one occasion is no rival to a rate: "洗一次" against "每年4次")
    rate = result.status == "mismatched" and result.evidence is not None \
        and getattr(result.evidence.value, "per", None) is not None
    return (result.status == "missing" or rate and q.unit == "times") and q.comparator == "eq" and q.currency is None \
        and q.per is None and q.value is not None \
        and (q.unit == "item" or (q.unit == "times" and q.value == 1))  # type: ignore[union-attr]


# "最少要租两天，你们租三天没问题": the claim judges the asker's value fine against a bound before it.
_JUDGED_FINE = re.compile(r"\s*(?:就|也|都)?(?:没问题|沒問題|没有问题|沒有問題|冇问题|冇問題|没关系|沒關係|够了|夠了|"
                          r"足够|足夠|符合要求|符合條件|符合条件)")
_MINIMUM_BEFORE = re.compile(r"(?:最少|至少|最低|起码|起碼|不少于|不少於|不低于|不低於)[^，,；;。]{0,4}$")
_MAXIMUM_BEFORE = re.compile(r"(?:最多|至多|最长|最長|不超过|不超過|不多于|不多於)[^，,；;。]{0,4}$")


def _judged_within(result: FactResult, results: list[FactResult], claim: Claim) -> bool:
    """Whether the claim calls the asker's value fine right after it, and the value does keep to
    a minimum or maximum the claim states before it and the sources give."""
    text, q = claim.source_text, result.fact.value
    if not _JUDGED_FINE.match(text, result.fact.end - claim.start) or not isinstance(q, Quantity) or q.value is None:
        return False
    for r in results:
        b = r.fact.value
        if r.status != "matched" or r.fact.end > result.fact.start or not same_dimension(r.fact, result.fact) \
                or not isinstance(b, Quantity) or b.value is None:
            continue
        before = text[: r.fact.start - claim.start]
        if _MINIMUM_BEFORE.search(before) and q.value >= b.value or _MAXIMUM_BEFORE.search(before) and q.value <= b.value:
            return True
    return False


def sets_against(claim: Claim, value: Fact, limit: Fact) -> bool:
    """Whether the claim sets `value` against `limit` with a comparison word between them."""
    return any(_comparison_words(claim, value, limit))


def as_compared_limit(claim: Claim, value: Fact, limit: Fact) -> Fact | None:
    """`limit` read as the plain value the claim compares `value` with, when the extractor took
    the comparison word for the limit's own bound: "八个人已经超过五个账号" against "最低购买5个账号"."""
    q = limit.value
    lead = _LEAD_WORD.match(limit.text)
    if lead is None or not isinstance(q, Quantity) or q.comparator == "eq" or not sets_against(claim, value, limit):
        return None
    start = limit.start + lead.end()
    return limit.model_copy(update={"start": start, "text": limit.text[lead.end():],
                                    "value": q.model_copy(update={"comparator": "eq"})})


def _between(claim: Claim, value: Fact, limit: Fact) -> str:
    return claim.source_text[value.end - claim.start: limit.start - claim.start]


def _comparison_words(claim: Claim, value: Fact, limit: Fact) -> tuple[re.Match[str] | None, re.Match[str] | None]:
    between = _between(claim, value, limit)
    if lead := _LEAD_WORD.match(limit.text):
        between += lead.group()
    return _ABOVE.match(between), _BELOW.match(between)


def names_the_limit(comparison: Comparison, claim: Claim, sentence: str) -> bool:
    """Whether the source sentence stating the limit gives it as the kind of limit the claim
    compares with, in words the claim's name for it shares ("起购的要求" / "起购人数为10人")."""
    cue = {"above": _MINIMUM, "below": _MAXIMUM}.get(comparison.relation)
    if cue is not None and not cue.search(sentence):
        return False
    words = set(content_tokens(claim.source_text[comparison.limit.fact.start - claim.start:]))
    return bool(words & set(content_tokens(sentence)))


def _comparable(a: Quantity, b: Quantity) -> bool:
    if a.currency and b.currency and not same_currency(a.currency, b.currency):
        return False
    return a.per == b.per and (a.unit is None or b.unit is None or a.unit == b.unit or {a.unit, b.unit} <= _HEADCOUNT)

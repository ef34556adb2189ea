"""Sentences that say how things were, not how they are.

Policies keep the old rule beside the new one: "Before February 1, 2026, the plan was priced at
$50 per month", "In fiscal year 2025, the permit fee was $220", "2025年版产品的最高贷款额度为20万元".
Such a sentence is evidence about the past. A claim about the present ("The plan costs $50")
must not rest on it, nor take its values as matches; a claim that speaks of the past itself
("was", "before" a time, "去年", or any date) may.

A sentence counts as past when it says so ("previously", "no longer", "此前", "旧版"), or when it
speaks of a time before ("before", "prior to", "until" a date) or of a year older than the
newest year in its source, in the past tense or of an edition ("was", "2025 edition", "2025年版"),
or (Chinese having no tense) before such a year's date ("2025年12月31日前获得的积分") or before a
month or day that has come by the time the source takes effect or is read ("2026年5月前纯色光疗美甲为
148元" in a list in force from 1 May 2026), or with such a year as its topic ("2025年报名费为每科
150元"), or, in English, opening the sentence with no present tense to carry the rule on ("In 2025
memory card recovery cost £129").
Within one sentence, a clause whose year is older than another clause's, with no word that makes
it a start ("2026年起手续费为30元，2025年手续费为25元"), states the past too: its values are past.
A value a change starts from is the old value too: "raised to $4.9 billion from $4.7 billion",
"年费由1500元上调至2000元".
An older year that is only the baseline of a comparison ("up 12.5 percent from the third quarter
of 2024", "较2024年增长") leaves the sentence about its own time.
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_left
from typing import Sequence

from extractors import Claim, Fact
from extractors.qualifiers import clauses
from extractors.text import normalise

# (not "以前" closing a deadline: "活动前7日或以前取消", "3天以前")
_NOT_DEADLINE = r"(?<!或)(?<![0-9〇零一二两三四五六七八九十][日天时時周週月])(?<![)）])"  # ("3天（含）以前")
_SAYS_SO = re.compile(r"\b(?:previously|formerly|used to|no longer(?! than)|until recently)\b|此前|" + _NOT_DEADLINE + r"以前|原为|原来|曾经|旧版|"
                      # ("Plan prices rose on 1 May 2026; before that, the Plus plan was £12 a month")
                      r"\b(?:before|until) (?:that|then)\b(?=[^.;]*\b(?:was|were|had|cost)\b)|"
                      # (not "第3节课起不再退费": a rule from a point on; nor "每周发放固定津贴800元，不再按天计发":
                      # what the rule does instead)
                      r"上一版|(?<![起后後])不再(?!按|以|单独|單獨|另)"
                      # a sentence that opens on the season or year before ("Last season the Basic plan cost CA$519")
                      r"|^\W*(?:in |during )?last (?:season|year|summer|winter|spring|autumn|fall)\b|^\W*(?:去年|上一?季)",
                      re.IGNORECASE)
_BEFORE = re.compile(r"\b(?:before|prior to|until)\s*$", re.IGNORECASE)
_BEFORE_ZH = re.compile(r"\s*(?:之前|以前|前)")
_PAST_TENSE = re.compile(r"\b(?:was|were|had)\b", re.IGNORECASE)
_PRESENT_TENSE = re.compile(r"\b(?:is|are|will|must|can|may|applies|apply)\b", re.IGNORECASE)
# Words that make the year after them a comparison baseline, not the sentence's own time.
_BASELINE = re.compile(r"\b(?:(?:up|down|rose|fell|grew|increased?|decreased?|declined?|percent|points?)\s+from|than|"
                       r"compared (?:with|to)|versus|vs\.?)\s+(?:the\s+)?(?:\w+\s+){0,3}$|"
                       r"(?:比|较|同比|相比|相较于?|与)\s*$", re.IGNORECASE)
_EDITION = re.compile(r"\b(?:edition|version)\b|年版|版本", re.IGNORECASE)
# "The 2025 edition", "2025年版": a year the date extractor leaves alone (it is a name here).
_EDITION_YEAR = re.compile(r"\b((?:19|20)\d\d)\s+(?:edition|version)\b|((?:19|20)\d\d)\s*年版", re.IGNORECASE)
# Claims that speak of the past may rest on past sentences.
_CLAIM_PAST = re.compile(r"\b(?:was|were|had|previously|formerly|used to|earlier|"
                         # (before a time, not "a warm-up right before" or "before your visit")
                         r"(?:before|prior to)\s+(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
                         r"(?:the\s+)?(?:change|update|increase|rise)\b)|"
                         r"last (?:year|season|summer|winter|spring|autumn|fall)|ago|"
                         r"up from|down from)\b|此前|" + _NOT_DEADLINE + r"以前|之前|原来|原为|曾|去年|上一|旧", re.IGNORECASE)


def past_sentences(text: str, sentences: list[tuple[int, int]], dates: list[Fact],
                   extra_years: tuple[int, ...] = (), now: dt.date | None = None) -> set[int]:
    """Indices of the sentences of `text` that state a past state of affairs. `dates`: the date
    facts of the whole text; `extra_years`: years known from metadata (effective dates); `now`:
    the latest of the day the source takes effect and the day it is read."""
    years = [d.value.year_to or d.value.year for d in dates if d.value.year is not None]  # type: ignore[union-attr]
    newest = max([*years, *extra_years], default=None)
    dates = sorted(dates, key=lambda d: d.start)
    starts = [d.start for d in dates]
    out = set()
    for i, (start, end) in enumerate(sentences):
        sentence = text[start:end]
        inside = dates[bisect_left(starts, start):bisect_left(starts, end)]
        before = any(_BEFORE.search(text[start:d.start]) for d in inside)
        stated = [d.value.year_to or d.value.year for d in inside  # type: ignore[union-attr]
                  if _names_year(d) and not _BASELINE.search(text[start:d.start])]
        stated += [int(m.group(1) or m.group(2)) for m in _EDITION_YEAR.finditer(sentence)]
        older = newest is not None and any(year < newest for year in stated)
        # "2025年12月31日前获得的积分": before an older date, in Chinese, which has no tense.
        before_older_zh = newest is not None and any(
            _BEFORE_ZH.match(text, d.end) and _names_year(d) and d.value.year < newest for d in inside)  # type: ignore[union-attr]
        # "2026年5月前纯色光疗美甲为148元" in a list in force from 1 May 2026: before a day that has come.
        before_now_zh = now is not None and any(
            _BEFORE_ZH.match(text, d.end) and _names_year(d) and _first_day(d) <= now for d in inside)
        # "2025年报名费为每科150元": an older year as the topic of a Chinese sentence, unless it starts a rule.
        older_topic_zh = newest is not None and max(stated, default=newest) < newest and any(
            d.start - start <= 2 and _ZH_TOPIC_YEAR.match(text, d.end) for d in inside)
        # "In 2025 memory card recovery cost £129": an older year that opens the sentence, with no
        # present tense to carry the rule on ("cost" may be either).
        older_topic_en = older and max(stated) < newest and not _PRESENT_TENSE.search(sentence) and any(
            _EN_TOPIC_YEAR.fullmatch(text, start, d.start) for d in inside)  # type: ignore[operator]
        past_tense = bool(_PAST_TENSE.search(sentence)) and not _PRESENT_TENSE.search(sentence)
        # "Until 30 June 2026 the Care plan cost £49 a month", read in December 2026: until a day that
        # has come, with no present tense to carry the rule on.
        before_now_en = now is not None and not _PRESENT_TENSE.search(sentence) and any(
            _BEFORE.search(text[start:d.start]) and _names_year(d) and _first_day(d) <= now for d in inside)
        if (_SAYS_SO.search(sentence) or (before and _PAST_TENSE.search(sentence)) or before_older_zh or before_now_zh
                or before_now_en or older_topic_zh or older_topic_en
                or (older and (past_tense or _EDITION.search(sentence)))):
            out.add(i)
    return out


# A date that starts a rule: "116年2月1日起", "自2027年3月1日开始", "from 1 March 2027", "effective 1 March 2027".
_STARTS_AFTER = re.compile(r"^\s*(?:起|开始|开始实施|开始执行|生效|实施)")
_STARTS_BEFORE = re.compile(r"\b(?:from|starting|effective|as of|beginning)\s+(?:on\s+)?$", re.IGNORECASE)
# ... that changes a value: a term that runs "from 11 January 2027" is a schedule, in force now.
_CHANGES = re.compile(r"调整|上调|下调|调升|调降|调为|上涨|涨至|涨到|涨价|提价|降价|降至|降为|改为|改成|变更为|新价格|新收费"
                      r"|\bwill\s+(?:cost|be\s+(?:priced|charged|raised|increased|reduced|cut|lowered|changed|adjusted)|rise|"
                      r"increase|go up|fall|drop|change|become)\b|\b(?:rises?|increases?|goes up|changes?|falls?) to\b"
                      r"|\bnew (?:price|fee|rate|charge)s?\b", re.IGNORECASE)


def later_parts(text: str, start: int, end: int, dates: list[Fact], now: dt.date | None) -> list[tuple[int, int]]:
    """(start, end) in `text` of the parts of the sentence text[start:end] (cut at ；/;) that state
    a rule starting after `now` (the latest of the day the source takes effect and the day it is
    read): "116年2月1日起，初診評估費將調整為新台幣1,000元" read in December 2026 is not yet the fee,
    nor "from January 2027, the dog fee will rise to £215" after "; " the fees that hold now.
    `dates`: the date facts inside the sentence."""
    # (cheapest first: it runs on every source sentence, and few name a day still to come)
    coming = [d for d in dates if now is not None and _names_year(d) and d.value.month is not None  # type: ignore[union-attr]
              and _first_day(d) > now]
    out = []
    for a, b in sentence_parts(text[start:end]) if coming else ():
        a, b = a + start, b + start
        if any(a <= d.start < b and (_STARTS_AFTER.match(normalise(text[d.end:b])) or _STARTS_BEFORE.search(text[a:d.start]))
               for d in coming) and _CHANGES.search(normalise(text[a:b])):
            out.append((a, b))
    return out


def _names_year(date: Fact) -> bool:
    """Whether a date states its year itself: "12月" in a page that mentions 2025 elsewhere takes
    that year (extractors.dates) without saying it is about 2025."""
    return date.value.year is not None and _YEAR_WORD.search(date.text) is not None  # type: ignore[union-attr]


def _first_day(date: Fact) -> dt.date:
    v = date.value
    return dt.date(v.year, v.month or 1, v.day or 1)  # type: ignore[union-attr, arg-type]


_YEAR_WORD = re.compile(r"\d{4}|年|\byears?\b|'\d\d\b", re.IGNORECASE)

_EN_TOPIC_YEAR = re.compile(r"\W*(?:in|during)\s+(?:(?:the\s+)?(?:fiscal|financial|calendar)\s+year\s+)?", re.IGNORECASE)

# A Chinese year that is the sentence's topic: "2025年报名费……", "2025年度的……" (not "2025年起").
_ZH_TOPIC_YEAR = re.compile(r"(?:年度|年)?(?:的)?(?![起以之开生])[\u4e00-\u9fff]")


# A year with one of these is when a rule starts, which may well be now: "自2025年起", "from 2025".
_STARTS = re.compile(r"起|自|以后|之后|以来|开始|生效|\b(?:from|since|after|starting|effective|onwards?|beginning)\b",
                     re.IGNORECASE)


def past_clauses(text: str, start: int, end: int, dates: list[Fact], newest_known: int | None = None
                 ) -> list[tuple[int, int]]:
    """(start, end) in `text` of the clauses of the sentence text[start:end] that state an
    earlier year than another of its clauses: "2025年手续费为25元" beside "2026年起手续费为30元".
    So does an English clause in the past tense with a year older than `newest_known` (the
    newest year of the source and its dates): "a pair is £38; in 2025 a pair was £34".
    `dates`: the date facts inside the sentence."""
    out = [] if newest_known is None else [
        (a + start, b + start) for a, b in clauses(text[start:end])
        if _PAST_TENSE.search(text[a + start:b + start]) and not _PRESENT_TENSE.search(text[a + start:b + start])
        and any(a + start <= d.start < b + start and _names_year(d) and (d.value.year_to or d.value.year) < newest_known  # type: ignore[union-attr, operator]
                and not _BASELINE.search(text[a + start:d.start]) for d in dates)]
    years = []
    for a, b in clauses(text[start:end]):
        a, b = a + start, b + start
        stated = [d.value.year_to or d.value.year for d in dates  # type: ignore[union-attr]
                  if a <= d.start < b and d.value.year is not None and not _BASELINE.search(text[a:d.start])]
        if stated:
            years.append((a, b, max(stated)))
    newest = max((y for _, _, y in years), default=None)
    return out + [(a, b) for a, b, y in years
                  if y < newest and not _STARTS.search(text[a:b]) and (a, b) not in out]  # type: ignore[operator]


# A change word, then "from" in the same clause ("up to" is a cap, and ", " ends a clause while
# "$1,000" does not).
_CHANGE_EN = re.compile(r"\b(?:rais|increas|lower|reduc|cut|chang|revis|adjust|up(?!\s+to\b)|down(?!\s+to\b)|rose|"
                        r"fell|grew|climb|dropp|declin|mov|extend|shorten)\w*\b(?:(?!,\s)[^;])*?\bfrom\s+"
                        r"(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
_CHANGE_ZH_BEFORE = re.compile(r"(?:由|从)[^，。；]{0,10}$")
_CHANGE_ZH_AFTER = re.compile(r"^[^，。；]{0,6}?(?:调整|上调|下调|提高|降低|增加|减少|提升|下降|上涨|变更|改|延长|缩短)(?:为|至|到)")


def previous_values(text: str, start: int, end: int, numbers: list[Fact]) -> set[int]:
    """Indices into `numbers` (the number facts of the sentence text[start:end]) of the values a
    change starts from: "$4.7 billion" in "raised to $4.9 billion from $4.7 billion"."""
    out = set()
    for i, f in enumerate(numbers):
        before, after = normalise(text[start:f.start]), normalise(text[f.end:end])
        if _CHANGE_EN.search(before) or (_CHANGE_ZH_BEFORE.search(before) and _CHANGE_ZH_AFTER.match(after)):
            out.add(i)
    return out


# A date that ends what its part of the sentence states: "销售截止至2026年11月15日", "until 15 November".
_ENDS_BEFORE = re.compile(r"(?:截止|截至|止于|到期|\b(?:until|till|through|ends?|ended|expires?|expired|closes?|closed)\b)"
                          r"[^，,；;。]{0,6}$", re.IGNORECASE)
_ENDS_AFTER = re.compile(r"^\s*(?:止|截止|前|之前|以前|为止)")


def expired_parts(text: str, start: int, end: int, dates: list[Fact], as_of: dt.date | None) -> list[tuple[int, int]]:
    """(start, end) in `text` of the parts of the sentence text[start:end] (cut at ；/;) that
    say they ended before `as_of`, beside another part that says what holds now: "早鸟季卡价格
    为2680元，销售截止至2026年11月15日；11月16日起季卡恢复原价3280元" on 30 November."""
    if as_of is None:
        return []
    parts = [(a + start, b + start) for a, b in sentence_parts(text[start:end])]
    if len(parts) < 2:
        return []
    out = []
    for a, b in parts:
        for d in dates:
            day = _day_of(d)
            if a <= d.start < b and day is not None and day < as_of and (
                    _ENDS_BEFORE.search(normalise(text[a:d.start])) or _ENDS_AFTER.match(normalise(text[d.end:b]))):
                out.append((a, b))
                break
    return out if len(out) < len(parts) else []


def sentence_parts(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of the parts of a sentence cut at ；/;."""
    cuts = [m.end() for m in re.finditer(r"[；;]", sentence)]
    bounds = [0, *cuts, len(sentence)]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if sentence[a:b].strip()]


def _day_of(fact: Fact) -> dt.date | None:
    v = fact.value
    if getattr(v, "granularity", None) != "day" or v.year is None:  # type: ignore[union-attr]
        return None
    return dt.date(v.year, v.month, v.day)  # type: ignore[union-attr, arg-type]


def past_facts(text: str, start: int, end: int, facts: list[Fact], as_of: dt.date | None = None,
               newest_known: int | None = None) -> frozenset[int]:
    """Indices into `facts` (those of the sentence text[start:end], not itself past) of the
    facts it states as past: those in an older clause or a part that ended before `as_of`, and
    the values a change starts from."""
    dates = [f for f in facts if f.kind == "date"]
    earlier = past_clauses(text, start, end, dates, newest_known) + expired_parts(text, start, end, dates, as_of)
    numbers = [k for k, f in enumerate(facts) if f.kind == "number"]
    old = previous_values(text, start, end, [facts[k] for k in numbers])
    return frozenset(k for k, f in enumerate(facts) if any(a <= f.start < b for a, b in earlier)) \
        | frozenset(numbers[n] for n in old)


def years_of(facts) -> set[int]:
    """The years the date facts among `facts` name."""
    return {y for f in facts if f.kind == "date" for y in (f.value.year, f.value.year_to) if y is not None}  # type: ignore[union-attr]


def of_other_years(claim: Claim, claim_years: set[int], spans) -> bool:
    """A claim dated only by its years ("2026年的报名时间是……，报名费每科150元") speaks of those
    years, not of the past the `spans` (its candidate evidence) state about other years ("2025年
    报名费为每科150元"). `claim_years`: the years of the claim and of the answer sentence it was
    cut from."""
    if not claim_years or _CLAIM_PAST.search(claim.sentence or claim.text):
        return False
    past = [f for span in spans for i, f in enumerate(span.facts) if span.past or i in span.past_facts]
    return not claim_years & years_of(past)


def about_the_past(claim: Claim, sentence_dates: bool = False) -> bool:
    """Whether a claim may rest on past sentences: it speaks of the past, or names a date.
    `sentence_dates`: the answer sentence the claim was cut from names a date ("In Q3 2025,
    revenue grew 12.5% and reached $3.2 billion": the second half is about Q3 2025 too)."""
    return bool(_CLAIM_PAST.search(claim.sentence or claim.text)) or sentence_dates or names_a_date(claim.facts)


def names_a_date(facts: Sequence[Fact]) -> bool:
    """Whether the facts name a point or period in time; a day of the week ("on Fridays") or a
    time of day recurs, and says nothing of when."""
    return any(f.kind == "date" and f.value.granularity not in ("weekday_range", "time") for f in facts)  # type: ignore[union-attr]

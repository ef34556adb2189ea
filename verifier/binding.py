"""Which case a value belongs to, in a sentence that gives one value per case.

Policies list values per tier, plan or group in one sentence: "30 days for Economy or 15 days
for Priority", "普通会员……单文件上限20GB；超级会员……50GB". An answer that takes the other
case's value has every number "found" in the sentence, so the plain fact check passes it.
The case may also be a condition the claim states as a bound ("priced over $1,200"):
`condition_elsewhere`.

The sentence is cut between its values at the strongest boundary found there (sentence end,
then ；/:, then or/and/while/而/但, then a comma), into groups; a group with several values
is cut again the same way. The claim's value sits in one group. Another group's value is the
claim's when the claim names that group's case and nothing only its own group has.

Across sentences (`value_only_link`): a sentence that gives the claim's value but none of its
words speaks of another case than the sentence naming the claim's, with its own value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors import Claim, Fact
from extractors.compare import compare_facts, same_dimension
from extractors.qualifiers import clause_at
from extractors.tokens import content_tokens
from verifier.arithmetic import worked_out
from verifier.candidates import Candidate
from verifier.cases import (SENTENCE_END, Group, blank, case_keys, case_words, english_sides, first_case_clause,
                            names_in, names_sibling, own_words, value_groups, word_keys)
from verifier.segment import Span

_EXCEPT = re.compile(r"([\u4e00-\u9fff]{2,4}?)(?:以外|之外)|\b(?:[Nn]on-|other than |except |excluding )([A-Za-z]+)")
_ASIDE = re.compile(r"[（(][^（）()]{0,20}[）)]")


def bound_elsewhere(fact: Fact, agree: Fact, span: Span, values: list[Fact], claim: Claim,
                    question: str = "", named_by_claim: bool = False) -> Fact | None:
    """The value `span` gives for the claim's case when `agree` (the span's value equal to the
    claim's `fact`) is the one it gives for another case: "an Economy shipment is lost after 15
    days" against "30 days for Economy or 15 days for Priority". `values`: the span's values of
    the fact's kind and dimension. The claim (or, when it names no case, the sentence it was cut
    from or the question) must name the other case, and none of them any word only the value's
    own case has; None otherwise. `named_by_claim`: only the claim's own words name the case
    (for a window of sentences, whose first often names the topic the question names too)."""
    values = sorted(values, key=lambda v: v.start)
    if len(values) < 2 or any(compare_facts(fact, v) in ("equal", "compatible") for v in values if v is not agree):
        return None  # the claim's value is stated for more than one case
    mine = own_words(fact, claim)
    if mine is None:
        return None
    # "一线城市以外每月上限三千元" and "the rate for non-students" are about every case but the one
    # they name: naming it names no case.
    excluded = frozenset().union(*(word_keys(m.group(1) or m.group(2)) for m in _EXCEPT.finditer(claim.text)))
    mine -= excluded
    # A case named earlier in the sentence carries to the claim; what follows it is its
    # neighbours' ("29-minute grace period; … more than three hours late you'll be charged").
    at = claim.sentence.find(claim.source_text[:12])
    context = (word_keys(claim.sentence[:at] if at >= 0 else claim.sentence) | word_keys(question)) - excluded
    start, end, inside = 0, len(span.text), values
    while len(inside) > 1:
        groups = value_groups(span.text, span.start, inside, start, end)
        if groups is None:
            return None
        here = next(g for g in groups if agree in g.values)
        if len(here.values) == 1 and _case_by_value(claim, fact, span, groups) is here:
            return None
        if (sized := _sized(claim, fact, span, groups)) is not None:
            # The claim's size names the case: its value is the one given with that size.
            if sized is not here:
                return _value_in(sized, here, agree, fact)
            if len(here.values) == 1:
                return None
            start, end, inside = here.start, here.end, list(here.values)
            continue
        rival = _rival(fact, agree, _leaves(groups, here, span.text, span.start), here, span.text, span.start,
                       _Asker(mine, context, tuple(o for o in claim.facts if o is not fact), named_by_claim, claim.text))
        if rival is not None or len(here.values) == len(inside):
            return rival
        start, end, inside = here.start, here.end, list(here.values)
    return None


def _leaves(groups: list[Group], here: Group, text: str, offset: int) -> list[Group]:
    """`groups` with each other group of several values cut into its own cases when the claim's
    group holds one value: in "the early deadline is X, the regular deadline is Y and the late
    deadline is Z", cut first at "and", the regular deadline's Y is a case of its own."""
    if len(here.values) != 1:
        return groups
    out: list[Group] = []
    for g in groups:
        parts = value_groups(text, offset, list(g.values), g.start, g.end) if g is not here and len(g.values) > 1 else None
        out.extend(_leaves(parts, here, text, offset) if parts else [g])
    return out


def _case_by_value(claim: Claim, fact: Fact, span: Span, groups: list[Group]) -> Group | None:
    """The one group that states another bound of the claim: the claim names that group's case
    by its threshold ("满一百张，每张六毛" against "每张0.8元，满100张每张0.6元"). None when no
    group or more than one does."""
    def inside(g: Group) -> list[Fact]:
        return [o for o in span.facts if o.kind == "number" and span.start + g.start <= o.start < span.start + g.end]

    # (a threshold names a case, "满100张", "over 5 nights"; a plain number may be the topic all
    # groups share, "6寸照片", and a limit the rule itself, "within 15 days")
    bounds = [c for c in claim.facts if c is not fact and c.kind == "number"
              and c.value.comparator in ("ge", "gt")]  # type: ignore[union-attr]

    def stated(g: Group) -> bool:
        return any(compare_facts(c, o) in ("equal", "compatible") and o.value.comparator == c.value.comparator  # type: ignore[union-attr]
                   for c in bounds for o in inside(g))

    named = [g for g in groups if stated(g)]
    return named[0] if len(named) == 1 else None


# Sizes pick the case they are stated with: "a 7 ft tree is $139" (after "A 6 ft Noble fir is $119").
_SIZES = frozenset({"ft", "ft2", "m", "m2", "cm", "inch"})


def _sized(claim: Claim, fact: Fact, span: Span, groups: list[Group]) -> Group | None:
    """The group of the size the claim states, when the span states it in that group and no
    other: "A 7 ft Noble fir is $139" against "A 6 ft Noble fir is $119, a 7 ft tree is $139 and
    an 8 ft tree is $169" is the 7 ft case, whatever the first case's name. A size is a plain
    length or area ("at least 3 metres" is a rule), of another slot than `fact` unless it is `fact`."""
    def group_of(o: Fact) -> Group | None:
        return next((g for g in groups if span.start + g.start <= o.start < span.start + g.end), None)

    for c in claim.facts:
        if c.kind == "number" and getattr(c.value, "unit", None) in _SIZES and c.value.per is None \
                and c.value.comparator == "eq" and (c is fact or not same_dimension(c, fact)):  # type: ignore[union-attr]
            where = {id(g): g for o in span.facts if o.kind == "number" and compare_facts(c, o) == "equal"
                     and (g := group_of(o)) is not None}
            if len(where) == 1:
                return next(iter(where.values()))
    return None


def _value_in(group: Group, here: Group, agree: Fact, fact: Fact) -> Fact | None:
    """`group`'s value in the place `agree` has in `here`, when it differs from the claim's."""
    value = _same_place(group, here, agree)
    if value is None or not _parallel(agree, value) or compare_facts(fact, value) != "different":
        return None
    return value


def _same_place(group: Group, here: Group, agree: Fact) -> Fact | None:
    """`group`'s value for the slot `agree` fills in `here`: its only one, or the same position
    in a parallel list."""
    if len(group.values) == 1:
        return group.values[0]
    return group.values[here.values.index(agree)] if len(group.values) == len(here.values) else None


@dataclass(frozen=True)
class _Asker:
    """What the claim brings to binding: its words around the value (`mine`), the words of its
    sentence before it and of the question (`context`), its other facts, and whether the span is
    a window of several sentences (where the context names no case: the window's first sentence
    often names the topic the question names too; it only keeps a later group's value there)."""
    mine: frozenset[str]
    context: frozenset[str]
    claim_facts: tuple[Fact, ...]
    window: bool
    text: str = ""  # the claim's text


def _rival(fact: Fact, agree: Fact, groups: list[Group], here: Group, text: str, offset: int,
           asker: _Asker) -> Fact | None:
    """A value the claim states itself is no rival ("61.4%, up from 59.8%" against "61.4%,
    compared with 59.8%"), nor one equal to `agree`. In a window of sentences the rival's group
    must also share a slot word with the claim ("Annual termite inspections … $220" for "annual
    inspections cost $320"): each sentence's lead is its own subject, not always a case of the
    claim's."""
    mine, claim_facts, window = asker.mine, asker.claim_facts, asker.window
    context = frozenset() if window else asker.context

    def own_of(g: Group) -> frozenset[str]:
        # Also read without its asides: "兒童班（6至12歲）逢星期六" says 班逢 as "兒童班逢星期六" does.
        spans = [(v.start - offset - g.start, v.end - offset - g.start) for v in g.values]
        words = text[g.start:g.end]
        return (case_keys(words, spans) | word_keys(_ASIDE.sub("", blank(words, spans)))) \
            - frozenset().union(*(word_keys(v.text) for v in g.values))

    # Only a sentence that names each case counts ("for Economy … for Priority"), not one that
    # varies a value by a condition the claim may word otherwise ("billed annually … monthly").
    side, lead_topic = english_sides(groups, text, offset)
    # (the topic leading the first case is every case's: "The manufacturer's structural guarantee
    # on the boards is 25 years for Classic and 30 years for Heritage"; a claim repeating it does
    # not thereby keep the first case's value)
    owns = {id(g): own_of(g) - (lead_topic if g is here else frozenset()) for g in groups}  # (read many times below)

    def own(g: Group) -> frozenset[str]:
        return owns[id(g)]

    known, values = names_in(text), frozenset().union(*(word_keys(v.text) for g in groups for v in g.values))
    # (a date's month is a value's word, not a case: "the regular deadline is 15 April 2027")
    proper = {id(g): case_words(text[g.start:g.end], known) - values for g in groups}
    named = {id(g): (proper[id(g)] or side.get(id(g), frozenset())) - values for g in groups}
    if (lead := first_case_clause(groups, text, offset)) is not None:
        named[id(groups[0])] = case_words(text[lead:groups[0].end], known) - values
    # A claim that names no case takes it from the sentence it was cut from ("青云盘普通会员每月
    # 12元，……，单个文件最大可以上传50GB") or from the question ("我是普通会员").
    namer = mine if mine & frozenset().union(*named.values()) else context
    # ("7歲要上兒童班。一期12堂，學費新台幣8,400元" against "……幼幼班學費新台幣6,600元，兒童班新台幣8,400元":
    # in a window too, a word of the question only the value's own group says, 兒童, keeps the value
    # there, past the 學費 only the first case says)
    keeping = asker.context - frozenset().union(*(own(g) for g in groups if g is not here)) \
        if window and here is not groups[0] else context
    cleared = (mine | keeping) & own(here)
    found = []
    for g in groups:
        if g is here or _another_fee(fact, asker.text, text[here.start:here.end], text[g.start:g.end]):
            continue
        value = _same_place(g, here, agree)
        # A claim that names this case itself ("長款羽絨乾洗") keeps its value's group only by naming
        # that group's case too, not by a word the first group says for all ("羽絨（短款）乾洗…，羽絨（長款）…").
        # In a window, the first sentence's lead is often the page's topic ("青禾驾校为…提供陪练服务"), so
        # against it any word the claim shares with the value's own sentence alone keeps it there ("套餐").
        topic = window and g is groups[0]
        keeps = mine & named[id(here)] if mine & (named[id(g)] - own(here)) and not topic else cleared
        if window and not (mine - named[id(g)]) & own(g):
            continue
        names_other = (not keeps - own(g) and named[id(here)] - own(g) and namer & (named[id(g)] - own(here))
                       and not names_sibling(namer, text[g.start:g.end]))
        # "the standard Nimbus" against "Nimbus mattresses carry a 10-year …; the Nimbus Luxe carries a
        # 15-year warranty": the claim names the plain case, not the variant.
        base = bool(named[id(g)]) and named[id(g)] < named[id(here)] and named[id(g)] <= mine | context \
            and not (named[id(here)] - named[id(g)]) & (mine | context)
        one_sentence = not SENTENCE_END.search(text, min(g.start, here.start), max(g.end, here.end) - 1)
        # (not when the claim or its question names the value's own case: "30 years for Heritage")
        shared_after = _after_value(here, text, offset) & _after_value(g, text, offset)
        slot_other = fact.kind == "number" and one_sentence and _slot_elsewhere(mine, own(here), own(g), shared_after) \
            and not (mine | keeping) & proper[id(here)]
        if (value is not None and _parallel(agree, value) and not _same_period(fact, agree, value, asker.text)
                and compare_facts(fact, value) == "different"
                and compare_facts(agree, value) != "equal"
                and not any(compare_facts(o, value) == "equal" for o in claim_facts)
                and (names_other or slot_other or base)):
            found.append(value)
    # (two groups may give the same rival: "調配50毫升香水，……日後補購50毫升")
    return found[0] if found and all(compare_facts(found[0], v) == "equal" for v in found) else None


# (charging, not a fee's name: "最低收费200英镑", "免费")
_CHARGING = frozenset({"收费", "收費", "付费", "付費", "缴费", "繳費", "交费", "交費", "免费", "免費", "计费", "計費",
                       "自费", "自費", "消费", "消費"})
_FEE = re.compile(r"[\u4e00-\u9fff]{1,3}[费費]|\b[a-z]+ (?:fee|charge)s?\b", re.IGNORECASE)


def _another_fee(fact: Fact, claim_text: str, here: str, other: str) -> bool:
    """Whether the other group prices another fee than the one the claim names and shares with its
    value's group: "咖啡拉花学费500元" against "每门课学费500元，咖啡拉花另收材料费200元" (the 200元 is
    the materials fee, not the course's tuition)."""
    def keys(text: str) -> list[str]:  # (a Chinese fee by its last two characters: 学费, 料费)
        return [k for f in _FEE.findall(text) if (k := f.lower() if f.isascii() else f[-2:]) not in _CHARGING]

    at = claim_text.find(fact.text)
    named = keys(claim_text[:at]) if at > 0 else []
    others = keys(other)
    return bool(named) and named[-1] in keys(here) and bool(others) and named[-1] not in others


def _after_value(group: Group, text: str, offset: int) -> frozenset[str]:
    """The two words of `group` right after its last value ("each way", "per adult")."""
    if not group.values:
        return frozenset()
    return word_keys(" ".join(text[group.values[-1].end - offset:group.end].split()[:2]))


def _slot_elsewhere(mine: frozenset[str], here: frozenset[str], other: frozenset[str],
                    shared_after: frozenset[str] = frozenset()) -> bool:
    """Whether the claim's words are all the other group's and none the value's own: "Workmanship
    is guaranteed for three years" against "a 12-month workmanship guarantee; Smart Lock hardware
    also has a 3-year manufacturer warranty" states the workmanship slot, with the warranty's value.
    Within one sentence only: the next sentence's value may be a comparison ("up 12.5 percent from
    the third quarter of 2024" after the heading "Third quarter 2025 results"). What both groups
    say right after their values (`shared_after`) tells neither case, unless it is all the value's group
    says: "the airport costs £15 each way, and other addresses … cost £25 each way"."""
    telling = here - shared_after if here - shared_after else here
    return not mine & telling and len(mine & (other - here)) >= _SLOT_WORDS


_SLOT_WORDS = 2


def _parallel(a: Fact, b: Fact) -> bool:
    """Values for parallel cases are of one sort: a minimum beside a maximum ("at least 3 weeks
    …; no earlier than 6 months") are two slots, not two cases, as are a weekday and a time."""
    if a.kind == "date" and b.kind == "date":  # a day of the week and a time of day are two slots
        return _date_sort(a) == _date_sort(b)
    if a.kind != "number" or b.kind != "number":
        return True
    return a.value.comparator == b.value.comparator  # type: ignore[union-attr]


def _date_sort(f: Fact) -> str:
    return {"weekday_range": "weekday", "time": "time"}.get(f.value.granularity, "day")  # type: ignore[union-attr]


def _same_period(fact: Fact, agree: Fact, value: Fact, claim_text: str) -> bool:
    """Whether the claim's price names its case by its period: "£96 for the year" against "£8.50
    a month or £96 a year" is the yearly price, whatever else the claim names; so is "£260" in
    "A week in August is peak season, so it's £260" against "£45 per day or £260 per week"."""
    period = getattr(fact.value, "per", None)
    if period is None and (said := _PERIOD_SAID.search(claim_text)):
        period = said.group(1).lower()
    return period is not None and period == getattr(agree.value, "per", None) != getattr(value.value, "per", None)


_PERIOD_SAID = re.compile(r"\b(?:a|one|per|each|every|the)\s+(day|week|month|year|night)\b", re.IGNORECASE)


def condition_elsewhere(fact: Fact, agree: Fact, span: Span, claim: Claim) -> Fact | None:
    """The value `span` gives under the claim's own condition when `agree` (the span's value
    equal to the claim's `fact`) sits under another condition: "$120 for a refrigerator priced
    over $1,200" against "$200 on refrigerators priced over $1,200 and $120 on refrigerators
    priced up to $1,200". A condition is a bound among the claim's other numbers; it belongs to
    the group (cut as `value_groups` cuts) that states it equally. None when the claim's
    conditions are stated in `agree`'s own group, or the other group has no single value for
    the fact's slot."""
    if fact.kind != "number" or fact.value.comparator != "eq":  # type: ignore[union-attr]
        return None  # a bound is the condition itself, not the value it governs
    others = [f for f in claim.facts if f is not fact and f.kind == "number"]
    # (a total it works out from the value, "一共14500元", lists nothing)
    if any(f.value.comparator == "eq" and same_dimension(fact, f) and worked_out(f, claim) is None  # type: ignore[union-attr]
           for f in others):
        return None  # the claim lists values itself ("10%, rising to 25% below 99.0%"): own_words' job
    # A bound, or, for a price, a size that names the case ("$240 a year" for "a 1,000-litre tank"),
    # or a time ("call-outs between midnight and 6am are paid at double time instead").
    conditions = [f for f in others if f.value.comparator != "eq"  # type: ignore[union-attr]
                  or fact.value.currency and not f.value.currency]  # type: ignore[union-attr]
    conditions += [f for f in claim.facts if f.kind == "date" and f.value.granularity == "time"]  # type: ignore[union-attr]
    values = sorted((f for f in span.facts if f.kind == "number"), key=lambda f: f.start)
    if not conditions or len(values) < 2:
        return None
    groups = value_groups(span.text, span.start, values)
    here = next((g for g in groups or [] if agree in g.values), None)
    if here is None:
        return None

    def states_one(value: Fact, condition: Fact, within: bool = True) -> bool:
        if condition.kind != value.kind:
            return False  # (a time of day is stated by the group's dates, `states`)
        # `within`: a size "1,000-litre" is stated by "1,000-litre or larger" too.
        verdicts = ("equal", "compatible") if within and condition.value.comparator == "eq" else ("equal",)  # type: ignore[union-attr]
        return compare_facts(condition, value) in verdicts

    def states(group: Group, condition: Fact, within: bool = False) -> bool:
        if condition.kind == "date":
            return any(d.kind == "date" and group.start <= d.start - span.start < group.end
                       and compare_facts(condition, d) == "equal" for d in span.facts)
        return any(states_one(v, condition, within) for v in group.values)

    for condition in conditions:
        if states(here, condition, within=True):
            return None
        owner = [g for g in groups if g is not here and states(g, condition, within=True)]  # type: ignore[union-attr]
        if len(owner) != 1:
            continue
        # Stated before any value of the slot, it is the sentence's topic, every case's: "A
        # one-hour open session costs $30 per person on weekdays and $36 on Saturdays".
        # ("10至29人每人650元，30人及以上每人580元" gives each case its own count: no topic there)
        first = min((v.start for v in values if same_dimension(fact, v)), default=None)
        if first is not None and any(v.start < first and states_one(v, condition) for v in owner[0].values) \
                and not any(same_dimension(condition, v) for v in here.values):
            continue
        rivals = [v for v in owner[0].values if same_dimension(fact, v) and not states(here, v)
                  and compare_facts(condition, v) != "equal" and compare_facts(fact, v) == "different"]
        if len(rivals) == 1:
            return rivals[0]
    return None


_BOUND_WORDS = frozenset({"within", "last", "before", "after", "least", "until", "next", "need"})


def value_only_link(fact: Fact, cand: Candidate, ranked: list[Candidate],
                    claim_words: frozenset[str]) -> tuple[Fact, str] | None:
    """Another value for the claim's slot, from a sentence naming what the claim names, when
    the span agreeing with the claim shares nothing with it but the value: "Bigger changes cost
    £45" against "Home visits … for an extra £45" and "larger changes are charged at £75"."""
    # (words that bound any value name no slot: "within the last two years", "within three business days")
    words = claim_words - frozenset(content_tokens(fact.text)) - _BOUND_WORDS
    if not words or cand.span.tokens & words:
        return None
    for other in ranked:
        if other is cand or not other.span.tokens & words:
            continue
        if other.span.source_id == cand.span.source_id and other.span.start <= cand.span.start \
                and cand.span.end <= other.span.end:
            continue  # a window around the agreeing sentence
        for o in other.span.facts:
            clause = other.span.text[slice(*other.span.clause_of(o))]
            if o.kind == fact.kind and same_dimension(fact, o) and compare_facts(fact, o) == "different" \
                    and frozenset(content_tokens(clause)) & words:
                return o, other.span.source_id
    return None


def date_slot_elsewhere(fact: Fact, cand: Candidate, agree: Fact, ranked: list[Candidate], claim: Claim,
                        min_relevance: float, differs) -> tuple[Fact, str] | None:
    """Another date for the claim's slot, when the clause agreeing with the claim's date names
    none of the words the claim's clause names its slot with and a relevant clause naming some
    of them gives another date: "Bookings close on 9 January 2027" against "A pre-course swim
    test is held on 9 January 2027" and "Bookings close on 4 January 2027"; "申請截止日是116年11月
    30日" against "核定後須於116年11月30日前完成施工" and "受理申請期間為116年1月2日起至116年6月30日止".
    Sources often give several dates, so only the clause, not the sentence, tells whose a date
    is. `differs`: whether a date of a span contradicts the claim's."""
    if fact.value.granularity not in ("day", "datetime"):  # type: ignore[union-attr]
        return None  # weekdays and times come in lists ("on Fridays, Saturdays and Sundays"), cut into bare clauses
    clause = clause_at(claim.source_text, fact.start - claim.start)
    slot = _words_beside(clause, claim.facts)
    here = _words_beside(cand.span.text[slice(*cand.span.clause_of(agree))], cand.span.facts)
    if not slot or here & slot or len(here) < _SLOT_WORDS:
        return None  # (a clause with no words of its own is a piece of a list, not about another slot)
    last = bool(_END_OF.search(clause))
    for other in ranked:
        if other.relevance < min_relevance:
            continue
        found = [o for o in other.span.facts if o.kind == fact.kind and differs(o)
                 and _words_beside(other.span.text[slice(*other.span.clause_of(o))], other.span.facts) & slot]
        if found:  # a deadline is the end of the period the clause gives ("1月2日起至6月30日止")
            return found[-1 if last else 0], other.span.source_id
    return None


_END_OF = re.compile(r"截止|最晚|到期|\b(?:deadline|close[sd]?|closing|until|end[sd]?|last day)\b", re.IGNORECASE)


def _words_beside(text: str, facts) -> frozenset[str]:
    """The content words of `text` that are not part of a value's own text, nor numerals."""
    own = {t for f in facts if f.kind in ("date", "number") for t in content_tokens(f.text)}
    return frozenset(t for t in content_tokens(text) if t not in own and not any(c.isdigit() for c in t))

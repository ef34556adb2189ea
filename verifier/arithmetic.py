"""Values an answer works out from values it states: totals, per-unit prices, discounts.

"$110 each, so $220 for both of you", "挂机每台120元，柜机200元，三台加起来440元", "打八五折，所以实际是
374元". A worked-out value is in no source, so the plain fact check finds it missing or, next to a
stated price, mismatched ("the answer says $220, the source says $140"). It is found instead
when one or two steps of arithmetic on the values stated before it (in the claim or earlier in
the answer; counts also from the question) give it exactly, and a word says the claim is working it out ("so", "in total", "一共",
"就是"). The values it is worked out from are checked against the sources as usual, and the
model still judges the claim: this only keeps a correct sum from reading as a wrong value.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Sequence

from extractors import Claim, Fact, extract_numbers
from extractors.chinese_numerals import parse_chinese_number
from extractors.compare import compare_facts, in_unit, same_currency
from extractors.schema import Quantity
from verifier.fact_result import FactResult
from verifier.sums import equal, sum_of, whole

# What Chinese counts count: "三台", "两晚", "两双" (and 个 before any of them: "三个人").
_COUNTED = "人位台张張间間晚天日月季次件份套条條只隻双雙袋箱瓶盒罐桶包面"  # (面: 号牌一组两面)

# Words that introduce a worked-out value. It must come after one of them, so that two values
# that happen to multiply to a third ("2 hours, 10 people, $20") prove nothing.
_RESULT_CUE = re.compile(r"\b(?:so|total(?:ling|s)?|in total|altogether|combined|comes? to|works? out|means?|"
                         r"that's|which is|making|(?:bring|take)(?:s|ing)?\s+(?:it|that|this|you|the\s+\w+)\s+(?:down\s+|up\s+)?to)\b|,\s*at\b|一共|总共|總共|合计|合計|加起来|加起來|共计|共計|总计|總計|"
                         # (平: Cantonese "cheaper by", right before the value)
                         r"就是|就係|即係|即是|所以|算|平均|便宜了?|贵了?|貴了?|省了?|平\s*$|"
                         # (what is left to pay after a subsidy: "每餐补贴5元，自己只要付十块钱")
                         r"只要[付交缴繳]|只需要?[付交缴繳]|只用[付交缴繳]|只[付交缴繳]|实付|實付|"
                         r"\bon average\b|\baverages?\b|[，,]\s*是|=|＝"
                         r"|[，,]\s*共(?=\s*$)"  # "正好3天，共8400元" (the value follows: only text before it is searched)
                         r"|(?<=[元块塊蚊])\s*是(?=\s*$)"  # "每单位8元是一万二": at that price, the total
                         # a count, then the total: "两双是78元", "三台要360元", "清洗一次大约五万元", "60公斤大概七十二块"
                         rf"|[一两兩二三四五六七八九十百\d]+\s*(?:[个個{_COUNTED}]|公尺|米|公斤|千克|斤|公里)\s*"
                         r"(?:是|要|共|大约|大約|约|約|大概)"
                         # (Cantonese, with no verb: "兩個人四百蚊")
                         r"|[两兩二三四五六七八九十\d]+\s*[个個]?[人位]\s*$",
                         re.IGNORECASE)
_ABOUT = re.compile(r"大约|大約|约|約|大概")
# Counts and a verb before the cue: "三台租两天", "两个人住三晚"
# "按两位整理师干四小时算，……": what a sum is worked out with, before it
_COUNTED_AS = re.compile(r"\s*(?:按|以|照)[^，,。；;]{0,20}(?:算|计|計)\s*")
_COUNTS_ONLY = re.compile(rf"(?:[两兩二三四五六七八九十百千万萬\d]+\s*[个個]?[{_COUNTED}字]|[租住用买買坐乘\s])+")
# What may come before a total stated last: "it's $159 in total", "that comes to $80 altogether"
_ONLY_IT = re.compile(r"\s*(?:(?:and|so)\s+)?(?:it|that|this)(?:'s|’s|\s+is|\s+comes\s+to|\s+will\s+be)?\s*", re.IGNORECASE)
_TOTAL_AFTER = re.compile(r"\s*(?:in total|total|altogether|combined|all told|in all)\b", re.IGNORECASE)
# How many: "both", "the two of you", "三台", "10個人", "9个月" (a count stated as a number fact
# is found by the extractor; these are the words it leaves alone).
_COUNT_WORDS = {"both": 2, "pair": 2, "couple": 2, "twice": 2, "round trip": 2, "both ways": 2, "there and back": 2,
                "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                "eleven": 11, "twelve": 12}
_COUNT_EN = re.compile(r"\b(" + "|".join(_COUNT_WORDS) + r")\b", re.IGNORECASE)
_COUNT_ZH = re.compile(rf"([两兩二三四五六七八九十]{{1,3}}|\d{{1,3}})\s*(?=[个個{_COUNTED}])")
_BOTH_WAYS_ZH = re.compile(r"往返|来回|來回")
_DISCOUNT_ZH = re.compile(r"([一二三四五六七八九])([一二三四五六七八九])?折")
_TIMES_WORDS = {"one and a half": Decimal("1.5"), "two and a half": Decimal("2.5"), "double": Decimal(2),
                "triple": Decimal(3), "half": Decimal("0.5")}
_TIMES_EN = re.compile(r"\b(one and a half|two and a half|double|triple)(?: times)?\b|\b(half) (?:of |the |that\b|off\b|price\b)",
                       re.IGNORECASE)
# The price a worked-out one replaces, stated right after it: "£119 instead of £140", "374元，而不是440元".
_INSTEAD = re.compile(r"\s*,?\s*(?:instead of|rather than|down from|reduced from)\s+|\s*[，,]?\s*(?:而不是|原价|原價)\s*",
                      re.IGNORECASE)
_MAX_MULTIPLIER = 100


def worked_out(fact: Fact, claim: Claim, earlier: str = "", question: str = "",
               givens: Sequence[Fact] = ()) -> str | None:
    """How the claim works `fact` out ("$110 × 2"), or None when it does not. `earlier`: the
    answer before the claim, whose values the claim may build on ("三台加起来440元。……打八五折，
    所以实际是374元"). `givens`: values a source states for the claim's slot, which the claim may
    scale by a share or count it states ("试用期员工餐补减半，也就是每月300元" against 600元), or
    lessen by a saving it states; tried in order when the claim's own values give nothing."""
    target = _amount(fact)
    if target is None or fact.kind != "number":
        return None
    fact = _priced_as_stated(fact, claim)
    before = claim.source_text[: fact.start - claim.start]
    after = claim.source_text[fact.end - claim.start :]
    # "兩百公尺大約九萬元": the extractor keeps 大約 with the value, but it follows the count
    lead = _ABOUT.match(fact.text)
    if not (_RESULT_CUE.search(before + (lead.group(0) if lead else "")) or _TOTAL_AFTER.match(after)):
        return None
    text = f"{earlier}\n{before}"
    # (read with the rest of the claim, which may name the currency a bare 元 means: "每株50元……新台幣六萬元")
    stated = [f for f in extract_numbers(f"{text}\n{fact.text}\n{after}") if f.kind == "number" and f.end <= len(text)]
    replaced = _instead_of(after)
    same = [(f.text, a) for f in stated + ([replaced[0]] if replaced else []) + _broken_down(after)
            if _same_kind(f, fact) and (a := _amount(f)) is not None]
    # "so $220 for both of you", "so roughly £2,600 for forty square metres"
    around = stated + [f for f in extract_numbers(after) if f.kind == "number"]
    counts = _counts(f"{text}\n{after}\n{question}", around)
    # A price per metre times the metres stated ("每公尺450元，兩百公尺大約九萬元"), however many; per
    # block or per smaller unit as well ("每百字15元，两千字", "装机2兆瓦，按每瓦0.025元").
    per = {f.value.per for f in stated if isinstance(f.value, Quantity) and f.value.per and _same_kind(f, fact)}
    blocks = {n: f for f in around if isinstance(f.value, Quantity) and f.value.currency is None
              for p in per if (n := _blocks(f.value, p)) is not None and n > 1}
    counts += list(blocks)
    # (a count in other units than the claim states it in is named in the working: "× 20 [两千字]")
    restated = {n: f.text for n, f in blocks.items() if n != f.value.value}  # type: ignore[union-attr]
    shares = _shares(text, stated)
    how = sum_of(target, same, counts, shares)
    if how is not None and (m := re.search(r"× (\d+)\b", how)) and int(m.group(1)) in restated:
        how = f"{how[:m.end()]} [{restated[int(m.group(1))]}]{how[m.end():]}"  # "每百字15元 × 20 [两千字]"
    if how is None and (unit := fact.value.per):  # type: ignore[union-attr]
        # "200分钟卡八百元，平均每分钟四元": a price over the units it buys, per unit
        how = next((f"{t} ÷ {n}" for t, a in same for f in around if isinstance(f.value, Quantity)
                    and f.value.currency is None and f.value.unit == unit and (n := whole(f.value.value))
                    and equal(a / n, target)), None)
    if how is None:
        # "£2,000 a month (£24,000 a year)": the same amount over a longer or shorter period
        how = next((f"{f.text} × {factor}" for f, a in ((f, _amount(f)) for f in stated if _same_kind(f, fact))
                    if a is not None and (factor := _PERIODS.get((f.value.per, fact.value.per)))  # type: ignore[union-attr]
                    and equal(a * factor, target)), None)
    for given in givens if how is None else ():
        if given.kind != "number" or not _same_kind(given, fact) or (a := _amount(given)) is None:
            continue
        how = next((f"{given.text} × {label}" for label, factor in [*((str(m), Decimal(m)) for m in counts), *shares]
                    if equal(a * factor, target)), None)
        # "每人能便宜50元，也就是每人400元" against "每人450元": the source's price less a stated saving
        how = how or next((f"{given.text} − {t}" for t, b in same if equal(a - b, target)), None)
        if how is not None:
            break
    return how


# The parts of a total, in brackets right after it: "£11 a visit (£9 for the window and £2 for the door)"
_BREAKDOWN = re.compile(r"[^.;!?()。；！？（）]{0,20}?[(（]([^()（）]+)[)）]")


def _broken_down(after: str) -> list[Fact]:
    m = _BREAKDOWN.match(after)
    return [f for f in extract_numbers(m.group(1)) if f.kind == "number"] if m else []


_PERIODS = {("month", "year"): Decimal(12), ("year", "month"): Decimal(1) / 12, ("week", "year"): Decimal(52)}


def _instead_of(after: str) -> tuple[Fact, int] | None:
    """The amount that follows a worked-out value as what it replaces ("instead of £140"), with
    where it ends in `after`."""
    cue = _INSTEAD.match(after)
    if not cue:
        return None
    rest = after[cue.end():]
    fact = next((f for f in extract_numbers(rest) if f.kind == "number" and f.start == 0), None)
    return (fact, cue.end() + fact.end) if fact else None


def found_by_working(results: list[FactResult], claim: Claim, earlier_answer: str, question: str,
                     spans: Sequence = ()) -> list[FactResult]:
    """The fact check's results with the values the claim works out (and the counts it works
    them out with) found: `evidence_text` says how, `source_id` is None. `spans`: the claim's
    most relevant candidate spans, whose prices a missing value may be worked out from."""
    results = [_worked_out(r, claim, earlier_answer, question, spans) for r in results]
    if not any(_maybe_count(r) for r in results):
        return _askers_operands(results, question)
    # A total the sources happen to state too ("两条一共120元" beside "西装收腰每件120元") is still
    # worked out with the claim's count.
    also = [how for r in results if r.status == "matched" and r.source_id is not None and r.fact.kind == "number"
            and (how := worked_out(r.fact, claim, earlier_answer, question)) is not None]
    return _askers_operands(_counts_worked_with(results, also), question)


def _askers_operands(results: list[FactResult], question: str) -> list[FactResult]:
    """An amount the question states that the claim works a value out from is the asker's: "on
    £2,000 a month (£24,000 a year) that's £1,200" for "renew my tenancy at £2,000 a month"."""
    hows = [r.evidence_text for r in results if r.status == "matched" and r.source_id is None and r.evidence is None
            and r.evidence_text]
    if not question or not any(r.status == "missing" for r in results):
        return results
    asked = [f for f in extract_numbers(question) if f.kind == "number"]
    out = []
    for r in results:
        given = next((q for q in asked if compare_facts(r.fact, q) == "equal"), None) \
            if r.status == "missing" and r.fact.kind == "number" and any(r.fact.text in how for how in hows) else None
        out.append(FactResult(r.fact, "matched", given, given.text) if given is not None else r)
    return out


def _worked_out(result: FactResult, claim: Claim, earlier_answer: str, question: str,
                spans: Sequence = ()) -> FactResult:
    """A total or share the claim works out from its own values is found, not missing or another
    value. A missing one may also be worked out from a price of the same kind and rate that a
    candidate span gives."""
    if result.status == "matched" or result.fact.kind != "number" or result.past:
        return result
    if result.status == "mismatched":
        givens = [result.evidence] if result.evidence is not None else []
    else:
        per = getattr(result.fact.value, "per", None)
        givens = [f for span in spans for f in span.facts if f.kind == "number"
                  and isinstance(f.value, Quantity) and f.value.per == per and _same_kind(f, result.fact)]
    how = worked_out(result.fact, claim, earlier_answer, question, givens)
    return result if how is None else FactResult(result.fact, "matched", None, how)


def _maybe_count(r: FactResult) -> bool:
    q = r.fact.value
    # mismatched too: "兩百公尺" (the asker's fence) is no height "1.8公尺" the source gives
    return r.status in ("missing", "mismatched") and r.fact.kind == "number" and not r.past and isinstance(q, Quantity) \
        and q.currency is None and q.comparator == "eq" and q.value is not None


def _counts_worked_with(results: list[FactResult], also: Sequence[str] = ()) -> list[FactResult]:
    """A count the claim multiplies by in a sum it works out is the asker's, not the sources':
    "两双" in "每双39元，两双是78元" is found in that sum. `also`: sums worked out for totals the
    sources state as well."""
    sums = [r.evidence_text for r in results if r.status == "matched" and r.source_id is None and r.evidence is None
            and r.evidence_text and "×" in r.evidence_text] + [how for how in also if "×" in how]
    # (and all the units a sum adds up: "每張899元 × 2 + 699元" is three people: the multipliers, plus
    # one for each term added without one)
    units = {how: sum(int(n) for n in _MULTIPLIER.findall(how)) + how.count(" + ") + 1 - len(_MULTIPLIER.findall(how))
             for how in sums if " + " in how and "(" not in how}
    used = {int(n) for how in sums for n in _MULTIPLIER.findall(how)} | set(units.values())
    out = []
    for r in results:
        q = r.fact.value
        named = next((how for how in sums if f"[{r.fact.text}]" in how), None) if _maybe_count(r) else None
        if _maybe_count(r) and (q.value in used or named):  # type: ignore[union-attr]
            r = FactResult(r.fact, "matched", None, named or next(how for how in sums if str(int(q.value)) in how
                                                                  or units.get(how) == q.value))  # type: ignore[union-attr]
        out.append(r)
    return out


# "two extra hours", "3 additional nights": a count of what a source prices one of
_UNITS_COUNTED = re.compile(r"\b(\d{1,2}|" + "|".join(w for w in _COUNT_WORDS if " " not in w and w not in
                                                       ("both", "pair", "couple", "twice")) +
                            r")\s+((?:extra|additional|more|further)\s+)?([a-z]{3,}?)s?\b", re.IGNORECASE)


def priced_by_rate(results: list[FactResult], claim: Claim, spans: Sequence) -> list[FactResult]:
    """A price the claim works out as a source's price for one unit times the units it counts:
    "Two extra hours would cost £150" from "Each extra hour beyond the package is £75". No cue
    word is needed: the source says the price is per unit ("each", "per", "every", "an"), and the
    claim counts that very unit. `spans`: the claim's candidate spans, most relevant first."""
    out = []
    for r in results:
        rate = None if r.status == "matched" or r.past else _rate_for(r.fact, claim, spans)
        out.append(r if rate is None else FactResult(r.fact, "matched", None, f"{rate[0].text} × {rate[1]}"))
    return _counts_worked_with(out) if out != results else results


def per_unit_reading(claim: Claim, spans: Sequence) -> str | None:
    """The claim as the model should read it when it prices units at a source's rate: "each
    extra hour would cost £75" for "Two extra hours would cost £150" (the model cannot multiply;
    `priced_by_rate` checks the sum)."""
    for fact in claim.facts:
        rate = _rate_for(fact, claim, spans)
        if rate is not None:
            rate_fact, _, m = rate
            text, at = claim.text, claim.text.find(fact.text)  # (`text` may carry a subject the answer gave earlier)
            text = text[:at] + rate_fact.text + text[at + len(fact.text):]
            return text[:m.start()] + f"each {m.group(2) or ''}{m.group(3)}" + text[m.end():]
    return None


def _rate_for(fact: Fact, claim: Claim, spans: Sequence):
    """(the source's price per unit, the count, the count's match in the claim) when `fact` is
    that price times the units the claim counts."""
    target = _amount(fact) if fact.kind == "number" else None
    at = claim.text.find(fact.text)
    if target is None or not fact.value.currency or at < 0:  # type: ignore[union-attr]
        return None
    for m in _UNITS_COUNTED.finditer(claim.text):
        n = _COUNT_WORDS.get(m.group(1).lower()) or (int(m.group(1)) if m.group(1).isdigit() else 0)
        if n < 2 or m.end() > at:
            continue
        for span in spans:
            for f in span.facts:
                if f.kind == "number" and _same_kind(f, fact) and (a := _amount(f)) is not None \
                        and equal(a * n, target) \
                        and _priced_per(span.text[slice(*span.clause_of(f))], m.group(2) or "", m.group(3)):
                    return f, n, m
    return None


def _priced_per(clause: str, extra: str, unit: str) -> bool:
    lead = r"\b(?:each|every|per|an?)\s+" + (re.escape(extra) if extra else r"(?:(?:extra|additional)\s+)?")
    return re.search(lead + rf"{re.escape(unit)}s?\b", clause, re.IGNORECASE) is not None


_COUNT_NAMED = re.compile(r"\s*\[[^\]]*\]")
_MULTIPLIER = re.compile(r"[×(−]\s*(\d+)\b")


def operands_stated(how: str, stated: Sequence[Fact]) -> bool:
    """Whether every amount a sum is worked out from ("每台120元 × 2 + 200元") is one of the
    `stated` values (a source's): a right sum of wrong prices is still wrong. Bare counts are
    the asker's and need not be."""
    def amounts(facts: Sequence[Fact]) -> list[tuple[Fact, Decimal]]:
        return [(f, a) for f in facts if f.kind == "number" and isinstance(f.value, Quantity)
                and (a := _amount(f)) is not None]

    # (without the count a multiplier stands for: "× 20 [两千字]" is the asker's)
    used = [(f, a) for f, a in amounts(extract_numbers(_COUNT_NAMED.sub("", how))) if f.value.currency or f.value.unit]  # type: ignore[union-attr]
    known = amounts(stated)
    return bool(used) and all(any(_same_kind(s, f) and equal(b, a) for s, b in known) for f, a in used)


def sum_operands(claim: Claim, earlier: str = "", question: str = "") -> list[Fact]:
    """The amounts (with a currency or unit) of the sums the claim works out."""
    hows = [how for fact in claim.facts if fact.kind == "number"
            and (how := worked_out(fact, claim, earlier, question)) is not None]
    # (the operators apart, so that "£60 + £40" is no "£60+")
    return [f for how in hows for f in extract_numbers(_OPERATOR.sub(" ; ", _COUNT_NAMED.sub("", how)))
            if isinstance(f.value, Quantity) and (f.value.currency or f.value.unit)]


_OPERATOR = re.compile(r"\s+[+−×÷]\s+")


def working(claim: Claim, earlier: str = "", question: str = "") -> list[str]:
    """The pieces of the claim's text that work a value out, from the cue to the value: "，三台
    加起来440元", "so $220". The model cannot do the sum, and reads a correct one as a claim the
    source does not make; once the sum is checked here, the model reads the claim without it."""
    pieces = []
    for fact in claim.facts:
        if fact.kind != "number" or worked_out(fact, claim, earlier, question) is None:
            continue
        before = claim.source_text[: fact.start - claim.start]
        lead = _ABOUT.match(fact.text)
        cue = list(_RESULT_CUE.finditer(before + (lead.group(0) if lead else "")))
        end = fact.end - claim.start
        replaced = _instead_of(claim.source_text[end:])
        end += replaced[1] if replaced else 0  # "so … £119 instead of £140": what it replaces goes too
        total = _TOTAL_AFTER.match(claim.source_text, end)  # "so $105 in total"
        if not cue and total and _ONLY_IT.fullmatch(before):
            pieces.append(claim.source_text[: total.end()])  # "it's $159 in total" (its "so" went with the split)
        elif cue:
            # The whole clause goes, with its comma: "，7000元月薪就是3500元" (its inputs read alone
            # look like a rival value to the model).
            commas = [m.start() for m in re.finditer(r"[，,;；]", before[: cue[-1].start() + 1])]
            start = commas[-1] if commas else cue[-1].start()
            if not commas and _COUNTS_ONLY.fullmatch(before[: cue[-1].start()]) \
                    or len(commas) == 1 and _counts_premise(before[: commas[0]]):
                start = 0  # "三台租两天一共1560元", "按两位整理师干四小时算，一共一千二百元": the counts go too
            pieces.append(claim.source_text[start : total.end() if total else end])
    return pieces


def _counts_premise(text: str) -> bool:
    """"按两位整理师干四小时算": the asker's counts a sum is worked out with, and no price (a
    price, "按每平方米6元算", is the source's to confirm)."""
    return _COUNTED_AS.fullmatch(text) is not None and not any(
        isinstance(f.value, Quantity) and f.value.currency for f in extract_numbers(text))


def _priced_as_stated(fact: Fact, claim: Claim) -> Fact:
    """A bare result said without its currency, as people do ("每单位8元是一万二"), in the
    currency of the price the claim works it out from."""
    q = fact.value
    if not isinstance(q, Quantity) or q.currency or q.unit or q.per:
        return fact
    currency = next((f.value.currency for f in claim.facts if f.kind == "number" and f.end <= fact.start
                     and isinstance(f.value, Quantity) and f.value.currency), None)
    return fact if currency is None else fact.model_copy(update={"value": q.model_copy(update={"currency": currency})})


def _amount(fact: Fact) -> Decimal | None:
    q = fact.value
    return q.value if isinstance(q, Quantity) and q.value is not None and q.value > 0 else None


def _same_kind(a: Fact, b: Fact) -> bool:
    qa, qb = a.value, b.value
    assert isinstance(qa, Quantity) and isinstance(qb, Quantity)
    if qa.currency or qb.currency:
        return same_currency(qa.currency, qb.currency)
    return qa.unit is not None and qa.unit == qb.unit and qa.unit not in ("percent", "tenth_of_price")


def _counts(text: str, stated: list[Fact]) -> list[int]:
    found = {n for f in stated if isinstance(f.value, Quantity) and f.value.currency is None
             and f.value.unit not in ("percent", "tenth_of_price") and (n := whole(f.value.value)) is not None}
    found |= {_COUNT_WORDS[m.group(1).lower()] for m in _COUNT_EN.finditer(text)}
    if _BOTH_WAYS_ZH.search(text):  # 单程15元，往返30元
        found.add(2)
    for m in _COUNT_ZH.finditer(text):
        value = parse_chinese_number(m.group(1)) if not m.group(1).isdigit() else Decimal(m.group(1))
        if (n := whole(value)) is not None:
            found.add(n)
    return sorted(n for n in found if 2 <= n <= _MAX_MULTIPLIER)


def _shares(text: str, stated: list[Fact]) -> list[tuple[str, Decimal]]:
    """Parts of a price the claim names: 25% (and 75%, what is left after 25% off), 八五折, 七折."""
    out: list[tuple[str, Decimal]] = []
    for f in stated:
        q = f.value
        if not isinstance(q, Quantity) or q.value is None:
            continue
        if q.unit == "percent" and 0 < q.value < 100:
            out += [(f.text, q.value / 100), (f"(100% − {f.text})", 1 - q.value / 100)]
        elif q.unit == "tenth_of_price" and 0 < q.value < 10:
            out.append((f.text, q.value / 10))
        elif q.unit == "multiple" and 0 < q.value <= _MAX_MULTIPLIER:  # 1.5倍
            out.append((f.text, q.value))
    for m in _TIMES_EN.finditer(text):  # "one and a half times that"
        out.append((m.group(0), _TIMES_WORDS[(m.group(1) or m.group(2)).lower()]))
    for m in _DISCOUNT_ZH.finditer(text):  # 七折 the extractor may leave in "按七折算"
        tens, ones = parse_chinese_number(m.group(1)), parse_chinese_number(m.group(2)) if m.group(2) else None
        if tens is not None:
            out.append((m.group(0), (tens * 10 + (ones or 0)) / 100 if ones is not None else tens / 10))
    return out


def _blocks(q: Quantity, per: str) -> int | None:
    """How many of the rate's units (`per`: "m", "100 character", "W") the quantity `q` is
    (2兆瓦 at 每瓦0.025元 is 2,000,000 watts)."""
    size, _, unit = per.rpartition(" ")
    count = in_unit(q, unit)
    if count is None:
        return None
    return whole(count / Decimal(size or 1))

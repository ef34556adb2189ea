"""Qualifier checks between a claim and the evidence it rests on.

A small cross-encoder reads "个人用户的退货期限为15天" and "企业客户……退货期限为15天" as the same
statement. These checks catch what the model misses, with the values that differ named in the
report (opposite polarity is `verifier.polarity`):

- a qualifier (customer type, employment type, region, billing period, frequency, membership,
  the role that approves or decides) the claim states while the evidence states another value
  for the same slot is a mismatch. Qualifiers are read first between the neighbours of each
  value the claim matched ("$600 for full-time employees and $300 for part-time"), then in its
  clause ("$12 ... when billed annually, or $15 ... billed monthly"), then in the sentence that
  states the claim, then in the whole span. A qualifier the evidence leaves unstated is no
  problem: sources often state who a rule is for once, in the title.
- additive claims: "X 也可以 Y" / "X can also Y" needs evidence that names X where it says Y.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors import Claim, Fact, extract_dates
from extractors.dates import weekday_set
from extractors.qualifiers import Qualifier, clauses, find_qualifiers, qualifiers_agree, sentences
from extractors.schema import QualifierValue
from extractors.text import normalise
from extractors.tokens import content_tokens, token_recall
from verifier.candidates import Candidate
from verifier.fact_result import FactResult
from verifier.polarity import closest_part

# Slots that describe the asker rather than the thing asked about.
ASKER_SLOTS = frozenset({"customer", "membership", "region", "employment"})


@dataclass(frozen=True)
class _Place:
    source_id: str
    text: str


def check_qualifiers(claim: Claim, facts: list[FactResult], candidates: list[Candidate],
                     support: Candidate | None) -> list[FactResult]:
    """One result per qualifier slot of the claim that the evidence also fills."""
    own = find_qualifiers(claim.source_text)
    if not own:
        return []
    places = _places(claim, facts, candidates, support)
    results: list[FactResult] = []
    for slot in dict.fromkeys(q.slot for q in own):
        mine = [q for q in own if q.slot == slot]
        # (a doer is read first in the clause about the claim's matter, last in another sentence doing the same)
        first, last = (_matter_places(claim, mine, support), _doing_places(claim, mine, candidates)) \
            if slot == "agent" else ([], [])
        for place in first + places + last:
            theirs = [q for q in find_qualifiers(place.text) if q.slot == slot]
            if slot == "role":
                theirs = _same_action(claim.source_text, mine, place.text, theirs)
            elif slot == "agent":  # only a doer of the same action says who does it
                theirs = _same_doing(mine, theirs)
            if not theirs:
                continue
            pair = next(((m, t) for t in theirs for m in mine if qualifiers_agree(slot, m.value, t.value)), None)
            if pair is not None:
                results.append(_result(claim, pair[0], "matched", pair[1], place))
            else:
                results.append(_result(claim, mine[0], "mismatched", theirs[0], place))
            break
    return results


# What a role does, right after it: "由直属主管审批，……由所在部门HRBP备案".
_ACTION = re.compile(r"\s?(审批|批准|审核|签批|签字|备案|负责|approves?|signs?|reviews?)", re.IGNORECASE)


def _same_action(claim_text: str, mine: list[Qualifier], place_text: str, theirs: list[Qualifier]) -> list[Qualifier]:
    """The evidence's roles that do what the claim's role does, when both say it: the approver
    is not found in the role that only files the approved request."""
    def action(text: str, q: Qualifier) -> str | None:
        m = _ACTION.match(normalise(text), q.end)
        return m.group(1).lower() if m else None

    wanted = {action(claim_text, q) for q in mine} - {None}
    if not wanted:
        return theirs
    acting = [t for t in theirs if action(place_text, t) in wanted]
    return acting or theirs


def _same_doing(mine: list[Qualifier], theirs: list[Qualifier]) -> list[Qualifier]:
    return [t for t in theirs if any(t.value.partition(":")[0] == m.value.partition(":")[0] for m in mine)]


def _matter_places(claim: Claim, mine: list[Qualifier], support: Candidate | None) -> list[_Place]:
    """The clause of the supporting span about the claim's matter, when the span names a doer per
    matter ("版税结算相关问题请联系版权结算部；歌曲上线……请联系内容运营部"): the claim's doer must be
    that clause's. Which clause is judged on the words other than the doers' names, which would
    otherwise pick the clause naming the claim's doer, right or wrong."""
    if support is None:
        return []
    text = support.span.text
    theirs = _same_doing(mine, [q for q in find_qualifiers(text) if q.slot == "agent"])
    parts = [(a, b) for a, b in clauses(text) if any(a <= t.start < b for t in theirs)]
    if len(parts) < 2:
        return []

    matter = _without(claim.source_text, mine)
    scores = sorted(((token_recall(matter, _without(text[a:b], [t for t in theirs if a <= t.start < b], a)), (a, b))
                     for a, b in parts), reverse=True)
    if scores[0][0] <= scores[1][0]:
        return []
    a, b = scores[0][1]
    return [_Place(support.span.source_id, text[a:b])]


def _doing_places(claim: Claim, mine: list[Qualifier], candidates: list[Candidate]) -> list[_Place]:
    """Clauses of the relevant spans in which someone does the claim's action to the claim's
    matter, when the evidence the claim rests on names no doer: "考试合格后由市应急管理局核发特种作业
    操作证" for "考试合格后由金焊职业培训学校直接发特种作业操作证", supported by a sentence that only says
    the school runs the course."""
    matter = _without(claim.source_text, mine)
    found: list[_Place] = []
    for cand in sorted(candidates, key=lambda c: -c.relevance):
        if cand.relevance < DOING_RELEVANCE or len(sentences(cand.span.text)) > 1:
            continue
        text = cand.span.text
        theirs = _same_doing(mine, [q for q in find_qualifiers(text) if q.slot == "agent"])
        for a, b in clauses(text):
            here = [t for t in theirs if a <= t.start < b]
            if here and token_recall(matter, _without(text[a:b], here, a)) >= DOING_MATTER_RECALL:
                found.append(_Place(cand.span.source_id, text[a:b]))
    return found


DOING_RELEVANCE = 0.35
DOING_MATTER_RECALL = 0.6


def _without(piece: str, doers: list[Qualifier], offset: int = 0) -> str:
    """`piece` with the doers' names blanked out (`offset`: where `piece` starts in the text the
    doers were found in)."""
    for q in sorted(doers, key=lambda q: -q.start):
        piece = piece[: q.start - offset] + " " + piece[q.end - offset :]
    return piece


def asker_qualifiers(question: str | None) -> dict[str, set[str]]:
    """Slot -> values the question states ("我是个人用户" -> customer: personal)."""
    found: dict[str, set[str]] = {}
    for q in find_qualifiers(question or ""):
        if q.slot in ASKER_SLOTS:
            found.setdefault(q.slot, set()).add(q.value)
    # The days the asker asks about: "想报周末银碗课" (weekdays as "5,6", Monday 0)
    for days in _weekday_sets(question or ""):
        found.setdefault(ASKER_DAYS, set()).add(",".join(map(str, sorted(days))))
    return found


ASKER_DAYS = "weekdays"


def _weekday_sets(text: str) -> list[frozenset[int]]:
    return [days for f in extract_dates(text) if f.value.granularity == "weekday_range"  # type: ignore[union-attr]
            and (days := weekday_set(f.value))]  # type: ignore[arg-type]


def applies_to_asker(claim: Claim, span_text: str, asker: dict[str, set[str]] | None) -> bool:
    """False when the span is stated for someone else than the asker, in a slot the claim
    leaves implicit: the enterprise rule is no evidence for a personal customer's answer."""
    if not asker:
        return True
    if not _for_the_askers_days(claim, span_text, asker.get(ASKER_DAYS, set())):
        return False
    own = {q.slot for q in find_qualifiers(claim.source_text)} | {ASKER_DAYS}
    # In a window of several sentences, the one that states the claim decides.
    stated = closest_part(claim, span_text, sentences)
    theirs: dict[str, set[str]] = {}
    for q in find_qualifiers(stated):
        theirs.setdefault(q.slot, set()).add(q.value)
    return all(not theirs.get(slot) or theirs[slot] & values
               for slot, values in asker.items() if slot not in own)




# Days a claim may name that the date extractor reads as no weekdays: "假日最少要訂20桌"
_DAY_WORDS = re.compile(r"假日|假期|節日|节日|holidays?\b|bank holiday", re.IGNORECASE)


def _for_the_askers_days(claim: Claim, span_text: str, asked: set[str]) -> bool:
    """False when the clause of the span that states the claim is for other days of the week
    than the question asks about, and the claim names no days itself: "学生凭学生证报名平日晚课可享
    八折" is no evidence of a student discount on the weekend class the asker wants."""
    if not asked or _DAY_WORDS.search(claim.source_text) or any(
            f.kind == "date" and f.value.granularity == "weekday_range" for f in claim.facts):  # type: ignore[union-attr]
        return True
    wanted = [frozenset(int(d) for d in days.split(",")) for days in asked]
    theirs = _weekday_sets(closest_part(claim, span_text, clauses))
    return not theirs or any(t & w for t in theirs for w in wanted)


# "X 也可以 Y", "X can also Y": the answer extends a rule to X. Small models read "试用期员工也可以
# 享受体检" as entailed by "员工入职满一年后可享受体检"; the evidence must name X where it says Y.
_ADDITIVE = re.compile(r"也(?=可以|可|能|有|会|需|要|是|适用|享|必须|应)|同样(?=可以|可|能|适用|享)|亦(?=可)|还(?=可以|可|能|享)"
                       r"|\b(?:also|as well)\b", re.IGNORECASE)
_AUXILIARY = re.compile(r"(?:\s+(?:can|may|could|will|would|should|must|are|is|do|does|have|has))+$", re.IGNORECASE)
SUBJECT_MIN_RECALL = 0.5


_PRONOUN = re.compile(r"[你您我他她][们們哋]?(?:也|都)?")


def unstated_subject(claim: Claim, span_text: str) -> str | None:
    """The X of an additive claim ("X also Y") when the sentence of `span_text` that says Y
    does not name X; None when the claim is not additive or the evidence names X.

    The answer's own words before 还/also are X where it has some ("成人票是128元，当天凭门票买酒
    还能打九五折": what 还 adds to is the purchase); the subject carried over from the previous
    clause only where it has none ("金卡会员……，还可以享受免费早餐")."""
    m = _ADDITIVE.search(claim.source_text)
    text = claim.source_text if m is not None and content_tokens(claim.source_text[:m.start()]) else claim.text
    m = _ADDITIVE.search(text)
    if m is None:
        return None
    if re.search(r"[，,；;]\s*$", text[:m.start()]):
        return None  # "首稿设计免费，还能免费改三次": 还 adds to the clause before, not to a subject
    subject = _AUXILIARY.sub("", text[:m.start()].strip(" ，,、：:"))
    rest = text[m.end():]
    if not content_tokens(subject) or not content_tokens(rest) or _PRONOUN.fullmatch(subject):
        return None  # "You also need ...", "你还可以申请……" name no one the evidence could name
    if re.search(r"[，,；;]", subject):
        return None  # "……，会带你参观酒窖，还能品三款酒": 还 adds to the clauses before, not to a subject
    # A sentence that lists cases (";"/"；") states each in its own part: "钻石会员可享受双人免费早餐
    # ……；金卡会员可享受最晚下午2点退房" does not give 金卡会员 the breakfast.
    parts = [p for a, b in sentences(span_text) for p in re.split(r"[；;]", span_text[a:b]) if p.strip()]
    stated = max(parts, key=lambda part: token_recall(rest, part), default=span_text)
    return subject if token_recall(subject, stated) < SUBJECT_MIN_RECALL or _other_kind(subject, stated) else None


def _other_kind(subject: str, stated: str) -> bool:
    """Whether `stated` gives the subject's head noun only with other modifiers: "Pool fences
    also …" against "Colorbond fences … and timber fences …"."""
    mine, theirs = content_tokens(subject), content_tokens(stated)
    if len(mine) < 2 or not re.fullmatch(r"[a-z]+", mine[-2]) or mine[-2] in theirs:
        return False
    before_head = [theirs[i - 1] for i in range(1, len(theirs)) if theirs[i] == mine[-1]]
    return bool(before_head) and all(re.fullmatch(r"[a-z]+", w) for w in before_head)


def _places(claim: Claim, facts: list[FactResult], candidates: list[Candidate],
            support: Candidate | None) -> list[_Place]:
    """Where the claim's statement sits in the evidence, most specific first."""
    places: list[_Place] = []
    for result in facts:
        if result.status != "matched" or result.evidence is None:
            continue
        ev = result.evidence
        span = next((c.span for c in candidates if c.span.source_id == result.source_id
                     and c.span.start <= ev.start and ev.end <= c.span.end), None)
        if span is None:
            continue
        at = ev.start - span.start
        clause = next(((a, b) for a, b in clauses(span.text) if a <= at < b), None)
        if clause is not None:
            # "$600 for full-time employees and $300 for part-time employees": the words between
            # the neighbouring values belong to this one.
            others = [(f.start - span.start, f.end - span.start) for f in span.facts
                      if f.kind == "number" and f.start != ev.start]
            lo = max([e for s, e in others if clause[0] <= s and e <= at], default=clause[0])
            hi = min([s for s, e in others if s > at and e <= clause[1]], default=clause[1])
            if (lo, hi) != clause:
                places.append(_Place(span.source_id, span.text[lo:hi]))
            places.append(_Place(span.source_id, span.text[clause[0]:clause[1]]))
        places.append(_Place(span.source_id, span.text))
    if support is not None:
        # In a window of several sentences, the one that states the claim first.
        text = support.span.text
        if len(sentences(text)) > 1:
            places.append(_Place(support.span.source_id, closest_part(claim, text, sentences)))
        places.append(_Place(support.span.source_id, text))
    return places




def _result(claim: Claim, mine: Qualifier, status: str, theirs: Qualifier, place: _Place) -> FactResult:
    fact = Fact(kind="qualifier", text=mine.text, start=claim.start + mine.start, end=claim.start + mine.end,
                value=QualifierValue(slot=mine.slot, value=mine.value))
    evidence = Fact(kind="qualifier", text=theirs.text, start=theirs.start, end=theirs.end,
                    value=QualifierValue(slot=theirs.slot, value=theirs.value))
    return FactResult(fact, status, evidence, theirs.text, place.source_id)

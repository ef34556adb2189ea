"""Conflicts between sources and names in the wrong role, on given model scores."""

from __future__ import annotations

import pytest

from extractors import extract_entities
from extractors.claims import split_claims
from models.base import NLIScores
from verifier.candidates import SpanIndex
from verifier.conflicts import claim_conflicts
from verifier.factcheck import check_facts
from verifier.schema import Source
from verifier.segment import segment_source
from verifier.verdict import ScoredCandidate, Thresholds

AGREES = NLIScores(entailment=0.9, neutral=0.05, contradiction=0.05)
NEUTRAL = NLIScores(entailment=0.05, neutral=0.9, contradiction=0.05)
CONTRADICTS = NLIScores(entailment=0.05, neutral=0.1, contradiction=0.85)

RENTALS = ("Bayside Boat Rentals: pontoon boats rent for $340 per half day and $560 per full day. "
           "A refundable security deposit of $500 is taken at check-in. Fuel is charged separately on return.")


def _conflicts(analyzer, answer: str, texts: dict[str, str], second: NLIScores):
    """Conflicts of the answer's first claim; the model agrees with source one and reads
    every sentence of the others as `second`."""
    claim = split_claims(answer, analyzer=analyzer)[0]
    sources = [segment_source(Source(id=i, text=t)) for i, t in texts.items()]
    candidates = SpanIndex(sources).candidates(claim)
    scored = [ScoredCandidate(c, AGREES if c.source_index == 0 else second, True, None) for c in candidates]
    return claim_conflicts("c1", claim, scored, sources, Thresholds())


@pytest.mark.parametrize("second, found", [(CONTRADICTS, True), (NEUTRAL, False)])
def test_a_value_for_the_same_thing_in_a_source_about_something_else_is_a_conflict(analyzer, second, found):
    # The second source is mostly about dogs and fuel: by words it is hardly about the claim,
    # but its deposit sentence gives another amount, and the model reads it as disagreeing.
    faq = ("Do you charge for fuel? Yes, fuel used is charged on return at the marina pump price. Can I bring my dog? "
           "Well-behaved dogs are welcome on pontoon boats. We hold a $300 security deposit on your card, "
           "released within 3 days after return.")
    conflicts = _conflicts(analyzer, "Bayside takes a $500 refundable security deposit at check-in.",
                           {"S1": RENTALS, "S2": faq}, second)
    if not found:
        assert not conflicts
        return
    (conflict,) = conflicts
    assert {conflict.source_a, conflict.source_b} == {"S1", "S2"}
    assert sorted(conflict.values) == ["$300", "$500"]
    assert conflict.winner is None


def test_another_amount_the_model_disputes_is_no_conflict_when_it_names_another_thing(analyzer):
    faq = ("Can I bring my dog? Well-behaved dogs are welcome on pontoon boats. A cleaning fee of $300 applies "
           "if the boat comes back dirty.")
    assert not _conflicts(analyzer, "Bayside takes a $500 refundable security deposit at check-in.",
                          {"S1": RENTALS, "S2": faq}, CONTRADICTS)


@pytest.mark.parametrize("second", [AGREES, CONTRADICTS])
def test_a_value_the_claim_states_for_another_slot_is_no_conflict(analyzer, second):
    """S2's "2026年度" is the tax year the claim names too, not another filing date."""
    hr = "选择由公司代为办理2026年度汇算的员工，须于2027年2月15日前在HR系统中提交代办确认；逾期未确认的，视为自行办理。"
    conflicts = _conflicts(analyzer, "2026年度的汇算办理期是2027年3月1日到6月30日，可以自己在个人所得税App上办理。",
                           {"S1": "2026年度汇算办理时间为2027年3月1日至2027年6月30日。", "S2": hr}, second)
    assert not [c for c in conflicts if "2026年度" in c.values]


BENEFITS = ("BrightBite plans are administered by Northgate Benefit Services, which processes all claims. "
            "Claims are paid within 15 business days. Appeals of denied claims go to the BrightBite Member "
            "Advocacy Office within 180 days of the denial.")


def _names(analyzer, answer: str, text: str):
    claim = split_claims(answer, analyzer=analyzer)[0]
    candidates = SpanIndex([segment_source(Source(id="S1", text=text))]).candidates(claim)
    results = check_facts(claim, candidates, min_relevance=Thresholds().relevance,
                          entities_of=lambda t: extract_entities(t, analyzer))
    return {r.fact.text: (r.status, r.evidence_text) for r in results if r.fact.kind == "entity"}


def test_a_name_found_only_in_another_role_is_a_mismatch(analyzer):
    names = _names(analyzer, "If a claim is denied, you can appeal to Northgate's claims unit within 180 days.",
                   BENEFITS)
    status, said = names["Northgate"]
    assert status == "mismatched"
    assert said.startswith("BrightBite")


@pytest.mark.parametrize("answer", [
    "Northgate Benefit Services processes all claims for BrightBite plans.",
    # The other name shares a word with the claim: the claim names the same office differently.
    "Appeals go to BrightBite's Member Advocacy Office within 180 days.",
])
def test_a_name_in_its_own_role_still_matches(analyzer, answer):
    names = _names(analyzer, answer, BENEFITS)
    assert names and all(status == "matched" for status, _ in names.values())


def test_the_name_a_source_opens_with_is_the_party_it_speaks_for(analyzer):
    """"Clearword is ... in Bristol. Sessions can take place at our clinic ... (plus £20 travel
    within Bristol)": "our clinic" is Clearword's, whatever other name the sentence holds."""
    text = ("Clearword is an independent speech and language therapy practice in Bristol. Sessions can take place at "
            "our clinic, at your child's nursery or school (plus £20 travel within Bristol), or online by video.")
    names = _names(analyzer, "Clearword offers sessions online by video as well as at its clinic or at your "
                             "child's nursery or school.", text)
    assert names["Clearword"][0] == "matched", names


def test_two_sources_the_claim_shares_few_words_with_still_conflict(analyzer):
    # Neither source is worded like the claim; the model reads one as saying it, the other as
    # disagreeing, and each gives its own number of days.
    terms = "Pledged goods may be renewed or redeemed within 5 days of the term ending; later they are forfeited."
    faq = "Q: I can't make it in time. A: There is a 10-day grace period after the term during which you can renew."
    claim = "After expiry you have 5 days to renew or buy back the item."
    for text in (terms, faq):  # the premise of the test: both below the relevance a conflict otherwise needs
        assert max(c.relevance for c in SpanIndex([segment_source(Source(id="X", text=text))]).candidates(
            split_claims(claim, analyzer=analyzer)[0])) < 0.5
    (conflict,) = _conflicts(analyzer, claim, {"S1": terms, "S2": faq}, CONTRADICTS)
    assert sorted(conflict.values) == ["10-day", "within 5 days"]


MERIDIAN = ("Meridian Open Press publishes 42 open-access journals. The article processing charge (APC) is $2,450 "
            "for research articles and $1,200 for short communications and case reports. The research-article APC "
            "rose from $2,150 to $2,450 for papers submitted on or after 1 January 2026. The APC is only invoiced "
            "after an article is accepted. Invoices are payable within 30 days.")
MERIDIAN_FAQ = ("How much does it cost to publish with Meridian? Research articles carry an article processing charge "
                "of {price}, and short communications $1,200. Do I pay when I submit? No, you are invoiced only after "
                "your article is accepted. Authors from low-income countries pay no APC.")


@pytest.mark.parametrize("price, found", [("$2,350", True), ("$2,450", False)])
def test_a_second_source_the_top_ranks_leave_out_is_still_read_for_a_conflict(analyzer, price, found):
    # The cited policy fills the three best ranks; the help page gives the same schedule ($1,200
    # for short communications in both) with its own price for research articles.
    answer = "The APC for a research article is $2,450 [S1]."
    claim = split_claims(answer, analyzer=analyzer)[0]
    sources = [segment_source(Source(id="S1", text=MERIDIAN)), segment_source(Source(id="S2", text=MERIDIAN_FAQ.format(price=price)))]
    candidates = SpanIndex(sources).candidates(claim)
    if found:  # (where the page agrees, its sentence shares the claim's value and ranks among the top)
        rivals = [c for c in candidates if c.rival]
        assert [c.source_index for c in rivals] == [1] and "$1,200" in rivals[0].span.text
        assert all(c.source_index == 0 for c in candidates if not c.rival)  # (the premise: S2 is not in the top ranks)
    conflicts = _conflicts(analyzer, answer, {"S1": MERIDIAN, "S2": MERIDIAN_FAQ.format(price=price)},
                           CONTRADICTS if found else AGREES)
    assert [sorted(c.values) for c in conflicts] == ([["$2,350", "$2,450"]] if found else [])


def test_a_second_source_that_shares_no_other_value_brings_no_rival(analyzer):
    faq = "Research articles carry an article processing charge of $2,350. Authors from low-income countries pay no APC."
    claim = split_claims("The APC for a research article is $2,450 [S1].", analyzer=analyzer)[0]
    sources = [segment_source(Source(id="S1", text=MERIDIAN)), segment_source(Source(id="S2", text=faq))]
    assert not [c for c in SpanIndex(sources).candidates(claim) if c.rival]


def test_a_source_wording_the_claims_rule_with_another_value_is_a_conflict_whatever_the_model_reads(analyzer):
    prices = ("Cascade Scrap & Salvage pays the following for clean material: #1 bare bright copper $3.40 per lb, "
              "#2 copper $3.05 per lb, yellow brass $2.10 per lb.")
    page = "This month our #1 bare bright copper price is $3.15 per lb. Yellow brass is $2.10 per lb."
    (conflict,) = _conflicts(analyzer, "Cascade is paying $3.40 per lb for #1 bare bright copper.",
                             {"S1": prices, "S2": page}, NEUTRAL)
    assert sorted(conflict.values) == ["$3.15", "$3.40"]
    # A value whose clause shares a word or two with the claim is no statement of its rule.
    other = "Our #2 copper price is $3.15 per lb this month."
    assert not _conflicts(analyzer, "Cascade is paying $3.40 per lb for #1 bare bright copper.",
                          {"S1": prices, "S2": other}, NEUTRAL)


def test_a_rule_worded_in_one_clause_of_a_longer_claim_conflicts(analyzer):
    """The claim's rule for a value is the clause that holds it: "a standard pitch costs £32 per
    market" against a handbook's "standard pitch £34 per market", though the claim goes on about
    paying, which the handbook's clause does not repeat."""
    answer = "For stallholders, a standard pitch costs £32 per market, payable by bank transfer before each market."
    texts = {"S1": "Millbrook Farmers Market runs every Saturday. A standard pitch costs £32 per market, payable "
                   "by bank transfer before each market, for stallholders.",
             "S2": "Trader handbook, 2026 season. Pitch fees: standard pitch £34 per market; double pitch £60 per "
                   "market. Vehicles must leave by 7.45 am."}
    conflicts = _conflicts(analyzer, answer, texts, NEUTRAL)
    assert [(c.source_a, c.source_b, c.values) for c in conflicts] == [("S1", "S2", ["£32", "£34"])]


@pytest.mark.parametrize("listed, found", [
    ("Wedding ceremony: £725. Vow renewal: £450. Naming ceremony: £350.", ["£650", "£725"]),
    # a label with a word the other source's clause lacks names another thing
    ("Civil wedding ceremony: £725. Vow renewal: £450.", []),
    ("Vow renewal: £725. Naming ceremony: £350.", []),
])
def test_a_price_list_entry_for_the_same_thing_conflicts(analyzer, listed, found):
    """A terse price list's entry, "Wedding ceremony: £725", names the slot with a label all of
    whose words are in the clause where the other source states the claim's value."""
    answer = "A celebrant-led wedding with Willowbrook costs £650, including planning meetings and the ceremony."
    texts = {"S1": "A Willowbrook wedding ceremony led by one of our celebrants costs £650. This includes two "
                   "planning meetings and the ceremony on the day.",
             "S2": listed}
    conflicts = _conflicts(analyzer, answer, texts, NEUTRAL)
    assert sorted(v for c in conflicts for v in c.values) == found


POOL = ("Harbour Leisure runs the National Pool Lifeguard Qualification at Seaview Pool. The course is 36 hours over "
        "five days. The fee is £295, which includes the manual and exam fee.")
DELAYS = "因航空公司自身原因造成航班延误4小时以上、8小时以内的，向旅客提供每人200元的经济补偿；延误8小时以上的，每人400元。"


@pytest.mark.parametrize("answer, first, second, found", [
    # "It costs £295" is too terse to pick a price list's sentences as candidates; the list's one
    # entry whose label the other source's first sentence names is still that slot's value ...
    ("It costs £295.", POOL,
     "Harbour Leisure course prices. National Pool Lifeguard Qualification: £325. First Aid at Work: £210.",
     ["£295", "£325"]),
    # ... but not when two entries' labels are named: which one is the fee's is not known
    ("It costs £295.", POOL,
     "Course prices. National Pool Lifeguard Qualification: £325. Pool Lifeguard Qualification: £310.", []),
    # The claim's band of delay is found in both sources; each gives its own amount for it ...
    ("延误四到八小时的，每人补偿二百元。", DELAYS,
     "因承运人原因导致航班延误4小时以上、8小时以内的，补偿标准为每位旅客300元；延误8小时以上的，补偿标准为每位旅客500元。",
     ["300元", "每人200元"]),
    # ... and the other source's amount for another band says nothing of it
    ("延误四到八小时的，每人补偿二百元。", DELAYS, "因承运人原因导致航班延误8小时以上的，补偿标准为每位旅客500元。", []),
])
def test_a_value_another_source_gives_for_the_same_thing_conflicts(analyzer, answer, first, second, found):
    conflicts = _conflicts(analyzer, answer, {"S1": first, "S2": second}, NEUTRAL)
    assert sorted(v for c in conflicts for v in c.values) == found


@pytest.mark.parametrize("team, found", [("Islington", ("mismatched", "Croydon")), ("Croydon", ("matched", None))])
def test_a_name_found_in_a_clause_about_something_else_is_a_mismatch(lexical, team, found):
    """The claim's name stands in the clause about awards; the clause about schedules of condition,
    which words the claim's statement, names another team."""
    source = {"id": "S1", "text": "Awards are prepared by our Islington office; schedules of condition at the neighbour's "
                                  "property are carried out by our Croydon team."}
    answer = f"The schedule of condition at your neighbour's property is carried out by their {team} team."
    (claim,) = lexical.verify(answer, [source]).claims
    fact = next(f for f in claim.facts if f.kind == "entity" and f.text == team)
    assert (fact.status, fact.evidence_text if fact.status == "mismatched" else None) == found


def test_a_source_that_also_supports_the_claim_does_not_disagree_with_it(analyzer):
    """The model may read one pair of a source as contradicting the claim while another sentence of
    that source supports it: the source does not disagree with the claim."""
    claim = split_claims("Online the extra discount comes off automatically once you sign in.", analyzer=analyzer)[0]
    texts = {"A": "Online, sign in with your colleague number and the discount is applied automatically.",
             "B": "Online, the extra 10% comes off automatically when you sign in. In store, ask at the till."}
    sources = [segment_source(Source(id=i, text=t)) for i, t in texts.items()]
    candidates = SpanIndex(sources).candidates(claim)

    def scored(b_supports: bool) -> list[ScoredCandidate]:
        # B's sentence reads as contradicting; its window of sentences, as supporting or not.
        def read(c) -> NLIScores:
            if c.source_index == 0:
                return AGREES
            return AGREES if b_supports and c.span.sentences[0] != c.span.sentences[1] else CONTRADICTS
        return [ScoredCandidate(c, read(c), True, None) for c in candidates]

    assert claim_conflicts("c1", claim, scored(b_supports=True), sources, Thresholds()) == []
    found = claim_conflicts("c1", claim, scored(b_supports=False), sources, Thresholds())
    assert found and {found[0].source_a, found[0].source_b} == {"A", "B"}

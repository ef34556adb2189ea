"""Verdict rules on given model scores: what the labels rest on when the model under-scores."""

from __future__ import annotations

import pytest

from extractors.claims import split_claims
from models.base import NLIScores
from verifier.candidates import SpanIndex
from verifier.factcheck import check_facts
from verifier.schema import Source
from verifier.segment import segment_source
from verifier.verdict import ScoredCandidate, Thresholds, label_claim

# What a small model gives a close paraphrase it does not recognise.
LOW = NLIScores(entailment=0.2, neutral=0.7, contradiction=0.1)


def _label(analyzer, answer: str, text: str, thresholds: Thresholds = Thresholds(), scores: NLIScores = LOW,
           question: str = ""):
    claim = split_claims(answer, analyzer=analyzer)[0]
    sources = [segment_source(Source(id="S1", text=text))]
    candidates = SpanIndex(sources).candidates(claim)
    scored = [ScoredCandidate(c, scores, True, None) for c in candidates]
    facts = check_facts(claim, candidates, min_relevance=thresholds.relevance)
    return label_claim("c1", claim, scored, facts, thresholds, "en", question=question)


SOURCE = ("Salaried employees are paid twice a month. Overtime for hourly employees is paid at 1.5 times "
          "the regular rate for hours worked over 40 in a workweek. Tuition for 2025-26 was $10,900.")


def test_a_sentence_stating_every_value_and_most_words_supports_a_paraphrase(analyzer):
    report = _label(analyzer, "Hourly staff earn 1.5 times their usual rate for any hours beyond 40 in a workweek.",
                    SOURCE)
    assert report.label == "supported"
    assert "states these values" in report.reason
    assert report.evidence[0].text.startswith("Overtime for hourly employees")


def test_anchored_support_needs_the_values_in_that_sentence(analyzer):
    # $10,900 is stated, but for 2025-26, not 2026-27: the year is the claim's, not the sentence's.
    assert _label(analyzer, "Tuition for 2026-27 is $10,900.", SOURCE).label != "supported"


@pytest.mark.parametrize("answer, label", [
    ("Overtime for hourly employees is paid at 1.5 times the rate for hours over 45.", "contradicted"),
    # Most of the claim's words are in no sentence, values or not.
    ("Contractors working on weekends receive 1.5 times extra pay as a bonus.", "unsupported"),
])
def test_anchored_support_is_not_given_to_another_value_or_other_words(analyzer, answer, label):
    assert _label(analyzer, answer, SOURCE).label == label


def test_anchored_support_can_be_turned_off(analyzer):
    off = Thresholds(anchored=1.0)
    answer = "Hourly staff earn 1.5 times their usual rate for any hours beyond 40 in a workweek."
    assert _label(analyzer, answer, SOURCE, off).label != "supported"


@pytest.mark.parametrize("answer, evidence, subject", [
    ("试用期员工也可以享受免费年度体检。", "试用期员工餐补减半。员工入职满一年后每年可享受免费体检一次。", "试用期员工"),
    ("Contractors can also request a home-office stipend.",
     "Full-time employees can request a home-office stipend of $500.", "Contractors"),
    # The evidence names the subject where it states the rule, or the claim names no one.
    ("门店也可以办理退货。", "退货可在线上或门店办理。", None),
    ("Contractors can also request a stipend.", "Employees and contractors can request a stipend.", None),
    ("You also need a receipt.", "A receipt is required.", None),
    ("试用期员工可以享受免费年度体检。", "员工入职满一年后每年可享受免费体检一次。", None),  # not additive
    # A subject carried from the clause before is X only where the clause has no words of its own
    # before 还; after several clauses, 还 adds to what they said.
    ("金卡会员最晚可以在下午两点退房，还可以享受免费早餐。",
     "钻石会员可享受双人免费早餐及最晚下午4点退房；金卡会员可享受最晚下午2点退房。", "金卡会员"),
    ("成人票是128元，当天凭门票在酒庄商店买酒还能打九五折。", "持参观门票当天在酒庄商店购酒可享九五折。", None),
    ("参观大约一个半小时，会带你参观酒窖，还能品三款酒。", "每场约1.5小时，包括酒窖参观及三款葡萄酒品鉴。", None),
    ("首稿设计免费，还能免费改三次。", "首次设计稿免费出图，可免费修改3次，第4次起每次收取100元。", None),
    # The head noun with other modifiers only is another kind of thing.
    ("Pool fences also come with a ten-year warranty.",
     "Colorbond fences carry a 10-year workmanship warranty and timber fences a 3-year warranty.", "Pool fences"),
    ("Timber fences also come with a warranty.", "Colorbond fences and timber fences carry a warranty.", None),
    # the asker, addressed, is no one a source could name
    ("你是第一次获批，还可以申请一次性设备补贴。", "首次获批居家办公的员工可申请一次性办公设备补贴。", None),
])
def test_an_additive_claim_needs_its_subject_where_the_evidence_states_the_rule(analyzer, answer, evidence, subject):
    from verifier.qualify import unstated_subject

    claim = split_claims(answer, analyzer=analyzer)[-1]
    assert unstated_subject(claim, evidence) == subject


def test_a_rule_extended_to_someone_the_evidence_does_not_name_is_not_supported(analyzer):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    report = _label(analyzer, "Board members can also request a home-office stipend.",
                    "Employees can request a home-office stipend of $500.", scores=high)
    assert report.label == "partial"
    assert "not for Board members." in report.reason


def test_a_claim_cut_from_a_sentence_knows_the_sentence(analyzer):
    parts = split_claims("跨行ATM取现每笔2元，但每个月头三笔不收费[S1]。Refunds take 5 days.", analyzer=analyzer)
    assert [c.sentence for c in parts] == ["跨行ATM取现每笔2元，但每个月头三笔不收费"] * 2 + [""]


def test_the_sentence_lends_its_entailment_not_its_contradiction():
    from verifier.pipeline import _with_sentence

    part = NLIScores(entailment=0.3, neutral=0.5, contradiction=0.2)
    merged = _with_sentence(part, NLIScores(entailment=0.9, neutral=0.05, contradiction=0.05))
    assert merged.entailment == 0.9 and merged.contradiction <= part.contradiction
    # A sentence the evidence does not entail changes nothing: another part may be what is wrong.
    assert _with_sentence(part, NLIScores(entailment=0.1, neutral=0.1, contradiction=0.8)) == part


TRAVEL = ("Employees must book air travel through the company portal, Navan. Economy class is required for flights "
          "under 6 hours; premium economy is allowed for flights of 6 hours or more. Business class requires "
          "written approval from a Vice President.")


@pytest.mark.parametrize("answer", [
    "Premium economy is allowed for all flights.",          # the condition dropped for a universal
    "Premium economy is allowed on any flight.",
])
def test_a_claim_that_broadens_the_rule_with_its_words_is_not_supported_by_rule(analyzer, answer):
    # Every content word is in the sentence, so without the guard the verbatim rule would support it.
    assert _label(analyzer, answer, TRAVEL).label != "supported"


def test_a_universal_restricted_by_its_value_still_reads_as_a_paraphrase(analyzer):
    # "any hours beyond 40": the value restricts "any".
    report = _label(analyzer, "Hourly staff earn 1.5 times their usual rate for any hours beyond 40 in a workweek.",
                    SOURCE)
    assert report.label == "supported"


def test_an_added_alternative_makes_even_a_model_supported_claim_partial(analyzer):
    high = NLIScores(entailment=0.95, neutral=0.04, contradiction=0.01)
    report = _label(analyzer, "Business class requires written approval from a Vice President or a director.",
                    TRAVEL, scores=high)
    assert report.label == "partial"
    assert report.reason == "Source S1 supports this except \u201cor a director\u201d, which it does not mention."
    plain = _label(analyzer, "Business class requires written approval from a Vice President.", TRAVEL, scores=high)
    assert plain.label == "supported"


def test_the_and_inside_a_number_said_in_words_adds_nothing(analyzer):
    high = NLIScores(entailment=0.95, neutral=0.04, contradiction=0.01)
    from verifier.breadth import added_alternative

    text = "Welcome to the club. A ten-week term costs £120."
    # (the second sentence: its facts carry answer offsets past the claim's own start)
    claim = split_claims("Welcome. A term of ten weeks costs one hundred and twenty pounds.", analyzer=analyzer)[-1]
    assert added_alternative(claim, text) is None
    assert _label(analyzer, "A term of ten weeks costs one hundred and twenty pounds.", text, scores=high).label == "supported"


def test_a_value_restated_after_or_is_no_added_alternative(analyzer):
    from verifier.breadth import added_alternative

    text = "Tickets cost $62 for adults and $48 for children."
    claim = split_claims("Tickets are $62 each for the two of you and $48 for your child, or $172 altogether.",
                         analyzer=analyzer)[0]
    assert added_alternative(claim, text) is None
    claim = split_claims("Tickets are $62 for adults and $48 for children or seniors.", analyzer=analyzer)[0]
    assert added_alternative(claim, text) == "or seniors"


SHIPPING = ("Shipping is free for orders over $75; otherwise it costs $6.95. If the item arrived damaged, return "
            "shipping is free. Affected customers must be notified within 72 hours if a breach is confirmed. "
            "You can hire the car if you have completed at least 6 lessons in the past 3 months.")


@pytest.mark.parametrize("answer, condition", [
    ("Shipping is free.", "Shipping is free for orders over $75"),
    ("Return shipping is free.", "If the item arrived damaged"),
    ("包邮。", "订单满99元包邮"),
])
def test_a_rule_stated_without_its_condition_is_partial(analyzer, answer, condition):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = SHIPPING if answer.isascii() else "订单满99元包邮，否则运费10元。"
    report = _label(analyzer, answer, text, scores=high)
    assert report.label == "partial"
    assert condition in report.reason


@pytest.mark.parametrize("answer, condition", [
    # A case leading the rule's clause is its condition, as is a bound after "or more".
    ("You can pay the fee in three monthly instalments.", "For tenancies of 12 months or longer, the fee"),
    ("Groups can book a private table.", "groups of 20 or more can book a private table"),
])
def test_a_leading_case_or_bound_is_a_condition(analyzer, answer, condition):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = "For tenancies of 12 months or longer, the fee can be paid in three monthly instalments. Groups of 10 or " \
        "more get one free ticket, and groups of 20 or more can book a private table."
    report = _label(analyzer, answer, text, scores=high)
    assert (report.label, condition in report.reason) == ("partial", True), report.reason
    stated = {"You": "On a 12-month tenancy you", "Groups": "Groups of 25"}
    lead = next(k for k in stated if answer.startswith(k))
    assert _label(analyzer, answer.replace(lead, stated[lead], 1), text, scores=high).label == "supported"


def test_the_askers_wish_is_no_condition(analyzer):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    for text in ("Our volunteers will put the meals in your fridge if you'd like.", "如有需要，志愿者会把饭菜放进冰箱。"):
        answer = "A volunteer can put the meals in your fridge for you." if text.isascii() else "志愿者会把饭菜放进冰箱。"
        assert _label(analyzer, answer, text, scores=high).label == "supported"
    text = "Our volunteers will put the meals in your fridge if you are at home."
    report = _label(analyzer, "A volunteer can put the meals in your fridge for you.", text, scores=high)
    assert (report.label, "if you are at home" in report.reason) == ("partial", True)


def test_a_condition_the_askers_situation_meets_is_not_dropped(analyzer):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = "If your CPAP machine stops working, check the power lead and switch it off at the wall for 1 minute."
    answer = "Check the power lead and switch it off at the wall for a minute."
    assert "condition" in _label(analyzer, answer, text, scores=high).reason
    question = "My husband's CPAP machine stopped working tonight. What should we do?"
    assert _label(analyzer, answer, text, scores=high, question=question).label == "supported"
    assert "condition" in _label(analyzer, answer, text, scores=high, question="How do I clean the mask?").reason


def test_a_condition_that_points_at_a_list_is_stated_by_its_own_words(analyzer):
    """"If you take warfarin and notice any of the following" says "if you take warfarin" of the
    list's items: a claim about one item that says "on warfarin" drops no condition."""
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = ("If you take warfarin and notice any of the following, go to A&E or call 999 straight away: vomiting "
            "blood, a severe headache, or a fall or blow to the head.")
    stated = "Because he's on warfarin and has had a blow to the head, he should go to A&E straight away."
    assert "condition" not in _label(analyzer, stated, text, scores=high).reason
    unstated = "After a blow to the head, he should go to A&E straight away."
    assert "condition" in _label(analyzer, unstated, text, scores=high).reason


def test_a_bound_the_askers_own_value_meets_is_no_dropped_condition(analyzer):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = "本市户籍的60周岁以上老年人可在长者食堂就餐并享受助餐补贴。"
    answer = "在长者食堂就餐可以享受助餐补贴。"
    assert "condition" in _label(analyzer, answer, text, scores=high).reason
    assert _label(analyzer, answer, text, scores=high, question="我爸今年82岁，本市户口。").label == "supported"
    assert "condition" in _label(analyzer, answer, text, scores=high, question="我今年45岁，本市户口。").reason


def test_an_if_with_a_bound_is_dropped_whatever_condition_the_claim_states_itself(analyzer):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = ("The donor vehicle must be taxed or on SORN; if it has been off the road for more than 5 years, the "
            "transfer cannot be done online.")
    report = _label(analyzer, "The transfer can be done online as long as the van is taxed or on SORN.", text,
                    scores=high)
    assert (report.label, "more than 5 years" in report.reason) == ("partial", True)
    stated = "The transfer can be done online unless the van has been off the road for more than five years."
    assert _label(analyzer, stated, text, scores=high).label == "supported"


def test_a_claim_taking_one_cases_bound_drops_no_other_cases_bound(analyzer):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = "新建住宅室内氡浓度超过150贝克/立方米、既有住宅超过300贝克/立方米的，建议采取治理措施。"
    assert _label(analyzer, "新建住宅室内氡浓度超过每立方米一百五十贝克就建议治理。", text, scores=high).label == "supported"


def test_an_alternative_another_supporting_sentence_states_is_no_addition(analyzer):
    high = NLIScores(entailment=0.95, neutral=0.04, contradiction=0.01)
    text = ("Call the Gas Emergency Service on 0800 111 999; the line is open 24 hours a day. Stay outside "
            "until the engineer says the house is safe, even if the alarm stops.")
    answer = "Ring the Gas Emergency Service on 0800 111 999, day or night, and stay outside until the engineer says " \
             "the house is safe, even if the alarm stops."
    assert _label(analyzer, answer, text, scores=high).label == "supported"
    assert _label(analyzer, answer.replace("day or night", "or email them"), text, scores=high).label == "partial"


def test_a_span_stating_every_amount_a_sum_is_worked_out_from_grounds_it(analyzer):
    """"25个人的话按每人650元算，一共16250元" shares few words with "10至29人每人650元", but the
    span states its head count's band and its price, and the total is worked out from them."""
    from verifier.arithmetic import working

    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = "护航提供急救员培训。费用按人数计算：10至29人每人650元，30人及以上每人580元。"
    claim = split_claims("25个人的话按每人650元算，一共16250元。", analyzer=analyzer)[0]
    (piece,) = working(claim)
    read = claim.text.replace(piece, "")  # the claim as the model reads it, without its sum
    candidates = SpanIndex([segment_source(Source(id="S1", text=text))]).candidates(claim)
    scored = [ScoredCandidate(c, high, True, None, (c.span.text, read)) for c in candidates]
    facts = check_facts(claim, candidates, min_relevance=Thresholds().relevance)
    report = label_claim("c1", claim, scored, facts, Thresholds(), "zh-Hans")
    assert report.label == "supported", report.reason


def test_a_condition_stated_as_a_lead_phrase_is_stated(analyzer):
    """"With glass cover, ..." states "If your motor policy includes glass cover" in fewer words;
    a lead naming something else does not."""
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    text = ("If your motor policy includes glass cover, you can book directly with Glassbay and we will handle the "
            "claim with your insurer.")
    assert _label(analyzer, "With glass cover, Glassbay can deal with the claim for you.", text,
                  scores=high).label == "supported"
    report = _label(analyzer, "With a booking, Glassbay can deal with the claim for you.", text, scores=high)
    assert report.label == "partial" and "glass cover" in report.reason


WINDSCREENS = ("For a chip repair, most insurers charge no excess and your no-claims discount is not affected. "
               "For a replacement, you pay the excess set by your insurer when the work is carried out.")


@pytest.mark.parametrize("answer, replacement_entails, label", [
    # The sentence of another case ("For a chip repair") says it, the claim's own case's does not.
    ("Your no-claims discount won't be affected by a replacement either.", 0.2, "partial"),
    # The sentence of the claim's own case entails it: that one is the evidence.
    ("You'll pay your insurer's excess when the replacement is done.", 0.9, "supported"),
])
def test_a_sentence_opening_with_another_case_does_not_support_the_claims_case(analyzer, answer,
                                                                              replacement_entails, label):
    claim = split_claims(answer, analyzer=analyzer)[0]
    candidates = SpanIndex([segment_source(Source(id="S1", text=WINDSCREENS))]).candidates(claim)
    scored = [ScoredCandidate(c, NLIScores(entailment=e, neutral=0.98 - e, contradiction=0.02), True, None)
              for c in candidates if c.span.sentences[0] == c.span.sentences[1]
              for e in [replacement_entails if c.span.text.startswith("For a replacement") else 0.9]]
    report = label_claim("c1", claim, scored, check_facts(claim, candidates, min_relevance=Thresholds().relevance),
                         Thresholds(), "en")
    assert report.label == label, report.reason
    if label == "partial":
        assert "a replacement" in report.reason
    else:
        assert report.evidence[0].text.startswith("For a replacement")


@pytest.mark.parametrize("answer", [
    "Orders over $75 ship free.",                                                   # the threshold is stated
    "Affected customers must be notified within 72 hours of a confirmed breach.",  # the "if" in other words
    # the condition is the claim, its numbers in words
    "You need at least six lessons in the last three months to hire the car.",
])
def test_a_rule_stated_with_its_condition_stays_supported(analyzer, answer):
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    assert _label(analyzer, answer, SHIPPING, scores=high).label == "supported"


@pytest.mark.parametrize("answer, label", [
    ("If your parcel arrived damaged, keep the box. Return shipping is free.", "supported"),  # the "if" just before
    ("Keep the box. Return shipping is free.", "partial"),
    ("Shipping is free. Your order is over $75.", "supported"),   # the threshold, stated elsewhere in the answer
    ("Shipping is free. Your order is over $50.", "partial"),
])
def test_a_condition_the_answer_states_elsewhere_is_not_dropped(analyzer, answer, label):
    claim = split_claims(answer, analyzer=analyzer)[-1 if answer.endswith("free.") else 0]
    candidates = SpanIndex([segment_source(Source(id="S1", text=SHIPPING))]).candidates(claim)
    high = NLIScores(entailment=0.97, neutral=0.02, contradiction=0.01)
    scored = [ScoredCandidate(c, high, True, None) for c in candidates]
    facts = check_facts(claim, candidates, min_relevance=Thresholds().relevance)
    assert label_claim("c1", claim, scored, facts, Thresholds(), "en", answer=answer).label == label


def test_a_month_is_found_in_the_days_a_calendar_month_holds(analyzer):
    text = "个人用户可在签收后30天内申请退货。企业客户的退货期限为14天。"
    report = _label(analyzer, "个人用户签收后一个月内可以退货。", text)
    (fact,) = [f for f in report.facts if f.kind == "number"]
    # The 30 days is the slot's value, what a month holds; the 14 days of the next sentence
    # does not count against the claim.
    assert (fact.status, fact.evidence_text) == ("matched", "30天内")
    assert report.label != "contradicted"
    half = _label(analyzer, "交付以后半个月内可以免费修改。", "交付后15天内可免费修改。")
    assert [(f.status, f.evidence_text) for f in half.facts if f.kind == "number"] == [("matched", "15天内")]
    # ... but not days a month cannot hold
    short = _label(analyzer, "个人用户签收后一个月内可以退货。", "个人用户可在签收后14天内申请退货。")
    assert [f.status for f in short.facts if f.kind == "number"] == ["mismatched"]


def test_all_where_the_evidence_caps_it_is_partial(analyzer):
    high = NLIScores(entailment=0.92, neutral=0.06, contradiction=0.02)
    text = "未休年假最多5天可结转至次年，须在次年3月31日前休完。"
    report = _label(analyzer, "未休年假可以全部结转至次年。", text, scores=high)
    assert report.label == "partial"
    assert "最多5天" in report.reason
    assert _label(analyzer, "未休年假最多5天可以结转至次年。", text, scores=high).label == "supported"


def test_a_value_the_evidence_reserves_for_a_group_contradicts_the_claim_for_everyone(analyzer):
    """The claim takes the Gold value in the words of the rule for everyone else (as the
    Chinese "行李延误期间……50元；金卡会员……80元" does): the same slot with another value."""
    high = NLIScores(entailment=0.9, neutral=0.08, contradiction=0.02)
    text = ("While your bag is delayed, you may claim interim expenses of up to $50 per day for a maximum of 5 days; "
            "Gold members may claim up to $80 per day.")
    report = _label(analyzer, "You can claim interim expenses of up to $80 per day while your bag is delayed.", text,
                    scores=high)
    assert report.label == "contradicted"
    assert report.reason == "The answer says up to $80 per day, source S1 says up to $50 per day."
    assert _label(analyzer, "Gold members can claim up to $80 per day.", text, scores=high).label == "supported"


def test_a_value_the_evidence_gives_one_named_tier_beside_another_is_partial(analyzer):
    """A claim that names no tier, against "Standard members … $50 …, and Gold members … $80":
    the topic words ("interim expenses") are not the Standard case."""
    high = NLIScores(entailment=0.9, neutral=0.08, contradiction=0.02)
    text = "Standard members may claim interim expenses of up to $50 per day, and Gold members may claim up to $80 per day."
    report = _label(analyzer, "You can claim interim expenses of up to $80 per day.", text, scores=high)
    assert report.label == "partial"
    assert report.reason == "Source S1 gives up to $80 per day only for Gold members."
    assert _label(analyzer, "Standard members can claim up to $80 per day.", text, scores=high).label == "contradicted"


def test_anchored_support_needs_the_names_in_that_sentence(analyzer):
    text = ("BrightBite plans are administered by Northgate Benefit Services, which processes all claims. Appeals of "
            "denied claims go to the BrightBite Member Advocacy Office within 180 days of the denial.")
    report = _label(analyzer, "You can appeal to Northgate's claims unit within 180 days.", text)
    assert report.label != "supported"


def test_a_stated_extension_confirms_the_longer_limit(analyzer):
    text = "Consulates usually decide within 15 calendar days, which can be extended to 45 days in individual cases."
    report = _label(analyzer, "It can take up to 45 days.", text)
    (fact,) = [f for f in report.facts if f.kind == "number"]
    assert (fact.status, fact.evidence_text) == ("matched", "45 days")


def test_the_company_a_source_speaks_for_is_no_unstated_subject(analyzer):
    high = NLIScores(entailment=0.9, neutral=0.08, contradiction=0.02)
    text = ("FixPoint Repairs - Mail-in Service. Request a prepaid shipping label online; the label and protective "
            "packaging are free.")
    assert _label(analyzer, "FixPoint also provides the protective packaging at no cost.", text,
                  scores=high).label == "supported"
    assert _label(analyzer, "Contractors also get the protective packaging at no cost.", text,
                  scores=high).label == "partial"


@pytest.mark.parametrize("sentence_contradiction, label", [(0.95, "contradicted"), (0.7, "supported")])
def test_a_window_does_not_support_what_its_own_sentence_contradicts(analyzer, sentence_contradiction, label):
    text = ("Lessons are sold in packs of 20, 50 or 100. Students may cancel free of charge up to 12 hours ahead; "
            "later cancellations cost one lesson. Lessons last 50 minutes.")
    sentence = NLIScores(entailment=0.02, neutral=1 - 0.02 - sentence_contradiction,
                         contradiction=sentence_contradiction)
    # The model: windows entail, the cancellation sentence contradicts.
    window = NLIScores(entailment=0.8, neutral=0.1, contradiction=0.1)
    assert _window_label(analyzer, "Cancelling 6 hours ahead costs nothing.", text, "cancel", sentence, window) == label


def _window_label(analyzer, answer: str, text: str, word: str, sentence: NLIScores, window: NLIScores) -> str:
    """The label when the model reads every window as `window`, the sentence holding `word` as
    `sentence` and every other sentence as neutral."""
    claim = split_claims(answer, analyzer=analyzer)[0]
    candidates = SpanIndex([segment_source(Source(id="S1", text=text))]).candidates(claim)
    assert any(c.span.sentences[0] != c.span.sentences[1] and word in c.span.text for c in candidates)

    def scores(c):
        if c.span.sentences[0] != c.span.sentences[1]:
            return window
        return sentence if word in c.span.text else NLIScores(entailment=0.05, neutral=0.9, contradiction=0.05)

    scored = [ScoredCandidate(c, scores(c), True, None) for c in candidates]
    thresholds = Thresholds()
    facts = check_facts(claim, candidates, min_relevance=thresholds.relevance)
    return label_claim("c1", claim, scored, facts, thresholds, "en").label


@pytest.mark.parametrize("sentence, label", [
    # The sentence alone supports the claim but for a value it does not give (the £20): partial,
    # as the window's contradiction comes from its neighbours.
    (NLIScores(entailment=0.9, neutral=0.05, contradiction=0.05), "partial"),
    # The sentence alone supports nothing: the window's contradiction stands.
    (NLIScores(entailment=0.1, neutral=0.8, contradiction=0.1), "contradicted"),
])
def test_a_window_does_not_contradict_what_its_own_sentence_supports(analyzer, sentence, label):
    window = NLIScores(entailment=0.02, neutral=0.0, contradiction=0.98)  # the model: windows contradict
    assert _window_label(analyzer, "You must give notice in the app 15 days before moving out and pay a £20 fee.", MOVING_OUT,
                         "notice", sentence, window) == label


@pytest.mark.parametrize("entailment, label", [(0.4, "partial"), (0.1, "contradicted")])
def test_a_window_does_not_contradict_what_its_own_sentence_partly_supports_with_every_value(
        analyzer, entailment, label):
    # 洗牙 for 洁牙: the model reads the sentence as partly supporting (or not), the windows as contradicting.
    text = "洁齿卡年费为598元，可供三人使用。权益包括：每人每年2次免费洁牙、1次全景片检查。正畸治疗不在优惠范围内。"
    sentence = NLIScores(entailment=entailment, neutral=0.9 - entailment, contradiction=0.1)
    window = NLIScores(entailment=0.02, neutral=0.0, contradiction=0.98)
    assert _window_label(analyzer, "每人每年可以免费洗牙两次。", text, "洁牙", sentence, window) == label


MOVING_OUT = ("Customers can enter with face recognition from 7:00 to 23:00 every day. Members must give notice "
              "in the app 15 days before moving out. Flammable goods, food and live animals may not be stored.")


@pytest.mark.parametrize("answer, label", [
    # Few shared words, but the one value of the claim ties the span to it.
    ("孩子身高不到1.4米的话，必须有大人陪着进场。", "supported"),
    # Without a value, so few shared words leave the span unrelated, whatever the model says.
    ("孩子必须有大人陪着进场。", "unsupported"),
])
def test_a_span_stating_every_value_is_grounded_despite_other_words(analyzer, answer, label):
    high = NLIScores(entailment=0.8, neutral=0.1, contradiction=0.1)
    report = _label(analyzer, answer, "身高1.4米以下儿童须由成年监护人陪同入场。", scores=high)
    assert report.label == label


def test_a_rule_restricted_by_only_anchors_no_claim_about_something_else(analyzer):
    text = "Pensioner concession card holders receive 10% off inspections only."
    assert _label(analyzer, "With your pensioner concession card you'll get 10% off the barrier.", text).label \
        != "supported"
    assert _label(analyzer, "Pensioner concession card holders get 10% off inspections.", text).label == "supported"


def test_a_rule_for_a_named_package_is_no_verbatim_support_for_a_claim_without_it(analyzer):
    text = "Prizes for the top three shooters are included in the Premier package."
    neutral = NLIScores(entailment=0.05, neutral=0.9, contradiction=0.05)
    assert _label(analyzer, "Prizes for the top three shooters are also included.", text, scores=neutral).label \
        != "supported"
    assert _label(analyzer, "Prizes for the top three shooters are included in the Premier package.", text,
                  scores=neutral).label == "supported"


def test_as_usual_does_not_hide_a_negation(analyzer):
    text = "A方案每學期新台幣18,000元。週末及國定假日不供餐。"
    high = NLIScores(entailment=0.9, neutral=0.08, contradiction=0.02)
    assert _label(analyzer, "週末也照常供餐。", text, scores=high).label == "contradicted"


def _facts(analyzer, answer: str, text: str) -> dict[str, tuple[str, str | None]]:
    claim = split_claims(answer, analyzer=analyzer)[0]
    candidates = SpanIndex([segment_source(Source(id="S1", text=text))]).candidates(claim)
    return {r.fact.text: (r.status, r.evidence_text) for r in check_facts(claim, candidates, min_relevance=0.35)}


def test_a_value_inside_some_bound_of_an_unrelated_span_does_not_outweigh_the_rival_on_topic(analyzer):
    text = ("Bookings can be moved free of charge up to 48 hours before the game. Gift vouchers are valid for "
            "12 months. Groups of 12 or more can book two rooms. Please arrive 15 minutes before your slot for "
            "the safety briefing.")
    facts = _facts(analyzer, "The briefing starts half an hour before your slot.", text)
    assert facts["half an hour"] == ("mismatched", "15 minutes")


@pytest.mark.parametrize("answer, missing", [
    ("一年租金三百六十元。", []),               # 年租金360元 names the year in its fee word
    ("一个月租金三百六十元。", ["一个月租金"]),   # a month is no year
])
def test_the_period_of_a_price_said_as_a_count_of_one(analyzer, answer, missing):
    facts = _facts(analyzer, answer, "菜园标准地块约15平方米，年租金360元，双倍地块720元。")
    assert [text for text, (status, _) in facts.items() if status == "missing"] == missing
    assert any(status == "matched" and evidence == "360元" for status, evidence in facts.values())


@pytest.mark.parametrize("answer, missing", [
    ("年度合同一年含4次深度保养。", []),          # 年度保养合同 names the year
    ("年度合同一个月含4次深度保养。", ["一个月"]),
])
def test_the_period_of_a_count_said_as_a_count_of_one(analyzer, answer, missing):
    facts = _facts(analyzer, answer, "年度保养合同每台2400元，含4次深度保养，合同期内故障上门不收人工费。")
    assert [text for text, (status, _) in facts.items() if status == "missing"] == missing
    assert facts["4次"] == ("matched", "4次")


@pytest.mark.parametrize("answer, text, found", [
    ("If you pay for a year up front, you get two months free.", "Paying annually gives two months free.",
     ("a year", "matched", "annually")),
    ("标准版是一年一缴的。", "标准版每位用户每月150元，年缴。", ("一年", "matched", "年缴")),
    # a year that is no billing period is still a number to find
    ("The warranty lasts a year, and you get two months free.", "Paying annually gives two months free.",
     ("a year", "missing", None)),
])
def test_paying_for_a_year_is_found_in_a_word_for_paying_by_the_year(analyzer, answer, text, found):
    facts = _facts(analyzer, answer, text)
    assert (found[0], *facts[found[0]]) == found


@pytest.mark.parametrize("answer, text, found", [
    ("Your 10-year-old fits the Youth Club.", "The Youth Club is for ages 8 to 13.", ("10-year", "matched", "8 to 13")),
    ("It is $48 for your seven-year-old.", "Tickets cost $62 for visitors aged 10 and over and $48 for children "
     "aged 3 to 9.", ("seven-year", "matched", "3 to 9")),
    # seven is in the children's band, whose price is not $62
    ("It is $62 for your seven-year-old.", "Tickets cost $62 for visitors aged 10 and over and $48 for children "
     "aged 3 to 9.", ("$62", "mismatched", "$48")),
    ("Your 15-year-old fits the Youth Club.", "The Youth Club is for ages 8 to 13.", ("15-year", "missing", None)),
    ("孩子8岁可以报名少儿班。", "少儿班面向6至12岁儿童。", ("8岁", "matched", "6至12岁")),
    # The asker's own age is no rival of the source's lower bound; it sits in the band.
    ("Aerolift takes flyers from age four, so your 5-year-old is old enough.",
     "Aerolift welcomes flyers from 4 years old. Children aged 4 to 15 must be accompanied by a parent or guardian.",
     ("5-year", "matched", "4 to 15")),
    ("Aerolift takes flyers from age four, so your 3-year-old is old enough.",
     "Aerolift welcomes flyers from 4 years old. Children aged 4 to 15 must be accompanied by a parent or guardian.",
     ("3-year", "mismatched", "4 years")),
    # The asker's age below the minimum the claim states, turned away as the claim says.
    ("Guests need to be at least 16, so your 15-year-old wouldn't be able to come.",
     "Guests must be 16 or over, and under-18s must be accompanied by an adult.", ("15-year", "matched", "16 or over")),
    ("Guests need to be at least 16, so your 17-year-old wouldn't be able to come.",
     "Guests must be 16 or over, and under-18s must be accompanied by an adult.", ("17-year", "missing", None)),
])
def test_the_askers_age_is_found_in_the_age_band_beside_the_claims_price(analyzer, answer, text, found):
    facts = _facts(analyzer, answer, text)
    assert (found[0], *facts[found[0]]) == found


@pytest.mark.parametrize("answer, missing", [
    ("取车时要交车辆押金和违章押金两笔钱。", []),        # the claim's own list of two
    ("取车时要交车辆押金、违章押金和保险押金三笔钱。", []),
    ("取车时要交车辆押金和违章押金三笔钱。", ["三笔"]),  # three is not the two it lists
])
def test_a_count_of_the_items_the_claim_lists_holds_nothing_to_find(analyzer, answer, missing):
    facts = _facts(analyzer, answer, "取车时须支付车辆押金3000元和违章押金2000元，还车后退还。")
    assert [text for text, (status, _) in facts.items() if status == "missing"] == missing


@pytest.mark.parametrize("answer, status, evidence", [
    ("一线城市以外每月上限三千元。", "matched", "每月上限3000元"),    # every city but the first-tier ones
    ("一线城市每月上限三千元。", "mismatched", "每月上限5000元"),
])
def test_a_case_the_claim_excepts_is_not_the_case_it_names(analyzer, answer, status, evidence):
    text = "调动后前3个月可报销临时住宿费，一线城市每月上限5000元，其他城市每月上限3000元。搬家费上限为6000元。"
    facts = _facts(analyzer, answer, text)
    assert facts[next(k for k in facts if "三千元" in k)] == (status, evidence)


WILLS = ("Amendments within 12 months of signing are free if they are minor, such as changing an executor; larger "
         "changes are charged at £75. We store the signed original free of charge. Home visits are available within "
         "30 miles of Leicester for an extra £45.")


@pytest.mark.parametrize("answer, status, value", [
    # The sentence giving £45 shares nothing with the claim but the amount; the one naming the
    # claim's changes gives £75.
    ("Bigger changes cost £45.", "mismatched", "£75"),
    ("Larger changes are charged at £75.", "matched", "£75"),
    ("Home visits cost an extra £45.", "matched", "£45"),
])
def test_a_value_found_only_beside_other_words_is_checked_against_the_claims_sentence(analyzer, answer, status, value):
    claim = split_claims(answer, analyzer=analyzer)[0]
    candidates = SpanIndex([segment_source(Source(id="S1", text=WILLS))]).candidates(claim)
    (fact,) = check_facts(claim, candidates, min_relevance=Thresholds().relevance)
    assert (fact.status, fact.evidence_text) == (status, value)


def test_words_that_bound_any_value_name_no_slot(analyzer):
    """"within the last two years" shares only "within" with "reviews requests within three business
    days": that is no sentence naming the claim's slot."""
    text = ("Researchers may order HF only after completing the online safety module and the first-aid session, both "
            "renewed every two years. EHS normally reviews requests within three business days.")
    claim = split_claims("First you must have done both courses, and both need to be within the last two years.",
                         analyzer=analyzer)[-1]
    candidates = SpanIndex([segment_source(Source(id="S1", text=text))]).candidates(claim)
    (fact,) = [f for f in check_facts(claim, candidates, min_relevance=Thresholds().relevance) if f.fact.kind == "number"]
    assert (fact.status, fact.evidence_text) == ("matched", "two years")

"""The engine on cases whose values sit on either side of one threshold, names said in parts,
an opposite in one clause of a claim of several, and totals worked out across sentences
(lexical baseline: the fact checks and polarity rules, not the model, decide these)."""

from __future__ import annotations

import pytest


MOTORBIKE = {"id": "S1", "text": "骑士摩托维修中心：250cc以下摩托车小保养（机油、机滤）收费280元，250cc及以上收费380元。"
                                 "大保养250cc以下680元。"}


@pytest.mark.parametrize("answer, status, rival", [
    # The price of the other side of the threshold is a wrong value, with both values named.
    ("骑士摩托250cc及以上的小保养收费二百八十元。", "mismatched", "380元"),
    ("骑士摩托250cc及以上的小保养收费三百八十元。", "matched", "380元"),
    ("骑士摩托250cc以下的小保养收费二百八十元。", "matched", "280元"),
])
def test_a_price_belongs_to_its_side_of_a_threshold(lexical, answer, status, rival):
    claim = lexical.verify(answer, [MOTORBIKE]).claims[0]
    price = next(f for f in claim.facts if f.text.endswith("元"))
    assert (price.status, price.evidence_text) == (status, rival)
    assert (claim.label == "contradicted") == (status == "mismatched")


def test_a_name_said_as_brand_and_branch_is_found_in_one_sentence(lexical):
    source = {"id": "S1", "text": "Twistgrip Motorcycles, Leeds branch. A major service costs £229 up to 600cc and £269 "
                                  "over 600cc, including spark plugs, air filter and brake fluid."}
    claim = lexical.verify("For a bike over 600cc, a major service at Twistgrip Leeds is £269.", [source]).claims[0]
    name = next(f for f in claim.facts if f.text == "Twistgrip Leeds")
    assert name.status == "matched"
    # Words found in two different sentences are no name found.
    apart = {"id": "S1", "text": "Twistgrip Motorcycles, York branch. A major service costs £269 over 600cc. Our Leeds "
                                 "depot stores tyres."}
    claim = lexical.verify("For a bike over 600cc, a major service at Twistgrip Leeds is £269.", [apart]).claims[0]
    assert next(f for f in claim.facts if f.text == "Twistgrip Leeds").status != "matched"


def test_one_clause_of_a_claim_denied_by_the_source_makes_it_contradicted(lexical):
    source = {"id": "S1", "text": "线上会员每月20元，可使用App记录饮食，不含称重。"}
    claims = lexical.verify("线上会员每月二十元，也包含称重。", [source]).claims
    assert [(c.text, c.label) for c in claims] == [("线上会员每月二十元", "supported"), ("线上会员包含称重", "contradicted")]
    claims = lexical.verify("线上会员每月二十元，可以用App记录饮食。", [source]).claims
    assert "contradicted" not in [c.label for c in claims]
    # A negation inside a relative clause ("help that is not an emergency") denies nothing.
    nhs = {"id": "S1", "text": "For urgent mental health help that is not an emergency, call NHS 111 and select the "
                               "mental health option."}
    claim = lexical.verify("For urgent help that isn't an emergency, call NHS 111 and choose the mental health option.",
                           [nhs]).claims[0]
    assert claim.label != "contradicted"


def test_a_discount_brought_to_a_total_stated_in_the_sentence_before(lexical):
    source = {"id": "S1", "text": "VHS tapes cost £12 each for up to 2 hours of footage. Orders of 20 tapes or more get "
                                  "10% off."}
    answer = "Each VHS tape is £12, so 25 tapes come to £300. Because you're sending 20 or more, you'd get 10% off, " \
             "bringing it to {total}."
    facts = {f.text: f for c in lexical.verify(answer.format(total="£270"), [source]).claims for f in c.facts}
    assert facts["£270"].status == "matched"
    facts = {f.text: f for c in lexical.verify(answer.format(total="£260"), [source]).claims for f in c.facts}
    assert facts["£260"].status != "matched"


def test_the_rest_to_pay_is_the_balance():
    from extractors.tokens import token_recall

    source = "A 40% deposit is due when you order, and the balance is due on the day fitting is completed."
    assert token_recall("You pay the rest on completion of fitting", source) \
        > token_recall("You pay the fee on completion of fitting", source)


DELIVERY = {"id": "S1", "text": "Delivery and collection are free within the city bypass; the airport costs £15 each way, "
                                "and other addresses within 30 miles cost £25 each way. We ask for a £50 refundable "
                                "deposit per booking. Everything is cleaned between hires, and car seats are never "
                                "more than 5 years old."}


def test_words_both_cases_say_after_their_values_name_neither(lexical):
    """"each way" follows both prices: the claim's "airport" names the £15 case."""
    claim = lexical.verify("Airport delivery is £25 each way.", [DELIVERY]).claims[0]
    (price,) = claim.facts
    assert (price.status, price.evidence_text) == ("mismatched", "£15")
    assert claim.label == "contradicted"
    claim = lexical.verify("Airport delivery is £15 each way.", [DELIVERY]).claims[0]
    assert [f.status for f in claim.facts] == ["matched"]


def test_a_bound_denied_by_its_subject_is_the_source_s_never_more_than(lexical):
    claim = lexical.verify("No car seat is more than five years old.", [DELIVERY]).claims[0]
    assert [(f.status, f.evidence_text) for f in claim.facts] == [("matched", "never more than 5 years")]
    assert claim.label != "contradicted", claim.reason
    claim = lexical.verify("No car seat is more than three years old.", [DELIVERY]).claims[0]
    assert [f.status for f in claim.facts] == ["mismatched"]


def test_an_age_group_with_a_hyphen_is_the_claim_s_under_18(lexical):
    source = {"id": "S1", "text": "Minimum age is 14, and under-18s must be with a paying adult."}
    claim = lexical.verify("As you're under 18, you need to come with a paying adult.", [source]).claims[0]
    assert [(f.status, f.evidence_text) for f in claim.facts] == [("matched", "under-18")]


def test_a_negation_about_what_the_span_does_not_say_denies_nothing(lexical):
    source = {"id": "S1", "text": "Free taster sessions with a coach run on Saturday mornings in April and May."}
    claim = lexical.verify("No need to buy anything first: free coached taster sessions run on Saturday mornings in "
                           "April and May.", [source]).claims[0]
    assert claim.label != "contradicted", claim.reason
    claim = lexical.verify("Taster sessions don't run on Saturday mornings in April and May.", [source]).claims[0]
    assert claim.label == "contradicted", claim.reason


def test_a_bound_that_picks_out_what_a_chinese_rule_is_for_is_a_condition(lexical):
    source = {"id": "S1", "text": "上门测量免费。100平方米以下的内墙翻新一般3天就能完工。"}
    claim = lexical.verify("内墙翻新一般三天就能完工。", [source]).claims[0]
    assert claim.label == "partial"
    assert "100平方米以下的内墙翻新" in claim.reason
    claim = lexical.verify("100平方米以下的内墙翻新一般三天就能完工。", [source]).claims[0]
    assert claim.label == "supported", claim.reason


def test_an_asker_s_child_below_the_age_a_trip_turns_away_is_a_wrong_value(lexical):
    source = {"id": "S1", "text": "The 3-hour coastal trip costs £55 per adult and £35 per child aged 4 to 15. The 6-hour "
                                  "Outer Minch trip costs £110 per adult and £75 per child, and is not suitable for "
                                  "children under 8."}
    claim = lexical.verify("Your six-year-old can come on the six-hour Outer Minch trip.", [source]).claims[0]
    age = next(f for f in claim.facts if f.text == "six-year")
    assert (age.status, age.evidence_text) == ("mismatched", "not suitable for children under 8")
    claim = lexical.verify("Your ten-year-old can come on the six-hour Outer Minch trip.", [source]).claims[0]
    assert "mismatched" not in [f.status for f in claim.facts]
    # A band turned away after it is named: "under-12s are not admitted".
    tour = {"id": "S1", "text": "Guests aged 12 to 20 may join the Classic Tour for $10 without tasters, and under-12s "
                                "are not admitted."}
    claim = lexical.verify("Your 11-year-old can join the Classic Tour.", [tour]).claims[0]
    assert [(f.status, f.evidence_text) for f in claim.facts if f.text == "11-year"] == [("mismatched", "under-12s are not admitted")]
    claim = lexical.verify("Under-12s can join the Classic Tour.", [tour]).claims[0]
    assert claim.label == "contradicted"
    claim = lexical.verify("Under-12s are not admitted.", [tour]).claims[0]
    assert [f.status for f in claim.facts] == ["matched"]
    claim = lexical.verify("Your 14-year-old can join the Classic Tour for $10.", [tour]).claims[0]
    assert [(f.status, f.evidence_text) for f in claim.facts if f.text == "14-year"] == [("matched", "12 to 20")]


def test_a_chinese_bound_under_a_modal_is_no_negation(lexical):
    source = {"id": "S1", "text": "根据国家标准，新建住宅室内氡浓度年均值不应超过150贝可/立方米。"}
    claim = lexical.verify("这个结果超过了国家标准里新建住宅150贝可/立方米的限值。", [source]).claims[0]
    assert claim.label != "contradicted", claim.reason


def test_a_negated_clause_of_the_claim_that_is_also_the_span_s_still_clashes(lexical):
    source = {"id": "S1", "text": "Cancel at least 14 days before the first session for a full refund minus a £25 "
                                  "admin fee."}
    claim = lexical.verify("If you cancel at least 14 days before the first session, you get a full refund with no "
                           "deductions.", [source]).claims[0]
    assert claim.label == "contradicted", claim.reason


def test_where_something_is_free_beside_a_price_elsewhere_is_a_condition(lexical):
    source = {"id": "S1", "text": "Delivery and returns are free across mainland UK; Highlands and islands pay £6 per "
                                  "delivery."}
    claim = lexical.verify("Delivery and returns are free.", [source]).claims[0]
    assert claim.label == "partial"
    assert "across mainland UK" in claim.reason
    claim = lexical.verify("Delivery and returns are free across mainland UK.", [source]).claims[0]
    assert "condition" not in claim.reason


def test_a_cost_borne_by_the_provider_is_the_opposite_of_one_paid_by_the_customer(lexical):
    source = {"id": "S2", "text": "外拍交通和门票费用自理。"}
    claim = lexical.verify("外拍的交通和门票都由学堂承担。", [source]).claims[0]
    assert claim.label == "contradicted", claim.reason


def test_a_wider_range_of_weekdays_is_a_wrong_value(lexical):
    source = {"id": "S1", "text": "學生憑有效學生證，星期一至四可享九折。"}
    claim = lexical.verify("學生逢星期一至日都有九折。", [source]).claims[0]
    assert [(f.text, f.status, f.evidence_text) for f in claim.facts if f.kind == "date"] == \
        [("星期一至日", "mismatched", "星期一至四")]
    claim = lexical.verify("學生星期二至四有九折。", [source]).claims[0]
    assert [f.status for f in claim.facts if f.kind == "date"] == ["matched"]
    # One day the source names is no range it might leave out, and confirms none.
    claim = lexical.verify("學生逢星期一至日都有九折。", [{"id": "S1", "text": "學生逢星期日有九折。"}]).claims[0]
    assert [f.status for f in claim.facts if f.kind == "date"] == ["missing"]


def test_open_as_usual_is_the_opposite_of_a_day_off(lexical):
    source = {"id": "S1", "text": "逢星期日休息。"}
    assert lexical.verify("星期日都照常開。", [source]).claims[0].label == "contradicted"
    # a rest room is no day off
    source = {"id": "S1", "text": "星期日照常营业，店内设有休息区。"}
    assert lexical.verify("星期日照常营业。", [source]).claims[0].label != "contradicted"


def test_once_a_year_is_annually(lexical):
    source = {"id": "S1", "text": "Shares pay a target interest of 4.5% a year, paid annually in arrears."}
    claim = lexical.verify("Interest is paid once a year in arrears.", [source]).claims[0]
    assert [(f.text, f.status, f.evidence_text) for f in claim.facts] == [("once a year", "matched", "annually")]
    claim = lexical.verify("Interest is paid once a month in arrears.", [source]).claims[0]
    assert [f.status for f in claim.facts] != ["matched"]


@pytest.mark.parametrize("answer, text, found", [
    ("It includes an inverter health check once a year.", "Plus plan: an annual inverter health check, £14 a month.",
     "annual"),
    ("Meals are delivered twice a week.", "Meals are delivered on Mondays and Thursdays.", "Mondays and Thursdays"),
    ("Meals are delivered three times a week.", "Meals are delivered on Mondays and Thursdays.", None),
])
def test_how_often_said_as_annual_or_as_the_days_listed(lexical, answer, text, found):
    facts = lexical.verify(answer, [{"id": "S1", "text": text}]).claims[0].facts
    matched = [f.evidence_text for f in facts if f.kind == "number" and f.status == "matched"]
    assert matched == ([found] if found else [])


def test_another_requirement_is_no_condition_of_the_one_a_claim_states(lexical):
    source = {"id": "S1", "text": "Participants must be at least 14 years old and able to swim 50 metres in light "
                                  "clothing."}
    claim = lexical.verify("You'll need to be able to swim 50 metres in light clothing.", [source]).claims[0]
    assert "condition" not in claim.reason
    source = {"id": "S1", "text": "Riders must be at least 18 years old to hire an e-bike."}
    claim = lexical.verify("You can hire an e-bike.", [source]).claims[0]
    assert claim.label == "partial" and "at least 18" in claim.reason


def test_an_approximate_time_is_found_in_its_own_case_s_bound(lexical):
    source = {"id": "S1", "text": "標準方案自確認需求起12個工作天內交付初稿，完整方案約需30個工作天。"}
    claim = lexical.verify("確認需求後大約12個工作天就能看到初稿。", [source]).claims[0]
    assert [(f.status, f.evidence_text) for f in claim.facts] == [("matched", "12個工作天內")]


def test_a_time_within_the_source_s_deadline_keeps_it(lexical):
    source = {"id": "S1", "text": "Orders placed by 1 p.m. Monday to Saturday can be delivered the same day."}
    claim = lexical.verify("Orders placed by 1 p.m. go out the same day, so noon on Saturday works.", [source]).claims[0]
    assert [(f.text, f.status) for f in claim.facts if f.text == "noon"] == [("noon", "matched")]
    # A later time, or a deadline of the claim's own, is another value.
    # (the true clause may then be read on its own: `verifier.resplit`)
    claims = lexical.verify("Orders placed by 1 p.m. go out the same day, so 2 p.m. on Saturday works.", [source]).claims
    assert [f.status for c in claims for f in c.facts if f.text == "2 p.m."] == ["mismatched"]
    claim = lexical.verify("Orders placed by noon go out the same day.", [source]).claims[0]
    assert [f.status for f in claim.facts if f.text == "noon"] == ["mismatched"]



def test_the_days_of_the_week_a_chinese_source_lists_say_how_often():
    from extractors.numbers import extract_numbers
    from verifier.periods import once_per
    from verifier.schema import Source
    from verifier.segment import segment_source

    span = segment_source(Source(id="S1", text="每周二、周四、周六配送。")).sentences[0]
    three, two = ([f for f in extract_numbers(t) if f.kind == "number"][0] for t in ("每周3次", "每周2次"))
    assert once_per(three, span).text == "周二、周四、周六"
    assert once_per(two, span) is None

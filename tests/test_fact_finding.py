"""Where a claim's facts are found in the evidence: dates, the asker's own values, bounds, periods; lexical baseline."""

from __future__ import annotations

import pytest


def _facts(verifier, request: dict, claim: int = 0) -> dict:
    """The facts of one claim of the request's report, by their text."""
    return {f.text: f for f in verifier.verify_request(request).claims[claim].facts}


def _mismatched(verifier, answer: str, source: dict) -> list[tuple[str, str]]:
    """(claim's value, source's value) for each mismatched fact of a one-claim answer."""
    (claim,) = verifier.verify(answer, [source]).claims
    return [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"]


@pytest.mark.parametrize("answer, status", [
    # The answer states no year; the one the extractor took from as_of is no claim of the answer's.
    ("The winter term begins on 11 January.", "matched"),
    ("The winter term begins on 18 January.", "mismatched"),
    ("The winter term begins on 11 January 2026.", "mismatched"),
])
def test_a_date_without_a_year_is_matched_on_what_it_states(lexical, answer, status):
    source = {"id": "S1", "text": "The winter term runs for ten weeks from 11 January 2027, with classes of 60 minutes."}
    (claim,) = lexical.verify(answer, [source], context={"as_of": "2026-11-30"}).claims
    assert [f.status for f in claim.facts if f.kind == "date"] == [status]


DELIVERY = {"id": "S1", "text": "Standard delivery costs £5.95. Orders over £60 qualify for free standard delivery."}


def test_the_askers_own_value_set_against_a_stated_bound_is_no_missing_fact(lexical):
    request = {"question": "What does delivery cost on a £45 bouquet?", "sources": [DELIVERY],
               "answer": "On a £45 bouquet delivery is £5.95, since free delivery only starts over £60."}
    facts = _facts(lexical, request)
    assert (facts["£45"].status, facts["£45"].source_id) == ("matched", None)
    assert (facts["over £60"].status, facts["over £60"].source_id) == ("matched", "S1")
    # Without the question the value is nobody's: missing.
    facts = _facts(lexical, {**request, "question": None})
    assert facts["£45"].status == "missing"


def test_the_askers_value_is_no_rival_of_a_value_the_source_states_for_another_slot(lexical):
    """"这束花159元" is the asker's bouquet; the source's 20元 (express delivery) is no price of it."""
    source = {"id": "S1", "text": "订单满199元免普通配送费，不满199元收取普通配送费15元；加急配送另收20元。"}
    request = {"question": "我买的这束花159元，要付配送费吗？", "sources": [source],
               "answer": "这束花159元，不满199元，所以要付普通配送费15元。"}
    facts = _facts(lexical, request)
    assert (facts["159元"].status, facts["159元"].source_id) == ("matched", None)
    facts = _facts(lexical, {**request, "question": None})
    assert facts["159元"].status != "matched"


def test_the_askers_value_without_a_stated_bound_stays_missing(lexical):
    request = {"question": "Is the deposit £500?", "answer": "The deposit is £500.",
               "sources": [{"id": "S1", "text": "A deposit is taken at check-in."}]}
    claim = lexical.verify_request(request).claims[0]
    assert [f.status for f in claim.facts if f.kind == "number"] == ["missing"]
    assert claim.label != "supported"


@pytest.mark.parametrize("question, status", [
    ("What would it cost to renew my tenancy at £2,000 a month?", "matched"),   # the asker's rent, worked with
    ("What would it cost to renew my tenancy?", "missing"),
])
def test_an_amount_the_question_states_and_the_claim_works_with_is_the_askers(lexical, question, status):
    source = {"id": "S1", "text": "When a tenancy is renewed, the renewal fee is 5% of the annual rent."}
    request = {"question": question, "sources": [source],
               "answer": "Renewing costs 5% of the annual rent, so on £2,000 a month (£24,000 a year) that's £1,200."}
    facts = _facts(lexical, request)
    assert facts["£2,000 a month"].status == status
    assert facts["£1,200"].status == "matched"


def test_a_value_above_a_named_limit_is_set_against_it(lexical):
    source = {"id": "S1", "text": "We can guarantee tenancies with a monthly rent of up to £3,500."}
    request = {"question": "Could they cover a new flat at £4,000 a month?", "sources": [source],
               "answer": "A flat at £4,000 a month is above Keyfold's £3,500 monthly limit, so they can't guarantee it."}
    facts = _facts(lexical, request)
    assert facts["£4,000 a month"].status == "matched"


@pytest.mark.parametrize("answer, status", [
    ("You worked two and a half hours, which is over the two-hour minimum.", "matched"),   # 1am to 3:30am
    ("You worked three hours, which is over the two-hour minimum.", "mismatched"),
])
def test_how_long_the_askers_times_span_is_the_askers_value(lexical, answer, status):
    source = {"id": "S1", "text": "Call-outs are paid at time and a half, with a minimum payment of two hours per call-out."}
    request = {"question": "I got called out at 1am and worked until 3:30am. How will I be paid?", "answer": answer,
               "sources": [source]}
    (claim,) = lexical.verify_request(request).claims
    assert claim.facts[0].status == status


@pytest.mark.parametrize("answer, values", [
    ("Because the call-out fell between midnight and 6am, it's paid at time and a half.",
     [("time and a half", "double time")]),
    ("Because the call-out fell between midnight and 6am, it's paid at double time.", []),
    ("Call-outs are paid at time and a half.", []),
])
def test_a_value_under_the_claims_time_of_day_is_the_one_that_counts(lexical, answer, values):
    source = {"id": "S1", "text": "If you are called out, the time you work is paid at time and a half, with a minimum "
                                  "payment of two hours per call-out; call-outs between midnight and 6am are paid at "
                                  "double time instead."}
    assert _mismatched(lexical, answer, source) == values


@pytest.mark.parametrize("bound, days, status", [
    ("最少", "三天", "matched"), ("最少", "一天半", "missing"),     # a minimum of two days
    ("最多", "三天", "missing"), ("最多", "一天半", "matched"),     # a maximum of two days
])
def test_the_askers_value_judged_fine_against_a_bound_is_found_only_when_it_keeps_to_it(lexical, bound, days, status):
    source = {"id": "S1", "text": f"标准款六人桑拿车每天租金1500元，{bound}租两天；豪华款十人桑拿车每天2200元。"}
    request = {"question": f"我们想租桑拿车用{days}，怎么收费？", "sources": [source],
               "answer": f"标准款每天1500元，{bound}要租两天，你们租{days}没问题。"}
    facts = _facts(lexical, request, -1)
    assert facts[days].status == status


def test_a_count_of_the_askers_own_things_is_no_missing_fact(lexical):
    source = {"id": "S1", "text": "夏季恤衫每件港幣165元，夏季短褲或裙每件港幣150元。"}
    request = {"question": "我想買兩件夏季恤衫同兩條裙，幾錢？", "sources": [source],
               "answer": "兩件夏季恤衫每件港幣165蚊。"}
    facts = _facts(lexical, request)
    assert (facts["兩件"].status, facts["兩件"].source_id) == ("matched", None)
    facts = _facts(lexical, {**request, "question": None})
    assert facts["兩件"].status == "missing"
    # One occasion the asker prices, worked out at the source's rate per square metre.
    request = {"question": "幕墙大约2000平方米，清洗一次多少钱？", "answer": "按每平方米6元算，2000平方米洗一次是一万两千元。",
               "sources": [{"id": "S1", "text": "玻璃幕墙清洗按面积计价，每平方米6元，单次作业面积不足500平方米按500平方米计算。"}]}
    facts = _facts(lexical, request)
    assert [facts[t].status for t in ("2000平方米", "一次", "一万两千元")] == ["matched"] * 3
    facts = _facts(lexical, {**request, "question": None})
    assert facts["一次"].status == "missing"
    # ... also beside a rate of cleanings a contract gives: "每年4次" is no rival to the asker's one.
    contract = {"id": "S1", "text": "玻璃幕墙清洗按面积计价，每平方米6元。签订年度合同（每年4次）的客户享受九折优惠。"}
    facts = _facts(lexical, {**request, "sources": [contract]})
    assert facts["一次"].status == "matched"
    assert _facts(lexical, {**request, "sources": [contract], "question": None})["一次"].status != "matched"
    # People are no things: "you can bring 3 guests" is a claim the sources must make.
    request = {"question": "Can I bring 3 guests?", "answer": "You can bring 3 guests.",
               "sources": [{"id": "S1", "text": "Members may bring guests to the pool."}]}
    claim = lexical.verify_request(request).claims[0]
    assert [f.status for f in claim.facts if f.kind == "number"] == ["missing"]


@pytest.mark.parametrize("answer, status", [
    ("The park is open on weekends on 12 December.", "matched"),      # inside 7 November to 27 December
    ("The park is open on weekends on 3 January.", "mismatched"),     # after the period, on no stated date
])
def test_a_day_inside_a_stated_period_is_found(lexical, answer, status):
    source = {"id": "S1", "text": "The park is open daily from 29 March to 1 November 2026, and on weekends only "
                                  "from 7 November to 27 December. It is closed on Mondays."}
    claim = lexical.verify(answer, [source], context={"as_of": "2026-11-30"}).claims[0]
    (day,) = [f for f in claim.facts if f.kind == "date" and f.text in ("12 December", "3 January")]
    assert day.status == status
    (weekends,) = [f for f in claim.facts if f.text == "weekends"]
    assert weekends.status == "matched"  # Saturday and Sunday, as the source's "weekends"
    if status == "matched":
        assert day.evidence_text == "7 November to 27 December"


@pytest.mark.parametrize("answer, values", [
    ("The Rescue Diver course costs $429.", [("$429", "$495")]),
    ("The Rescue Diver course costs $495.", []),
    # "The course" after the Advanced Open Water sentence is that course; the Rescue Diver clause
    # names it only as a prerequisite.
    ("The Advanced Open Water course costs $429.", []),
])
def test_a_value_from_a_sentence_without_the_claims_name_does_not_clear_it(lexical, answer, values):
    """The sentence that names the claim's course gives another price; a less relevant sentence
    with the claim's price names no course, so it is about another one."""
    source = {"id": "S1", "text": "Our Advanced Open Water course runs over two weekends. The course costs $429, including "
                                  "boat fees and equipment. The Rescue Diver course takes three days and costs $495; it "
                                  "requires Advanced Open Water."}
    assert _mismatched(lexical, answer, source) == values


@pytest.mark.parametrize("answer, values", [
    ("The Beginners' Weekend costs £340.", [("£340", "£295")]),
    ("The Beginners' Weekend costs £295.", []),
    ("The Intermediate Weekend costs £340.", []),
])
def test_a_value_in_a_sentence_about_another_subject_does_not_clear_it(lexical, answer, values):
    """The claim's price stands in a sentence whose subject is the next course (naming the
    claim's course only as a prerequisite); the sentence whose subject is the claim's course
    gives another."""
    source = {"id": "S1", "text": "The Beginners' Weekend (Saturday and Sunday) costs £295 and covers sawing and "
                                  "soldering. Materials are included. The Intermediate Weekend, for students who have "
                                  "completed the Beginners' course, costs £340 and covers stone setting."}
    assert _mismatched(lexical, answer, source) == values


@pytest.mark.parametrize("answer, values", [
    ("版税对账有问题的话，找内容运营部就行。", [("内容运营部", "版权结算部")]),
    ("版税对账有问题的话，找版权结算部就行。", []),
    ("歌曲要下架的话，联系客户服务中心。", [("客户服务中心", "内容运营部")]),
    ("If you have questions about your ChemStore account, contact the Chemical Safety Office.",
     [("Chemical Safety Office", "Procurement Help Desk")]),
    ("If you have questions about your ChemStore account, contact the Procurement Help Desk.", []),
    ("For questions about hazard classification, contact the Procurement Help Desk.",
     [("Procurement Help Desk", "Chemical Safety Office")]),
])
def test_whom_to_contact_is_the_one_the_source_names_for_the_matter(lexical, answer, values):
    """A page that names a contact per matter: the claim's contact must be its matter's, which is
    judged on the words other than the contacts' names."""
    source = {"id": "S1", "text": "版税结算相关问题请联系版权结算部；歌曲上线、下架及信息修改请联系内容运营部；账户登录问题请联系客户服务中心。"
                                  "For questions about your ChemStore account or an order, contact the Procurement Help "
                                  "Desk; for safety data sheets and storage rules, contact the Chemical Safety Office. "
                                  "Questions about hazard classification go to the Chemical Safety Office."}
    claim = lexical.verify(answer, [source]).claims[-1]
    doers = [f for f in claim.facts if f.kind == "qualifier" and f.value["slot"] == "agent"]
    assert [(f.text, f.evidence_text) for f in doers if f.status == "mismatched"] == values
    assert (claim.label == "contradicted") == bool(values)


@pytest.mark.parametrize("answer, status", [
    ("借款人年龄要在18周岁到55周岁之间。", "mismatched"),   # the span's own range, not its bound, is the slot
    ("借款人年龄要在22周岁到55周岁之间。", "matched"),
])
def test_a_range_is_not_confirmed_by_a_bound_beside_another_range(lexical, answer, status):
    source = {"id": "S1", "text": "借款人年龄须在22周岁至55周岁之间，且贷款到期日借款人年龄不超过60周岁。"}
    (fact,) = [f for f in lexical.verify(answer, [source]).claims[0].facts if f.kind == "number"]
    assert fact.status == status


@pytest.mark.parametrize("answer, status", [
    ("二週年慶儲值活動到115年12月5日結束。", "mismatched"),   # the end of the period is another day
    ("二週年慶儲值活動到115年12月10日結束。", "matched"),
    ("The promotion runs until 5 December 2026.", "mismatched"),
    ("The promotion is on 5 December 2026.", "matched"),          # a day inside the period
])
def test_a_claimed_end_day_must_be_the_periods_end(lexical, answer, status):
    text = ("二週年慶儲值活動期間為115年11月20日至115年12月10日。" if "活動" in answer
            else "The promotion runs from 20 November to 10 December 2026.")
    claim = lexical.verify(answer, [{"id": "S1", "text": text}], context={"as_of": "2026-11-30"}).claims[0]
    (day,) = [f for f in claim.facts if f.kind == "date"]
    assert day.status == status


def test_saturday_is_found_in_weekends(lexical):
    source = {"id": "S1", "text": "Private classes cost A$140 per person on weekdays and A$160 per person on "
                                  "Fridays and weekends."}
    claim = lexical.verify("A Saturday private class is A$160 per guest.", [source]).claims[0]
    (day,) = [f for f in claim.facts if f.kind == "date"]
    assert (day.status, day.evidence_text) == ("matched", "weekends")


def test_the_edge_of_a_bound_named_as_a_mark(lexical):
    source = {"id": "S1", "text": "The card fee is A$3.50 per card per month, waived for accounts that buy more "
                                  "than 5,000 litres in a month."}
    ok = lexical.verify("You're under the 5,000-litre mark where the fee is waived.", [source]).claims[0]
    assert [f.status for f in ok.facts] == ["matched"]
    wrong = lexical.verify("The fee is waived above 6,000 litres.", [source]).claims[0]
    assert [(f.status, f.evidence_text) for f in wrong.facts] == [("mismatched", "more than 5,000 litres")]


def test_a_threshold_the_claim_states_names_its_case(lexical):
    # The 0.6 belongs to the 满100张 case the claim names, not to the 6寸照片 topic's base price.
    source = {"id": "S1", "text": "拾光冲印6寸照片每张0.8元，满100张每张0.6元；7寸照片每张1.5元；10寸照片每张6元。"}
    claim = lexical.verify("一次洗满一百张，6寸照片每张六毛。", [source]).claims[0]
    (price,) = [f for f in claim.facts if f.text.startswith("每张")]
    assert (price.status, price.evidence_text) == ("matched", "每张0.6元")


def test_one_month_is_found_as_every_month_and_an_average_is_worked_out(lexical):
    sources = [{"id": "S1", "text": "每月预订满40小时的，享受工作日每小时100元的优惠价。10次卡售价1080元。"}]
    claims = lexical.verify("要是一个月订满四十小时，工作日单价降到每小时一百元。10次卡1080元，平均下来每次一百零八块。",
                            sources).claims
    facts = {f.text: (f.status, f.evidence_text) for c in claims for f in c.facts}
    assert facts["一个月"] == ("matched", "每月")
    assert facts["每次一百零八块"] == ("matched", "1080元 ÷ 10")
    assert claims[0].text.startswith("要是一个月")  # the "if" clause stays with what it conditions


@pytest.mark.parametrize("answer, text, fact, status, evidence", [
    # "一次" is what "單次" (a single one) says
    ("一次植一千株以上就全部以每株50元計算。", "單次植髮達1,000株以上者，全部以每株新臺幣50元計價。", "一次", "matched", "單次"),
    # doing it again once ("再测一次") is what "复测" says: nothing to find
    ("十五分钟后再测一次。", "给予含糖饮料50毫升，15分钟后复测。", "一次", None, None),
    # the rival bounded as the claim's value is
    ("特殊號牌要競標，底價五千元起。", "一般選號之號牌，選號費為新臺幣300元；特殊號牌採競標方式，底價新臺幣3,000元起。",
     "五千元起", "mismatched", "新臺幣3,000元起"),
])
def test_counts_of_one_and_the_rival_bounded_alike(lexical, answer, text, fact, status, evidence):
    facts = {f.text: (f.status, f.evidence_text) for c in lexical.verify(answer, [{"id": "S1", "text": text}]).claims
             for f in c.facts}
    assert facts.get(fact) == ((status, evidence) if status else None)


def test_a_band_the_claim_states_with_thousands_commas_is_no_dropped_condition(lexical):
    source = {"id": "S1", "text": "Trade accounts with annual hire spend above £20,000 receive 25% off list prices; "
                                  "accounts between £5,000 and £20,000 receive 15%."}
    claim = lexical.verify("With annual spend of around £12,000 you fall in the £5,000 to £20,000 band, which gets "
                           "15% off list prices.", [source]).claims[0]
    assert "condition" not in claim.reason


def test_a_duration_is_found_as_the_length_of_a_stated_time_range(lexical):
    source = {"id": "S1", "text": "The course runs for four consecutive Saturdays, 10 am to noon, at our indoor range."}
    facts = lexical.verify("Each class is two hours, on four Saturdays.", [source]).claims[0].facts
    assert [(f.text, f.status, f.evidence_text) for f in facts if f.kind == "number"] == \
        [("two hours", "matched", "10 am to noon")]
    facts = lexical.verify("Each class is three hours.", [source]).claims[0].facts
    assert [f.status for f in facts if f.kind == "number"] == ["missing"]


def test_a_count_in_a_sum_is_found_when_the_source_happens_to_state_the_total_too(lexical):
    source = {"id": "S1", "text": "保留原边（原边改短）每条60元。西装收腰每件120元。"}
    facts = lexical.verify("保留原边改短是每条60元，两条一共120元。", [source]).claims[0].facts
    assert {f.text: f.status for f in facts}["两条"] == "matched"


def test_a_second_item_is_priced_as_each_additional_one(lexical):
    source = {"id": "S1", "text": "Sootaway Chimney Sweeps charge £70 for a standard sweep of one flue, and £45 for each "
                                  "additional flue on the same visit."}
    facts = lexical.verify("The first flue is £70 and the second is £45.", [source],
                           question="How much for Sootaway to sweep two flues?").claims[1].facts
    assert [(f.text, f.status) for f in facts] == [("£45", "matched")]


def test_a_size_bound_before_a_case_name_leaves_the_name_to_bind_the_price(lexical):
    source = {"id": "S1", "text": "毛毛乐宠物美容按体重收费：10公斤以下小型犬全套美容168元，10至25公斤中型犬228元，"
                                  "25公斤以上大型犬298元。"}
    wrong = lexical.verify("小型犬全套美容二百二十八元。", [source]).claims[0]
    assert [(f.status, f.evidence_text) for f in wrong.facts] == [("mismatched", "168元")]
    right = lexical.verify("中型犬全套美容228元。", [source]).claims[0]
    assert [(f.status, f.evidence_text) for f in right.facts] == [("matched", "228元")]


@pytest.mark.parametrize("answer, status", [
    ("临时取消要提前十二个小时以上，否则扣一半费用。", {"matched"}),     # the other side, said with 否则
    ("临时取消要提前二十四个小时以上，否则扣一半费用。", {"missing", "mismatched"}),
    ("临时取消要提前十二个小时以上，扣一半费用。", {"mismatched"}),       # no 否则: the rule put on the wrong side
])
def test_otherwise_states_the_rule_for_the_other_side_of_the_bound(lexical, answer, status):
    source = {"id": "S1", "text": "预约后提前不足12小时取消，收取服务费的50%。"}
    facts = lexical.verify(answer, [source]).claims[0].facts
    assert facts[0].status in status


@pytest.mark.parametrize("answer, status", [
    ("超过3个月补色按时计费。", "matched"), ("超过6个月补色按时计费。", "mismatched"),
    ("After more than 90 days, repairs are charged at cost.", "matched"),
    ("Repairs are charged at cost after more than 30 days.", "mismatched"),
    ("If you're more than 20 miles away, the home survey costs £75.", "matched"),
])
def test_what_follows_after_that_is_the_rule_beyond_the_bound(lexical, answer, status):
    text = "补色于3个月内免费一次，之后按时计费。" if "补色" in answer else \
        "Home surveys are free within 20 miles of our showroom; further away there is a £75 survey fee." \
        if "survey" in answer else "Repairs are free within 90 days; after that they are charged at cost."
    facts = lexical.verify(answer, [{"id": "S1", "text": text}]).claims[0].facts
    assert [f.status for f in facts if f.kind == "number"][0] == status


def test_cantonese_words_are_read_as_their_written_forms() -> None:
    from extractors.tokens import token_recall

    # 揀 is 選 ("choose"): the claim shares its words with the written-Chinese source.
    assert token_recall("趕時間可以揀特快", "鞋踭及前掌可選特快服務") > token_recall("趕時間可以要特快", "鞋踭及前掌可選特快服務")
    assert token_recall("維修要幾多錢", "維修要多少錢") == 1.0
    # Every way a policy forbids reads as one: "不能开闪光灯" shares 不得 with "禁止使用闪光灯".
    assert token_recall("洞里不能开闪光灯", "洞内禁止使用闪光灯") >= 0.4 > token_recall("洞里可以开闪光灯", "洞内禁止使用闪光灯")
    # 幫手搞 is 協助辦理 ("help arrange it").
    assert token_recall("佢哋會幫手搞", "我哋會協助辦理") > 0.8
    # So are everyday Mandarin words for a policy's written ones.
    assert token_recall("年卡不能借给朋友", "年卡不得转借") > token_recall("年卡不能送给朋友", "年卡不得转借")
    assert token_recall("客户不能自己操作", "客户及酒店人员不得自行操作") > 0.8 \
        > token_recall("客户不会亲手操作", "客户及酒店人员不得自行操作")
    # The next day, and going along with someone.
    assert token_recall("第二天复查", "次日复查") == 1.0 > token_recall("第三天复查", "次日复查")
    assert token_recall("不能等到明天", "不要等到第二天") >= 0.5
    assert token_recall("要你陪着", "须由家长陪同") > token_recall("要你看着", "须由家长陪同")


@pytest.mark.parametrize("answer, dropped", [
    ("Tours go ahead in winds of up to 15 knots; above that, you can take a full refund or rebook for free.", False),
    ("You can take a full refund or rebook for free.", True),
])
def test_a_condition_the_sentence_points_back_to_is_not_dropped(lexical, answer, dropped):
    source = {"id": "S1", "text": "Tours run in winds of up to 15 knots; if the forecast is higher, we cancel and you can "
                                  "choose a full refund or a free rebooking. Check-in closes 20 minutes before launch."}
    claims = lexical.verify(answer, [source]).claims
    refund = next(c for c in claims if "refund" in c.text)
    assert ("condition" in refund.reason) == dropped


def test_a_limit_merely_holding_a_value_of_a_less_relevant_sentence_does_not_clear_the_rival(lexical):
    source = {"id": "S1", "text": "The Short-Term Test uses a single detector left in place for 10 days and costs £35. "
                                  "Detectors must be returned within 30 days of the end of the test period, or the "
                                  "analysis is not covered."}
    answer = "The detector has to be back with them within 14 days of the test ending."
    (claim,) = lexical.verify(answer, [source]).claims
    assert [(f.text, f.status, f.evidence_text) for f in claim.facts] == [("within 14 days", "mismatched", "within 30 days")]


@pytest.mark.parametrize("answer, values", [
    ("A call-out between midnight and 6am costs £20 an hour.", [("£20 an hour", "£30 an hour")]),
    ("A call-out between midnight and 6am costs £30 an hour.", []),
])
def test_a_time_of_day_names_its_case_beside_other_values_of_that_case(lexical, answer, values):
    # (the night's case states a count before its price: no crash reading it as the sentence's topic)
    source = {"id": "S1", "text": "At night, from midnight to 6am, 2 engineers attend and a call-out costs £30 an hour; "
                                  "during the day a call-out costs £20 an hour."}
    assert _mismatched(lexical, answer, source) == values


@pytest.mark.parametrize("answer, status", [
    ("两千五百元的车算下来是七百五十元，不过最高只补六百元。", "matched"),   # 最高 a few words before the value
    ("新建住宅室内氡浓度超过每立方米一百五十贝克就建议治理。", "matched"),   # 超过 a few words before the value
    ("新建住宅室内氡浓度达到每立方米一百五十贝克就建议治理。", "mismatched"),
])
def test_a_bound_word_a_few_words_before_the_value_bounds_it(lexical, answer, status):
    text = "购车补贴金额为购车价的30%，最高600元，每人限申请一次。" if "六百元" in answer else \
        "新建住宅室内氡浓度超过150贝克/立方米、既有住宅超过300贝克/立方米的，建议采取治理措施。"
    (claim,) = lexical.verify(answer, [{"id": "S1", "text": text}]).claims
    assert [f.status for f in claim.facts if f.kind == "number"][-1] == status


def test_the_askers_time_placed_inside_a_range_the_source_gives(lexical):
    source = {"id": "S1", "text": "七人車九龍港幣400元。晚上11時至早上6時接送加收港幣80元。"}
    answer = "{t}喺晚上11點至早上6點之間，要加收80蚊。"
    for asked, status in (("凌晨5點", "matched"), ("早上8點", "mismatched")):
        facts = _facts(lexical, {"question": f"我聽日{asked}要去機場，幾錢？", "answer": answer.format(t=asked),
                                 "sources": [source]})
        assert facts[asked].status == status, asked
    # without the question the time is nobody's
    facts = _facts(lexical, {"answer": answer.format(t="凌晨5點"), "sources": [source]})
    assert facts["凌晨5點"].status == "mismatched"

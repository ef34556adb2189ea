"""Which value of a source a claim's value is checked against: cases, tiers, periods, slots, roles; lexical baseline."""

from __future__ import annotations

import pytest

PARCEL_SOURCE = {"id": "S1", "text": "A parcel is considered lost if it has not been delivered 30 days after "
                                     "dispatch for Economy or 15 days for Priority."}


GROUP_RATES = {"id": "S1", "text": "费用按人数计算：10至29人每人650元，30人及以上每人580元。"}
FRIDGE = {"id": "S1", "text": "Haverly Home gives a trade-in credit of $200 on new refrigerators priced over $1,200 "
                              "and $120 on new refrigerators priced up to $1,200."}


AXES = {"id": "S1", "text": "A one-hour open session costs $30 per person on weekdays and $36 on Fridays, Saturdays "
                            "and Sundays."}
HEARING_AID = {"id": "S1", "text": "听悦助听器验配中心为新用户提供试戴服务：定制机试戴期为14天，非定制耳背机试戴期为30天。"}
TANKS = {"id": "S1", "text": "Tank rental is $240 per year for a 500-litre tank and $420 per year for a 1,000-litre or "
                             "larger tank."}
PRICE_LIST = {"id": "S1", "text": "潔淨洗衣（太古店）價目：羽絨（短款）乾洗港幣180元，羽絨（長款）港幣220元，大褸港幣160元。"}
PRINTING = {"id": "S1", "text": "Printing costs 15 cents per black-and-white page and 50 cents per colour page."}
STIPEND = {"id": "S1", "text": "The annual wellness stipend is $600 for full-time employees and $300 for part-time "
                               "employees."}
FARES = {"id": "S1", "text": "Seniors aged 65 and over pay 50% of the adult price; students aged 18 to 25 with a "
                             "student card pay 70%."}
DEPOSITS = {"id": "S1", "text": "经济型和舒适型车辆的车辆押金为3000元，SUV及商务车为5000元，豪华车型为10000元。"}
BOARDS = {"id": "S1", "text": "The manufacturer's structural guarantee on the boards is 25 years for Classic and 30 "
                              "years for Heritage, provided the floor is cleaned with approved products."}
DISTANCES = {"id": "S1", "text": "设备距离宾客座位不少于3米，距离窗帘、气球、纱幔等可燃装饰物不少于2米。"}
TREES = {"id": "S1", "text": "A 6 ft Noble fir is $119, a 7 ft tree is $139 and an 8 ft tree is $169."}
EXTRAS = {"id": "S1", "text": "以上价格含两名搬运工。床垫每张另收30元，冰箱、洗衣机等大家电每台另收50元。"}
HUTS = {"id": "S1", "text": "Peak season (1 July to 31 August) rates are £45 per day or £260 per week; off-peak rates "
                            "are £30 per day or £170 per week."}
FEES = {"id": "S1", "text": "本科生和研究生的服务费为年租金的7%，访问学者及已工作人士为年租金的9%，最低收费200英镑。"}
EVERYONE_ELSE = {"id": "S1", "text": "Our fee is 8% of the annual rent for students and 10% of the annual rent for "
                                    "everyone else."}
FLUES = {"id": "S1", "text": "A CCTV flue inspection can be added to a sweep for £60, or booked on its own for £95."}
GUARANTEES = {"id": "S1", "text": "All fitted locks carry a 12-month workmanship guarantee; Smart Lock hardware also "
                                  "has a 3-year manufacturer warranty."}
PICKUP = {"id": "S1", "text": "普通衣物取件时间为收衣后3天，羽绒服、大衣类为5天。"}
SURCHARGE = {"id": "S1", "text": "固安锁匠行提供电子锁到府安装服务，基本安装费为1,500元，若门板需要重新开孔，另加收800元。"}
KARATE = {"id": "S1", "text": "兒童班（6至12歲）逢星期六上課，每堂1.5小時，每期8堂學費港幣1,280元；成人班逢星期二及四晚上上課，"
                              "每期8堂港幣1,480元。"}
COACHES = {"id": "S1", "text": "市内一日游（8小时、150公里以内）价格：19座1200元，33座1600元，49座2000元。"}
MATTRESSES = {"id": "S1", "text": "Nimbus mattresses carry a 10-year limited warranty from the delivery date; the "
                                  "Nimbus Luxe carries a 15-year warranty."}
WATER_COOLERS = {"id": "S1", "text": "饮水机可租用，温热款每月15元，冷热款每月25元；一次性购买100桶水票赠送温热款饮水机一台。"}
SKI_KIT = {"id": "S1", "text": "租赁提供双板滑雪套装（含雪板、雪鞋、雪杖）每天150元，单板套装每天180元，头盔每天30元。"}
TYRES = {"id": "S1", "text": "Roadgrip charges $25 per tyre for fitting and balancing on wheels up to 18 inches, and $35 "
                             "per tyre for 19-inch wheels and larger."}


@pytest.mark.parametrize("source, answer, values", [
    # The claim's value is the one the sentence gives for the other service.
    (PARCEL_SOURCE, "An Economy parcel is considered lost after 15 days.", [("15 days", "30 days")]),
    (PARCEL_SOURCE, "A Priority parcel is considered lost after 15 days.", []),
    (PARCEL_SOURCE, "An Economy parcel is considered lost after 30 days.", []),
    # The claim's condition is the other group's: its credit is that group's (binding.condition_elsewhere).
    (FRIDGE, "For a new refrigerator priced over $1,200, Haverly gives a $120 trade-in credit.", [("$120", "$200")]),
    (FRIDGE, "For a new refrigerator priced over $1,200, Haverly gives a $200 trade-in credit.", []),
    (FRIDGE, "For a new refrigerator priced up to $1,200, Haverly gives a $120 trade-in credit.", []),
    # Each case leads with its own head count: the claim's count picks its price, a total worked
    # out from the price lists nothing.
    (GROUP_RATES, "25个人的话每人580元。", [("每人580元", "每人650元")]),
    (GROUP_RATES, "25个人的话按每人580元算，一共14500元。", [("每人580元", "每人650元")]),
    (GROUP_RATES, "35个人的话每人580元。", []),
    # What heads the list before its colon is every case's; 非定制 is not 定制.
    (HEARING_AID, "非定制耳背机的试戴期是14天。", [("14天", "30天")]),
    (HEARING_AID, "定制机的试戴期是14天。", []),
    # A bracketed variant names the case, and the first case's verb (乾洗) is every case's.
    (PRICE_LIST, "長款羽絨乾洗要港幣180蚊。", [("港幣180蚊", "港幣220元")]),
    (PRICE_LIST, "短款羽絨乾洗要港幣180蚊。", []),
    # A size names the case a price is for.
    (TANKS, "A 1,000-litre tank costs $240 a year to rent.", [("$240 a year", "$420 per year")]),
    (TANKS, "A 500-litre tank costs $240 a year to rent.", []),
    (TANKS, "A 1,000-litre tank costs $420 a year to rent.", []),
    # A size stated before every value is the sentence's topic, every case's.
    (AXES, "A one-hour session on a Saturday is $36 each.", []),
    (AXES, "A one-hour session on a Saturday is $30 each.", [("$30", "$36")]),
    # English cases without capitalised names: the words on the case's side of each value,
    # after it when later cases trail their values, before it when they lead them.
    (PRINTING, "Colour printing is 15 cents a page.", [("15 cents", "50 cents")]),
    (PRINTING, "Black-and-white printing is 15 cents a page.", []),
    (PRINTING, "Printing is 50 cents per colour page.", []),
    (STIPEND, "Part-time employees receive an annual wellness stipend of $600.", [("$600", "$300")]),
    (STIPEND, "Part-time employees receive an annual wellness stipend of $300.", []),
    (FARES, "Students aged 18 to 25 pay 50% of the adult price.", [("50%", "70%")]),
    (FARES, "Seniors aged 65 and over pay 50% of the adult price.", []),
    # A Chinese case may lead with a Latin name (SUV).
    (DEPOSITS, "如果租的是SUV，车辆押金是3000元。", [("3000元", "5000元")]),
    (DEPOSITS, "租SUV的话，车辆押金是5000元。", []),
    # No case names, but the claim's words are all the other group's slot (workmanship guarantee).
    (GUARANTEES, "Workmanship is guaranteed for three years.", [("three years", "12-month")]),
    (GUARANTEES, "Workmanship is guaranteed for twelve months.", []),
    (GUARANTEES, "Smart Lock hardware has a three-year manufacturer warranty.", []),
    # 、 lists one case's items; the comma before them ends the other case.
    (PICKUP, "羽绒服一般收衣后五天可以取。", []),
    (PICKUP, "普通衣物收衣后五天可以取。", [("五天", "3天")]),
    # Of several commas between two values, the first ends the first case: the condition is the 800's.
    (SURCHARGE, "门板要重新开孔的话再加800元。", []),
    (SURCHARGE, "基本安装费是800元。", [("800元", "1,500元")]),
    # "inches" and "19-inch" are one word: the 17-inch wheel is the first case, not the 19-inch one.
    (TYRES, "Fitting and balancing on 17-inch wheels is $25 a tyre.", []),
    (TYRES, "Fitting and balancing on 19-inch wheels is $25 a tyre.", [("$25", "$35")]),
    # The case named earlier in the answer's sentence (兒童班) binds the price; an aside
    # （6至12歲） and the characters touching a value are no words of a case.
    (KARATE, "兒童班逢星期六上堂，每期8堂港幣1,480蚊。", [("港幣1,480蚊", "港幣1,280元")]),
    (KARATE, "兒童班逢星期六上堂，每期8堂港幣1,280蚊。", []),
    (KARATE, "成人班逢星期二同四晚上堂，每期8堂港幣1,480蚊。", []),
    # A count may name the case (33座).
    (COACHES, "33座的车市内一日游是2000元。", [("2000元", "1600元")]),
    (COACHES, "33座的车市内一日游是1600元。", []),
    # A claim that names the plain case (Nimbus) and not the variant (Nimbus Luxe) takes the plain value.
    (MATTRESSES, "The standard Nimbus has a 15-year warranty from delivery.", [("15-year", "10-year")]),
    (MATTRESSES, "The Nimbus Luxe has a 15-year warranty.", []),
    (MATTRESSES, "The standard Nimbus has a 10-year warranty from delivery.", []),
    # A topic clause (饮水机可租用) leads only the first case, whose own case is 温热款; a ；after
    # the last value ends that case.
    (WATER_COOLERS, "冷热款饮水机每月租金15元。", [("15元", "每月25元")]),
    (WATER_COOLERS, "温热款饮水机每月租金15元。", []),
    (WATER_COOLERS, "冷热款饮水机每月租金25元。", []),
    # 双板套装 shares 板套 with 单板套装 and is its sibling, not it.
    (SKI_KIT, "双板套装每天150元。", []),
    (SKI_KIT, "单板套装每天150元。", [("每天150元", "每天180元")]),
    # A size the claim states names its case, whatever name the first case was given.
    (TREES, "A 7 ft Noble fir is $139.", []),
    (TREES, "A 7 ft Noble fir is $119.", [("$119", "$139")]),
    (TREES, "An 8 ft Noble fir is $139.", [("$139", "$169")]),
    # The topic leading the first case ("structural guarantee on the boards") is every case's: the
    # question's case (Heritage) binds the claim that repeats only the topic.
    (BOARDS, "The boards have a 25-year structural guarantee from the manufacturer.", [("25-year", "30 years")]),
    (BOARDS, "The boards have a 30-year structural guarantee from the manufacturer.", []),
    # A bound on a length is a rule of its own, not a size naming a case.
    (DISTANCES, "离宾客座位至少3米，离窗帘、气球、纱幔这些可燃装饰至少2米。", []),
    # The claim's own case (冰箱), not the one its sentence named before it (床垫).
    (EXTRAS, "床垫每张另加50元，冰箱另加30元。", [("30元", "50元")]),
    (EXTRAS, "床垫每张另加30元，冰箱另加50元。", []),
    # "A week" names the weekly rate of the season the claim names.
    (HUTS, "A week in August is peak season, so it's £260.", []),
    (HUTS, "In peak season a day costs £260.", [("£260", "£45 per day")]),
    # "or booked on its own" goes on with the first case's subject: that is the topic, not a case.
    (FLUES, "A CCTV flue inspection costs £60 if you book it on its own.", [("£60", "£95")]),
    (FLUES, "A CCTV flue inspection costs £95 if you book it on its own.", []),
    # A list of cases leads its clause: 已工作人士 is the second of 访问学者及已工作人士.
    (FEES, "已工作人士的服务费是年租金的百分之七。", [("百分之七", "9%")]),
    (FEES, "已工作人士的服务费是年租金的百分之九。", []),
    (FEES, "研究生的服务费是年租金的百分之七。", []),
    # "non-students" names every case but the students': the value for everyone else is theirs.
    (EVERYONE_ELSE, "For a new tenancy, the rate for non-students is 10% of the annual rent.", []),
    (EVERYONE_ELSE, "For a new tenancy, the rate for students is 10% of the annual rent.", [("10%", "8%")]),
])
def test_a_value_belongs_to_the_case_the_sentence_gives_it_for(lexical, source, answer, values):
    question = "What guarantee comes with Northmere's Heritage oak?" if source is BOARDS else None
    claim = lexical.verify(answer, [source], question=question).claims[-1]
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == values
    assert (claim.label == "contradicted") == bool(values)


@pytest.mark.parametrize("answer, status, evidence", [
    ("入门班学费一千二百元。", "matched", "1200元"),
    ("入门班学费一千八百元。", "mismatched", "1200元"),  # 1800元 is the sentence about 进阶班
])
def test_a_window_sentence_naming_another_case_neither_confirms_nor_refutes_the_claims_case(lexical, answer, status,
                                                                                            evidence):
    source = {"id": "S1", "text": "入门班共4次课，每周六上午上课，学费1200元，含蜂衣、手套和起刮刀的借用。进阶班面向已养蜂满一年的学员，"
                                  "共6次课，学费1800元。2025年入门班学费为1000元。每班不超过10人。",
              "metadata": {"status": "active", "effective_from": "2026-02-20"}}
    (claim,) = lexical.verify(answer, [source]).claims
    assert [(f.status, f.evidence_text) for f in claim.facts] == [(status, evidence)]


def test_a_negation_inside_a_condition_denies_nothing(lexical):
    """"lost if it has not been delivered" states when; a claim without the "not" is no opposite."""
    (claim,) = lexical.verify("An Economy parcel is considered lost after 30 days.", [PARCEL_SOURCE]).claims
    assert claim.label == "supported", claim.reason


def test_chinese_tier_values_bind_to_their_tier(lexical):
    source = {"id": "S1", "text": "标准会员每月可免费提现3次，单笔上限2万元；高级会员每月可免费提现10次，单笔上限5万元。"}
    (claim,) = lexical.verify("标准会员每月可以免费提现10次。", [source]).claims
    assert claim.label == "contradicted"
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [("10次", "3次")]


def test_topic_words_of_the_first_case_do_not_bind_a_claim_to_it(lexical):
    """Later cases leave the topic out ("…文件保留7天；专业版保留30天"): a claim that repeats the
    topic but names no case is not thereby about the first one; a question naming the case
    clears it too."""
    source = {"id": "S1", "text": "免费用户的回收站文件保留7天；专业版保留30天，团队版保留90天。"}
    for question in (None, "我是专业版用户，删掉的文件能找回吗？"):
        (claim,) = lexical.verify("回收站里的文件会保留30天。", [source], question=question).claims
        assert [f.status for f in claim.facts] == ["matched"], question


def test_the_question_keeps_a_later_cases_value_across_sentences(lexical):
    """"幼幼班學費6,600元，兒童班8,400元": the fee word only the first case says does not bind a
    claim to it when the question names the later case, even where the claim's evidence is a
    window of two sentences."""
    source = {"id": "S1", "text": "課程分為幼幼班（4至6歲，每堂60分鐘）與兒童班（7至12歲，每堂90分鐘）。"
                                  "一期12堂，幼幼班學費新台幣6,600元，兒童班新台幣8,400元，均含材料費。"}
    question = "我女兒7歲，第一次報小畫家兒童美學的課，一期總共要繳多少？"
    claims = lexical.verify("7歲要上兒童班，每堂90分鐘。一期12堂，學費新台幣8,400元，含材料費。", [source],
                            question=question).claims
    fee = next(c for c in claims if "8,400" in c.text)
    assert [f.status for f in fee.facts if "8,400" in f.text] == ["matched"]


@pytest.mark.parametrize("source, answer", [
    # A minimum beside a maximum are two slots, not two cases.
    ("We recommend applying at least 3 weeks before travel; applications can be lodged no earlier than 6 months "
     "before the trip.", "You can apply up to six months before your trip."),
    # What follows the claim in its sentence names its neighbour's case, not the claim's.
    ("Returns are allowed up to 29 minutes late without charge; after that, each extra hour is billed at one-third "
     "of the daily rate, and returns more than 3 hours late are charged a full extra day.",
     "You have a 29-minute grace period; after that, every extra hour costs a third of your daily rate, and if "
     "you're more than three hours late you'll be charged another full day."),
])
def test_values_of_other_slots_are_no_rival_cases(lexical, source, answer):
    claim = lexical.verify(answer, [{"id": "S1", "text": source}]).claims[0]
    assert not [f.text for f in claim.facts if f.status == "mismatched"], claim.reason


def test_a_bound_at_the_edge_of_another_value_does_not_confirm_a_plain_value(lexical):
    """"超过60天" bounds the 60-day rule; it does not say things are kept for 90 days."""
    source = {"id": "S1", "text": "洗好的衣物本店免费保管60天，超过60天未取的，按每件每天1元收取保管费。"}
    (claim,) = lexical.verify("洗好的衣服店里可以免费保管90天。", [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [("90天", "60天")]


def test_a_price_for_the_period_is_the_price_per_period(lexical):
    """"£96 for the year" is the yearly price of "£8.50 a month or £96 a year", though the claim's
    sentence names the product the first case leads with."""
    source = {"id": "S1", "text": "Beacon's EV Cover is designed for battery-electric cars and costs £8.50 a month or "
                                  "£96 a year if paid up front."}
    claims = lexical.verify("EV Cover is £8.50 monthly, or you can pay £96 for the year in one go.", [source]).claims
    assert [(f.text, f.status, f.evidence_text) for f in claims[-1].facts] == [("£96 for the year", "matched", "£96 a year")]
    (claim,) = lexical.verify("EV Cover is £96 a month.", [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [("£96 a month", "£8.50 a month")]


def test_an_about_value_is_the_usual_one_not_the_longest(lexical):
    """"一般4小时左右" is the usual time; "最长不超过4小时" is the longest, and the usual is 2 hours."""
    source = {"id": "S1", "text": "降雪当天订单较多，下单后平均响应时间为2小时，最长不超过4小时。"}
    (claim,) = lexical.verify("下雪天下单后，一般4小时左右到。", [source]).claims
    assert claim.label != "supported" and [f.status for f in claim.facts] != ["matched"]
    (claim,) = lexical.verify("下雪天下单后，最多4小时到。", [source]).claims
    assert [(f.status, f.evidence_text) for f in claim.facts] == [("matched", "不超过4小时")]


def test_a_bound_without_the_claims_period_does_not_confirm_a_price_per_period(lexical):
    """"up to $2,000" is the cover, not the premium: "$19 a month" is set against the monthly prices."""
    source = {"id": "S1", "text": "Contents insurance is compulsory and costs $9 per month for cover up to $2,000, or "
                                  "$15 per month for cover up to $5,000."}
    (claim,) = lexical.verify("$5,000 of cover is $19 a month.", [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [("$19 a month", "$15 per month")]
    (claim,) = lexical.verify("$5,000 of cover is $15 a month.", [source]).claims
    assert claim.label == "supported", claim.reason


def test_the_next_sentence_may_give_the_claims_case_its_own_value(lexical):
    """Binding reads a window of sentences too, when the claim itself names the other case."""
    source = {"id": "S1", "text": "A pre-purchase timber pest inspection from Redcliffe Termite & Pest costs $320 for a "
                                  "standard house and includes a written report within 24 hours. Annual termite "
                                  "inspections for existing homeowners are $220."}
    (claim,) = lexical.verify("Annual termite inspections cost $320.", [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [("$320", "$220")]
    (claim,) = lexical.verify("A pre-purchase inspection costs $320.", [source]).claims
    assert [f.status for f in claim.facts] == ["matched"]


def test_a_page_topic_in_the_first_sentence_does_not_bind_a_later_sentences_value(lexical):
    """"青禾" leads the page's first sentence as its topic: the package price in the next sentence
    is still the package's, though the claim carries 青禾 as its subject."""
    source = {"id": "S1", "text": "青禾驾校为已取得驾照的学员提供陪练服务，每次陪练2小时，收费260元。购买5次陪练套餐的，总价1150元。"}
    claims = lexical.verify("青禾的陪练一次两个小时，收260元；买五次的套餐一共1150元。", [source]).claims
    assert [f.status for f in claims[-1].facts] == ["matched", "matched"], claims[-1].reason
    (claim,) = lexical.verify("青禾的陪练一次收1150元。", [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [("1150元", "260元")]


SESSIONS = {"id": "S1", "text": "Appointments run from 1 February to 15 April 2027 at the Harlow Library and the Eastgate "
                                "Community Centre. Harlow Library sessions are on Tuesdays and Saturdays; Eastgate "
                                "sessions are on Wednesday evenings only."}


DEADLINES = {"id": "S1", "text": "The early deadline is 31 January 2027, the regular deadline is 15 April 2027 and the late "
                                 "deadline is 15 May 2027. Late-deadline fees are higher than regular fees."}
COURSE = {"id": "S1", "text": "The next course runs over five Saturdays from 16 January to 13 February 2027. Bookings "
                              "close on 4 January 2027 or when the 12 places are filled. A pre-course swim test is "
                              "held on 9 January 2027."}
GRANT = {"id": "S1", "text": "116年度受理申請期間為116年1月2日起至116年6月30日止，請向區公所提出申請。申請後由評估人員於30日內"
                             "到府評估，核定後須於116年11月30日前完成施工並檢據核銷。"}


@pytest.mark.parametrize("source, answer, values", [
    # A date belongs to its case as a number does; "Eastgate" starting its clause is the name
    # the first sentence uses mid-sentence, and the weekdays themselves name no case.
    (SESSIONS, "The Eastgate Community Centre runs sessions on Tuesdays and Saturdays.", [("Tuesdays", "Wednesday")]),
    (SESSIONS, "Harlow Library runs sessions on Tuesdays and Saturdays.", []),
    (SESSIONS, "Eastgate sessions are on Wednesday evenings.", []),
    # Cut first at "and", the early and regular deadlines share a group; each is still its own case,
    # and the months of the dates name none.
    (DEADLINES, "The regular deadline is 15 May 2027.", [("15 May 2027", "15 April 2027")]),
    (DEADLINES, "The late deadline is 15 May 2027.", []),
    (DEADLINES, "The early deadline is 31 January 2027.", []),
    # The date is the source's, but in a clause about something else; the clause naming the
    # claim's slot gives another (the end of a period, for a deadline).
    (COURSE, "Bookings close on 9 January 2027.", [("9 January 2027", "4 January 2027")]),
    (GRANT, "116年度的申請截止日是116年11月30日。", [("116年11月30日", "116年6月30日")]),
    (COURSE, "Bookings close on 4 January 2027.", []),
    (COURSE, "The swim test is on 9 January 2027.", []),
    (GRANT, "核定後要在116年11月30日前完成施工。", []),
])
def test_a_date_belongs_to_the_case_or_slot_the_source_gives_it_for(lexical, source, answer, values):
    (claim,) = lexical.verify(answer, [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == values


def test_a_time_of_day_is_no_rival_case_for_a_day_of_the_week(lexical):
    hours = {"id": "S1", "text": "Gates open at 10 a.m.; closing time is 6 p.m. on weekdays and 9 p.m. on Saturdays "
                                 "and Sundays."}
    (claim,) = lexical.verify("It's open that Saturday from 10 in the morning until 9 at night.", [hours]).claims
    assert [f.text for f in claim.facts if f.status == "mismatched"] == []


@pytest.mark.parametrize("text, answer", [
    # Each sentence's lead is its own subject (年卡), not a case of the claim's.
    ("洁驰洗车年卡会员权益：每自然月可享标准精洗4次，当月未使用的次数不累积到下月。年卡绑定一个车牌，如需更换绑定车牌，每年可免费变更1次。",
     "年卡每个月可以做四次标准精洗。"),
    # The groups end with their values' sentences: the price list before names no pick-up case.
    ("洁雅洗衣价目：羽绒服（短款）干洗35元，羽绒服（长款）干洗45元。普通衣物取件时间为收衣后3天，羽绒服、大衣类为5天。",
     "羽绒服一般收衣后五天可以取。"),
])
def test_a_window_of_sentences_binds_no_value_to_a_subject(lexical, text, answer):
    claim = lexical.verify(answer, [{"id": "S1", "text": text}]).claims[0]
    assert not [f.text for f in claim.facts if f.status == "mismatched"], claim.reason


def test_a_claim_with_two_values_in_one_clause_is_not_rebound(lexical):
    source = {"id": "S1", "text": "Operating margin was 18.5%, compared with 16.9% in the prior-year quarter."}
    (claim,) = lexical.verify("Operating margin improved to 18.5% from 16.9%.", [source]).claims
    assert {f.status for f in claim.facts} == {"matched"}


def test_a_tier_list_binds_each_attribute_to_its_tier(lexical):
    """Each tier lists several values ("…20GB；超级会员……50GB"); a claim cut from an answer
    sentence about one tier takes that tier from its sentence."""
    source = {"id": "S1", "text": "普通会员每月12元，存储空间2TB，单文件上传上限20GB；"
                                  "超级会员每月25元，存储空间5TB，单文件上传上限50GB。"}
    claims = lexical.verify("普通会员每月12元，单个文件最多可以上传50GB。", [source]).claims
    upload = next(c for c in claims if "50GB" in c.text)
    assert upload.label == "contradicted"
    assert [(f.text, f.evidence_text) for f in upload.facts if f.status == "mismatched"] == [("50GB", "上限20GB")]
    right = lexical.verify("超级会员每月25元，单个文件最多可以上传50GB。", [source]).claims
    assert all(f.status == "matched" for c in right for f in c.facts)


def test_a_bare_number_matches_the_same_value_with_its_unit(lexical):
    # "at least 17" is the age the source states in years; the parenthetical 16 is another case.
    source = {"id": "S1", "text": "Donors must be at least 17 years old (16 with parental consent) and weigh at least "
                                  "110 pounds."}
    (claim,) = lexical.verify("Donors must be at least 17 (or 16 with parental consent).", [source]).claims
    assert [(f.text, f.status, f.evidence_text) for f in claim.facts] == [
        ("at least 17", "matched", "at least 17 years"), ("16", "matched", "16")]


def test_a_value_whose_unit_a_list_leaves_implied_still_matches(lexical):
    source = {"id": "S1", "text": "Free night awards cost 15,000 points at Category 1 hotels, 25,000 at Category 2 "
                                  "and 40,000 at Category 3."}
    (claim,) = lexical.verify("A free night at a Category 3 hotel costs 40,000 points.", [source]).claims
    assert [(f.text, f.status, f.evidence_text) for f in claim.facts if f.kind == "number"] == [
        ("40,000 points", "matched", "40,000")]


@pytest.mark.parametrize("answer, source, evidence", [
    ("兌換一晚海景客房需要45,000分。", "積分兌換免費住宿：標準客房每晚需30,000分，海景客房每晚需45,000分。", "每晚"),
    ("One night at a Category 3 hotel costs 40,000 points.", "Category 3 hotels cost 40,000 points per night.",
     "per night"),
    ("清运一件沙发收费50元。", "床垫、沙发每件收费50元。", "每件"),
])
def test_one_unit_is_what_a_rate_per_unit_prices(lexical, answer, source, evidence):
    (claim,) = lexical.verify(answer, [{"id": "S1", "text": source}]).claims
    one = next(f for f in claim.facts if f.value["value"] in (1, "1"))
    assert (one.status, one.evidence_text) == ("matched", evidence)


def test_a_bound_is_found_in_the_value_stating_its_number(lexical):
    source = {"id": "S1", "text": "4.2米厢式货车起步价500元，起步价包含2名搬运工、10公里运输和首层装卸。"}
    (claim,) = lexical.verify("起步价含十公里以内的运输。", [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts] == [("十公里以内", "10公里")]


def test_one_unit_is_not_found_in_a_rate_for_another_unit(lexical):
    (claim,) = lexical.verify("兌換一晚需要45,000分。", [{"id": "S1", "text": "兌換住宿每週需45,000分。"}]).claims
    assert [f.status for f in claim.facts if f.text == "一晚"] == ["missing"]


def test_a_short_form_of_a_common_name_is_found_in_its_long_form(lexical):
    (claim,) = lexical.verify("新能源车可以打五折。", [{"id": "S1", "text": "新能源汽车月卡费用减半。"}]).claims
    assert [(f.text, f.status, f.evidence_text) for f in claim.facts] == [
        ("新能源车", "matched", "新能源汽车"), ("五折", "matched", "减半")]
    (claim,) = lexical.verify("新能源车可以打五折。", [{"id": "S1", "text": "燃油汽车月卡费用减半。"}]).claims
    assert [f.status for f in claim.facts if f.kind == "entity"] == ["missing"]


def test_a_name_with_a_count_in_chinese_numerals_is_found_in_digits(lexical):
    source = {"id": "S1", "text": "每次上门约2小时，做3菜1汤，适合2至4人家庭。"}
    (claim,) = lexical.verify("每次上门做三菜一汤。", [source]).claims
    assert [(f.text, f.status) for f in claim.facts if f.kind == "entity"] == [("三菜", "matched")]
    other = {"id": "S1", "text": "每次上门约2小时，做4菜1汤，适合2至4人家庭。"}
    (claim,) = lexical.verify("每次上门做三菜一汤。", [other]).claims
    assert [(f.text, f.status) for f in claim.facts if f.kind == "entity"] == [("三菜", "missing")]


def test_a_whole_sentence_is_read_with_the_values_of_all_its_parts(lexical):
    prepared = lexical.prepare({"answer": "经典参观一场大概一个半小时，还能品三款酒。",
                                "sources": [{"id": "S1", "text": "经典参观每场约1.5小时，包括三款葡萄酒品鉴。"}]})
    assert len(prepared.claims) == 2
    sentence_pairs = prepared.pairs()[1::2]  # (evidence, whole sentence) after each part's own pair
    assert sentence_pairs and all("1.5小时" in hypothesis for _, hypothesis in sentence_pairs)


def test_a_name_with_a_neighbouring_word_glued_on_is_found(lexical):
    # LAC reads "行元朗同屯門" (goes Yuen Long and Tuen Mun) with 行 and 同 inside the name.
    (claim,) = lexical.verify("校車行元朗同屯門兩條線。", [{"id": "S1", "text": "營地提供元朗及屯門兩條校車路線。"}]).claims
    names = [(f.text, f.status) for f in claim.facts if f.kind == "entity"]
    assert names and all(status == "matched" for _, status in names), names


def test_you_also_names_no_one_the_evidence_must_name(lexical):
    source = {"id": "S1", "text": "Donors must feel well on the day. Bring a photo ID to every donation."}
    (claim,) = lexical.verify("You'll also need to bring a photo ID to every donation.", [source]).claims
    assert claim.label == "supported", claim.reason


@pytest.mark.parametrize("answer, source", [
    # The negation sits inside the condition: it states when, and denies nothing.
    ("If you can't make the new date, refunds are available on request within 30 days of the announcement.",
     "If an event is rescheduled, refunds are available on request within 30 days of the announcement."),
    # "Where" states a condition as "if" does; its negation is no denial of what follows.
    ("If your ducts have no access panels, they'll fit them at £65 each.",
     "Where ducts have no access panels, we fit them at £65 each."),
    # The source denies the other side of the claim's bound.
    ("损失率超过20%才会赔付。", "损失率在20%以下的不予赔付，超过20%的按损失率乘以保险金额计算赔款。"),
    # 非 as the prefix "non-" negates nothing.
    ("外地户籍还要提供居住证。", "非本市户籍的还须提供有效居住证。"),
])
def test_no_opposite_where_the_negation_is_a_condition_or_the_other_side(lexical, answer, source):
    (claim,) = lexical.verify(answer, [{"id": "S1", "text": source}]).claims
    assert claim.label != "contradicted", claim.reason


def test_refunded_against_not_refundable_is_an_opposite(lexical):
    source = {"id": "S1", "text": "Tuition is refunded if the visa is refused. The $300 application fee is not "
                                  "refundable in any circumstances."}
    claims = lexical.verify("The $300 application fee is refunded as well.", [source]).claims
    assert claims[0].label == "contradicted", claims[0].reason


def test_months_of_rent_are_an_amount_not_a_duration(lexical):
    source = {"id": "S1", "text": "The early termination fee is one month's rent if the lease has more than six "
                                  "months remaining, and half a month's rent if it has six months or less."}
    (claim,) = lexical.verify("With more than six months left, the early termination fee is two months' rent.",
                              [source]).claims
    assert claim.label == "contradicted"
    assert ("two months' rent", "one month's rent") in [(f.text, f.evidence_text) for f in claim.facts]


@pytest.mark.parametrize("answer, label", [
    ("金卡会员最晚可以在下午两点退房，还可以享受免费早餐。", "partial"),  # breakfast is the 钻石会员's
    ("钻石会员最晚可以在下午四点退房，还可以享受双人免费早餐。", "supported"),
])
def test_also_gives_the_tier_only_what_its_own_part_of_the_sentence_says(lexical, answer, label):
    source = {"id": "S1", "text": "钻石会员可享受双人免费早餐及最晚下午4点退房；金卡会员可享受最晚下午2点退房。"}
    claims = lexical.verify(answer, [source]).claims
    assert [c.label for c in claims] == ["supported", label], [c.reason for c in claims]


@pytest.mark.parametrize("answer, values", [
    ("本场演出的主办单位是乐途票务。", [("乐途票务", "杭州映像文化传媒有限公司")]),
    ("票务总代理是乐途票务。", []),
    ("The organiser is TicketHub.", [("TicketHub", "Northlight Events Ltd")]),
    ("The box office is TicketHub.", []),
])
def test_a_value_listed_under_another_label_is_a_mismatch(lexical, answer, values):
    sources = [{"id": "S1", "text": "演出场馆：杭州奥体中心体育馆。主办单位：杭州映像文化传媒有限公司；票务总代理：乐途票务。"},
               {"id": "S2", "text": "Venue: Harbour Arena. Organiser: Northlight Events Ltd; Box office: TicketHub."}]
    (claim,) = lexical.verify(answer, sources).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == values
    assert (claim.label == "contradicted") == bool(values)
    for f in claim.facts:
        assert answer[f.start:f.end] == f.text


def test_a_value_the_claim_states_for_another_item_is_no_rival(lexical):
    source = {"id": "S1", "text": "In Zone 1, calls cost $0.25 per minute for both outgoing and incoming calls. "
                                  "In Zone 2, calls cost $1.50 per minute, incoming or outgoing."}
    (claim,) = lexical.verify("Incoming calls cost $0.25 a minute in Zone 1 and $1.50 a minute in Zone 2.",
                              [source]).claims
    assert [f.status for f in claim.facts if f.kind == "number"] == ["matched", "matched"]


@pytest.mark.parametrize("answer, status", [
    ("Drop-in classes are $20 each.", "missing"),  # the only $20 is a saving
    ("Students get $20 off the term price.", "matched"),
    ("Students pay $20 less for a term.", "matched"),
])
def test_an_amount_off_is_no_price(lexical, answer, status):
    source = {"id": "S1", "text": "A full term costs $150. Students and over-65s receive $20 off the term price."}
    (claim,) = lexical.verify(answer, [source]).claims
    assert [f.status for f in claim.facts if f.text.startswith("$20")] == [status]


def test_a_share_off_is_what_a_share_below_says(lexical):
    source = {"id": "S1", "text": "If your child loves a toy, you can buy it at 30% off the retail price."}
    (claim,) = lexical.verify("You can keep a toy by buying it at 30% below retail.", [source]).claims
    assert [(f.text, f.status) for f in claim.facts if f.kind == "number"] == [("30%", "matched")]


@pytest.mark.parametrize("answer, values", [
    ("在HR系统提交申请后，由部门HRBP审批。", [("HRBP", "直属主管")]),
    ("在HR系统提交申请后，由直属主管审批。", []),
    ("审批通过后由部门HRBP备案。", []),
    ("审批通过后由直属主管备案。", [("直属主管", "HRBP")]),
])
def test_a_role_is_checked_against_the_role_that_does_the_same(lexical, answer, values):
    source = {"id": "S1", "text": "员工在HR系统提交陪产假申请。申请由直属主管审批，审批通过后由所在部门HRBP备案。"}
    (claim,) = lexical.verify(answer, [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == values


@pytest.mark.parametrize("answer, values", [
    # A doer that is no titled role: a department, a contractor, an institute.
    ("报告由合作的金石建筑维修公司签发。", [("合作的金石建筑维修公司", "我公司技术部")]),
    ("报告由技术部签发。", []),
    # The contractor does something else here (报价), which says nothing of who signs.
    ("烟道维修由合作的金石建筑维修公司报价。", []),
    ("电梯每年一次的定期检验由负责维保的公司实施。", [("负责维保的公司", "市特种设备检验研究院")]),
    ("电梯每年一次的定期检验由市特种设备检验研究院实施。", []),
    # A deadline may stand between the doer and the action; the other team handles another matter.
    ("还没到账就提交订单截图，由账号安全组在24小时内处理。", [("账号安全组", "充值支付组")]),
    ("还没到账就提交订单截图，由充值支付组在24小时内处理。", []),
])
def test_who_does_an_action_is_checked_against_who_does_it_in_the_source(lexical, answer, values):
    source = {"id": "S1", "text": "清扫后出具的服务报告由我公司技术部签发，可用于物业消防检查备案。烟道如需维修，由合作的金石建筑维修公司"
                                  "另行报价。电梯的定期检验每年一次，须由市特种设备检验研究院实施。仍未到账的，提交订单截图，"
                                  "由充值支付组在24小时内处理。账号被盗问题由账号安全组处理。"}
    # (a contradicted claim may be read again in pieces: the mismatch is the piece's that names the doer)
    claims = lexical.verify(answer, [source]).claims
    assert [(f.text, f.evidence_text) for c in claims for f in c.facts if f.status == "mismatched"] == values


@pytest.mark.parametrize("answer, values", [
    # Two units of one body share its name; their own names differ (安保 / 运维).
    ("设备入场要由数据中心的安保部审批。", [("数据中心的安保部", "数据中心运维部")]),
    ("设备入场由数据中心运维部审批。", []),
    ("设备入场由运维部审批。", []),
])
def test_units_of_one_body_are_told_apart_by_their_own_names(lexical, answer, values):
    source = {"id": "S1", "text": "客户设备入场须提前1个工作日通过客户门户提交申请，由数据中心运维部审批。"
                                  "客户人员进入机房须持本人身份证，并由安保部核验登记。"}
    (claim,) = lexical.verify(answer, [source]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == values


@pytest.mark.parametrize("answer, values", [
    # Who processes an application (English, active or passive), where a return is sent or a
    # request filed (Chinese).
    ("Soundhaven processes the application itself.", [("Soundhaven", "State Hearing Office")]),
    ("Your application will be processed by the State Hearing Office.", []),
    ("The State Hearing Office processes applications within 15 business days.", []),
    ("网店的退货请寄回上海门店。", [("上海门店", "我司位于苏州吴中区的退货仓")]),
    ("网店的退货请寄回我们的退货仓。", []),
    ("补助申请须检具收据向清音听觉中心提出。", [("清音听觉中心", "所在区公所社会课")]),
    ("补助申请须检具收据向区公所社会课提出。", []),
    # Who issues a certificate: the sentence the claim rests on ("the school runs the course")
    # names no issuer; the one that says who issues it decides.
    ("考试合格后由金焊职业培训学校直接发特种作业操作证。", [("金焊职业培训学校", "市应急管理局")]),
    ("考试合格后由市应急管理局核发特种作业操作证。", []),
])
def test_who_processes_and_where_it_goes_are_checked(lexical, answer, values):
    text = "金焊职业培训学校开设熔化焊接与热切割作业（特种作业操作证）培训。培训课时不少于100学时。理论和实操考试由市应急" \
        "管理局组织，考试合格后由市应急管理局核发特种作业操作证，有效期6年。" if "特种作业" in answer else \
        "Applications are processed by the State Hearing Office, usually within 15 business days. " \
        "墨韵网店的退货请寄回我司位于苏州吴中区的退货仓。补助申请须检具收据，向所在区公所社会课提出。"
    source = {"id": "S1", "text": text}
    (claim,) = lexical.verify(answer, [source]).claims
    doers = [f for f in claim.facts if f.kind == "qualifier" and f.value["slot"] == "agent"]
    assert doers, "the claim's doer is found"
    assert [(f.text, f.evidence_text) for f in doers if f.status == "mismatched"] == values
    assert (claim.label == "contradicted") == bool(values)


def test_a_pronoun_is_no_doer():
    from extractors.roles import find_agents

    assert find_agents("claims go to northgate, which processes them within 30 days") == []
    assert find_agents("we review every request") == []
    assert find_agents("an adjuster will assess your claim") == [("review:adjuster", 3, 11)]


def test_two_steps_are_two_doers():
    from extractors.roles import find_agents

    assert find_agents("由直属主管审批后交财务部办理") == []
    assert find_agents("须由市特种设备检验研究院实施") == [("实施:市特种设备检验研究院", 2, 12)]


def test_issuing_said_several_ways_is_one_action():
    from extractors.roles import agents_agree, find_agents

    ((school, *_),) = find_agents("考试合格后由金焊职业培训学校直接发特种作业操作证")
    ((bureau, *_),) = find_agents("考试合格后由市应急管理局核发特种作业操作证")
    assert (school, bureau) == ("发:金焊职业培训学校", "发:市应急管理局")
    assert not agents_agree(school, bureau)


def test_where_a_thing_is_taken_is_the_place_not_what_is_inside_it():
    from extractors.roles import agents_agree

    assert agents_agree("submit:站里", "submit:站点")
    assert not agents_agree("submit:仓库里", "submit:门店")


def test_a_value_of_another_fee_is_no_rival(lexical):
    """"每门课学费500元，咖啡拉花另收材料费200元": the course named beside 200元 is its materials
    fee; its tuition is every course's 500元."""
    source = {"id": "S1", "text": "每门课学费500元，咖啡拉花另收材料费200元。"}
    facts = {f.text: f for f in lexical.verify("咖啡拉花学费500元。", [source]).claims[0].facts if f.kind == "number"}
    assert (facts["500元"].status, facts["500元"].evidence_text) == ("matched", "500元")
    facts = {f.text: f for f in lexical.verify("咖啡拉花材料费500元。", [source]).claims[0].facts
             if f.kind == "number"}
    assert (facts["500元"].status, facts["500元"].evidence_text) == ("mismatched", "200元")


@pytest.mark.parametrize("answer, values", [
    # Each price's case follows it: "for adults" names £22, not the £11 after it.
    ("A 24-hour adult ticket costs £20.", [("£20", "£22")]),
    ("A 24-hour ticket for children costs £12.", [("£12", "£11")]),
    ("A 24-hour adult ticket costs £22.", []),
])
def test_a_case_after_its_value_names_that_value(lexical, answer, values):
    source = {"id": "S1", "text": "A 24-hour ticket covers one route of your choice and costs £22 for adults and £11 for "
                                  "children aged 5 to 15; children under 5 travel free."}
    claim = lexical.verify(answer, [source]).claims[0]
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == values


def test_a_pair_is_a_case_of_its_own():
    """"一对" is a pair, not the preposition 对: the claim's pair price stays with the pair."""
    from extractors.tokens import content_tokens

    assert "一对" in content_tokens("一对耳垂198元") and "对会" not in content_tokens("对会员免费")


def test_the_pair_price_is_not_bound_to_the_single_one(lexical):
    source = {"id": "S1", "text": "耳垂穿孔单只128元、一对198元，均含医用钛钉。"}
    (claim,) = lexical.verify("一对耳垂一百九十八元，包含医用钛钉。", [source]).claims
    assert [(f.text, f.status) for f in claim.facts if f.kind == "number"] == [("一百九十八元", "matched")]
    (single,) = lexical.verify("单只耳垂一百九十八元。", [source]).claims
    assert [(f.text, f.status, f.evidence_text) for f in single.facts if f.kind == "number"] == [
        ("一百九十八元", "mismatched", "128元")]

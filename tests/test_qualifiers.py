"""Qualifiers, negation and number words: the errors that keep every digit right."""

from __future__ import annotations

import pytest

import datetime as dt

from extractors import extract_facts, extract_numbers
from extractors.qualifiers import clauses, find_qualifiers, is_negated, opposite_words, qualifiers_agree
from verifier.canonical import claim_for_span, model_text


@pytest.mark.parametrize("text, expected", [
    ("个人用户的退货期限为15天。", [("customer", "personal", "个人用户")]),
    ("企業客戶適用《企業採購協議》", [("customer", "enterprise", "企業客戶")]),
    ("Home office equipment is reimbursed up to $500 once every 3 years.", [("frequency", "3 years", "every 3 years")]),
    ("每三年可报销一次", [("frequency", "3 years", "每三年")]),
    ("$12 per user per month when billed annually", [("frequency", "month", "per month"),
                                                     ("billing", "annual", "billed annually")]),
    ("an annual subscription of £1,240", [("frequency", "year", "annual subscription")]),
    ("15 days of annual leave", []),  # "annual" alone says nothing of how often a price is paid
    ("海外业务收入增长", [("region", "international", "海外")]),
    ("Gross margin was up from 59.8% a year earlier.", []),
    ("非会员价格", [("membership", "non-member", "非会员")]),
    ("差旅报销单由財務總監审批", [("role", "finance/director", "財務總監")]),
    ("白金卡年费2000元，金卡年费200元", [("tier", "platinum", "白金卡"), ("tier", "gold", "金卡")]),
    ("Platinum cardholders get lounge access", [("tier", "platinum", "Platinum")]),
    ("由所在部门负责人审批，需经总经理批准", [("role", "own unit/lead", "所在部门负责人"), ("role", "executive", "总经理")]),
    ("Approval from your line manager and the CFO.", [("role", "own unit/lead", "line manager"),
                                                      ("role", "finance/executive", "CFO")]),
    ("Post it to head office.", []),
    ("Refunds need approval from store managers.", [("role", "store/lead", "store managers")]),
    ("Data center access is approved by the CISO.", [("role", "security/executive", "CISO")]),
    ("Part-time employees get $300; 试用期员工餐补减半", [("employment", "part-time", "Part-time"),
                                                       ("employment", "probation", "试用期")]),
    # An ordinal is a slot together with what it counts; "first of all" and "the 6th of May" count nothing.
    ("Loyalty card holders get their sixth lift free.", [("ordinal lift", "6", "sixth lift")]),
    ("the 2nd child and later children", [("ordinal child", "2+", "2nd child")]),
    ("第二名孩子学费打八五折，第6次免費", [("ordinal 名", "2", "第二名"), ("ordinal 次", "6", "第6次")]),
    ("First of all, the 6th of May is a holiday; you should first ask the council; 第一，请先预约", []),
    # 首次 is the first; "第二次起" and "the 2nd onwards" are that one and every one after it.
    ("首次免费，第二次起每次收费50元", [("ordinal 次", "1", "首次"), ("ordinal 次", "2+", "第二次起")]),
    ("the 2nd lift onwards is £20", [("ordinal lift", "2+", "2nd lift")]),
    ("on the last Saturday of each month", [("ordinal saturday", "last", "last Saturday"), ("frequency", "month", "each month")]),
])
def test_qualifiers_are_found_with_offsets(text, expected):
    found = find_qualifiers(text)
    assert [(q.slot, q.value, q.text) for q in found] == expected
    assert all(text[q.start:q.end] == q.text for q in found)


@pytest.mark.parametrize("a, b, agree", [
    ("own unit/lead", "lead", True),          # "your manager" / "your line manager"
    ("own unit/lead", "own unit/lead", True),  # 部门经理 / 部门负责人 / 直属上级
    ("finance/director", "own unit/lead", False),
    ("finance/director", "hr/director", False),
    ("director", "executive", False),
])
def test_roles_agree_on_rank_and_any_stated_domain(a, b, agree):
    assert qualifiers_agree("role", a, b) is agree
    assert qualifiers_agree("customer", "personal", "personal")


@pytest.mark.parametrize("a, b, agree", [("3", "2+", True), ("2+", "3", True), ("1", "2+", False), ("5", "6", False),
                                         ("6", "6", True)])
def test_ordinals_agree_on_the_same_position_or_one_from_a_position_on(a, b, agree):
    assert qualifiers_agree("ordinal 次", a, b) is agree


@pytest.mark.parametrize("text, negated", [
    ("Sick leave does not carry over.", True),
    ("You don't need a credit card.", True),
    ("Gift cards are non-refundable.", True),
    ("客製化商品恕不接受退貨", True),
    ("无需提供发票", True),
    ("客製化商品也可以退貨", False),
    ("每人每晚不超过600元", False),
    ("Claims of no more than $500 are approved at once.", False),
    ("Each piece costs 3% of its retail price a month, but never less than C$40.", False),
    ("It includes a bottle of no-rinse steriliser.", False),
    ("A covered flight costs him nothing beyond what his insurance pays.", False),
    ("支持7天无理由退货", False),
    ("Nonetheless, refunds are issued.", False),
    ("不仅退款，还补偿运费", False),
    # Bounds and "free" said with a negation word deny nothing.
    ("单次提前还款不能少于5万元", False),
    ("这束花不满199元，要付配送费", False),
    ("There's no charge for personal study", False),
    ("Loaner knives are available so your kitchen is never without blades.", False),  # two negations affirm
    ("They'll keep the original soundtrack without charging extra.", False),  # says "free", as "no extra cost" does
    ("Tyres are fitted without charge.", False),
    ("Walk-ins are seen without an appointment.", True),
    ("佢哋唔收手續費", True),  # Cantonese 唔 = 不
    ("呢度冇得泊車", True),  # 冇 = 没有
    ("唔該你帶埋身份證", False),  # 唔該: please
    ("Get someone else to fetch it rather than leaving the person alone.", True),
    ("The workshop would be £119 instead of £140.", False),
    ("術前諮詢和頭皮檢測都不用錢", False),  # 不用錢 says 免費
    ("存活率未達九成者可免費補植", False),  # a bound
    ("不记名卡丢了可以挂失补办", False),  # 不记名卡: a bearer card, a name
    ("不记名卡不挂失、不补办", True),
    ("做完24小时内别沾水", True),  # 别: "don't", as 勿
    ("特别注意防水", False), ("分别收费", False), ("别墅区另收上门费", False),
    ("groups never exceed six dogs", False), ("We never share your data", True),  # "never exceed": a cap
])
def test_negation_cues(text, negated):
    assert is_negated(text) is negated


def test_clauses_cut_at_clause_punctuation():
    text = "Gift cards are final. Shipping is free; otherwise $6.95 is deducted, or $3 with a code"
    assert [text[a:b] for a, b in clauses(text)] == [
        "Gift cards are final", "Shipping is free", " otherwise $6.95 is deducted", "$3 with a code"]


def test_or_more_after_a_number_is_one_bound_not_two_clauses():
    text = "Groups of 20 or more can book a private table, or hire the room"
    assert [text[a:b] for a, b in clauses(text)] == ["Groups of 20 or more can book a private table", "hire the room"]
    text = "Flights of 6 hours or longer, or by sea"
    assert [text[a:b] for a, b in clauses(text)] == ["Flights of 6 hours or longer", "by sea"]


def test_and_starts_a_clause_only_before_a_modal():
    text = "Passwords must be 14 characters long and must not be reused. Gift cards and software are final"
    assert [text[a:b] for a, b in clauses(text)] == [
        "Passwords must be 14 characters long", "must not be reused", "Gift cards and software are final"]


def test_a_negation_in_the_next_conjunct_is_no_opposite(lexical):
    source = {"id": "S1", "text": "Passwords must be at least 14 characters long and must not reuse any of the "
                                  "last 10 passwords."}
    assert _claim(lexical.verify("Passwords need at least 14 characters.", [source])).label == "supported"
    assert _claim(lexical.verify("Passwords can reuse any of the last 10 passwords.", [source])).label == "contradicted"


@pytest.mark.parametrize("answer, source, label", [
    # The negation bears on something the claim does not say.
    ("You can cancel a monthly plan at any time.", "Monthly plans can be cancelled at any time with no penalty.",
     "supported"),
    ("You can cancel a monthly plan at any time.", "Monthly plans cannot be cancelled at any time.", "contradicted"),
    ("客製化商品可以接受退貨", "客製化商品恕不接受退貨", "contradicted"),
])
def test_a_negation_counts_where_it_bears_on_the_claim(lexical, answer, source, label):
    assert _claim(lexical.verify(answer, [{"id": "S1", "text": source}])).label == label


def test_english_number_words_are_numbers_and_reach_the_model_as_digits():
    facts = extract_numbers("Reports are due within thirty-five days; one of them is late.")
    assert [(f.text, f.value.value, f.value.unit) for f in facts] == [("within thirty-five days", 35, "day")]
    text = "Reports are due within thirty-five days."
    assert model_text(text, extract_numbers(text)) == "Reports are due within 35 days."


@pytest.mark.parametrize("text, expected", [
    ("There's no charge as long as it's for personal study", "It is free as long as it's for personal study"),
    ("Rooms are free of charge for personal study", "Rooms are free for personal study"),
    ("訂位後在入營14天前取消都不用錢", "訂位後在入營14天前取消都免費"),
    ("超过30天不收费", "超过30天免费"),
    ("There is no refund", "There is no refund"),
])
def test_free_reaches_the_model_in_one_wording(text, expected):
    # The model reads "no charge" as a negation: against "free of charge" it scored 0.98 contradiction.
    assert model_text(text, []) == expected


def test_a_lone_chinese_numeral_reaches_the_model_as_written():
    # "兌換1晚" read as a different claim to the model; "三百元" still reads as 300.
    text = "兌換一晚海景客房需要四萬五千積分，年费三百元"
    assert model_text(text, extract_numbers(text)) == "兌換一晚海景客房需要45000積分，年费300元"
    # 千 before 瓦/克/米 is "kilo": "2760千瓦时" is not 2,760,000 瓦时.
    text = "年用电量0-2760千瓦时（含），重量不超过二十千克"
    assert model_text(text, extract_numbers(text)) == "年用电量0-2760千瓦时（含），重量不超过20千克"


@pytest.mark.parametrize("claim, span, expected", [
    ("You have two weeks to pay the deposit", "Pay the deposit within 14 days.",
     "You have within 14 days to pay the deposit"),
    ("錄取後一週內登記", "錄取生須於7天內登記", "錄取後7天內登記"),
    ("交付以后半个月内可以免费修改", "交付后15天内可免费修改", "交付以后15天内可以免费修改"),
    ("交付以后半个月内可以免费修改", "交付后10天内可免费修改", "交付以后半个月内可以免费修改"),
    ("It takes one to one and a half months", "It takes 4 to 6 weeks.", "It takes 4 to 6 weeks"),
    # (31 days fits a month, but is no usual way to write one: the model judges the words)
    ("You can return it within a month", "Returns are accepted within 31 days.", "You can return it within a month"),
    ("Applications are due 15 January 2027", "The deadline is January 15, 2027.",
     "Applications are due January 15, 2027"),
    # Another value, or a limit the claim does not state, is left for the checks to judge.
    ("The fee is 300 dollars", "The fee is up to $500.", "The fee is 300 dollars"),
    ("The deposit is due in 10 days", "Pay the deposit within 14 days.", "The deposit is due in 10 days"),
    ("金卡年费三百元", "金卡年费二百元", "金卡年费300元"),
    # A bound word said a few words before the value: the value reads as the span's number.
    ("监火人还得在现场至少守半个小时", "监火人须在现场继续观察至少30分钟", "监火人还得在现场至少守30分钟"),
    ("监火人还得在现场守半个小时", "监火人须在现场继续观察至少30分钟", "监火人还得在现场守半个小时"),
    # A month at either end of a period is its first or last day, as the span writes them.
    ("Surveys can only be done between May and August", "Surveys can only be carried out between 1 May and 31 August.",
     "Surveys can only be done between 1 May and 31 August"),
    ("Surveys can only be done between May and August", "Surveys can only be carried out between 12 May and 20 August.",
     "Surveys can only be done between May and August"),
    # A bare number word becomes digits only when the span states those digits.
    ("You can't reuse any of your previous ten", "Do not reuse any of the last 10 passwords.",
     "You can't reuse any of your previous 10"),
    ("You can't reuse any of your previous ten", "Do not reuse any of the last 12 passwords.",
     "You can't reuse any of your previous ten"),
])
def test_the_model_reads_a_value_in_the_evidence_words_only_when_equal(claim, span, expected):
    def facts(text):
        return [f for f in extract_facts(text, as_of=dt.date(2026, 11, 30)) if f.kind in ("number", "date")]
    assert claim_for_span(claim, facts(claim), facts(span), span) == expected


def _claim(report):
    assert len(report.claims) == 1
    return report.claims[0]


@pytest.mark.parametrize("source, answer, mine, theirs", [
    ("个人用户自签收之日起7天内可申请退货。企业客户适用《企业采购协议》，退货期限为15天。", "个人用户的退货期限为15天。",
     "个人用户", "企业客户"),
    ("员工提交差旅报销单后，由所在部门负责人审批，财务部复核票据。", "差旅报销单由财务总监审批。", "财务总监", "所在部门负责人"),
    # (With a value per group, "$300 for part-time employees", the value itself is the mismatch:
    # tests/test_engine.py, test_a_value_belongs_to_the_case_the_sentence_gives_it_for.)
    ("The annual wellness stipend of $600 is paid to full-time employees.",
     "Part-time employees receive an annual wellness stipend of $600.", "Part-time", "full-time"),
    ("金卡年费200元，刷卡满6次免次年年费；白金卡年费2000元，可用积分兑换抵扣年费。", "金卡可以用积分兑换抵扣年费。",
     "金卡", "白金卡"),
])
def test_a_rule_for_someone_else_is_a_contradiction_naming_both(lexical, source, answer, mine, theirs):
    claim = _claim(lexical.verify(answer, [{"id": "S1", "text": source}]))
    assert claim.label == "contradicted"
    qualifier = next(f for f in claim.facts if f.kind == "qualifier")
    assert (qualifier.status, qualifier.text, qualifier.evidence_text) == ("mismatched", mine, theirs)
    assert mine in claim.reason and theirs in claim.reason


@pytest.mark.parametrize("source, answer", [
    ("员工提交差旅报销单后，由所在部门负责人审批，财务部复核票据。", "差旅报销单由部门经理审批。"),  # the same approver
    ("The annual wellness stipend is $600 for full-time employees and $300 for part-time employees.",
     "Part-time employees receive an annual wellness stipend of $300."),
])
def test_the_same_qualifier_in_other_words_is_supported(lexical, source, answer):
    assert _claim(lexical.verify(answer, [{"id": "S1", "text": source}])).label == "supported"


def test_the_sentence_that_states_the_claim_decides_the_role(lexical):
    source = {"id": "S1", "text": "Badges must be worn on site. Access to the data center requires approval from "
                                  "the Facilities Manager. USB drives need an exception approved by the CISO."}
    claim = _claim(lexical.verify("Access to the data center requires approval from the CISO.", [source]))
    assert claim.label == "contradicted"
    assert "CISO" in claim.reason and "Facilities Manager" in claim.reason


def test_frequency_is_checked_next_to_the_amount(lexical):
    source = {"id": "S1", "text": "Home office equipment is reimbursed up to $500 once every 3 years."}
    claim = _claim(lexical.verify("You can expense up to $500 for home office equipment every year.", [source]))
    assert claim.label == "contradicted"
    assert "every year" in claim.reason and "every 3 years" in claim.reason


def test_billing_period_is_bound_to_its_own_price(lexical):
    source = {"id": "S1", "text": "The Starter plan costs $12 per user per month when billed annually, "
                                  "or $15 per user per month billed monthly."}
    wrong = _claim(lexical.verify("Starter costs $12 per user per month billed monthly.", [source]))
    assert wrong.label == "contradicted"
    assert "billed annually" in wrong.reason
    right = _claim(lexical.verify("Starter costs $15 per user per month billed monthly.", [source]))
    assert right.label == "supported"


def test_affirming_what_the_source_negates_is_contradicted(lexical):
    source = {"id": "S1", "text": "訂單滿新台幣1,000元免運費。客製化商品、已拆封之個人衛生用品恕不接受退貨。"}
    claim = _claim(lexical.verify("客製化商品也可以退貨。", [source]))
    assert claim.label == "contradicted"
    assert claim.evidence[0].relation == "contradicts"
    assert "恕不接受退貨" in claim.evidence[0].text


def test_a_bound_is_not_a_negation(lexical):
    source = {"id": "S1", "text": "员工出差住宿标准：一线城市每人每晚不超过600元。"}
    claim = _claim(lexical.verify("一线城市住宿标准为每人每晚600元以内。", [source]))
    assert claim.label == "supported"


def test_unstated_qualifier_is_no_problem(lexical):
    source = {"id": "S1", "text": "Refunds are issued within 5 business days."}
    claim = _claim(lexical.verify("Personal customers get refunds within 5 business days.", [source]))
    assert claim.label != "contradicted"
    assert not [f for f in claim.facts if f.kind == "qualifier"]


def test_rule_for_another_customer_type_is_no_evidence_for_the_asker(lexical):
    source = {"id": "S1", "text": "个人用户自签收之日起7天内可申请退货。企业客户须提前申请退货授权码。"}
    request = {"question": "我是个人用户，退货要先申请授权码吗？", "answer": "退货前需要先申请退货授权码。",
               "sources": [source]}
    claim = _claim(lexical.verify_request(request))
    assert claim.label == "unsupported"
    # Without the asker's customer type the enterprise rule is evidence as usual.
    assert _claim(lexical.verify_request({**request, "question": "退货要先申请授权码吗？"})).label == "supported"


@pytest.mark.parametrize("claim, evidence, expected", [
    ("Prices include all applicable taxes.", "Prices exclude applicable taxes.", ("include", "exclude")),
    ("Pets are permitted in the lobby.", "Pets are prohibited in the lobby.", ("permitted", "prohibited")),
    ("跨行取现每月前3笔收费", "跨行取现每月前3笔免费", ("收费", "免费")),
    ("週日也有看診", "週日及國定假日休診", ("看诊", "休诊")),
    # A bare 含 after the price it is part of: what the price includes is not charged apart.
    ("舊玻璃回收要另外收費", "國產車前擋風玻璃更換新臺幣6,800元起，價格含工資及舊玻璃回收", ("另外收费", "价格含")),
    ("价格含工资，旧玻璃回收另外收费", "价格含工资，旧玻璃回收须另外收费", None),
    # Charged as well against counted towards the bill.
    ("The £35 diagnosis fee is charged on top even if you go ahead.",
     "A diagnosis fee of £35, which is deducted from the repair bill if you go ahead.", ("on top", "deducted from")),
    ("押金另收500元", "押金500元，退房时可抵扣房费", ("另收", "抵扣")),
    # The same word on both sides, or no opposite at all, is no swap.
    ("Prices include taxes.", "Prices include taxes but exclude shipping.", None),
    ("Returns are free.", "Returns are accepted within 30 days.", None),
])
def test_opposite_words_without_a_negation_cue(claim, evidence, expected):
    assert opposite_words(claim, evidence) == expected


@pytest.mark.parametrize("answer, source, label", [
    ("Prices include all applicable taxes.", "All plans include a free trial. Prices exclude applicable taxes.",
     "contradicted"),
    # An opposite word under a negation says the same thing: 不收费 is 免费.
    ("跨行ATM取现每月前3笔不收费。", "跨行ATM取现每笔收费2元，每月前3笔免费。", "supported"),
    ("跨行ATM取现每月前3笔收费。", "跨行ATM取现每月前3笔免费。", "contradicted"),
    # A permission against a prohibition, worded differently otherwise.
    ("贷款资金可以用来买股票。", "贷款资金不得用于购房、投资股票及其他权益性投资。", "contradicted"),
    ("Loan funds can be used to buy shares.", "Loan funds may not be used to buy property or shares.",
     "contradicted"),
])
def test_an_opposite_word_is_opposite_polarity(lexical, answer, source, label):
    assert _claim(lexical.verify(answer, [{"id": "S1", "text": source}])).label == label


def test_a_bound_is_no_prohibition(lexical):
    source = {"id": "S1", "text": "Meal claims on business trips must not exceed $60 per day."}
    claim = _claim(lexical.verify("You can claim up to $60 per day for meals on business trips.", [source]))
    assert claim.label == "supported"


@pytest.mark.parametrize("answer, evidence, words", [
    ("Premium economy is allowed for all flights.", "Premium economy is allowed for flights of 6 hours or more.", "all"),
    ("所有员工出差都可以乘坐商务舱。", "经理级以上员工出差可以乘坐商务舱。", "所有"),
    ("Approval comes from a Vice President or a director.", "Approval comes from a Vice President.", "or a director"),
    ("经理级以上员工或项目负责人可以乘坐商务舱。", "经理级以上员工可以乘坐商务舱。", "或项目负责人"),
    # Not broader: the span says the same, the universal is restricted, or "and" is inside a value.
    ("All orders ship free.", "All orders ship free.", None),
    ("Overtime is paid for any hours beyond 40.", "Overtime is paid for hours over 40.", None),
    ("Ride-share and taxi costs are reimbursable.", "Ride-share and taxis are reimbursable.", None),
    ("Hours beyond 40 are paid at time and a half.", "Hours over 40 are paid at 1.5 times the rate.", None),
    ("Unlimited Plus includes 50 GB of data.", "The plan includes 50 GB of data.", None),
    # Round the clock says "any hour" and "every day"; it says nothing of "any member".
    ("A technician comes at any hour, every day of the year.", "A technician comes 24 hours a day, 365 days a year.", None),
    ("Any member can call the helpline.", "The helpline is open 24 hours a day.", "Any"),
    ("You can call the helpline at any time.", "The helpline is open on weekdays.", "any"),
    ("Submit claims through the app or website.", "Submit claims through the Pawsure app or online.", None),
    # "day or night" is what "open 24 hours a day" says.
    ("Ring the emergency line free on 0800 111 999, day or night.",
     "Call the emergency line on 0800 111 999; the call is free and the line is open 24 hours a day.", None),
    ("Ring the emergency line day or night.", "Call the emergency line on weekdays.", "or night"),
    # A Chinese alternative said in other words; the asker named where the span names its kind.
    ("可燃物要清走或者盖上防火毯。", "10米范围内的可燃物必须清除或用防火毯覆盖。", None),
    ("可燃物要清走或者搬到仓库。", "10米范围内的可燃物必须清除或用防火毯覆盖。", "或者搬到仓库"),
    ("收割面积由机手和你一起确认。", "作业面积以实际收割面积为准，由机手和农户共同确认。", None),
])
def test_broadens(analyzer, answer, evidence, words):
    from extractors.claims import split_claims
    from verifier.breadth import broadens

    assert broadens(split_claims(answer, analyzer=analyzer)[0], evidence) == words


def test_a_fee_the_claim_waives_and_the_source_charges_is_opposite(analyzer):
    from extractors.claims import split_claims
    from verifier.polarity import free_but_priced, polarity_clash

    claim = split_claims("開演前一天退票不收手續費。", analyzer=analyzer)[0]
    assert polarity_clash(claim, "開演前1天可退票，需酌收一成手續費；開演當天不得退票。")
    assert not polarity_clash(claim, "開演前1天可退票，免收手續費。")
    # a sentence that waives the fee too is no price against the claim
    # a charge for places outside the asker's is no price against the claim
    near = split_claims("你哋喺港島，唔使俾車馬費。", analyzer=analyzer)[0]
    assert not free_but_priced(near, "九龍及港島以外地區另收車馬費港幣500元。")
    assert free_but_priced(near, "所有地區另收車馬費港幣500元。")
    first = split_claims("每月前3次取现不收手续费。", analyzer=analyzer)[0]
    assert not free_but_priced(first, "每月前3次取现免收手续费，之后每次收取2元手续费。")
    assert free_but_priced(first, "每次取现收取2元手续费。")


def test_a_thing_called_free_that_the_source_charges_for_without_an_amount(analyzer):
    from extractors.claims import split_claims
    from verifier.polarity import free_but_priced

    claim = split_claims("A second pass after your revisions is free.", analyzer=analyzer)[0]
    assert free_but_priced(claim, "Second passes after the author's revisions are charged at half the original rate.")
    assert not free_but_priced(claim, "Second passes after the author's revisions are free of charge.")


def test_a_past_participle_in_ied_stems_as_its_verb():
    from extractors.tokens import content_tokens

    assert content_tokens("carried over") == content_tokens("carries over") == content_tokens("carry over")
    assert content_tokens("applied") == content_tokens("applies")


def test_a_chinese_permission_against_a_chinese_negation_is_opposite(analyzer):
    from extractors.claims import split_claims
    from verifier.polarity import polarity_clash

    claim = split_claims("用企业协议价订的房间同样可以累计积分。", analyzer=analyzer)[0]
    assert polarity_clash(claim, "积分可用于兑换房晚。企业协议价订单不累计积分。")
    assert not polarity_clash(claim, "企业协议价订单可累计积分。")
    # The claim's count is a value, not wording the prohibition must share.
    renew = split_claims("到期可以续借一次。", analyzer=analyzer)[0]
    assert polarity_clash(renew, "馆际互借图书借期为21天，不可续借，须到原取书的服务台归还。")
    # A name with 不 in it negates nothing: the claim affirms what the source denies.
    bearer = split_claims("不记名卡丢了可以挂失补办，补卡费10元。", analyzer=analyzer)[0]
    assert polarity_clash(bearer, "记名卡挂失须本人携带身份证到服务台办理，补卡费10元；不记名卡不挂失、不补办。")


@pytest.mark.parametrize("answer, span, clash", [
    # The negated clause holds the claim's own words (线上配送), though another clause ties on overlap.
    ("线上配送的订单也可以直接用医保个人账户支付。", "医保个人账户支付目前仅支持门店自提订单，线上配送订单暂不支持医保支付。", True),
    ("门店自提订单可以用医保个人账户支付。", "医保个人账户支付目前仅支持门店自提订单，线上配送订单暂不支持医保支付。", False),
    # 无息 (without interest) negates nothing.
    ("报名时要交2000元保证金，退托时会退还。", "报名需缴纳2000元保证金，幼儿退托时无息退还。", False),
    # 无损坏 (undamaged) says what 没问题 says: the check found nothing wrong.
    ("押金退场验收没问题后7个工作日内退还。", "押金为租金总额的30%，退场验收无损坏后7个工作日内退还。", False),
    ("还船检查没有损坏就原路退回。", "租船须缴纳押金2000元，还船检查无损后原路退回。", False),
    # A clause with the opposite word.
    ("You need at least 25 decibels of loss in your worse ear.", "a loss of at least 25 decibels in the better ear", True),
    ("节假日也照常上门取送。", "节假日期间取送服务暂停，门店正常营业。", True),
    ("节假日期间暂停上门取送。", "节假日期间取送服务暂停，门店正常营业。", False),
    # Included against paid for apart, said in a clause of a few words after the one naming it.
    ("報名費也包含會後參訪行程。", "會後參訪行程需另行報名，費用另計。", True),
    ("报名费包含午餐。", "报名费包含午餐，住宿自理。", False),
    ("The price includes the site visit.", "The site visit is charged separately.", True),
    # The clause stating the claim's own bound denies what the claim affirms.
    ("活动前7天内取消的话，定金可以全额退回。", "活动前7天以上取消可退还定金；7天内取消定金不退。", True),
    ("活动前7天以上取消可以退定金。", "活动前7天以上取消可退还定金；7天内取消定金不退。", False),
    ("7天内取消不退定金。", "活动前7天以上取消可退还定金；7天内取消定金不退。", False),
    # The opposite word is in the rule for the other side of the claim's bound.
    ("三个月内度数变了可以免费换一次。", "验配后3个月内如因度数变化需更换，可免费更换一次；超过3个月按原价的50%收费。", False),
    # The opposite word is in a clause about another case (同城, not 异地).
    ("异地还车按距离收费，每公里2元。", "同城不同门店还车免费；异地还车按两地距离收取异地还车费，每公里2元。", False),
    ("同城不同门店还车也要收费。", "同城不同门店还车免费；异地还车按两地距离收取异地还车费，每公里2元。", True),
    # provided against brought along
    ("You have to bring your own towels.", "Towels are provided at the pool.", True),
    ("You have to bring your own towels.", "Guests bring their own towels to the pool.", False),
    # A negation inside a relative clause picks out the items; it denies nothing.
    ("For medication that isn't controlled, repeat prescriptions can be issued for up to 3 months.",
     "Repeat prescriptions for long-term medication can be issued for up to 3 months at a time.", False),
    ("Any hours you don't use expire at the end of the month.", "Unused hours expire at the end of each month.", False),
    ("You get 15% off any repair that isn't covered.", "Warranty holders get 15% off any non-covered repair.", False),
    # A condition that opens in the clause before ("unless … or cannot return") denies nothing either.
    ("That doesn't apply if you're made redundant or can't return for medical reasons.",
     "Employees must return for 6 months; otherwise the enhanced pay must be repaid, unless the employee is made "
     "redundant or cannot return for medical reasons.", False),
    ("If he starts bleeding and it won't stop, call 999.",
     "If your INR is 8.0 or above, or you have any bleeding that won't stop, call 999 straight away.", False),
    # A negated condition on the items ("items not redeemed within 30 days") denies nothing.
    ("Once the loan ends, you have 30 days to redeem the item.",
     "Items not redeemed within 30 days after the loan ends become the store's property.", False),
    ("You can redeem the item after the loan ends.", "Items cannot be redeemed after the loan ends.", True),
    # "costs nothing" and "at no cost" both say "free".
    ("Moving your prescriptions costs nothing.", "You can move your prescriptions to any store at no cost.", False),
    # Traditional script against the simplified antonym list: 休診 is the opposite of 看診.
    ("週日也有看診。", "門診時間為週一至週六，週日及國定假日休診。", True),
    # A short Chinese claim is read by its characters ("岛得", "得送" straddle the dropped "都有").
    ("其他外食也可以帶。", "禁止攜帶外食，生日蛋糕可帶入，酌收切盤費新台幣150元。", True),
    ("離島都有得送。", "港島及九龍免運費，新界每次收運費港幣$50，離島暫不送貨。", True),
    ("可以自己帶蛋糕。", "禁止攜帶外食，生日蛋糕可帶入，酌收切盤費新台幣150元。", False),
    ("港島免運費。", "港島及九龍免運費，新界每次收運費港幣$50，離島暫不送貨。", False),
    ("在船上前台订会便宜10%。", "船上前台预订价格上浮10%。", True),
    # Cantonese 唔 is 不: "唔收手續費" says what "不收手續費" says.
    ("佢哋所有貨幣都唔收手續費。", "所有貨幣兌換均不收手續費，匯率以店內牌價為準。", False),
    ("佢哋所有貨幣都收手續費。", "所有貨幣兌換均不收手續費，匯率以店內牌價為準。", True),
    # "rather than leaving" is "do not leave"; "instead of £140" denies nothing.
    ("Get someone else to fetch the AED rather than leaving the person alone.", "Send someone to fetch the AED; do "
     "not leave the person alone to fetch it yourself.", False),
    ("Fetch the AED yourself and leave the person alone.", "Send someone to fetch the AED; do not leave the person "
     "alone to fetch it yourself.", True),
    # A rule that says its "no" by turning away whoever breaks it.
    ("You can't have drunk alcohol in the 24 hours before.",
     "Anyone who has consumed alcohol in the previous 24 hours will be turned away.", False),
    ("You can't have drunk alcohol in the 24 hours before.", "Anyone who has consumed alcohol in the previous 24 "
     "hours may still be tattooed.", True),
    # The claim's own "不用" leaves what its other clause affirms to be read on its own.
    ("食材费用已经包含在月卡里，不用另外付。", "食材费用不含在月卡内，由顾客自备或委托厨师代买。", True),
    ("食材费用不含在月卡里，要另外付。", "食材费用不含在月卡内，由顾客自备或委托厨师代买。", False),
    ("节假日上门照常，不用加钱。", "节假日上门照常，无需加价。", False),
    # "anything she doesn't spend" picks out what carries over; the span says it cannot.
    ("Anything she doesn't spend carries over to the next day.", "Students receive a daily allowance of £2.90, "
     "which is loaded onto their account at 8am and cannot be carried over to the next day.", True),
    ("Anything she doesn't spend is lost at the end of the day.", "Students receive a daily allowance of £2.90, "
     "which is loaded onto their account at 8am and cannot be carried over to the next day.", False),
])
def test_a_negated_clause_or_an_opposite_word_about_the_claim_is_opposite(analyzer, answer, span, clash):
    from extractors.claims import split_claims
    from verifier.polarity import polarity_clash

    claim = split_claims(answer, analyzer=analyzer)[0]
    assert polarity_clash(claim, span) is clash


@pytest.mark.parametrize("answer, clash", [
    ("You can collect the bus pass from the school office.", True),     # the side "not by ..." rules out
    # The claim rules the same side out itself, or takes the side ruled out.
    ("Bus passes come from the Transportation Office rather than from individual schools.", False),
    ("Bus passes come from individual schools rather than from the Transportation Office.", True),
    ("Bus passes are issued by the Transportation Office.", False),
    ("Returns are accepted within 30 days.", False),                   # "30 days, not 60" rules out 60 only
])
def test_a_contrast_clause_rules_a_side_out(analyzer, answer, clash):
    from extractors.claims import split_claims
    from verifier.polarity import polarity_clash

    claim = split_claims(answer, analyzer=analyzer)[0]
    span = ("Bus passes are issued by the Transportation Office, not by individual schools."
            if "ass" in answer else "Returns are accepted within 30 days, not 60 days.")
    assert polarity_clash(claim, span) is clash


BOATS = ("Boats over 15 horsepower require the skipper to hold a valid Recreational Boating Licence. "
         "Self-drive motorboats up to 15 horsepower may be rented without a boating licence.")


@pytest.mark.parametrize("answer, clash", [
    # The span's rule for the other side, with the polarity the claim has: the claim moved it across.
    ("Boats over 15 horsepower don't need a licence.", True),
    # With the polarity turned, the two rules agree.
    ("For boats up to 15 horsepower you don't need a licence.", False),
    ("Boats over 15 horsepower need a licence.", False),
])
def test_a_rule_moved_to_the_other_side_of_a_bound_is_opposite(analyzer, answer, clash):
    from extractors.claims import split_claims
    from verifier.polarity import polarity_clash

    claim = split_claims(answer, analyzer=analyzer)[0]
    assert polarity_clash(claim, BOATS.split(". ")[1]) is clash


def test_a_span_giving_both_sides_their_rules_moves_nothing(analyzer):
    from extractors.claims import split_claims
    from verifier.polarity import rule_for_other_side

    claim = split_claims("For flights of 6 hours or more you may book premium economy.", analyzer=analyzer)[0]
    span = "Economy class is required for flights under 6 hours; premium economy is allowed for flights of 6 hours or more."
    assert not rule_for_other_side(claim, span)


@pytest.mark.parametrize("answer, values", [
    ("Boats up to 15 horsepower need a licence.", [("up to 15", "over 15")]),
    # "over 15 … require a licence" says what this says: no mismatch.
    ("For boats up to 15 horsepower you don't need a licence.", []),
])
def test_the_other_side_of_a_bound_is_a_rival_only_with_the_same_polarity(lexical, answer, values):
    (claim,) = lexical.verify(answer, [{"id": "S1", "text": BOATS.split(". ")[0] + "."}]).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == values


def test_a_negated_clause_loses_to_a_closer_affirmative_one(analyzer):
    from extractors.claims import split_claims
    from verifier.polarity import polarity_clash

    span = ("There is no overall charge to a water molecule, but there is a slight positive charge on each hydrogen "
            "atom and a slight negative charge on the oxygen atom.")
    claim = split_claims("Hydrogen atoms in water molecules have a positive charge.", analyzer=analyzer)[0]
    assert not polarity_clash(claim, span)


def test_a_thousands_comma_does_not_cut_a_clause():
    text = "月租金為作品售價的3%，每件最低新台幣1,500元, and C$2,500 after that"
    assert [text[a:b] for a, b in clauses(text)] == ["月租金為作品售價的3%", "每件最低新台幣1,500元", " and C$2,500 after that"]


@pytest.mark.parametrize("text, value", [
    ("Tanks should be emptied every 12 months", "year"), ("每十二个月保养一次", "year"), ("每12个月", "year"),
    ("every 14 days", "2 weeks"), ("every 30 days", "30 days"), ("每3天", "3 days"),
])
def test_a_frequency_in_months_or_days_reads_as_years_or_weeks_when_it_divides(text, value):
    assert [(q.slot, q.value) for q in find_qualifiers(text)] == [("frequency", value)]


@pytest.mark.parametrize("answer, text, clash", [
    ("每件作品附贈一條修復乳霜。", "大型作品按時計費。修復乳霜於櫃台販售，每條新台幣350元。", True),
    ("65歲以上長輩掛號費全免。", "掛號費新台幣150元，健保部分負擔依規定收取。", True),
    ("You get a free eye test every year.", "Eye tests cost $25.", True),
    ("Installation is free.", "Installation costs a one-off £60, waived on Enterprise.", True),
    ("The first lesson is free.", "Lessons cost £20 each.", False),  # the claim's item is the first lesson only
    # the sentence that prices it also calls it free for someone
    ("Members get free parking.", "Parking costs $5 per hour; members park free.", False),
    ("Delivery is free over $50.", "Delivery costs $4.99.", False),  # the claim states a price itself
    ("头皮检测不用钱。", "头皮检测每次500元。", True),
    # free only for another named case than the claim's, which the sentence prices
    ("Fault call-outs on Plus are free.", "Call-outs for faults cost £75 on the Essential and Plus plans and are free "
     "on Complete.", True),
    ("Fault call-outs on Complete are free.", "Call-outs for faults cost £75 on the Essential and Plus plans and are "
     "free on Complete.", False),
    # (the free clause goes on about the case the sentence prices)
    ("The Family membership gives free general admission.", "Family membership ($150 a year) covers two named adults, "
     "with free general admission for everyone on the card.", False),
])
def test_a_gift_or_free_item_the_source_sells_at_a_price_is_opposite(analyzer, answer, text, clash):
    from extractors.claims import split_claims
    from verifier.polarity import free_but_priced

    assert free_but_priced(split_claims(answer, analyzer=analyzer)[0], text) is clash


@pytest.mark.parametrize("question, label", [
    ("我想报周末的银碗课，学生有优惠吗？", "unsupported"),   # the discount is for weekday classes only
    ("我想报平日晚上的课，学生有优惠吗？", "supported"),
    ("学生有优惠吗？", "supported"),                          # no days asked about: the rule is evidence as usual
])
def test_a_rule_for_other_days_of_the_week_is_no_evidence_for_the_askers_days(lexical, question, label):
    source = {"id": "S1", "text": "周末两天的银碗制作课价格为980元。学生凭有效学生证报名平日晚课可享八折，周末课程不参加学生优惠。"}
    request = {"question": question, "answer": "学生凭学生证可以打八折。", "sources": [source]}
    assert _claim(lexical.verify_request(request)).label == label


@pytest.mark.parametrize("title, evidence", [
    ("Willowmere Pet Crematorium: services and prices", "Most local vets work with Willowmere."),
    ("Services and prices", "Most local vets work with us."),          # the title names no one
])
def test_the_sources_we_reads_as_the_name_its_title_gives(analyzer, title, evidence):
    from extractors.claims import split_claims
    from verifier.canonical import model_pair
    from verifier.schema import Source
    from verifier.segment import segment_source

    (span, *_) = segment_source(Source(id="S1", text="Most local vets work with us.", title=title)).sentences
    (claim,) = split_claims("Most local vets work with Willowmere.", analyzer=analyzer)
    assert model_pair(span, claim.text, claim.facts)[0] == evidence


@pytest.mark.parametrize("answer, clash", [
    ("国画课的画材都包含在学费里。", True),       # the exception names 国画课
    ("国画课的画材不用自己准备。", True),         # "no need to" is "included"
    ("素描课的画材都包含在学费里。", False),      # the general rule's case
    ("国画课的毛笔和宣纸需要自备。", False),      # the exception itself
])
def test_a_case_the_rule_for_everyone_carves_out_is_opposite(analyzer, answer, clash):
    from extractors.claims import split_claims
    from verifier.polarity import polarity_clash

    claim = split_claims(answer, analyzer=analyzer)[0]
    assert polarity_clash(claim, "课程按季度收费。所有课程均含画材，但国画课的毛笔和宣纸需自备。") is clash


@pytest.mark.parametrize("answer, label", [
    ("Every fifth lift is free with a loyalty card.", "contradicted"),
    ("Every sixth lift is free with a loyalty card.", "supported"),
])
def test_an_ordinal_of_the_same_thing_with_another_position_is_a_mismatch(lexical, answer, label):
    source = "A lash lift costs £42. Loyalty card holders get their sixth lift free."
    claim = lexical.verify(answer, [{"id": "S1", "text": source}]).claims[0]
    assert claim.label == label
    if label == "contradicted":
        assert [(f.text, f.status, f.evidence_text) for f in claim.facts if f.kind == "qualifier"] == [
            ("fifth lift", "mismatched", "sixth lift")]

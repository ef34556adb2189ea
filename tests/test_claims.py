"""Claim splitting against hand-written expected claim lists, plus focused behaviours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors import Analyzer, split_claims

_CASES = [
    json.loads(line)
    for line in (Path(__file__).parent.parent / "data/fixtures/claims.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]


def test_fixture_is_large_and_half_chinese() -> None:
    assert len(_CASES) >= 64
    assert sum(c["lang"].startswith("zh") for c in _CASES) * 2 >= len(_CASES)
    assert any(c["lang"] == "zh-Hant" for c in _CASES)


@pytest.mark.parametrize("case", _CASES, ids=[c["id"] for c in _CASES])
def test_claims_match_expected_list(analyzer: Analyzer, case: dict) -> None:
    answer = case["answer"]
    claims = split_claims(answer, analyzer=analyzer)
    got = [(c.source_text, c.text, list(c.citations), c.hedged) for c in claims]
    want = [(e["span"], e["text"], e["citations"], e.get("hedged", False)) for e in case["claims"]]
    assert got == want
    for claim in claims:
        assert answer[claim.start : claim.end] == claim.source_text


def test_claim_facts_are_inside_the_claim_span(analyzer: Analyzer) -> None:
    answer = "Revenue grew 12.5% and reached $3.2B in Q3 2025 [1]."
    first, second = split_claims(answer, analyzer=analyzer)
    assert [f.text for f in first.facts] == ["12.5%"]
    assert {f.kind for f in second.facts} >= {"number", "date"}
    assert all(second.start <= f.start and f.end <= second.end for f in second.facts)


def test_full_width_and_nbsp_offsets_hold(analyzer: Analyzer) -> None:
    answer = "退款将在\u00a0１-５ 个工作日内到账［1］。Refunds take ５ days."
    for claim in split_claims(answer, analyzer=analyzer):
        assert answer[claim.start : claim.end] == claim.source_text
        for fact in claim.facts:
            assert answer[fact.start : fact.end] == fact.text


def test_only_non_claims_gives_nothing(analyzer: Analyzer) -> None:
    answer = "Hi! Thanks for reaching out. Please provide your order number. 您好！请提供合同编号。如有其他问题请随时联系。"
    assert split_claims(answer, analyzer=analyzer) == []


def test_crlf_and_emoji_do_not_shift_offsets(analyzer: Analyzer) -> None:
    answer = "😀 Refunds take 5 days [1].\r\n年假为 10 天。"
    claims = split_claims(answer, analyzer=analyzer)
    assert [c.source_text for c in claims] == ["Refunds take 5 days", "年假为 10 天"]
    assert claims[0].citations == ("1",)


def test_analyzer_is_required(analyzer: Analyzer) -> None:
    with pytest.raises(TypeError, match="analyzer must be an Analyzer"):
        split_claims("Refunds take 5 days.", analyzer=None)  # type: ignore[arg-type]


def test_sentences_respect_abbreviations_decimals_and_list_numbers(analyzer: Analyzer) -> None:
    text = "Dr. Smith approved 3.5 days at 5 p.m. on Friday. Next step:\n1. Submit the form.\n退款已到账。还有吗？"
    got = [text[s:e] for s, e in analyzer.sentences(text)]
    assert got == [
        "Dr. Smith approved 3.5 days at 5 p.m. on Friday.",
        "Next step:",
        "1. Submit the form.",
        "退款已到账。",
        "还有吗？",
    ]


def test_a_day_after_a_time_goes_on_with_the_sentence(analyzer: Analyzer) -> None:
    text = "Orders placed by 1 p.m. Monday to Saturday go out the same day. We open at 9 a.m. Call us first."
    got = [text[s:e] for s, e in analyzer.sentences(text)]
    assert got == ["Orders placed by 1 p.m. Monday to Saturday go out the same day.", "We open at 9 a.m.",
                   "Call us first."]


def test_the_last_letter_of_an_ampersand_acronym_ends_a_sentence(analyzer: Analyzer) -> None:
    text = "Go straight to A&E. He shouldn't take a double dose. Ask J. Smith first."
    assert [text[s:e] for s, e in analyzer.sentences(text)] == [
        "Go straight to A&E.", "He shouldn't take a double dose.", "Ask J. Smith first."]


def test_a_condition_of_two_clauses_stays_one_claim_with_its_consequence(analyzer: Analyzer) -> None:
    answer = "If he starts bleeding and it won't stop, call 999 or go straight to A&E."
    assert [c.text for c in split_claims(answer, analyzer=analyzer)] == [answer.rstrip(".")]
    # The main clause's own conjuncts are still claims of their own.
    assert [c.text for c in split_claims("If you cancel, we refund 50%, and we keep the deposit.", analyzer=analyzer)] \
        == ["If you cancel, we refund 50%", "we keep the deposit"]


@pytest.mark.parametrize("answer, claims", [
    # A consequence is checked with the clause it follows from.
    ("同一地址洗满三台可以打八五折，所以实际是374元。", ["同一地址洗满三台可以打八五折，所以实际是374元"]),
    # "这" (from 这/束/花) is no subject to carry into the next clauses.
    ("这束花159元，不满199元，所以要付普通配送费15元。", ["这束花159元，不满199元，所以要付普通配送费15元"]),
    # A semicolon ends a step even when the next has no subject; 还是 ("still") is no "also".
    ("先重新登录刷新一下；还是没到的话，在客服中心提交订单截图。", ["先重新登录刷新一下", "还是没到的话，在客服中心提交订单截图"]),
    # A price word and an amount say what the clause before costs.
    ("运动按摩每次五十分钟，收费二百八十元；疗程卡还可以转给家人用。",
     ["运动按摩每次五十分钟", "运动按摩收费二百八十元", "疗程卡还可以转给家人用"]),
    # A bare yes or no is no claim: the next sentence says what.
    ("要。在機場四周飛遙控無人機，必須事先申請核准。", ["在機場四周飛遙控無人機，必須事先申請核准"]),
    ("可以。报名费是300元。", ["报名费是300元"]),
    # 费用 and an amount say what the clause before costs.
    ("快速检测现场测四十八小时，适合新房验收，费用九百八十元。", ["快速检测现场测四十八小时，适合新房验收，费用九百八十元"]),
    # An adverb ("平均", on average) is no subject to carry into the next clauses.
    ("200分钟卡八百元，平均每分钟四元，还送护目镜。", ["200分钟卡八百元", "平均每分钟四元，还送护目镜"]),
    # Where the asker is, with no verb of its own, is the condition the next clause answers.
    ("你哋喺港島，唔使俾車馬費。", ["你哋喺港島，唔使俾車馬費"]),
    ("您在浦东，免上门费。", ["您在浦东，免上门费"]),
])
def test_chinese_consequences_and_pointers_stay_with_their_clause(analyzer: Analyzer, answer, claims) -> None:
    assert [c.text for c in split_claims(answer, analyzer=analyzer)] == claims


def test_a_verb_the_tagger_reads_as_a_noun_still_makes_a_clause(analyzer: Analyzer) -> None:
    # The tagger reads "costs" as a plural noun and makes it the root; the first clause is still
    # a statement, so the clause with its own subject after ", and" is a claim of its own.
    answer = "A standard pitch costs £32 per market, and the market runs every Saturday from 8 am to 1 pm."
    assert [c.text for c in split_claims(answer, analyzer=analyzer)] == [
        "A standard pitch costs £32 per market", "the market runs every Saturday from 8 am to 1 pm"]


def test_a_clause_with_its_own_subject_carries_none(analyzer: Analyzer) -> None:
    # (the parse hangs "they" on "'ll", not on the verb)
    answer = "Resoles are guaranteed for half a year, and they'll re-dye the leather for free."
    assert [c.text for c in split_claims(answer, analyzer=analyzer)] == [
        "Resoles are guaranteed for half a year", "they'll re-dye the leather for free"]
    assert [c.text for c in split_claims("Rent is due monthly, and can be paid online.", analyzer=analyzer)] == [
        "Rent is due monthly", "Rent can be paid online"]
    # (the parse reads "transfers" as a noun and hangs the second clause on "warranty")
    answer = "The drain tile system has a lifetime warranty that transfers to the next owner, and the sump pump is covered for 10 years."
    assert [c.text for c in split_claims(answer, analyzer=analyzer)] == [
        "The drain tile system has a lifetime warranty that transfers to the next owner",
        "the sump pump is covered for 10 years"]
    # A noun phrase after ", and" without a verb of its own is no clause.
    answer = "Refunds cover the ticket, and the booking fee paid at checkout."
    assert len(split_claims(answer, analyzer=analyzer)) == 1


def test_an_adjective_with_le_is_no_part_of_the_carried_subject(analyzer: Analyzer) -> None:
    answer = "超過的部分每坪加250元，您多了4坪，總共新台幣九千元。"
    assert [c.text for c in split_claims(answer, analyzer=analyzer)][1:] == ["您多了4坪", "您總共新台幣九千元"]


def test_each_sentence_of_a_mixed_answer_gets_its_own_pipeline(analyzer: Analyzer) -> None:
    answer = "The hotel cap is $200 per night. 经理每晚住宿费不超过 800 元，并需提供发票。"
    claims = split_claims(answer, analyzer=analyzer)
    assert [c.text for c in claims] == ["The hotel cap is $200 per night", "经理每晚住宿费不超过 800 元", "经理需提供发票"]


def test_traditional_chinese_is_parsed_on_a_same_length_simplified_copy(analyzer: Analyzer) -> None:
    text = "張經理在臺北核准了報銷。"
    doc = analyzer.parse(text)
    assert len(doc.text) == len(text)
    assert doc.text == "张经理在台北核准了报销。"


def test_permission_words_and_contract_words_are_not_hedges(analyzer: Analyzer) -> None:
    answer = "Employees may claim up to $50 per day. 合约期为 12 个月。Delivery takes about 3 days."
    assert [c.hedged for c in split_claims(answer, analyzer=analyzer)] == [False, False, True]


def test_a_date_takes_its_year_from_an_earlier_sentence(analyzer: Analyzer) -> None:
    answer = "In 2026, the travel budget was approved. Bookings open on 1 March."
    dates = [f for c in split_claims(answer, analyzer=analyzer) for f in c.facts if f.kind == "date"]
    assert dates[-1].value.iso == "2026-03-01"


@pytest.mark.parametrize("text, claims", [
    # A verbless sentence that negates or qualifies still states something and must be checked.
    ("Returns are accepted for 30 days. Not refundable after that.", ["Returns are accepted for 30 days",
                                                                       "Not refundable after that"]),
    ("Free shipping on all orders.", ["Free shipping on all orders"]),
    # Pleasantries and headings do not.
    ("Great question! Refund policy", []),
])
def test_verbless_statements_are_claims_but_pleasantries_are_not(analyzer: Analyzer, text: str, claims: list) -> None:
    assert [c.text for c in split_claims(text, analyzer=analyzer)] == claims


@pytest.mark.parametrize("text, claims", [
    # LAC tags 退款/报销 as verbs; before a modal or preposition they are the topic the next clause keeps.
    ("退款在5个工作日内退回，并会短信通知。", ["退款在5个工作日内退回", "退款会短信通知"]),
    ("退款会退回原支付账户，并且不收手续费。", ["退款会退回原支付账户", "退款不收手续费"]),
    ("报销需在30天内提交，逾期不予受理。", ["报销需在30天内提交", "报销逾期不予受理"]),
])
def test_a_verb_heading_a_chinese_clause_is_its_subject(analyzer: Analyzer, text: str, claims: list) -> None:
    assert [c.text for c in split_claims(text, analyzer=analyzer)] == claims


@pytest.mark.parametrize("text, claims", [
    # 当天 ("that day") opens a clause of its own; 当……时 ("when ...") is subordinate.
    ("成人票是128元，当天凭门票在酒庄商店买酒还能打九五折。", ["成人票是128元", "成人票当天凭门票在酒庄商店买酒还能打九五折"]),
    ("当订单超过500元时，可以免运费。", ["当订单超过500元时，可以免运费"]),
    # 小时 ends a duration, not a "when" clause; a verb before a count is part of the subject.
    ("青禾的陪练一次两个小时，收260元。", ["青禾的陪练一次两个小时", "青禾的陪练收260元"]),
    ("经典参观一场大概一个半小时，还能品三款酒。", ["经典参观一场大概一个半小时", "经典参观还能品三款酒"]),
])
def test_a_clause_led_by_a_time_word_of_dang_is_not_subordinate(analyzer: Analyzer, text: str, claims: list) -> None:
    assert [c.text for c in split_claims(text, analyzer=analyzer)] == claims


@pytest.mark.parametrize("text, expected", [
    # A currency or bound before a value is no subject to carry to the next part.
    ("每件作品月租是售價的百分之三，最低新台幣1,500元，至少要租半年。", ["每件作品月租是售價的百分之三", "最低新台幣1,500元，至少要租半年"]),
    ("起步价500元，含两名搬运工。", ["起步价500元", "起步价含两名搬运工"]),
    # "要是……" conditions the clause after it.
    ("要是一个月订满四十小时，工作日单价降到每小时一百元。", ["要是一个月订满四十小时，工作日单价降到每小时一百元"]),
])
def test_value_leads_and_if_clauses(analyzer: Analyzer, text: str, expected: list[str]) -> None:
    assert [c.text for c in split_claims(text, analyzer=analyzer)] == expected


def test_an_age_without_a_verb_is_the_condition_of_the_next_clause(analyzer):
    claims = [c.text for c in split_claims("基础套餐598元，您母亲62岁，可以打九折。萌芽线适合六到十一岁的孩子，大人要全程看护。",
                                           analyzer=analyzer)]
    assert claims == ["基础套餐598元", "您母亲62岁，可以打九折", "萌芽线适合六到十一岁的孩子", "大人要全程看护"]


@pytest.mark.parametrize("text, claims", [
    # The subject ends where a price per unit starts, and "有崩口的那把" names its own thing.
    ("普通中式菜刀每把十二元，有崩口的那把要再加十元。", ["普通中式菜刀每把十二元", "有崩口的那把要再加十元"]),
    ("行李每件二十公斤，超重的那件要另付一百元。", ["行李每件二十公斤", "超重的那件要另付一百元"]),
])
def test_a_pointed_thing_is_its_own_subject(analyzer: Analyzer, text: str, claims: list) -> None:
    assert [c.text for c in split_claims(text, analyzer=analyzer)] == claims


def test_what_the_asker_says_has_happened_is_the_condition_of_the_next_clause(analyzer):
    claims = [c.text for c in split_claims("您母亲已经头晕，到了室外请立即拨打120。你们已经超过三十人，可以享受九折。",
                                           analyzer=analyzer)]
    # (a premise with a value is a claim the sources must bear out)
    assert claims == ["您母亲已经头晕，到了室外请立即拨打120", "你们已经超过三十人", "你们可以享受九折"]


def test_a_verb_pair_that_says_one_thing_is_one_clause(analyzer):
    claims = [c.text for c in split_claims("Your partner can stay overnight, and can come and go outside visiting "
                                           "hours. You can collect it and pay at the desk.", analyzer=analyzer)]
    assert claims == ["Your partner can stay overnight", "Your partner can come and go outside visiting hours",
                      "You can collect it", "You can pay at the desk"]


def test_an_example_stays_with_the_clause_it_illustrates(analyzer):
    claims = [c.text for c in split_claims("您可以绑定一位直系亲属，比如父亲或母亲中的一位，对方购物打九五折。", analyzer=analyzer)]
    assert claims == ["您可以绑定一位直系亲属，比如父亲或母亲中的一位", "对方购物打九五折"]


def test_what_the_asker_has_is_the_condition_of_the_next_clause(analyzer):
    claims = [c.text for c in split_claims("你阿媽有綜援，每餐只係收港幣二十蚊。您有会员卡，可以打九折。", analyzer=analyzer)]
    assert claims == ["你阿媽有綜援，每餐只係收港幣二十蚊", "您有会员卡，可以打九折"]
    # (a right or a perk is a claim of its own)
    claims = [c.text for c in split_claims("你有权退款，七天内到账。你有免费停车位，另外还送早餐。", analyzer=analyzer)]
    assert claims[0] == "你有权退款" and "你有免费停车位" in claims


def test_the_askers_person_is_no_subject_carried_past_the_premise(analyzer):
    # "有飯、餸、湯同水果" speaks of the meal, not of the mother: it stays with the clause before.
    claims = [c.text for c in split_claims("你阿媽有綜援，每餐只係收港幣二十蚊，有飯、餸、湯同水果。", analyzer=analyzer)]
    assert claims == ["你阿媽有綜援，每餐只係收港幣二十蚊，有飯、餸、湯同水果"]
    # A clause with its own subject is still a claim of its own.
    claims = [c.text for c in split_claims("您母亲62岁，可以打九折，挂号费也全免。", analyzer=analyzer)]
    assert claims == ["您母亲62岁，可以打九折", "挂号费也全免"]


def test_a_clause_whose_object_points_back_stays_with_the_clause_it_points_to(analyzer):
    claims = [c.text for c in split_claims("Spray tans are £25 a session and you can book them at Chippenham. "
                                           "Beds are £1 a minute and you can book online.", analyzer=analyzer)]
    assert claims == ["Spray tans are £25 a session and you can book them at Chippenham", "Beds are £1 a minute",
                      "you can book online"]


def test_listed_nouns_the_tagger_reads_as_verbs_cut_no_clause(analyzer):
    claims = [c.text for c in split_claims("They aren't allowed in the glamping pods, shower blocks or play area. "
                                           "Dogs are welcome on all pitches and stay free.", analyzer=analyzer)]
    assert claims == ["They aren't allowed in the glamping pods, shower blocks or play area",
                      "Dogs are welcome on all pitches", "Dogs stay free"]


def test_a_call_to_attention_goes_with_what_it_points_to(analyzer: Analyzer) -> None:
    answer = "平时要注意，雨水管道绝对不能和自来水管道直接连通。"
    assert [c.text for c in split_claims(answer, analyzer=analyzer)] == ["平时要注意，雨水管道绝对不能和自来水管道直接连通"]


@pytest.mark.parametrize("text, expected", [
    # "and the rest on completion" has no verb of its own: it says when the rest is paid, with
    # the first clause's subject and verb.
    ("You pay a 50% deposit when you order and the rest on completion of fitting.",
     ["You pay a 50% deposit when you order", "You pay the rest on completion of fitting"]),
    ("You pay £100 when you book and the balance 30 days before departure.",
     ["You pay £100 when you book", "You pay the balance 30 days before departure"]),
    ("We keep the rest.", ["We keep the rest"]),
    # ", then it's £1 per hour" is the price after the first half hour, a claim of its own.
    ("The first 30 minutes cost £1, then it's £1 per hour.", ["The first 30 minutes cost £1", "it's £1 per hour"]),
])
def test_a_gapped_or_then_clause_is_a_claim_of_its_own(analyzer: Analyzer, text: str, expected: list[str]) -> None:
    assert [c.text for c in split_claims(text, analyzer=analyzer)] == expected


@pytest.mark.parametrize("text, expected", [
    # "……的，" without a copula names whom the next clause is about; "是免费的" states something.
    ("成交价不到一百万的，买方服务费最少一万五。", ["成交价不到一百万的，买方服务费最少一万五"]),
    ("门票是免费的，停车另收十元。", ["门票是免费的", "门票停车另收十元"]),
    # 还 before 了 is "return", a verb, not "also": the clause keeps it.
    ("押金九十九元，还了以后押金当天就退回。", ["押金九十九元", "押金还了以后押金当天就退回"]),
    # Cantonese 嘅話 is 的话: the condition goes with its clause.
    ("港灣置業租樓嘅話，業主同租客各自俾半個月租做佣金。", ["港灣置業租樓嘅話，業主同租客各自俾半個月租做佣金"]),
    # "剩下的" (the rest) is the next clause's own subject: when the rest is paid is a claim of its own.
    ("下单时需要付一半的预付款，剩下的在安装验收后15天内付清。", ["下单时需要付一半的预付款", "剩下的在安装验收后15天内付清"]),
    # "需要注意的是" points to what follows; "这段时间" is the period the clause before names.
    ("需要注意的是，每年6到8月外墙暂停施工，外墙要避开这段时间。", ["需要注意的是，每年6到8月外墙暂停施工，外墙要避开这段时间"]),
    # "或者……" after "只要……" is another way the condition is met; the rule follows both.
    ("只要气象部门发布暴雨预警，或者溪流水位超过安全线，活动就会取消。", ["只要气象部门发布暴雨预警，或者溪流水位超过安全线，活动就会取消"]),
    # A comparison with the value before it goes with that clause; a price word ends the subject.
    ("单次冷疗198元，比原价298元便宜一百块。", ["单次冷疗198元，比原价298元便宜一百块"]),
    # So is a bare "more than" the value before it: the asker's amount set against the source's bound.
    ("你換一萬蚊，超過港幣8,000元，所以要帶香港身份證登記。", ["你換一萬蚊，超過港幣8,000元，所以要帶香港身份證登記"]),
    ("基础版标志设计收费两千八，包含三个初稿方案和两轮修改。", ["基础版标志设计收费两千八", "基础版标志设计包含三个初稿方案和两轮修改"]),
])
def test_chinese_topics_conditions_and_durations(analyzer: Analyzer, text: str, expected: list[str]) -> None:
    assert [c.text for c in split_claims(text, analyzer=analyzer)] == expected

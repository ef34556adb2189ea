"""Sentences about the past are evidence for claims about the past only."""

from __future__ import annotations

import datetime as dt

import pytest

from extractors.claims import split_claims
from verifier.history import about_the_past
from verifier.schema import Source
from verifier.segment import segment_source

PLAN = ("Quillnet Unlimited Plus plan sheet, effective 2026-02-01. Unlimited Plus costs $55 per month with "
        "autopay. Before February 1, 2026, the plan was priced at $50 per month with autopay. The plan "
        "includes 50 GB of premium data each month.")


@pytest.mark.parametrize("text, past", [
    (PLAN, [False, False, True, False]),
    ("Fee schedule for fiscal year 2026. A permit costs $250. In fiscal year 2025, the permit fee was $220.",
     [False, False, True]),
    ("Claims guide, effective January 1, 2026. The rental car cap is $40 per day. The 2025 edition of this "
     "guide set the rental car cap at $35 per day.", [False, False, True]),
    ("贷款产品说明（2026年版）。最高贷款额度为30万元。2025年版产品的最高贷款额度为20万元。此前，利率为5%。",
     [False, False, True, True]),
    # Past tense alone, or an old year in the present tense, is not the past of a rule.
    ("Northwind Q2 FY2026. Revenue was $842 million. Gross margin was 61.4%, compared with 59.8% a year earlier.",
     [False, False, False]),
    ("Policy effective 2026. Employees hired before 2025 keep their old plan.", [False, False]),
    # An older year that is only the baseline of a comparison.
    ("Third quarter 2025 results. Revenue was $3.2 billion, up 12.5 percent from the third quarter of 2024.",
     [False, False]),
    ("2025年年报。全年营收为32亿元，较2024年增长12%。", [False, False]),
    # An older year as the topic of a Chinese sentence, unless the rule starts then.
    ("2026年度考试报名时间为8月1日至8月25日。2025年报名费为每科150元。报名费为每科180元。", [False, True, False]),
    ("2027年起手续费为30元。2026年起手续费为25元。", [False, False]),
    ("2026年度汇算办理时间为2027年3月1日至2027年6月30日。", [False]),  # the sentence names the newest year too
    # A sentence that opens on the season or year before; "last year" as a baseline is not one.
    ("Our Basic plan (CA$549) plows after every snowfall. Last season the Basic plan cost CA$519. Revenue rose "
     "12% compared with last year.", [False, True, False]),
    ("年费为1200元。去年年费为1000元。", [False, True]),
    # "以前" closing a deadline is no earlier rule; said of the rule, it is
    ("包场须于预约时缴付500元订金，活动前7日或以前取消可全数退还订金。以前的订金为300元。", [False, True]),
    ("須於活動3天以前取消。", [False]),
    ("活動前3天（含）以前取消者全額退費。", [False]),
    ("开课后前2节课结束前可申请退费；第3节课起不再退费。", [False]),
    # "不再按天计发" says how the rule pays instead; "不再提供" says something stopped.
    ("班组长参与升级待命的，每周发放固定津贴800元，不再按天计发。", [False]),
    ("夜间值守服务不再提供。", [True]),
    # "no longer than" is a bound, not "any more".
    ("Dogs must be kept on a lead no longer than 2 metres. We no longer take cheques.", [False, True]),
    # "before that" with a past tense states the old rule; as a deadline it does not
    ("Plan prices rose on 1 May 2026; before that, the Plus plan was £12 a month. Pay before that and it is free.",
     [True, False]),
    # A month without a year takes the year of an older sentence (extractors.dates) without being about it.
    ("标准地块租金自2026年起为每年600元。2025年标准地块租金为每年520元。每年12月至次年2月停止供水。续租需在1月31日前缴清。",
     [False, True, False, False]),
])
def test_past_sentences(text, past):
    assert [s.past for s in segment_source(Source(id="S1", text=text)).sentences] == past


@pytest.mark.parametrize("answer, past", [
    ("The plan costs $50 per month.", False),
    ("The plan was $50 per month.", True),
    ("Before February 1, 2026 the plan cost $50.", True),
    ("去年的额度是20万元。", True),
    ("Last season the Basic plan cost CA$519.", True),
    ("最高贷款额度为20万元。", False),
    ("活动前三日或以前取消可以拿回全部订金。", False),
    # "before" a time is the past; "right before" the lesson, or before a visit, is not.
    ("Using the school car costs $95 and includes a one-hour warm-up right before.", False),
    ("Please arrive ten minutes before your visit.", False),
    ("Before the change the plan costs $50.", True),
    ("Prior to March 2026 the plan costs $50.", True),
    # A day of the week, or a time of day, recurs: it names no past.
    ("Tickets are £49 a head on Fridays.", False),
    ("Doors open at 7pm.", False),
    ("In March 2026 tickets were £49.", True),
])
def test_claims_about_the_past(analyzer, answer, past):
    assert about_the_past(split_claims(answer, analyzer=analyzer)[0]) is past


def test_a_present_claim_does_not_rest_on_the_old_price(lexical):
    claim = lexical.verify("Unlimited Plus costs $50 per month with autopay.", [{"id": "S1", "text": PLAN}]).claims[0]
    assert claim.label == "contradicted"
    fact = next(f for f in claim.facts if f.status == "mismatched")
    assert (fact.text, fact.evidence_text) == ("$50 per month", "$55 per month")


def test_a_claim_about_the_past_may(lexical):
    claim = lexical.verify("Before February 1, 2026, the plan was priced at $50 per month with autopay.",
                           [{"id": "S1", "text": PLAN}]).claims[0]
    assert claim.label == "supported"


def test_a_claim_cut_from_a_dated_sentence_speaks_of_that_date(lexical):
    source = {"id": "Q3", "text": "Third quarter 2025 results. Revenue was $3.2 billion. In the third quarter of "
                                  "2024, revenue was $2.8 billion."}
    report = lexical.verify("In Q3 2024, revenue grew 5% and reached $2.8 billion.", [source])
    second = next(c for c in report.claims if "$2.8 billion" in c.text)
    assert "2024" not in second.text  # the date is in the other half of the sentence
    fact = next(f for f in second.facts if f.kind == "number")
    assert (fact.status, fact.evidence_text) == ("matched", "$2.8 billion")


def test_an_old_rule_is_not_current_evidence(lexical):
    source = {"id": "S1", "text": "Claims guide, effective January 1, 2026. The 2025 edition of this guide set "
                                  "the rental car cap at $35 per day."}
    claim = lexical.verify("The rental car cap is $35 per day.", [source]).claims[0]
    assert claim.label != "supported"
    old = next(e for e in claim.evidence if e.text.startswith("The 2025 edition"))
    assert old.current is False and old.relation != "supports"
    # The value is there, but only as the old rule: the reason and the fact say so.
    assert claim.reason == "Source S1 gives $35 per day only as an earlier rule, not as the current one."
    fact = next(f for f in claim.facts if f.kind == "number")
    assert (fact.text, fact.status, fact.evidence_text) == ("$35 per day", "missing", "$35 per day")


@pytest.mark.parametrize("text, past_values", [
    ("2026年起手续费为30元，2025年手续费为25元。", ["25元"]),
    ("From 2026 the fee is $30, while in 2025 it was $25.", ["$25"]),
    # A start year is when a rule begins, which may be now; a single year has nothing newer beside it.
    ("自2025年起手续费为25元，2026年起会员免手续费。", []),
    ("2025年手续费为25元。", []),
])
def test_an_older_clause_of_a_sentence_states_the_past(text, past_values):
    (sentence,) = segment_source(Source(id="S1", text=text)).sentences
    assert not sentence.past
    assert [f.text for i, f in enumerate(sentence.facts) if i in sentence.past_facts and f.kind == "number"] == past_values


@pytest.mark.parametrize("effective_from, past_values", [
    # A clause in the past tense with a year older than the source's own: its value is the old one.
    ("2026-01-10", ["£34"]),
    ("2025-01-10", []),   # a page of 2025 speaks of its own year
])
def test_an_older_year_in_a_past_tense_clause_states_the_past(effective_from, past_values):
    text = "A single lobe piercing is £25 and a pair is £38; in 2025 a pair was £34."
    source = Source(id="S1", text=text, metadata={"status": "active", "effective_from": effective_from})
    (sentence,) = segment_source(source).sentences
    assert not sentence.past
    assert [f.text for i, f in enumerate(sentence.facts) if i in sentence.past_facts and f.kind == "number"] == past_values


@pytest.mark.parametrize("text, as_of, past_values", [
    # A part that says it ended before as_of, beside the part that holds now.
    ("早鸟季卡价格为2680元，销售截止至2026年11月15日；11月16日起季卡恢复原价3280元。", dt.date(2026, 11, 30), ["2680元"]),
    ("The early-bird price of $199 applies until 15 November 2026; from 16 November the price is $249.",
     dt.date(2026, 11, 30), ["$199"]),
    # Not yet ended, no date to read it against, or nothing beside it.
    ("早鸟季卡价格为2680元，销售截止至2026年11月15日；11月16日起季卡恢复原价3280元。", dt.date(2026, 11, 10), []),
    ("早鸟季卡价格为2680元，销售截止至2026年11月15日；11月16日起季卡恢复原价3280元。", None, []),
    ("早鸟季卡价格为2680元，销售截止至2026年11月15日。", dt.date(2026, 11, 30), []),
])
def test_a_part_that_ended_before_as_of_states_the_past(text, as_of, past_values):
    (sentence,) = segment_source(Source(id="S1", text=text), as_of).sentences
    assert [f.text for i, f in enumerate(sentence.facts) if i in sentence.past_facts and f.kind == "number"] == past_values


def test_a_present_claim_with_an_expired_offer_is_contradicted(lexical):
    source = {"id": "S1", "text": "云杉谷早鸟季卡价格为2680元，销售截止至2026年11月15日；11月16日起季卡恢复原价3280元。"}
    (claim,) = lexical.verify("现在买季卡是早鸟价2680元。", [source], context={"as_of": "2026-11-30"}).claims
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [("2680元", "3280元")]


@pytest.mark.parametrize("text, old", [
    ("Full-year revenue guidance was raised to $4.9 billion from $4.7 billion.", ["$4.7 billion"]),
    ("The fee was cut from $1,200 to $1,000.", ["$1,200"]),
    ("Gross margin was 61.4%, up from 59.8% a year earlier.", ["59.8%"]),
    ("年费由1500元上调至2000元。", ["1500元"]),
    ("从2025年的25元调整为30元。", ["25元"]),
    # "from" without a change is no old value; "up to" is a cap.
    ("Prices range from $10 to $20.", []),
    ("Up to 3 people, from $99 per night.", []),
    ("Prices were raised last year, and plans start from $99.", []),
])
def test_the_value_a_change_starts_from_is_past(text, old):
    (sentence,) = segment_source(Source(id="S1", text=text)).sentences
    assert [f.text for i, f in enumerate(sentence.facts) if i in sentence.past_facts] == old


@pytest.mark.parametrize("source, answer, values", [
    # two years of a rule in one sentence
    ("礼品卡不支持退款。2026年起手续费为30元，2025年手续费为25元。", "手续费为25元。", ("25元", "30元")),
    # the value a change starts from
    ("Full-year revenue guidance was raised to $4.9 billion from $4.7 billion.", "Full-year revenue guidance is $4.7 billion.",
     ("$4.7 billion", "$4.9 billion")),
])
def test_a_present_claim_with_the_old_value_is_contradicted(lexical, source, answer, values):
    claim = lexical.verify(answer, [{"id": "S1", "text": source}]).claims[0]
    assert claim.label == "contradicted"
    fact = next(f for f in claim.facts if f.status == "mismatched")
    assert (fact.text, fact.evidence_text) == values


def test_a_dated_claim_may_rest_on_the_older_clause(lexical):
    source = {"id": "S1", "text": "礼品卡不支持退款。2026年起手续费为30元，2025年手续费为25元。"}
    assert lexical.verify("2025年手续费为25元。", [source]).claims[0].label == "supported"


def test_before_an_older_date_in_chinese_is_past():
    text = ("积分规则（2026年版）。2025年12月31日前获得的积分，有效期为12个月。2026年1月1日起获得的积分，有效期为24个月。"
            "年假须在3月31日前休完。")
    assert [s.past for s in segment_source(Source(id="S1", text=text)).sentences] == [False, True, False, False]


def test_before_a_day_that_has_come_in_chinese_is_past():
    text = "纯色光疗美甲168元。2026年5月前纯色光疗美甲为148元。2026年12月31日前报名可享九折。"
    source = Source(id="S1", text=text, metadata={"status": "active", "effective_from": "2026-05-01"})
    assert [s.past for s in segment_source(source, as_of=dt.date(2026, 12, 3)).sentences] == [False, True, False]
    # With no day it takes effect or is read, a month stated before is no past.
    assert [s.past for s in segment_source(Source(id="S1", text=text)).sentences] == [False, False, False]


def test_until_a_day_that_has_come_in_english_is_past():
    text = ("Our Care plan costs £55 a month. Until 30 June 2026 the Care plan cost £49 a month. Until 31 December "
            "2026 new members pay no joining fee.")
    source = Source(id="S1", text=text, metadata={"status": "active", "effective_from": "2026-07-01"})
    assert [s.past for s in segment_source(source, as_of=dt.date(2026, 12, 13)).sentences] == [False, True, False]
    # read before that day came, the sentence is the rule in force
    early = Source(id="S1", text=text, metadata={"status": "active", "effective_from": "2026-03-01"})
    assert [s.past for s in segment_source(early, as_of=dt.date(2026, 4, 1)).sentences] == [False, False, False]


EXAM = "2026年度考试报名时间为8月1日至8月25日。报名费为每科180元，须同时报考两科。2025年报名费为每科150元。"


def test_a_claim_dated_this_year_does_not_rest_on_last_years_sentence(lexical):
    report = lexical.verify("2026年的报名时间是8月1日到8月25日，报名费每科150元。", [{"id": "S1", "text": EXAM}])
    fee = next(c for c in report.claims if "150" in c.text)
    assert fee.label == "contradicted"
    assert "150元" in fee.reason and "180元" in fee.reason


def test_a_claim_dated_last_year_may_rest_on_last_years_sentence(lexical):
    report = lexical.verify("2025年报名费为每科150元。", [{"id": "S1", "text": EXAM}])
    assert report.claims[0].label == "supported"


@pytest.mark.parametrize("text, past", [
    # An older year opening an English sentence, with no present tense: "cost" may be either.
    ("Standard memory card recovery is a fixed £149. In 2025 memory card recovery cost £129.", [False, True]),
    ("Standard recovery is £149. In 2025 we opened a second lab, which is in Leeds.", [False, False]),
])
def test_an_older_year_opening_an_english_sentence(text, past):
    source = Source(id="S1", text=text, metadata={"status": "active", "effective_from": "2026-01-05"})
    assert [s.past for s in segment_source(source).sentences] == past


@pytest.mark.parametrize("text, later", [
    ("初診評估費新台幣800元。116年2月1日起，初診評估費將調整為新台幣1,000元。", [False, True]),
    ("The Gold plan costs £35 a month. From 1 March 2027, the Gold plan will cost £40 a month.", [False, True]),
    # a change that has started, and a schedule that runs from a later day, are in force now
    ("From 1 March 2026, the Gold plan costs £40 a month.", [False]),
    ("The winter term runs for ten weeks from 11 January 2027.", [False]),
])
def test_a_change_that_starts_after_as_of_is_not_current(text, later):
    spans = segment_source(Source(id="S1", text=text), dt.date(2026, 12, 12)).sentences
    assert [s.later for s in spans] == later
    assert all(s.past for s in spans if s.later)


def test_only_the_part_that_starts_later_is_not_current(lexical):
    source = {"id": "S1", "text": "Adoption fees are £195 for dogs, £95 for cats and £45 per rabbit; from January 2027, "
                                  "the dog fee will rise to £215."}
    (span,) = segment_source(Source(**source), dt.date(2026, 12, 12)).sentences
    later = [span.facts[k].text for k in sorted(span.later_facts)]
    assert not span.later and "£215" in later and not {"£195", "£95", "£45"} & set(later)
    (claim,) = lexical.verify("A cat costs £95 to adopt.", [source], context={"as_of": "2026-12-12"}).claims
    assert [f.status for f in claim.facts] == ["matched"]
    (claim,) = lexical.verify("A dog costs £215 to adopt.", [source], context={"as_of": "2026-12-12"}).claims
    assert [f.status for f in claim.facts] != ["matched"]


def test_a_present_claim_with_the_coming_price_is_contradicted(lexical):
    source = {"id": "S1", "text": "初診評估費新台幣800元。116年2月1日起，初診評估費將調整為新台幣1,000元。"}
    (claim,) = lexical.verify("初診評估是新台幣1,000元。", [source], context={"as_of": "2026-12-12"}).claims
    assert claim.label == "contradicted"
    assert [(f.text, f.evidence_text) for f in claim.facts if f.status == "mismatched"] == [("新台幣1,000元", "新台幣800元")]
    (dated,) = lexical.verify("116年2月起初診評估會調整為新台幣1,000元。", [source], context={"as_of": "2026-12-12"}).claims
    assert dated.label == "supported"


def test_a_value_only_a_coming_rule_gives_says_so(lexical):
    source = {"id": "S1", "text": "From 1 March 2027, the Gold plan will cost £40 a month. Members get free towels."}
    (claim,) = lexical.verify("The Gold plan costs £40 a month.", [source], context={"as_of": "2026-12-12"}).claims
    assert claim.label != "supported" and "starts later" in claim.reason

"""Number and identifier extraction: labelled fixture cases plus targeted unit tests."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.chinese_numerals import parse_chinese_number
from extractors.compare import compare_facts, same_slot
from extractors.numbers import extract_numbers
from extractors.schema import IdentifierValue, Quantity

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "extraction" / "numbers.jsonl"
CASES = [json.loads(line) for line in FIXTURES.read_text(encoding="utf-8").splitlines() if line.strip()]
_DECIMAL_FIELDS = ("value", "low", "high")
_PLAIN_FIELDS = ("unit", "currency", "per", "comparator", "approximate")


def test_fixture_corpus_size_and_language_mix():
    assert len(CASES) >= 140
    chinese = [c for c in CASES if c["lang"] in ("zh-Hans", "zh-Hant", "mixed")]
    assert len(chinese) / len(CASES) >= 0.45
    assert {c["lang"] for c in CASES} == {"en", "zh-Hans", "zh-Hant", "mixed"}
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_fixture_case(case):
    text = case["text"]
    facts = extract_numbers(text)
    assert [(f.kind, f.text) for f in facts] == [(e["kind"], e["text"]) for e in case["expect"]]
    for fact, exp in zip(facts, case["expect"]):
        assert fact.start == exp.get("start", text.index(exp["text"]))
        assert text[fact.start : fact.end] == fact.text
        if exp["kind"] == "identifier":
            assert isinstance(fact.value, IdentifierValue)
            assert fact.value.scheme == exp["scheme"]
            if "key" in exp:
                assert fact.value.key == exp["key"]
            continue
        q = fact.value
        assert isinstance(q, Quantity)
        for name in _DECIMAL_FIELDS:
            if name in exp:
                got = getattr(q, name)
                want = exp[name]
                assert (got is None) if want is None else got == Decimal(want), (name, got, want)
        for name in _PLAIN_FIELDS:
            if name in exp:
                assert getattr(q, name) == exp[name], name
        if "unit" not in exp:
            assert q.unit is None
        if "currency" not in exp:
            assert q.currency is None
        if "comparator" not in exp:
            assert q.comparator == "eq"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("三百", "300"), ("两千", "2000"), ("兩千", "2000"), ("三十二亿", "3200000000"), ("三十二億", "3200000000"),
        ("一万五千", "15000"), ("一萬五千", "15000"), ("一万五", "15000"), ("三百五", "350"), ("一千零五", "1005"),
        ("十二", "12"), ("十", "10"), ("零点五", "0.5"), ("十二点五", "12.5"), ("3.2万", "32000"), ("32亿", "3200000000"),
        ("1.5千万", "15000000"), ("二〇二六", "2026"), ("贰佰", "200"), ("壹仟零捌", "1008"), ("一亿五千万", "150000000"),
        ("三万亿", "3000000000000"), ("一百零八", "108"), ("五十", "50"),
    ],
)
def test_parse_chinese_number(text, value):
    assert parse_chinese_number(text) == Decimal(value)


@pytest.mark.parametrize("text", ["", "万", "百", "万一", "千万", "点五", "三点", "abc"])
def test_parse_chinese_number_rejects_words(text):
    assert parse_chinese_number(text) is None


def test_precision_is_kept_in_the_exponent():
    (fact,) = extract_numbers("revenue of $3.2 billion")
    assert fact.value.value == Decimal("3200000000")
    assert fact.value.value.as_tuple().exponent == 8  # stated to 0.1 billion


@pytest.mark.parametrize(
    "text",
    ["统一处理", "十分重要", "千万不要迟到", "一些员工", "万一出错", "一次性付款", "周一至周五", "In 2024 we grew", "2024-2025 plan",
     "on 2026-03-01", "2026年3月1日", "三月一日", "下午五点半", "at 9:30 am", "Q3 2025", "第三季度", "每月15日发薪",
     "次月10日前提交", "上月十五日",
     "护士会给老人做一次能力评估",  # 做一次 + noun: "an assessment", not a count
     "落單嗰陣要一次過俾晒錢", "星期一至五朝九晚五",
     "费用在报名时一次交清", "學費須一次繳清"],  # paid in one go, not a count
)
def test_words_dates_and_years_are_not_numbers(text):
    assert extract_numbers(text) == []


def test_year_with_currency_is_an_amount():
    (fact,) = extract_numbers("The fee is 2000 元")
    assert fact.value.value == Decimal(2000) and fact.value.currency == "CNY"


def test_fullwidth_nbsp_crlf_offsets():
    text = "费用：６００元\r\n上限\u00a0US$\u00a0300\u00a0per\u00a0night"
    facts = extract_numbers(text)
    assert [f.text for f in facts] == ["６００元", "上限\u00a0US$\u00a0300\u00a0per\u00a0night"]
    assert facts[1].value.per == "night" and facts[1].value.currency == "USD"
    assert facts[1].value.comparator == "le"
    for f in facts:
        assert text[f.start : f.end] == f.text


def test_context_names_the_slot():
    facts = extract_numbers("Hotel stays are capped at $300 per night; refunds take 5 business days.")
    assert "hotel" in facts[0].context.split()
    assert "refund" in facts[1].context.split()
    shared = extract_numbers("Net income rose 4% to $1.2 billion, while headcount fell to 980 people.")
    assert [f.context for f in shared] == ["net income", "net income", "headcount"]
    zh = extract_numbers("酒店住宿每晚不超过500元，退款3个工作日到账")
    assert "酒店住宿" in zh[0].context and "退款" in zh[1].context


def test_traditional_context_is_simplified():
    (fact,) = extract_numbers("退款金額不超過 500 元")
    assert "退款金额" in fact.context


def test_output_is_sorted_and_non_overlapping():
    text = "E7782 报错后 3 天内退款 300 元，详见第4.2条，客服 400-820-8820。"
    facts = extract_numbers(text)
    assert [f.kind for f in facts] == ["identifier", "number", "number", "identifier", "identifier"]
    for a, b in zip(facts, facts[1:]):
        assert a.end <= b.start


def test_rejects_non_string():
    with pytest.raises(TypeError, match="text"):
        extract_numbers(None)  # type: ignore[arg-type]


def test_empty_and_digitless_text():
    assert extract_numbers("") == []
    assert extract_numbers("   \n ") == []
    assert extract_numbers("no numbers here") == []


def test_long_text_is_handled():
    text = "退款 1-5 个工作日到账，hotel up to $300 per night. " * 2000
    facts = extract_numbers(text)
    assert len(facts) == 4000


_ALPHABET = st.sampled_from(list("0123456789０１２３ .,-~%$¥元万亿千百十一二两三五点至到天晚人个工作日\u00a0\r\n🎉Ab第条《》年月E/"))


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_offsets_round_trip_on_random_text(text):
    facts = extract_numbers(text)
    for f in facts:
        assert text[f.start : f.end] == f.text
        assert f.start < f.end
    for a, b in zip(facts, facts[1:]):
        assert a.end <= b.start


@pytest.mark.parametrize("text, expected", [
    ("特快线从揽收开始算，3到5个工作日送达", ["3到5个工作日"]),   # a full-width comma before the range
    ("Fees: 1,000 yuan", ["1,000 yuan"]),                          # a thousands separator is still one number
    ("超出的流量按每GB 3元收费，一个月最多收60元", ["3元", "最多收60元"]),  # "一个月" is the period of the cap
    ("一个月内可退货", ["一个月内"]),                                # ... but "within a month" is a value
])
def test_numbers_after_commas_and_period_words(text, expected):
    assert [f.text for f in extract_numbers(text) if f.kind == "number"] == expected


@pytest.mark.parametrize("text, found, unit", [
    ("a 30-day return window", "30-day", "day"),
    ("a 6-month probation", "6-month", "month"),
    ("refunds in 1-5 business days", "1-5 business days", "business_day"),
])
def test_a_hyphen_joins_an_english_unit(text, found, unit):
    facts = [f for f in extract_numbers(text) if f.kind == "number"]
    assert [(f.text, f.value.unit) for f in facts] == [(found, unit)]


@pytest.mark.parametrize("text, found, low, high, unit", [
    ("the club is for 8- to 13-year-olds", "8- to 13-year", 8, 13, "year"),
    ("for eight- to thirteen-year-olds", "eight- to thirteen-year", 8, 13, "year"),
    ("a five- to seven-day trip", "five- to seven-day", 5, 7, "day"),
    # two neighbouring Chinese digits are "this many or one more", not the number they spell
    ("吃三四块方糖", "三四块", 3, 4, None),
    ("两三天就到", "两三天", 2, 3, "day"),
    ("十三四岁的孩子", "十三四岁", 13, 14, "year"),
    ("大概三四十元", "大概三四十元", 30, 40, None),
    ("两三百元", "两三百元", 200, 300, None),
])
def test_a_range_whose_first_number_waits_for_the_unit_after_the_second(text, found, low, high, unit):
    (fact,) = [f for f in extract_numbers(text) if f.kind == "number"]
    assert (fact.text, fact.value.low, fact.value.high, fact.value.unit) == (found, low, high, unit)


@pytest.mark.parametrize("text, found, value, unit", [
    ("会员打八折", "八折", "8", "tenth_of_price"),
    ("九五折优惠", "九五折", "9.5", "tenth_of_price"),
    ("85折", "85折", "8.5", "tenth_of_price"),
    ("首付不低于两成", "不低于两成", "20", "percent"),
    ("手续费为万分之五", "万分之五", "0.05", "percent"),
    ("违约金千分之三", "千分之三", "0.3", "percent"),
    # durations and counts said without a number
    ("退款次日到账", "次日", "1", "day"),
    ("当日到账", "当日", "0", "day"),
    ("當天出貨", "當天", "0", "day"),
    ("下个工作日处理", "下个工作日", "1", "business_day"),
    ("We offer next-day delivery.", "next-day", "1", "day"),
    ("Orders ship the same day.", "same day", "0", "day"),
    ("Refunds post on the next business day.", "next business day", "1", "business_day"),
    ("Statements are sent twice a year.", "twice a year", "2", "times"),
    ("Filters are replaced once a month.", "once a month", "1", "times"),
    ("Stay out of the sea for a week.", "a week", "1", "week"),
    ("You need to give a day's notice.", "a day", "1", "day"),
    ("The briefing starts half an hour before your slot.", "half an hour", "30", "minute"),
    # hours and minutes are one duration
    ("路线大概一个小时十分钟", "大概一个小时十分钟", "70", "minute"),
    ("每次最多1小时30分钟", "每次最多1小时30分钟", "90", "minute"),
    ("The tour takes 1 hour 10 minutes.", "1 hour 10 minutes", "70", "minute"),
    # floors: 门诊楼三层 is the third floor of the outpatient building
    ("病案室位于门诊楼三层", "三层", "3", "floor"),
    ("在3楼办理", "3楼", "3", "floor"),
])
def test_shares_discounts_and_values_said_in_words(text, found, value, unit):
    facts = [f for f in extract_numbers(text) if f.kind == "number"]
    assert [(f.text, f.value.value, f.value.unit) for f in facts] == [(found, Decimal(value), unit)]


@pytest.mark.parametrize("text, found", [
    ("Give at least a week's notice.", "at least a week"),  # the bound holds the possessive
    ("The card is valid for a year.", "a year"),          # read once, not twice
    ("Tickets are sold for a day pass only.", None),      # a pass, not a duration
    ("Pay a month's deposit.", None),                     # a deposit is not a month's rent
])
def test_one_unit_of_time_said_with_an_article(text, found):
    facts = [f.text for f in extract_numbers(text) if f.kind == "number"]
    assert facts == ([found] if found else [])


@pytest.mark.parametrize("text", ["政策一成不变", "成本上升", "固定资产折旧", "折合人民币"])
def test_words_with_cheng_or_zhe_are_no_shares(text):
    assert [f for f in extract_numbers(text) if f.kind == "number"] == []


def test_once_as_a_conjunction_is_no_count():
    assert extract_numbers("Once the item arrives, we refund it.") == []


@pytest.mark.parametrize("text, found, comparator, unit", [
    ("订单满99元包邮", "满99元", "ge", None),           # 满: a threshold reached
    ("入职满一年可享受体检", "满一年", "ge", "year"),
    ("未满18岁不得办理", "未满18岁", "lt", "year"),      # 未满 still wins over 满
    ("年满18周岁可以申请", "满18周岁", "ge", "year"),    # 周岁 is an age, not weeks
    ("65歲以上長者", "65歲以上", "ge", "year"),
    ("3周内完成", "3周内", "le", "week"),
    ("白金卡會員可獲贈四張", "四張", "eq", "sheet"),     # 张: vouchers and tickets are counted
    ("含酒窖讲解及四款葡萄酒品鉴", "四款", "eq", "variety"),  # 款: kinds of wine, set menus
    ("一班最多4個人", "最多4個人", "le", "person"),      # 个人 after a number counts people
])
def test_chinese_thresholds_and_ages(text, found, comparator, unit):
    (fact,) = [f for f in extract_numbers(text) if f.kind == "number"]
    assert (fact.text, fact.value.comparator, fact.value.unit) == (found, comparator, unit)


@pytest.mark.parametrize("text, found, comparator, unit", [
    ("Employees with 5 or more years of service get 20 days.", "5 or more years", "ge", "year"),
    ("Groups of 10 or more people", "10 or more people", "ge", "person"),
    ("Applicants 18 or older may apply.", "18 or older", "ge", None),
])
def test_a_unit_after_the_comparator_suffix(text, found, comparator, unit):
    fact = next(f for f in extract_numbers(text) if f.kind == "number")
    assert (fact.text, fact.value.comparator, fact.value.unit) == (found, comparator, unit)


@pytest.mark.parametrize("text, found, unit, per", [
    ("年用电量0-2760千瓦时（含）", "0-2760千瓦时", "kWh", None),   # 千 before 瓦 is the unit, not a thousand
    ("电价0.52元/千瓦时", "0.52元/千瓦时", None, "kWh"),
    ("每度0.52元", "每度0.52元", None, "kWh"),                      # 度: the everyday word for a kWh
    ("$0.18 per kWh", "$0.18 per kWh", None, "kWh"),
])
def test_electricity_units(text, found, unit, per):
    (fact,) = [f for f in extract_numbers(text) if f.kind == "number"]
    assert (fact.text, fact.value.unit, fact.value.per) == (found, unit, per)


@pytest.mark.parametrize("text, found, value", [
    ("乾濕分離淋浴拉門另計，新台幣2萬2千元起。", "新台幣2萬2千元起", Decimal(22000)),   # digits and scale words mixed
    ("装修预算1万5千元", "1万5千元", Decimal(15000)),
    ("押金3千5百元", "3千5百元", Decimal(3500)),
])
def test_digits_with_several_chinese_scale_words(text, found, value):
    (fact,) = [f for f in extract_numbers(text) if f.kind == "number"]
    assert (fact.text, fact.value.value) == (found, value)


@pytest.mark.parametrize("text, found, unit, per", [
    ("专业版每月499元，含两百通来电", "两百通", "call", None),       # 通 counts calls
    ("超出部分每通两元", "每通两元", None, "call"),
    ("降级需提前一个自然月申请", "一个自然月", "month", None),        # a calendar month is a month
    ("Give us 3 calendar months' notice.", "3 calendar months", "month", None),
])
def test_calls_and_calendar_months(text, found, unit, per):
    fact = next(f for f in extract_numbers(text) if f.kind == "number" and f.text == found)
    assert (fact.value.unit, fact.value.per) == (unit, per)


@pytest.mark.parametrize("text, found, value", [
    ("Overtime is paid at time and a half.", "time and a half", Decimal("1.5")),
    ("Call-outs after midnight are paid at double time.", "double time", Decimal(2)),
    ("Overtime is paid at 1.5 times the usual rate.", "1.5 times", Decimal("1.5")),
])
def test_a_pay_rate_as_a_multiple_of_the_usual_one(text, found, value):
    (fact,) = [f for f in extract_numbers(text) if f.kind == "number" and f.value.unit == "times"]
    assert (fact.text, fact.value.value) == (found, value)


@pytest.mark.parametrize("text, found, unit", [
    ("玻璃幕墙清洗每平方米6元", "每平方米6元", None),                    # a price per square metre
    ("$6 per square metre", "$6 per square metre", None),
    ("清洗面积100平方米以内", "100平方米以内", "m2"),                     # an area, no price
])
def test_a_price_per_square_metre(text, found, unit):
    (fact,) = [f for f in extract_numbers(text) if f.kind == "number"]
    assert (fact.text, fact.value.unit, fact.value.per) == (found, unit, "m2" if unit is None else None)


@pytest.mark.parametrize("text, comparator", [
    ("Employees aged 50 and over may contribute more", "ge"),
    ("children 12 and under ride free", "le"),
    ("单次提前还款不能少于5万元", "ge"),
    ("每笔不能超过5000元", "le"),
    ("每次不可低于100元", "ge"),
])
def test_negated_and_suffix_comparators(text, comparator):
    (fact,) = extract_numbers(text)
    assert fact.value.comparator == comparator


@pytest.mark.parametrize("text, found, unit, comparator, approximate", [
    # A count and a half of a unit: the plain scan would read only "半小时".
    ("经典参观一场大概一个半小时", ("一个半小时", "1.5"), "hour", "eq", True),
    ("一個半鐘就攞得", ("一個半鐘", "1.5"), "hour", "eq", False),
    ("两个半月内完成", ("两个半月", "2.5"), "month", "le", False),
    ("每场1个半小时", ("1个半小时", "1.5"), "hour", "eq", False),
])
def test_a_count_and_a_half(text, found, unit, comparator, approximate):
    (fact,) = extract_numbers(text)
    assert (fact.text, str(fact.value.value)) == found
    assert (fact.value.unit, fact.value.comparator, fact.value.approximate) == (unit, comparator, approximate)


@pytest.mark.parametrize("text", ["每年可以免费做一次体检", "退款申请只能提交一次", "每月进行一次检查"])
def test_once_as_a_frequency_or_a_limit_is_a_number(text):
    (fact,) = extract_numbers(text)
    assert fact.value.value == Decimal(1) and fact.value.unit == "times"


@pytest.mark.parametrize("text, comparator", [
    ("reduced by 4% for each year before age 65", "lt"), ("early retirement from age 55", "ge"),
    ("children younger than 12 travel free", "lt"), ("drivers older than 70", "gt"),
    # "no older than" bounds from above, "no younger than" from below
    ("a proof of address no older than three months", "le"), ("drivers not younger than 21", "ge"),
])
def test_age_bounds_in_words(text, comparator):
    (fact,) = [f for f in extract_numbers(text) if f.value.unit != "percent"]
    assert fact.value.comparator == comparator


@pytest.mark.parametrize("text, comparator", [
    ("Orders over $75 ship free", "gt"), ("Kids over 12 pay full fare", "gt"),
    ("when the platform height exceeds 4 metres", "gt"), ("a fee not to exceed $50", "le"),
])
def test_over_and_exceed_bound_a_value(text, comparator):
    (fact,) = extract_numbers(text)
    assert fact.value.comparator == comparator


@pytest.mark.parametrize("text, found", [
    ("每个会员年度内免费救援6次", "会员年度内"), ("自然年度内最多3次", "自然年度内"), ("一年内可以免费叫6次救援", "一年内"),
    ("2026年度内完成", None),
])
def test_within_the_year_is_a_bound_of_one_year(text, found):
    years = [f for f in extract_numbers(text) if f.value.unit == "year"]
    assert [(f.text, f.value.value, f.value.comparator) for f in years] == ([(found, Decimal(1), "le")] if found else [])


@pytest.mark.parametrize("text", ["周末2小时票是128元一张", "每张128元", "$128 a ticket"])
def test_a_price_for_one_ticket_is_a_price_per_ticket(text):
    (fact,) = [f for f in extract_numbers(text) if f.value.currency]
    assert (fact.value.value, fact.value.per) == (Decimal(128), "sheet")


@pytest.mark.parametrize("text, unit", [
    ("90平", "m2"), ("100平方米以内", "m2"), ("房子120平米", "m2"), ("a 50 sq m flat", "m2"), ("2平方公里", "km2"),
])
def test_floor_areas_have_a_unit(text, unit):
    (fact,) = extract_numbers(text)
    assert fact.value.unit == unit




@pytest.mark.parametrize("text, value, unit", [
    ("The card lasts a year", 1, "year"), ("It is valid for a month", 1, "month"), ("Delivery takes a fortnight", 2, "week"),
])
def test_one_unit_of_time_stated_as_a_duration(text, value, unit):
    (fact,) = extract_numbers(text)
    assert (fact.value.value, fact.value.unit, fact.value.comparator) == (Decimal(value), unit, "eq")
    assert fact.text.startswith(("a ", "one "))


@pytest.mark.parametrize("text, value, unit, comparator", [
    ("An operator calls you within a minute", 1, "minute", "le"), ("It is answered in under a minute", 1, "minute", "lt"),
    ("The warranty lasts a year and a half", 18, "month", "eq"), ("Claims close within half a year", 6, "month", "le"),
    ("Give notice half a month ahead", Decimal("0.5"), "month", "eq"),
])
def test_short_and_compound_units_of_time_in_words(text, value, unit, comparator):
    (fact,) = extract_numbers(text)
    assert (fact.value.value, fact.value.unit, fact.value.comparator) == (Decimal(value), unit, comparator)


def test_a_rate_per_year_is_no_duration():
    (fact,) = extract_numbers("Membership is $15 a year")
    assert fact.value.per == "year" and fact.value.unit is None


def test_a_clause_number_with_kuan_is_an_identifier_not_a_count():
    (fact,) = extract_numbers("根据第一款规定办理")
    assert fact.value.type == "identifier" and fact.value.key == "1"


@pytest.mark.parametrize("text, value, unit, per", [
    ("每天免费领一百颗练习球", "100", "piece", None), ("一次性买满一百桶水票", "100", "barrel", None),
    ("基础班十节课", "10", "lesson", None), ("运动鞋每双39元", "39", None, "pair"), ("改短每条60元", "60", None, "item"),
    ("精装书送二十册", "20", "copy", None), ("含精裝書10冊", "10", "copy", None), ("三本书", "3", "copy", None),
])
def test_chinese_counting_words_are_units(text, value, unit, per):
    (fact,) = extract_numbers(text)
    assert (fact.value.value, fact.value.unit, fact.value.per) == (Decimal(value), unit, per)


def test_ben_is_a_count_only_after_a_numeral():
    assert extract_numbers("本店基本上不退款，日本客人也一样。") == []


@pytest.mark.parametrize("text, value, unit, currency, per", [
    ("另外每年交一百二十元年费", "120", None, "CNY", None),       # 年费 names the fee, not 120 years
    ("柴油每升能便宜三毛钱", "0.3", None, "CNY", None),            # tenths of a yuan
    ("一杯五毛", "0.5", None, "CNY", None),
    ("你们每月八千升", "8000", "litre", None, "month"),
    ("smaller fleets earn 1.5 cents per litre", "0.015", None, "$", "litre"),
    ("有效期一年半", "1.5", "year", None, None),
    ("两天半", "2.5", "day", None, None),
    ("the session runs three and a half hours", "3.5", "hour", None, None),
    ("a rebate of one and a half cents a litre", "0.015", None, "$", "litre"),
])
def test_halves_tenths_litres_and_fee_names(text, value, unit, currency, per):
    (fact,) = extract_numbers(text)
    q = fact.value
    assert (q.value, q.unit, q.currency, q.per) == (Decimal(value), unit, currency, per)


@pytest.mark.parametrize("text", ["二週年慶儲值活動", "两周年", "毛巾三条", "weekend hire is one and a half times that"])
def test_anniversaries_towels_and_multipliers_are_no_values(text):
    # (no weeks in an anniversary, no money in a towel; the multiplier is verifier.arithmetic's)
    assert [f.text for f in extract_numbers(text) if f.value.unit in ("week", "times") or f.value.currency] == []


@pytest.mark.parametrize("text, said, value", [
    ("a term costs one hundred and twenty pounds", "one hundred and twenty pounds", "120"),
    ("it is a hundred dollars", "a hundred dollars", "100"),
    ("twelve hundred dollars", "twelve hundred dollars", "1200"),
    ("two thousand five hundred yen", "two thousand five hundred yen", "2500"),
    ("one thousand two hundred and fifty euros", "one thousand two hundred and fifty euros", "1250"),
    ("three hundred million dollars", "three hundred million dollars", "300000000"),
])
def test_english_number_words_with_hundreds_and_thousands_are_one_number(text, said, value):
    (fact,) = extract_numbers(text)
    assert (fact.text, fact.value.value) == (said, Decimal(value))


@pytest.mark.parametrize("text, currency", [
    ("$25", "$"), ("twenty dollars", "$"), ("ten cents", "$"), ("US$25", "USD"), ("25美元", "USD"),
    ("A$25", "AUD"), ("NZ$210", "NZD"), ("25 US dollars", "USD"), ("a forty-dollar charge", "$"),
    ("a twenty-euro deposit", "EUR"), ("¥700 per bag", "¥"), ("700 yen", "JPY"), ("700元", "CNY"),
])
def test_a_dollar_or_yen_sign_of_no_named_country_is_bare(text, currency):
    (fact,) = extract_numbers(text)
    assert fact.value.currency == currency


@pytest.mark.parametrize("text, currency", [
    ("預約要先付300元訂金", "元"),  # Traditional, no currency named: a yuan or a Taiwan or Hong Kong dollar
    ("预约要先付300元订金", "CNY"),  # Simplified: the yuan
    ("收費人民幣300元", "CNY"), ("訂金新台幣300元，尾款500元", "TWD"),  # named in the text
])
def test_a_bare_yuan_in_traditional_chinese_names_no_region(text, currency):
    assert {f.value.currency for f in extract_numbers(text)} == {currency}


def test_a_bare_traditional_yuan_agrees_with_a_named_regional_dollar():
    (bare,) = extract_numbers("預約要先付300元訂金")
    (twd,) = extract_numbers("預約需支付訂金新台幣300元")
    (cny,) = extract_numbers("预约需支付订金300元")
    assert compare_facts(bare, twd) == "equal" and compare_facts(bare, cny) == "equal"
    (usd,) = extract_numbers("US$300")
    assert compare_facts(bare, usd) != "equal"


@pytest.mark.parametrize("text, value, unit", [("十二千瓦的机组", "12", "kW"), ("五百瓦的灯", "500", "W"), ("两千瓦", "2", "kW")])
def test_chinese_kilowatts_keep_their_thousand(text, value, unit):
    (fact,) = extract_numbers(text)
    assert (str(fact.value.value), fact.value.unit) == (value, unit)


@pytest.mark.parametrize("text, comparator", [("but never less than C$40", "ge"), ("never more than 8 people", "le")])
def test_never_less_and_never_more_are_bounds(text, comparator):
    (fact,) = extract_numbers(text)
    assert fact.value.comparator == comparator


@pytest.mark.parametrize("text, value, currency", [
    ("Resin is 35p a gram", "0.35", "GBP"), ("50 pence", "0.5", "GBP"),
    ("两块五。", "2.5", "CNY"), ("十二块五毛钱", "12.5", "CNY"), ("三元五角", "3.5", "CNY"),
    ("港幣兩蚊三毫五嘅手續費", "2.35", "HKD"), ("兩蚊半，", "2.5", "HKD"),
])
def test_pence_and_chinese_money_with_tenths_and_hundredths(text, value, currency):
    (fact,) = extract_numbers(text)
    assert (fact.value.value, fact.value.currency) == (Decimal(value), currency)


@pytest.mark.parametrize("text, money", [("in 720p", []), ("两块五花肉", [Decimal(2)])])
def test_video_resolutions_and_pork_are_no_pence_or_tenths(text, money):
    assert [f.value.value for f in extract_numbers(text) if f.value.currency] == money


@pytest.mark.parametrize("text, said, value, comparator", [
    ("You have to be at least seventeen.", "at least seventeen", "17", "ge"),
    ("no more than two", "no more than two", "2", "le"),
])
def test_english_number_words_count_after_a_bound(text, said, value, comparator):
    (fact,) = extract_numbers(text)
    assert (fact.text, fact.value.value, fact.value.comparator) == (said, Decimal(value), comparator)


@pytest.mark.parametrize("text", ["under one roof", "at least one of them", "at least two of the four",
                                  "up to three bags"])
def test_one_a_share_of_a_group_or_a_count_of_things_after_a_bound_is_no_count(text):
    assert extract_numbers(text) == []


@pytest.mark.parametrize("text, said, value, unit, per", [
    ("between thirty and sixty days you get a quarter back", "a quarter", "25", "percent", None),
    ("Classes run every day of the week.", "every day of the week", "7", "day", "week"),
    ("up to 2 guests", "up to 2 guests", "2", "person", None),
    # 公尺 is Taiwan's metre, as a length and as what a price is per.
    ("兩百公尺大約新台幣九萬元", "兩百公尺", "200", "m", None),
    ("鐵絲網圍籬每公尺新台幣450元", "每公尺新台幣450元", "450", None, "m"),
    ("Timber fencing is $85 per metre installed.", "$85 per metre", "85", None, "m"),
    # Feet, as a size and as what a price is per; square feet are an area.
    ("A 7 ft Noble fir is $139.", "7 ft", "7", "ft", None),
    ("Interior drain tile runs $85 per linear foot.", "$85 per linear foot", "85", None, "ft"),
    ("a 2,000 sq ft home", "2,000 sq ft", "2000", "ft2", None),
])
def test_shares_back_every_day_of_the_week_guests_and_metres(text, said, value, unit, per):
    (fact,) = [f for f in extract_numbers(text) if f.text == said]
    assert (fact.value.value, fact.value.unit, fact.value.per) == (Decimal(value), unit, per)


@pytest.mark.parametrize("text, first", [
    ("Sheds up to 2.4 by 1.8 metres need no approval", ("up to 2.4", "m", "le")),
    ("一间3×4米的房间", ("3", "m", "eq")),
    ("2 by 3 days", ("2", None, "eq")),  # only sizes: a count stays bare
])
def test_the_first_side_of_a_size_takes_the_unit_of_the_second(text, first):
    fact = extract_numbers(text)[0]
    assert (fact.text, fact.value.unit, fact.value.comparator) == first


@pytest.mark.parametrize("text, found, value", [
    ("一代试管一个周期大约三万五，包括监测", "大约三万五", "35000"),
    ("学费一千五，含教材", "一千五", "1500"),
    ("押金两千五", "两千五", "2500"),
])
def test_an_amount_said_aloud_needs_no_unit(text, found, value):
    facts = [f for f in extract_numbers(text) if f.kind == "number"]
    assert [(f.text, f.value.value) for f in facts] == [(found, Decimal(value))]


@pytest.mark.parametrize("text", ["全国统一千万不要", "万一下雨", "一千个理由都没用"])
def test_numeral_words_without_a_trailing_digit_stay_words(text):
    assert [f.text for f in extract_numbers(text) if f.kind == "number" and f.value.unit is None
            and f.value.currency is None] == []


@pytest.mark.parametrize("text, found, value", [
    ("with a three-quarter-hour GP review", "three-quarter-hour", "45"),
    ("a half-hour consultation", "half-hour", "30"),
    ("a quarter-hour break", "quarter-hour", "15"),
    ("It takes three quarters of an hour.", "three quarters of an hour", "45"),
])
def test_parts_of_an_hour_in_words(text, found, value):
    facts = [f for f in extract_numbers(text) if f.kind == "number"]
    assert [(f.text, f.value.value, f.value.unit) for f in facts] == [(found, Decimal(value), "minute")]


@pytest.mark.parametrize("text, found, unit", [
    ("Rooms have to be booked a day in advance.", "a day", "day"),
    ("Book a week ahead.", "a week", "week"),
])
def test_one_unit_of_notice_in_advance(text, found, unit):
    facts = [f for f in extract_numbers(text) if f.kind == "number"]
    assert [(f.text, f.value.value, f.value.unit) for f in facts] == [(found, Decimal(1), unit)]


@pytest.mark.parametrize("text, found", [
    ("Courses at your site cost £150 per trainee.", "£150 per trainee"),
    ("The workshop is $40 per participant.", "$40 per participant"),
])
def test_a_price_per_course_member_is_per_person(text, found):
    fact = next(f for f in extract_numbers(text) if f.kind == "number")
    assert (fact.text, fact.value.per) == (found, "person")
    per_day = next(f for f in extract_numbers("an extra £150 per day") if f.kind == "number")
    assert compare_facts(fact, per_day) == "different" or not same_slot(fact, per_day)


def test_a_bound_before_a_unit_of_notice_keeps_it():
    (fact,) = [f for f in extract_numbers("Cancelling more than a week ahead gets you a refund.") if f.kind == "number"]
    assert (fact.text, fact.value.comparator) == ("more than a week", "gt")


@pytest.mark.parametrize("text, found, value, comparator", [
    # An engine's size is a unit, so the bound after it is read: two cases of one threshold.
    ("250cc以下摩托车小保养收费280元", "250cc以下", "250", "le"),
    ("250cc及以上收费380元", "250cc及以上", "250", "ge"),
    ("a major service is £269 over 600cc", "over 600cc", "600", "gt"),
    # A numeral of several places is a number, whatever follows it ("分" is no unit here).
    ("芝麻信用分五百五十分以上可以免押金", "五百五十", "550", "eq"),
    # A charging verb between a bound and its value keeps the bound.
    ("买方服务费最低收取1.5万元", "最低收取1.5万元", "1.5E+4", "ge"),
    # An amount said aloud with its thousands: 一万二千八 is 12800.
    ("银卡会员一年一万二千八", "一万二千八", "12800", "eq"),
    # Cantonese 唔夠 is 不够, "less than".
    ("租期唔夠一年就各自俾四分一個月租", "唔夠一年", "1", "lt"),
    # An age group joined to its bound by a hyphen: under-18s are under 18.
    ("Minimum age is 14, and under-18s must be with a paying adult.", "under-18", "18", "lt"),
    # A bound whose subject is "no …" is denied: at most five years.
    ("no car seat is more than five years old", "more than five years", "5", "le"),
    ("car seats are never more than 5 years old", "never more than 5 years", "5", "le"),
    ("our car seats are more than 5 years old", "more than 5 years", "5", "gt"),
    ("free-roam is open to children from 8 upwards", "8 upwards", "8", "ge"),
    ("for tenancies of 12 months or longer", "12 months or longer", "12", "ge"),
    ("a two-and-a-half-hour trip", "two-and-a-half-hour", "2.5", "eq"),
    # the time allowed to do something
    ("You'll get a bill once a month, with a fortnight to pay it", "a fortnight", "2", "eq"),
    ("術後一年內經評估存活率未達九成者", "未達九成", "90", "lt"),
    ("Done online, it's normally finished in a couple of working days", "a couple of working days", "2", "eq"),
    ("within a couple of weeks", "within a couple of weeks", "2", "le"),
])
def test_bounds_and_numerals_said_in_everyday_words(text, found, value, comparator):
    facts = {f.text: f.value for f in extract_numbers(text) if f.kind == "number"}
    assert found in facts
    assert (facts[found].value, facts[found].comparator) == (Decimal(value), comparator)


def test_one_year_before_its_price_is_the_period_not_a_duration():
    texts = [f.text for f in extract_numbers("银卡会员一年一万二千八，保证不少于六次见面") if f.kind == "number"]
    assert texts == ["一万二千八", "不少于六次"]
    assert [f.text for f in extract_numbers("合同为期一年") if f.kind == "number"] == ["一年"]


@pytest.mark.parametrize("text", ["考试得了八十五分", "千万不要迟到", "十分方便"])
def test_a_numeral_that_is_part_of_a_word_or_a_score_stays_a_word(text):
    assert [f for f in extract_numbers(text) if f.kind == "number"] == []


@pytest.mark.parametrize("text, found, unit, per", [
    ("装机2兆瓦", "2兆瓦", "MW", None), ("a 5 kW system", "5 kW", "kW", None),
    ("單次植髮達1,000株以上者", "1,000株以上", "plant", None), ("全部以每株新臺幣50元計價", "每株新臺幣50元", None, "plant"),
    ("初级班共8次课", "8次课", "lesson", None), ("a seven-mile line", "seven-mile", "mile", None),
    # a rate word right before the next value is that value's: "1500单位" counts units, "每单位8元" is the rate
    ("1500单位以内每单位8元", "1500单位以内", "unit", None), ("1500单位以内每单位8元", "每单位8元", None, "unit"),
    # watts, and text lengths: a rate per block of text names the block
    ("1兆瓦及以上每瓦0.025元", "每瓦0.025元", None, "W"), ("每千瓦0.5元", "每千瓦0.5元", None, "kW"),
    ("一段2000字的产品介绍", "2000字", "character", None), ("a 500-word script", "500-word", "word", None),
    ("资深配音员每百字15元", "每百字15元", None, "100 character"), ("每千字30元", "每千字30元", None, "1000 character"),
    ("£30 per 1,000 words", "£30 per 1,000 words", None, "1000 word"), ("£0.10 per word", "£0.10 per word", None, "word"),
])
def test_counting_units_and_rates(text, found, unit, per):
    facts = {f.text: f.value for f in extract_numbers(text) if f.kind == "number"}
    assert (facts[found].unit, facts[found].per) == (unit, per)


@pytest.mark.parametrize("text, found", [("會調一支30毫升香水", "30毫升"), ("you make a 50 ml parfum", "50 ml")])
def test_millilitres_are_a_unit(text, found):
    (fact,) = [f for f in extract_numbers(text) if f.kind == "number"]
    assert (fact.text, fact.value.unit) == (found, "ml")



def test_an_approximate_pair_agrees_with_the_range_it_stands_for():
    (pair,) = extract_numbers("三四块方糖")
    (stated,) = extract_numbers("3至4块方糖")
    assert compare_facts(pair, stated) == "equal"
    # digits that are not neighbours, or a 十 between them, spell one number
    assert [f.value.value for f in extract_numbers("三十四元")] == [Decimal(34)]
    assert [f.value.value for f in extract_numbers("三五元")] == [Decimal(35)]


@pytest.mark.parametrize("text, expected", [
    ("The course lasts five consecutive days.", ("five consecutive days", 5, "day", "eq")),
    ("three straight days of walking", ("three straight days", 3, "day", "eq")),
    ("Stays over 5 nights get a discount.", ("over 5 nights", 5, "night", "gt")),  # a bound
    ("The walk takes over 2 hours.", ("over 2 hours", 2, "hour", "gt")),
])
def test_days_that_run_in_a_row_are_days(text, expected):
    (fact,) = extract_numbers(text)
    assert (fact.text, fact.value.value, fact.value.unit, fact.value.comparator) == expected

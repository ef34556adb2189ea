"""Date/time extraction against hand-labelled policy, finance, HR and support text, plus
date comparison and offsets under odd Unicode."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.dates import compare_dates, extract_dates
from extractors.schema import DateValue

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "fixtures" / "extraction" / "dates.jsonl"
CASES = [json.loads(line) for line in FIXTURES.read_text(encoding="utf-8").splitlines() if line.strip()]
AS_OF = dt.date(2026, 11, 30)  # a Monday


def test_fixture_corpus_shape():
    assert len(CASES) >= 110
    chinese = sum(case["lang"] in ("zh-Hans", "zh-Hant") for case in CASES)
    assert chinese / len(CASES) >= 0.45
    assert {"zh-Hant", "mixed"} <= {case["lang"] for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_labelled_case(case):
    as_of = dt.date.fromisoformat(case["as_of"]) if case["as_of"] else None
    text = case["text"]
    facts = extract_dates(text, as_of=as_of)
    got = [(f.text, f.value.granularity, f.value.iso) for f in facts]
    assert len(facts) == len(case["expect"]), got
    for fact, exp in zip(facts, case["expect"]):
        assert fact.kind == "date"
        assert text[fact.start : fact.end] == fact.text == exp["text"]
        assert fact.start == exp.get("start", text.index(exp["text"]))
        value = fact.value
        assert (value.granularity, value.iso, value.relative) == (exp["granularity"], exp["iso"], exp["relative"]), got
        for field in ("year", "quarter", "month", "day", "hour", "minute", "weekday_from", "weekday_to"):
            if field in exp:
                assert getattr(value, field) == exp[field], field


def _v(iso_text: str) -> DateValue:
    """The single date in a short text, to keep compare tests readable."""
    (fact,) = extract_dates(iso_text, as_of=AS_OF)
    return fact.value


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("2026年3月1日", "1 March 2026", "equal"),
        ("二〇二六年三月一日", "2026-03-01", "equal"),
        ("Q3 2025", "2025年第三季度", "equal"),
        ("March 2026", "2026-03-15", "compatible"),
        ("2026-03-15", "March 2026", "compatible"),
        ("in 2026", "Q3 2026", "compatible"),
        ("Q1 2026", "2026-02", "compatible"),
        ("Q1 2026", "2026-04", "different"),
        ("2026年3月", "2026年4月", "different"),
        ("1 March 2026", "2 March 2026", "different"),
        ("2025 年", "in 2026", "different"),
        ("2026-03-01T17:30", "2026年3月1日", "compatible"),
        ("2026-03-01T17:30", "2026年3月1日下午五点半", "equal"),
        ("2026-03-01T17:30", "2026年3月1日下午5点", "different"),
        ("17:30", "下午五点半", "equal"),
        ("17:30", "5 pm", "different"),
        ("8am", "8 in the morning", "equal"),
        ("6 pm", "6 in the evening", "equal"),
        ("11 pm", "11 at night", "equal"),
        ("8am", "8 in the evening", "different"),
        ("17:30", "2026-03-01T17:30", "compatible"),
        ("17:30", "2026-03-01", "different"),
        ("Mon-Fri", "周一至周五", "equal"),
        ("Monday to Friday", "Tue-Thu", "compatible"),
        ("Mon-Fri", "周六到周日", "different"),
        ("上周五", "last Friday", "equal"),
        ("下个月", "December 2026", "equal"),
        ("the 2026-27 year", "2026/27学年", "equal"),
        ("the 2026-27 year", "2026–2027", "equal"),
        ("the 2026-27 year", "the 2025-26 year", "different"),
        ("the 2026-27 year", "March 2027", "compatible"),
        ("the 2026-27 year", "March 2028", "different"),
        ("2024-2027", "2026-27", "compatible"),
    ],
)
def test_compare_dates(a, b, expected):
    assert compare_dates(_v(a), _v(b)) == expected
    assert compare_dates(_v(b), _v(a)) == expected


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.text, f.value.iso) for f in extract_dates(text, as_of=dt.date(2026, 11, 30))]


@pytest.mark.parametrize("text, found", [
    ("Tuition for 2026-27.", [("2026-27", "2026/2027")]),
    ("2025/26学年学费", [("2025/26", "2025/2026")]),
    ("the 2026–2027 school year", [("2026–2027", "2026/2027")]),
    # A month, an identifier and a non-consecutive short end are no year ranges.
    ("due 2026-03", [("2026-03", "2026-03")]),
    ("ticket 2026-20345", []),
    ("2026-29", []),
])
def test_year_ranges(text, found):
    assert _found(text) == found


@pytest.mark.parametrize("text, found", [
    ("Payroll runs every Friday.", [("Friday", "Fri")]),
    ("Closed on Sundays", [("Sundays", "Sun")]),
    ("每周五发工资", [("周五", "Fri")]),
    ("週三休館", [("週三", "Wed")]),
    # A count of days a week, a rate, a range and a name are no single weekdays.
    ("每周五天工作制", []),
    ("每周一次", []),
    ("周一至周五营业", [("周一至周五", "Mon-Fri")]),
    ("spent $33 in a Monday-to-Sunday week", [("Monday-to-Sunday", "Mon-Sun")]),
    ("the Sun newspaper", []),
    # 四周 ("all around") before 一定 ("certain")
    ("在機場四周一定範圍內飛航", []),
])
def test_single_weekdays(text, found):
    assert _found(text) == found


def test_a_weekday_against_weekdays_and_dates():
    friday, thursday = _v("every Friday"), _v("every Thursday")
    assert compare_dates(friday, thursday) == "different"
    assert compare_dates(friday, _v("Monday to Friday")) == "compatible"
    assert compare_dates(friday, _v("每周五")) == "equal"
    assert compare_dates(friday, _v("2026-03-06")) == "compatible"  # a Friday


def test_compare_weekday_range_with_a_date():
    weekdays = _v("Mon-Fri")
    assert compare_dates(weekdays, _v("2026-12-02")) == "compatible"  # a Wednesday
    assert compare_dates(weekdays, _v("2026-03-01")) == "different"  # a Sunday
    assert compare_dates(weekdays, _v("March 2026")) == "different"


def test_compare_yearless_and_unresolved_dates():
    (yearless,) = extract_dates("3月1日")
    assert yearless.value.year is None
    assert compare_dates(yearless.value, _v("2026-03-01")) == "compatible"
    assert compare_dates(yearless.value, _v("2026-03-02")) == "different"
    (yesterday,) = extract_dates("昨天")
    (also_yesterday,) = extract_dates("yesterday")
    (tomorrow,) = extract_dates("tomorrow")
    assert compare_dates(yesterday.value, also_yesterday.value) == "equal"
    assert compare_dates(yesterday.value, tomorrow.value) == "compatible"


def test_fullwidth_digits_keep_original_offsets():
    text = "生效日期：２０２６年３月１日，時間１７：３０。"
    facts = extract_dates(text)
    assert [f.text for f in facts] == ["２０２６年３月１日", "１７：３０"]
    assert [f.value.iso for f in facts] == ["2026-03-01", "17:30"]
    assert all(text[f.start : f.end] == f.text for f in facts)


def test_crlf_nbsp_and_emoji_keep_offsets():
    text = "🎉🎉 Deadline:\r\n31\u00a0December\u00a02026 😀 then\u202fQ1\u00a02027\r\n"
    facts = extract_dates(text)
    assert [f.value.iso for f in facts] == ["2026-12-31", "2027-Q1"]
    assert [text[f.start : f.end] for f in facts] == ["31\u00a0December\u00a02026", "Q1\u00a02027"]


def test_relative_words_without_as_of_keep_only_what_is_known():
    facts = extract_dates("下周一和next month")
    assert [(f.value.iso, f.value.relative, f.value.year) for f in facts] == [
        ("rel:week+1:mon", True, None),
        ("rel:month+1", True, None),
    ]


def test_datetime_as_of_is_accepted():
    (fact,) = extract_dates("yesterday", as_of=dt.datetime(2026, 11, 30, 23, 59))
    assert fact.value.iso == "2026-11-29"


def test_bad_input():
    assert extract_dates("") == []
    assert extract_dates("   \n\t") == []
    with pytest.raises(TypeError, match="text"):
        extract_dates(None)  # type: ignore[arg-type]


def test_results_are_sorted_and_non_overlapping():
    text = "2026年3月1日至3月15日（周一至周五 9:00-18:00），Q3 2025 vs 2025年第三季度；last Friday 上周五。" * 3
    facts = extract_dates(text, as_of=AS_OF)
    assert len(facts) == 3 * 9
    for left, right in zip(facts, facts[1:]):
        assert left.end <= right.start


_ALPHABET = st.sampled_from(
    list("0123456789年月日号点半周至到-/:季度第上下本去今明天 \u00a0\u3000\r\n２０１３：")
    + ["March ", "Q3 ", "FY", "last Friday", "Mon-Fri", "p.m.", "下午", "二〇", "😀", "週", "點", "2026", "12:30"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_ALPHABET, max_size=30).map("".join))
def test_offsets_round_trip_on_random_text(text):
    facts = extract_dates(text, as_of=AS_OF)
    previous_end = 0
    for fact in facts:
        assert text[fact.start : fact.end] == fact.text
        assert fact.start >= previous_end
        previous_end = fact.end


@pytest.mark.parametrize("text, found", [
    # Taiwan's Republic-of-China calendar: year + 1911.
    ("自115年1月1日起調整", [("115年1月1日", "2026-01-01")]),
    ("於民國114年12月31日前交寄", [("民國114年12月31日", "2025-12-31")]),
    ("114年度標準版價格", [("114年度", "2025")]),
    ("民國115年3月", [("民國115年3月", "2026-03")]),
    # A bare 100-199 before 年 with no month is a count of years, not a date.
    ("服務滿114年", []),
    # ... unless a recent one opens a sentence as its topic
    ("全票新台幣200元。114年全票為新台幣180元。", [("114年", "2025")]),
    ("114年以上的老店", []),
    ("本店有120年歷史。", []),
])
def test_roc_years(text, found):
    assert _found(text) == found


@pytest.mark.parametrize("text, found", [
    # The end of a month is its last day: "before the end of March" is not "before March".
    ("在2027年3月底之前预约可以打九折", [("2027年3月底", "2027-03-31")]),
    ("115年2月底前", [("115年2月底", "2026-02-28")]),
    ("2028年2月末", [("2028年2月末", "2028-02-29")]),
    ("3月末班车时间调整", [("3月", "2026-03")]),
])
def test_month_end(text, found):
    assert _found(text) == found


@pytest.mark.parametrize("text, found", [
    # Two month names joined as a range are both months, with no "from" or "in" before them.
    ("The gondola is open May to October.", [("May", "2026-05"), ("October", "2026-10")]),
    ("Tours run June-August.", [("June", "2026-06"), ("August", "2026-08")]),
    ("unlimited rides from May to October plus 15% off", [("May", "2026-05"), ("October", "2026-10")]),
    # "between … and …" joins two months too; "Jan and May" alone may be two people.
    ("Exterior jobs are booked between April and October.", [("April", "2026-04"), ("October", "2026-10")]),
    ("Send it to Jan and May.", []),
    # A Chinese range says 月 once, after its last month: 6到8月 is June to August.
    ("每年6到8月外墙暂停施工", [("6", "2026-06"), ("8月", "2026-08")]),
    ("3至5月份营业", [("3", "2026-03"), ("5月份", "2026-05")]),
])
def test_a_range_of_month_names(text, found):
    assert _found(text) == found


@pytest.mark.parametrize("text, found", [
    # A range's last day in the first day's month and year: "2月1日到10日" ends on 10 February.
    ("报名时间是2月1日到10日", [("2月1日", "2026-02-01"), ("10日", "2026-02-10")]),
    ("2026年12月20日至25日", [("2026年12月20日", "2026-12-20"), ("25日", "2026-12-25")]),
    ("115年3月1日至15日", [("115年3月1日", "2026-03-01"), ("15日", "2026-03-15")]),
    ("3月5日到3日", [("3月5日", "2026-03-05")]),  # no range ends before it starts
])
def test_a_range_of_days_in_one_month(text, found):
    assert _found(text) == found


def test_bare_hours_after_a_part_of_the_day_are_times():
    found = [(d.text, d.value.hour) for d in extract_dates("Rehearsals are on Tuesday evenings from 7 to 9.")
             if d.value.granularity == "time"]
    assert found == [("7", 19), ("9", 21)]
    assert [(d.text, d.value.hour) for d in extract_dates("Open mornings 9 to 12.")] == [("9", 9), ("12", 12)]
    assert not [d for d in extract_dates("Allow an evening for 2 to 3 hours of work.") if d.value.granularity == "time"]


@pytest.mark.parametrize("text, found", [
    ("Fridays from 6:30 to 9:30pm", [("6:30", 18, 30), ("9:30pm", 21, 30)]),
    ("Tuesdays from 7 to 10pm", [("7", 19, 0), ("10pm", 22, 0)]),
    ("open 10 to 2pm", [("10", 10, 0), ("2pm", 14, 0)]),  # the earlier hour of the day is in the morning
    ("from 10 to 2am", [("10", 22, 0), ("2am", 2, 0)]),   # the night before
])
def test_the_first_time_of_a_range_takes_the_half_of_the_day_the_second_names(text, found):
    assert [(d.text, d.value.hour, d.value.minute) for d in extract_dates(text) if d.value.granularity == "time"] == found


@pytest.mark.parametrize("text, found", [
    ("It runs Monday to Friday from 10 to 3.", [("10", 10), ("3", 15)]),  # ends in the afternoon
    ("Open weekdays 9-5.", [("9", 9), ("5", 17)]),
    ("Saturdays from 2 to 4.", [("2", 14), ("4", 16)]),
    ("Open Monday to Friday 9 to 12.", [("9", 9), ("12", 12)]),
    ("Monday to Friday, 10 to 12 people.", []),  # a count, not hours
])
def test_bare_hours_after_the_days_they_are_on_are_times(text, found):
    assert [(d.text, d.value.hour) for d in extract_dates(text) if d.value.granularity == "time"] == found


def test_the_last_weekday_of_each_month_is_no_relative_date():
    import datetime as dt

    from extractors.dates import extract_dates

    facts = extract_dates("It runs on the last Saturday of each month.", as_of=dt.date(2026, 12, 13))
    assert [(f.text, f.value.granularity) for f in facts] == [("Saturday", "weekday_range")]
    (last,) = extract_dates("We met last Saturday.", as_of=dt.date(2026, 12, 13))
    assert (last.text, last.value.iso) == ("last Saturday", "2026-12-12")

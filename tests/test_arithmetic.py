"""Values an answer works out from the values it states (verifier.arithmetic)."""

from __future__ import annotations

import pytest

from extractors.claims import split_claims
from verifier.arithmetic import worked_out


def _worked(analyzer, answer: str, value: str, question: str = "") -> str | None:
    for claim in split_claims(answer, analyzer=analyzer):
        for fact in claim.facts:
            if fact.text == value:
                return worked_out(fact, claim, answer[: claim.start], question)
    raise AssertionError(f"{value!r} is no fact of {answer!r}")


@pytest.mark.parametrize("answer, value, question, how", [
    ("A private lesson for two is $110 each, so $220 for both of you.", "$220", "", "$110 × 2"),
    ("Tickets are $62 each for the two of you and $48 for your child, $172 in total.", "$172", "", "$62 × 2 + $48"),
    ("挂机每台120元，柜机200元，三台加起来440元。", "440元", "我家两台挂机一台柜机", "每台120元 × 2 + 200元"),
    # A value worked out in an earlier sentence is built on.
    ("三台加起来440元。同一地址洗满三台可以打八五折，所以实际是374元。", "374元", "", "440元 × 八五折"),
    ("长崎全日游大人每人699元，含午餐；10岁孩子按七折算，是489.3元。", "489.3元", "", "每人699元 × 七折"),
    ("每人先付新台幣300元訂金，10個人就是3,000元。", "3,000元", "", "新台幣300元 × 10"),
    ("中介费按一个月工资的一半收，7000元月薪就是3500元。", "3500元", "", "7000元 × 一半"),
    ("运动鞋每双39元，两双是78元。", "78元", "", "每双39元 × 2"),
    # a count in Traditional script, a bare 元 in the currency the rest of the claim names, a total without its 元
    ("號牌一面450元，一組兩面就是新台幣九百元。", "新台幣九百元", "", "450元 × 2"),
    ("一次植一千株以上就全部以每株50元計算，1,200株是新台幣六萬元。", "新台幣六萬元", "", "每株50元 × 1200"),
    ("前1500个单位每单位8元是一万二。", "一万二", "", "每单位8元 × 1500"),
    # what is left to pay after a subsidy
    ("午餐一份15元，每餐可以补贴5元，自己只要付十块钱。", "十块钱", "", "15元 − 5元"),
    ("研学每人3280元，助学金家庭可以减免一半，只要交一千六百四十元。", "一千六百四十元", "", "每人3280元 × 一半"),
    # How much cheaper one price is than another.
    ("单次冷疗198元，比原价298元便宜一百块。", "一百块", "", "298元 − 198元"),
    ("單件傢俬棄置每件港幣350元起，兩件就係港幣700元起。", "港幣700元起", "", "每件港幣350元起 × 2"),  # 就係: Cantonese 就是
    ("兩件夏季恤衫每件港幣165蚊，兩條裙每條港幣150蚊，總共港幣630蚊。", "港幣630蚊", "", "每件港幣165蚊 × 2 + 每條港幣150蚊 × 2"),
    ("The hammer is £38 a day, and weekend hire is charged at one and a half times that, so £57 a day.", "£57 a day", "",
     "£38 a day × one and a half times"),
    ("平日每小时80元，周末按1.5倍收费，就是120元。", "120元", "", "每小时80元 × 1.5倍"),
    # A base price for the first items, then a price for each extra one.
    ("A collection covers up to five sacks for £45, and each extra sack is £5, so eight sacks would come to £60.",
     "£60", "", "£45 + (8 − 5) × £5"),
    ("The regular fee is US$45. Students pay half that, at $22.50.", "$22.50", "", "US$45 × half"),
    ("Season ticket holders get half off adult tours, so the £22 adult ticket costs you £11.", "£11", "",
     "£22 × half off"),
    # The price it replaces may follow the worked-out one.
    ("Members get 15% off workshops, so the full-day workshop would be £119 instead of £140.", "£119", "",
     "£140 × (100% − 15%)"),
    ("吨袋机制砂每袋二百六十元，三袋是780元。", "780元", "", "二百六十元 × 3"),
    ("They'll collect and return it for £15 each way, so £30 for the round trip.", "£30", "", "£15 × 2"),
    ("接送单程每人15元，往返就是30元。", "30元", "", "每人15元 × 2"),
    # ", 共" before the total: "…正好3天，共8400元"
    ("工作日租金每天2800元，周一到周三正好3天，共8400元。", "8400元", "", "每天2800元 × 3"),
    # A price per unit per day times both counts; a price per metre times the metres, however many.
    ("标准单体厕所每台每天二百六十元，三台租两天一共一千五百六十元。", "一千五百六十元", "", "每台每天二百六十元 × 2 × 3"),
    ("鐵絲網圍籬每公尺新台幣四百五十元，兩百公尺大約新台幣九萬元。", "大約新台幣九萬元", "", "每公尺新台幣四百五十元 × 200"),
    # A price per block of text, or per smaller unit, times what the claim counts in those units.
    ("资深配音员每百字15元，两千字就是三百元。", "三百元", "", "每百字15元 × 20 [两千字]"),
    ("你们装机2兆瓦，按每瓦0.025元算，清洗一次大约五万元。", "大约五万元", "", "每瓦0.025元 × 2000000 [2兆瓦]"),
    ("护栏每米80元，1.5公里一共十二万元。", "十二万元", "", "每米80元 × 1500 [1.5公里]"),
    # a count, a share and a price together; a price less another plus a third for each of a count
    ("普通针刺一次一百二十元，买十次疗程卡打九折，十次合计一千零八十元。", "一千零八十元", "", "一百二十元 × 10 × 九折"),
    ("The package is £395, and they'll take £60 off. Add two extra stations at £40 each and it comes to £415 "
     "altogether.", "£415", "", "£395 − £60 + £40 × 2"),
    # a count of people right before a total, in Cantonese with no verb; a price times a count less a saving
    ("24小時成人飛每張港幣200蚊，兩個人四百蚊。", "四百蚊", "", "每張港幣200蚊 × 2"),
    ("校车每学期2400元，第二个孩子每学期减300元，所以两个孩子一学期一共四千五百元。", "四千五百元", "", "2400元 × 2 − 300元"),
    ("黄纸板每公斤1.2元，60公斤大概七十二块。", "大概七十二块", "", "每公斤1.2元 × 60"),
    # The count may follow the total.
    ("Resin-bound is £65 per square metre, so roughly £2,600 for forty square metres.", "roughly £2,600", "",
     "£65 per square metre × 40"),
    # A value from an earlier sentence, and "take you to" the total.
    ("On Pro you pay £89 a month. Weekend cover is £25 a month, which would take you to £114 a month.",
     "£114 a month", "", "£89 a month + £25 a month"),
    # The same amount over a year.
    ("Renewing costs 5% of the annual rent, so on £2,000 a month (£24,000 a year) that's £1,200.", "£24,000 a year",
     "", "£2,000 a month × 12"),
    # Cantonese: 平 ("cheaper by") before the difference; 四季 counts quarters.
    ("每季會費港幣480元。全年會費係港幣一千六百八十蚊，比分四季交（即係一千九百二十蚊）平二百四十蚊。", "二百四十蚊", "",
     "一千九百二十蚊 − 港幣一千六百八十蚊"),
    # A price over the units it buys, per unit.
    ("200分钟卡八百元，平均每分钟四元。", "每分钟四元", "", "八百元 ÷ 200"),
    # The parts in brackets right after the total.
    ("For one window plus the door it works out at £11 a visit (£9 for the window and £2 for the door).", "£11", "",
     "£9 + £2"),
    # A price per square metre times the square metres.
    ("按每平方米6元算，2000平方米洗一次是一万两千元。", "一万两千元", "", "每平方米6元 × 2000"),
    # All but one of the party at one price, the last at another.
    ("The crystal cabin is HK$315 for adults and HK$185 for a child, so HK$815 for the three of you.", "HK$815", "",
     "HK$315 × (3 − 1) + HK$185"),
])
def test_a_value_worked_out_in_one_step_is_found(analyzer, answer, value, question, how):
    assert _worked(analyzer, answer, value, question) == how


@pytest.mark.parametrize("answer, value", [
    ("Each sack is $5, so eight sacks cost $45.", "$45"),                    # 8 × $5 is $40
    ("The room holds 10 people for 2 hours and costs $20.", "$20"),          # no word says it is worked out
    ("The deposit is £110, so the total is $220 for both of you.", "$220"),  # pounds are no dollars
])
def test_a_value_no_step_gives_is_not_worked_out(analyzer, answer, value):
    assert _worked(analyzer, answer, value) is None


def test_a_worked_out_total_is_no_wrong_value(analyzer):
    from verifier import Verifier

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "Private lessons cost $110 per person. Group lessons cost $70 per person, $140 for two."}
    claim = lexical.verify("A private lesson is $110 each, so $220 for both of you.", [source]).claims[0]
    facts = {f.text: f for f in claim.facts}
    assert (facts["$220"].status, facts["$220"].evidence_text, facts["$220"].source_id) == ("matched", "$110 × 2", None)
    assert claim.label != "contradicted"
    # A wrong product stays a wrong value against the source's total.
    claim = lexical.verify("A private lesson is $110 each, so $200 for both of you.", [source]).claims[0]
    assert {f.text: f.status for f in claim.facts}["$200"] != "matched"


def test_a_value_worked_out_from_the_sources_own_value_is_found(analyzer):
    """"减半，也就是每月300元": the claim scales the source's 600元 by a share it states itself."""
    from verifier import Verifier

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "正式员工每月享有餐补600元、交通补贴300元；试用期员工餐补减半。"}
    facts = {f.text: f for f in lexical.verify("试用期员工餐补减半，也就是每月300元。", [source]).claims[0].facts}
    assert (facts["每月300元"].status, facts["每月300元"].evidence_text) == ("matched", "600元 × 减半")
    # A share that gives another value leaves the source's value standing against it (the true
    # half of the sentence may then be read on its own: `verifier.resplit`).
    facts = {f.text: f for c in lexical.verify("试用期员工餐补减半，也就是每月200元。", [source]).claims for f in c.facts}
    assert (facts["每月200元"].status, facts["每月200元"].evidence_text) == ("mismatched", "600元")


def test_the_model_reads_a_claim_without_the_sum_the_fact_check_worked_out(analyzer):
    """NLI models cannot add up; once the sum is checked, the claim goes to the model without it.
    A wrong sum is no working, so the model still reads it."""
    from verifier import Verifier

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "Private lessons cost $110 per person."}
    for answer, hypothesis in [("A private lesson is $110 each, so $220 for both of you.",
                                "A private lesson is $110 each for both of you"),
                               ("A private lesson is $110 each, so $200 for both of you.",
                                "A private lesson is $110 each, so $200 for both of you")]:
        prepared = lexical.prepare({"answer": answer, "sources": [source]})
        assert {h for _, h in prepared.pairs()} == {hypothesis}


def test_a_count_the_sum_multiplies_by_is_found_in_the_sum(analyzer):
    """"两双" is the asker's quantity: no source states it, and the sum that uses it is checked."""
    from verifier import Verifier

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "运动鞋清洗每双39元，3天可取。"}
    facts = {f.text: f for c in lexical.verify("运动鞋每双39元，两双是78元。", [source]).claims for f in c.facts}
    assert (facts["两双"].status, facts["两双"].evidence_text) == ("matched", "每双39元 × 2")
    # A wrong sum uses no count, which stays missing.
    facts = {f.text: f for c in lexical.verify("运动鞋每双39元，两双是80元。", [source]).claims for f in c.facts}
    assert facts["两双"].status == "missing"
    # The asker's length is no other value for the fence's height the source gives.
    source = {"id": "S1", "text": "鍍鋅鋼板圍籬每公尺新台幣1,600元（高度1.8公尺），鐵絲網圍籬每公尺新台幣450元（適用農地）。"}
    answer = "鐵絲網圍籬每公尺新台幣四百五十元，兩百公尺大約新台幣九萬元。"
    facts = {f.text: f for c in lexical.verify(answer, [source]).claims for f in c.facts}
    assert [facts[t].status for t in ("兩百公尺", "大約新台幣九萬元")] == ["matched", "matched"]
    assert facts["兩百公尺"].evidence_text == "每公尺新台幣四百五十元 × 200"
    # All the units a sum adds up are counted too: two adults and a child are three people.
    source = {"id": "S1", "text": "成人票每張新台幣899元，兒童票每張新台幣699元。"}
    answer = "兩位大人每張新台幣899元，小孩每張699元，三人合計新台幣2,497元。"
    facts = {f.text: f for c in lexical.verify(answer, [source]).claims for f in c.facts}
    assert (facts["三人"].status, facts["三人"].evidence_text) == ("matched", "每張新台幣899元 × 2 + 每張699元")
    facts = {f.text: f for c in lexical.verify(answer.replace("三人", "四人"), [source]).claims for f in c.facts}
    assert facts["四人"].status == "missing"


def test_a_claim_that_is_only_a_sum_rests_on_the_sentence_stating_its_amounts(analyzer):
    """"三台加起来440元" holds nothing for the model but a sum it cannot do: once the sum is worked
    out from amounts one source sentence states, the claim is supported by that sentence. A sum of
    amounts the sources do not state, or a wrong sum, is not."""
    from verifier import Verifier

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "清风家电提供上门空调清洗。挂机清洗每台120元，柜机每台200元。外机清洗另收每台60元。"}
    claims = lexical.verify("挂机每台120元，柜机200元。合计320元。", [source]).claims
    total = next(c for c in claims if "320元" in c.text)
    assert (total.text, total.label) == ("合计320元", "supported"), total
    assert "每台120元 + 200元" in total.reason
    assert total.evidence[0].text == "挂机清洗每台120元，柜机每台200元。"
    for answer in ("挂机每台150元，柜机200元。合计350元。",  # amounts no source states
                   "挂机每台120元，柜机200元。合计340元。"):  # no working gives 340
        total = next(c for c in lexical.verify(answer, [source]).claims if "合计" in c.text)
        assert total.label != "supported", (answer, total)


def test_a_total_stated_last_after_a_split_so_is_a_sum_too(analyzer):
    """"…, so it's $159 in total": the split leaves "it's $159 in total", whose cue follows the
    value. It is worked out from the two amounts the source states, not left unsupported; a
    total that names what it is the total of is no bare sum."""
    from verifier import Verifier
    from verifier.arithmetic import working

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "A 6 ft Noble fir is $119, a 7 ft tree is $139 and an 8 ft tree is $169. "
                                  "Delivery is $20 per order."}
    answer = "A 7 ft Noble fir is $139, and delivery adds $20, so it's $159 in total."
    total = next(c for c in lexical.verify(answer, [source]).claims if "$159" in c.text)
    assert (total.text, total.label) == ("it's $159 in total", "supported"), total
    assert "$139 + $20" in total.reason
    wrong = next(c for c in lexical.verify(answer.replace("$159", "$179"), [source]).claims if "$179" in c.text)
    assert wrong.label != "supported", wrong
    named = split_claims("The tree is $139, and delivery adds $20. The order is $159 in total.", analyzer=analyzer)[-1]
    assert working(named, "The tree is $139, and delivery adds $20. ") == []


def test_operands_stated_needs_every_amount_of_the_working(analyzer):
    from extractors import extract_numbers
    from verifier.arithmetic import operands_stated

    stated = extract_numbers("挂机清洗每台120元，柜机每台200元。")
    assert operands_stated("每台120元 × 2 + 200元", stated)
    assert not operands_stated("每台150元 × 2 + 200元", stated)
    assert not operands_stated("$120 × 2 + $200", stated)  # another currency
    assert not operands_stated("× 2", stated)  # nothing but a count


def test_the_price_a_worked_out_one_replaces_goes_with_the_working(analyzer):
    """"so … £119 instead of £140": the model reads the claim without the sum, and without the
    price the sum replaces (alone it would read as the claim's price)."""
    from verifier.arithmetic import working

    answer = "Members get 15% off workshops, so the full-day workshop would be £119 instead of £140."
    (claim,) = split_claims(answer, analyzer=analyzer)
    assert working(claim) == [", so the full-day workshop would be £119 instead of £140"]
    # without the word that says it replaces one, a price that follows is no operand
    assert _worked(analyzer, "Members get 15% off, so the workshop would be £119, and the kit £140.", "£119") is None


def test_units_counted_at_a_source_rate_are_priced_without_a_cue(lexical):
    """"Two extra hours would cost £150" from "Each extra hour … is £75": the source prices one
    unit and the claim counts that unit, so no "so" is needed. The model reads it per unit ("each
    extra hour would cost £75"), which it can judge. A wrong product, or a count of another unit,
    is no sum."""
    source = {"id": "S1", "text": "The Full Day package covers up to 10 hours for £850. Each extra hour beyond the "
                                  "package is £75. Travel within 25 miles is free."}

    def price(answer: str):
        (claim,) = lexical.verify(answer, [source]).claims
        return next((f.status, f.evidence_text) for f in claim.facts if f.text.startswith("£"))

    assert price("Two extra hours would cost £150.") == ("matched", "£75 × 2")
    assert price("Three extra hours would cost £200.")[0] != "matched"
    assert price("Two extra guests would cost £150.") != ("matched", "£75 × 2")
    prepared = lexical.prepare({"answer": "Two extra hours would cost £150.", "sources": [source]})
    assert prepared.readings == ["each extra hour would cost £75"]
    assert all(claim == "each extra hour would cost £75" for _, claim in prepared.pairs())
    assert lexical.prepare({"answer": "Two extra guests would cost £150.", "sources": [source]}).readings == [None]


def test_a_sum_over_several_source_sentences_finds_them_all(analyzer):
    """"it comes to £415 altogether" names only the extra stations; the sentences giving the
    package price and the discount are found by the amounts the sum is worked out from."""
    from verifier import Verifier

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "Our Starter package is £395 and includes a script written by our copywriter. Our Duo "
                                  "package is £545. Versions for extra stations are £40 each. If you supply your own "
                                  "script, we take £60 off either package. Changes after recording cost £75."}
    answer = ("The Starter package is £395, but as you're writing the script yourself they'll take £60 off. Add "
              "versions for your two extra stations at £40 each and it comes to £415 altogether.")
    total = next(c for c in lexical.verify(answer, [source]).claims if "£415" in c.text)
    assert total.label == "supported", total.reason
    assert "£395 − £60 + £40 × 2" in total.reason
    wrong = lexical.verify(answer.replace("£415", "£425"), [source]).claims
    assert next(c for c in wrong if "£425" in c.text).label != "supported"


def test_the_text_a_price_per_block_counts_is_found_in_the_sum(analyzer):
    from verifier import Verifier

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "普通配音员每百字8元，资深配音员每百字15元，明星级配音员单独报价。"}
    claims = lexical.verify("资深配音员每百字15元，两千字就是三百元。", [source]).claims
    total = next(c for c in claims if "三百元" in c.text)
    assert {f.text: f.status for f in total.facts} == {"两千字": "matched", "三百元": "matched"}
    assert total.label == "supported", total.reason
    claims = lexical.verify("资深配音员每百字15元，两千字就是四百元。", [source]).claims
    assert next(c for c in claims if "四百元" in c.text).label != "supported"


def test_the_counts_a_sum_is_worked_out_with_go_with_it(analyzer):
    """"按两位整理师干四小时算，一共一千二百元" is all sum: the model reads none of it."""
    from verifier import Verifier

    lexical = Verifier("lexical", analyzer=analyzer)
    source = {"id": "S1", "text": "衣橱整理按小时计费，每人每小时150元，4小时起约。"}
    answer = "衣橱整理每人每小时150元，四小时起约。按两位整理师干四小时算，一共一千二百元。"
    prepared = lexical.prepare({"answer": answer, "sources": [source]})
    total = next(i for i, c in enumerate(prepared.claims) if "一千二百元" in c.text)
    assert prepared.workings[total] == ["按两位整理师干四小时算，一共一千二百元"]
    claim = lexical.verify(answer, [source]).claims[total]
    assert claim.label == "supported", claim.reason
    # A price in the premise is the source's to confirm: the model still reads it.
    priced = lexical.prepare({"answer": "按每平方米6元算，2000平方米洗一次是一万两千元。", "sources": [source]})
    assert priced.workings[0] == ["，2000平方米洗一次是一万两千元"]

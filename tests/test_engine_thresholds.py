"""The engine on cases whose values sit on either side of one threshold, names said in parts,
an opposite in one clause of a claim of several, and totals worked out across sentences
(lexical baseline: the fact checks and polarity rules, not the model, decide these)."""

from __future__ import annotations

import pytest

from verifier import Verifier


@pytest.fixture(scope="module")
def lexical(analyzer):
    return Verifier("lexical", analyzer=analyzer)


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

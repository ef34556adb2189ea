"""A bound's other side, said in words: by the claim ("否则", "otherwise") or by the source ("之后").

"临时取消要提前十二个小时以上，否则扣一半费用" states what "提前不足12小时取消，收取服务费的50%" states,
from the other side of the same 12 hours; "超过三个月再补色就按时数收费" states what "补色于3个月内
免费一次，之后依时计费" says after its bound. The value is then found, the bound being the evidence;
whether the rest of the claim holds is the model's and the polarity check's to say.
"""

from __future__ import annotations

import re

from extractors import Claim, Fact
from extractors.compare import ABOVE, BELOW, other_side
from extractors.qualifiers import clauses, is_negated
from verifier.segment import Span

_OTHERWISE = re.compile(r"否则|否則|不然|\botherwise\b|\bor else\b", re.IGNORECASE)
# (and beyond a distance: "free within 20 miles; further away there is a £75 fee")
_THEREAFTER = re.compile(r"\s*(?:之后|之後|此后|此後|其后|其後|after that\b|thereafter\b|beyond (?:that|this)\b|"
                         r"(?:further|farther) (?:away|out)\b|超出范围|超出範圍|范围以外|範圍以外)", re.IGNORECASE)


def bound_from_other_side(fact: Fact, rivals: list[Fact], span: Span, claim: Claim) -> Fact | None:
    """The span's bound (among `rivals`, its values that differ from `fact`) that the claim
    states from the other side, in words; None when there is none."""
    at = claim.text.find(fact.text)
    otherwise = at >= 0 and bool(_OTHERWISE.search(claim.text, at + len(fact.text)))
    for o in rivals:
        if not other_side(fact.value, o.value):  # type: ignore[arg-type]
            continue
        a, b = span.clause_of(o)
        if otherwise and is_negated(claim.text) == is_negated(span.text[a:b]):
            return o
        if fact.value.comparator in ABOVE and o.value.comparator in BELOW and _then_after(span, b):  # type: ignore[union-attr]
            return o
    return None


def _then_after(span: Span, end: int) -> bool:
    """Whether the clause after the one ending at `end` opens with "之后" / "after that"."""
    following = next((a for a, _ in clauses(span.text) if a >= end), None)
    return following is not None and bool(_THEREAFTER.match(span.text, following))

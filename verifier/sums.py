"""The one- to three-step sums a claim's worked-out value may be: "$110 × 2", "500元 + 200元",
"2400元 × 2 − 300元", "£395 − £60 + £40 × 2". Pure search over the amounts, counts and shares the
claim states (`verifier.arithmetic` finds those and says when a claim is working a value out).
"""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations, combinations_with_replacement, permutations

_CENT = Decimal("0.01")
_MAX_TERMS = 8  # (amounts tried in three-term sums: 336 orderings)


def sum_of(target: Decimal, same: list[tuple[str, Decimal]], counts: list[int],
           shares: list[tuple[str, Decimal]]) -> str | None:
    """How `target` is worked out, as written ("每台120元 × 2 + 200元"), or None. `same`: the
    amounts (as written, value) of the target's kind; `counts`: whole numbers to multiply by;
    `shares`: parts of a price (label, factor), "八五折", "(100% − 15%)". Simpler sums are tried first."""
    for written, a in same:
        for m in counts:
            if equal(a * m, target):
                return f"{written} × {m}"
            if equal(a / m, target):
                return f"{written} ÷ {m}"
        for label, share in shares:
            if equal(a * share, target):
                return f"{written} × {label}"
        # "三台租两天": a price per unit per day times both counts
        for m, n in combinations_with_replacement(counts, 2):
            if equal(a * m * n, target):
                return f"{written} × {m} × {n}"
        # "一次一百二十元，买十次疗程卡打九折，十次合计一千零八十元"
        for m in counts:
            for label, share in shares:
                if equal(a * m * share, target):
                    return f"{written} × {m} × {label}"
    for size in (2, 3, 4):
        for group in combinations(same, size):
            if equal(sum((a for _, a in group), Decimal(0)), target):
                return " + ".join(t for t, _ in group)
    for (ta, a), (tb, b) in combinations(same, 2):
        if equal(abs(a - b), target):
            return f"{ta} − {tb}" if a > b else f"{tb} − {ta}"
        # "$62 each for the two of you and $48 for your child, $172 in total"; "兩件恤衫每件165蚊，
        # 兩條裙每條150蚊，總共630蚊"
        for m, n in [(m, n) for m in counts for n in [1, *counts]]:
            if equal(a * m + b * n, target):
                return f"{ta} × {m} + {tb}" + (f" × {n}" if n > 1 else "")
            if equal(b * m + a * n, target):
                return f"{tb} × {m} + {ta}" + (f" × {n}" if n > 1 else "")
        # "two adults and a child, three of you, $815 in total": all but one at one price
        for k in counts:
            for (tx, x), (ty, y) in (((ta, a), (tb, b)), ((tb, b), (ta, a))):
                if k > 2 and equal(x * (k - 1) + y, target):
                    return f"{tx} × ({k} − 1) + {ty}"
        # "up to five sacks for £45, and each extra sack is £5, so eight sacks would come to £60"
        for k, m in combinations(counts, 2):
            for (tx, x), (ty, y) in (((ta, a), (tb, b)), ((tb, b), (ta, a))):
                if equal(x + (m - k) * y, target):
                    return f"{tx} + ({m} − {k}) × {ty}"
    # "每学期2400元，第二个孩子每学期减300元，所以两个孩子一学期一共四千五百元"
    for (ta, a), (tb, b) in combinations(same, 2):
        for m in counts:
            if equal(a * m - b, target):
                return f"{ta} × {m} − {tb}"
            if equal(b * m - a, target):
                return f"{tb} × {m} − {ta}"
    # "£395, … £60 off. Add … two extra stations at £40 each and it comes to £415": a price, less or
    # plus another, plus a third for each of a count
    for (tx, x), (ty, y), (tz, z) in permutations(same[:_MAX_TERMS], 3):
        for m in [1, *counts]:
            for sign, op in ((1, "+"), (-1, "−")):
                if (sign > 0 or x > y) and equal(x + sign * y + z * m, target):
                    return f"{tx} {op} {ty} + {tz}" + (f" × {m}" if m > 1 else "")
    return None


def whole(value: Decimal | None) -> int | None:
    return int(value) if value is not None and value == value.to_integral_value() else None


def equal(computed: Decimal, target: Decimal) -> bool:
    """Equal to the cent."""
    return abs(computed.quantize(_CENT) - target.quantize(_CENT)) <= _CENT / 2

"""Do two facts fill the same slot, and do their values agree?

Rules for numbers (documented here because the fact-check step depends on them):
- Script and format never matter: ``1-5`` = ``1 到 5``, ``三百元`` = ``300 元``.
- Units convert within a dimension (m/km, g/kg, ms/s/min/h/day/week, month/year, MB/GB/TB).
  ``business_day`` vs ``day`` share a slot but do not convert: equal numbers are only
  "compatible", anything else "different". Months and years do not convert to days or weeks
  either: when the days fit that many calendar months (28-31 days each; a year 360-372) the two
  are "close" (``30 days`` / ``1 month``, ``180天`` / ``半年``), which the fact check counts as
  found (every hand-labelled case reads them as one value) and never as a contradiction.
- ``equal``: same comparator and same value or range after unit conversion (approximation
  flags ignored), and no side states a currency, unit or rate the other lacks (then at most
  "compatible").
- ``compatible``: a value inside a range; the first side's range inside the second's (a
  claim may narrow a source's range, never widen it); a value (or range) satisfying the other
  side's bound (``up to 500`` vs ``300``); an approximate value within tolerance
  (max(10 %, half its last stated digit), so ``about 1.2 km`` ~ ``1,247 m``); or rounding,
  when the less precise side equals the other rounded to its stated digits
  (``$3.2B`` ~ ``$3.21B``, ``1.2 km`` ~ ``1,247 m``), when that side states more than one digit
  (``1年`` is a count, not ``半年`` rounded). Precision comes from the Decimal
  exponent the extractor keeps (``3.2E+9`` is stated to 0.1 billion). Money rounds only when
  scaled: a plain price is exact (``$2`` is not ``$1.50``).
- A unit on one side only is implied, not converted: ``at least 16`` ~ ``at least 16 years``.
- Two limits agree only when they match (``over 4800`` ~ ``4800 or more``: the edge alone
  differs): ``up to 500`` vs ``up to 300`` and ``within 7 days``
  vs ``within 1-5 days`` are "different"; ``within 5 days`` vs ``within 1-5 days`` is
  "compatible". Against a plain value or range, a range's own ``内``/``within`` is ignored.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from extractors.numbers_vocab import BARE_DOLLAR, BARE_FAMILIES, BARE_YEN
from extractors.schema import Fact, Quantity

__all__ = ["same_slot", "compare_facts", "describe", "in_unit", "Comparison"]

Comparison = Literal["equal", "compatible", "close", "different"]

# unit -> (conversion dimension, factor to the dimension's base unit)
_CONVERT: dict[str, tuple[str, Decimal]] = {
    "m": ("length", Decimal(1)), "km": ("length", Decimal(1000)), "cm": ("length", Decimal("0.01")),
    "mile": ("length", Decimal("1609.344")), "W": ("power", Decimal(1)), "kW": ("power", Decimal(1000)),
    "MW": ("power", Decimal(1000000)),
    "g": ("mass", Decimal(1)), "kg": ("mass", Decimal(1000)),
    "millisecond": ("time", Decimal("0.001")), "second": ("time", Decimal(1)), "minute": ("time", Decimal(60)),
    "hour": ("time", Decimal(3600)), "day": ("time", Decimal(86400)), "week": ("time", Decimal(604800)),
    "month": ("month", Decimal(1)), "year": ("month", Decimal(12)),
    "MB": ("data", Decimal(1)), "GB": ("data", Decimal(1000)), "TB": ("data", Decimal(10**6)),
    "percent": ("percent", Decimal(1)), "percentage_point": ("percent", Decimal(1)),
    "tenth_of_price": ("price_share", Decimal(1)),
    "business_day": ("business_day", Decimal(1)), "business_week": ("business_day", Decimal(5)),  # a working week
}
# Dimensions that can fill the same slot even though they do not convert exactly.
_SLOT = {"time": "duration", "month": "duration", "business_day": "duration", "business_hour": "duration"}
_ENTITY_FAMILY = {"GPE": "place", "LOC": "place", "CODE": "product", "PRODUCT": "product"}
_APPROX_REL = Decimal("0.1")


def _dimension(q: Quantity) -> str | None:
    if q.unit is not None:
        return _CONVERT.get(q.unit, (q.unit, Decimal(1)))[0]
    return "money" if q.currency else None


def _factor(q: Quantity) -> Decimal:
    return _CONVERT.get(q.unit or "", ("", Decimal(1)))[1]


def in_unit(q: Quantity, unit: str) -> Decimal | None:
    """`q`'s value in `unit`, where the two units convert exactly (2 kW is 2,000 W, 2 km is
    2,000 m); None where they do not, or `q` has no single value."""
    if q.value is None:
        return None
    if q.unit == unit:
        return q.value
    have, want = _CONVERT.get(q.unit or ""), _CONVERT.get(unit)
    if have is None or want is None or have[0] != want[0]:
        return None
    return q.value * have[1] / want[1]


def _clash(x: str | None, y: str | None) -> bool:
    return x is not None and y is not None and x != y


def same_currency(x: str | None, y: str | None) -> bool:
    """Equal currency codes, or a bare "$" / "¥" against a currency of its family."""
    return x == y or any(bare in (x, y) and {x, y} - {bare} <= family for bare, family in BARE_FAMILIES.items())


def same_slot(a: Fact, b: Fact) -> bool:
    """Whether `a` and `b` state the same kind of thing, so their values should agree."""
    if a.kind != b.kind:
        return False
    if a.kind == "entity":
        la, lb = a.value.label, b.value.label  # type: ignore[union-attr]
        return _ENTITY_FAMILY.get(la, la) == _ENTITY_FAMILY.get(lb, lb)
    if a.kind == "identifier":
        return a.value.scheme == b.value.scheme  # type: ignore[union-attr]
    if a.kind == "date":
        return True
    qa, qb = a.value, b.value
    assert isinstance(qa, Quantity) and isinstance(qb, Quantity)
    da, db = _dimension(qa), _dimension(qb)
    # Currencies may differ within one slot (that is a contradiction to report); rates may not.
    if _clash(_SLOT.get(da or "", da), _SLOT.get(db or "", db)) or _clash(qa.per, qb.per):
        return False
    if _far_apart(qa, qb):
        return False
    overlap = _context_overlap(a.context, b.context)
    if (da is None) != (db is None):
        return overlap is True  # a bare number matches a unit-ful one only by its words
    return overlap is not False


# Durations this many times apart measure different things: "each class lasts 75 minutes" is
# no other value for "the course lasts 12 weeks" (a deadline of 24 hours against 30 days still is).
_FAR_APART = 500
_SECONDS = {"month": Decimal(2592000), "business_day": Decimal(86400), "business_hour": Decimal(3600)}


def _far_apart(a: Quantity, b: Quantity) -> bool:
    def seconds(q: Quantity) -> Decimal | None:
        amount = q.value if q.value is not None else q.high if q.high is not None else q.low
        dim = _dimension(q)
        if amount is None or not amount or dim not in ("time", "month", "business_day", "business_hour"):
            return None
        return abs(amount) * _factor(q) * (_SECONDS.get(dim, Decimal(1)) if dim != "time" else Decimal(1))

    x, y = seconds(a), seconds(b)
    return x is not None and y is not None and max(x, y) / min(x, y) > _FAR_APART


# English contexts of at least this many words must share two of them: one common noun under
# two different verbs is two slots ("customers can request a refund within 60 days" vs "we
# issue the refund within 1 to 5 business days").
_RICH_CONTEXT = 3


def _context_overlap(x: str, y: str) -> bool | None:
    """True/False when both contexts have words in a shared script; None when not comparable."""
    ex, zx = _split_scripts(x)
    ey, zy = _split_scripts(y)
    verdicts = []
    if ex and ey:
        verdicts.append(len(ex & ey) >= (2 if min(len(ex), len(ey)) >= _RICH_CONTEXT else 1))
    if zx and zy:
        verdicts.append(bool(zx & zy))
    return any(verdicts) if verdicts else None


def _split_scripts(context: str) -> tuple[set[str], set[str]]:
    english: set[str] = set()
    chinese: set[str] = set()
    for word in context.split():
        if word.isascii():
            english.add(word)
        else:
            chinese.update(word[i:i + 2] for i in range(max(1, len(word) - 1)))
    return english, chinese


def same_dimension(a: Fact, b: Fact) -> bool:
    """same_slot without the context words: units, currencies and rates only."""
    return same_slot(a.model_copy(update={"context": ""}), b.model_copy(update={"context": ""}))


BELOW, ABOVE = frozenset({"lt", "le"}), frozenset({"gt", "ge"})  # the sides of a bound


def other_side(a: Quantity, b: Quantity) -> bool:
    """Whether two bounds mark the same point from opposite sides ("up to 15" / "over 15"):
    rules for the two complementary cases, not two values of one slot."""
    sides = (a.comparator in BELOW and b.comparator in ABOVE) or (a.comparator in ABOVE and b.comparator in BELOW)
    return sides and a.value is not None and a.value == b.value and a.unit == b.unit and same_currency(a.currency, b.currency)


def compare_facts(a: Fact, b: Fact) -> Comparison:
    """equal / compatible / close / different, by the rules in the module docstring."""
    if a.kind != b.kind:
        return "different"
    if a.kind == "date":
        from extractors.dates import compare_dates  # lazily: numbers must not depend on dates

        return compare_dates(a.value, b.value)  # type: ignore[arg-type]
    if a.kind in ("entity", "identifier"):
        ka, kb = a.value.key, b.value.key  # type: ignore[union-attr]
        if ka == kb:
            return "equal"
        return "compatible" if ka and kb and (ka in kb or kb in ka) else "different"
    return _compare_quantities(a.value, b.value)  # type: ignore[arg-type]


def _compare_quantities(qa: Quantity, qb: Quantity) -> Comparison:
    da, db = _dimension(qa), _dimension(qb)
    if (qa.currency and qb.currency and not same_currency(qa.currency, qb.currency)) or _clash(qa.per, qb.per):
        return "different"
    if {da, db} == {"month", "time"}:
        return _compare_calendar(qa, qb) if da == "month" else _compare_calendar(qb, qa)
    if {da, db} == {"month", "business_day"}:
        return _compare_working_days(qa, qb) if da == "month" else _compare_working_days(qb, qa)
    if da is not None and db is not None and da != db:
        if _SLOT.get(da) != _SLOT.get(db) or _SLOT.get(da) is None:
            return "different"
        # e.g. business days vs days: compare the numbers as stated ("一周" as 7 days: "大概一周"
        # is what "约7个工作日" says, as "7天" is)
        fa, fb = (Decimal(7) if q.unit == "week" else Decimal(1) for q in (qa, qb))
        cap_equal = True
    elif (da is None) != (db is None):
        fa = fb = Decimal(1)  # "at least 16" against "at least 16 years": the unit is implied, not converted
        cap_equal = True
    else:
        fa, fb = _factor(qa), _factor(qb)
        # A currency, unit or rate on one side only might be implied or might not be.
        cap_equal = (da is None) != (db is None) or (qa.currency is None) != (qb.currency is None) or qa.per != qb.per
    verdict = _compare_scaled(qa, fa, qb, fb)
    return "compatible" if verdict == "equal" and cap_equal else verdict


# Days in a calendar month or year: "1 month" is 28 to 31 days; a year is read as 360 to 372
# days, so that "半年" (0.5 year) is 180 to 186 days, as the half-years people mean.
_CALENDAR_DAYS = {"month": (Decimal(28), Decimal(31)), "year": (Decimal(360), Decimal(372))}


def _compare_calendar(months: Quantity, time: Quantity) -> Comparison:
    """Months or years against days or weeks: "close" when the days fall inside what that many
    calendar months can hold ("30 days" / "1 month", "180天" / "半年"), else "different"."""
    if months.comparator != time.comparator and "eq" not in (months.comparator, time.comparator):
        return "different"
    short, long = _CALENDAR_DAYS[months.unit or "month"]
    lo, hi = _interval(months, Decimal(1))
    tlo, thi = _interval(time, _factor(time) / Decimal(86400))
    return "close" if lo * short <= tlo and thi <= hi * long else "different"


_WORKING_DAYS_A_MONTH = (Decimal(20), Decimal(23))


def _compare_working_days(months: Quantity, days: Quantity) -> Comparison:
    """Months or years against working days: "close" when the days fall inside the 20 to 23
    working days a month has ("a month" / "22 working days"), else "different" ("two years"
    against "within 3 working days")."""
    if months.comparator != days.comparator and "eq" not in (months.comparator, days.comparator):
        return "different"
    lo, hi = _interval(months, _factor(months))
    dlo, dhi = _interval(days, _factor(days))
    return "close" if lo * _WORKING_DAYS_A_MONTH[0] <= dlo and dhi <= hi * _WORKING_DAYS_A_MONTH[1] else "different"


def _interval(q: Quantity, f: Decimal) -> tuple[Decimal, Decimal]:
    if q.value is None:
        return q.low * f, q.high * f  # type: ignore[operator]
    return q.value * f, q.value * f


def _tolerance(q: Quantity, f: Decimal) -> Decimal:
    if not q.approximate:
        return Decimal(0)
    v = q.value if q.value is not None else q.high
    return max(abs(v) * _APPROX_REL, _ulp(v) / 2) * f  # type: ignore[arg-type]


def _ulp(v: Decimal) -> Decimal:
    return Decimal(1).scaleb(v.as_tuple().exponent)  # type: ignore[arg-type]


def _compare_scaled(qa: Quantity, fa: Decimal, qb: Quantity, fb: Decimal) -> Comparison:
    (alo, ahi), (blo, bhi) = _interval(qa, fa), _interval(qb, fb)
    if qa.comparator == qb.comparator and alo == blo and ahi == bhi:
        return "equal"
    # A single value with a comparator is a limit ("up to 500"); a range keeps its own edges.
    la = qa.comparator != "eq" and qa.value is not None
    lb = qb.comparator != "eq" and qb.value is not None
    if la and lb:
        # "超过4800度" and "4800度以上" differ only at the edge itself.
        same_side = {qa.comparator, qb.comparator} in ({"gt", "ge"}, {"lt", "le"})
        return "compatible" if same_side and alo == blo else "different"
    tol = _tolerance(qa, fa) + _tolerance(qb, fb)
    if la or lb:
        cmp, limit, other, (lo, hi) = (qa.comparator, alo, qb, (blo, bhi)) if la else (qb.comparator, blo, qa, (alo, ahi))
        if other.comparator != "eq":
            # Limit against limit ("within 7 days" vs "within 1-5 days"): the limits must match.
            edge = hi if cmp in ("le", "lt") else lo
            return "compatible" if abs(edge - limit) <= tol else "different"
        ok = {"le": hi <= limit + tol, "lt": hi < limit + tol, "ge": lo >= limit - tol, "gt": lo > limit - tol}
        return "compatible" if ok[cmp] else "different"
    if qa.value is not None and qb.value is not None:
        diff = abs(alo - blo)
        ua, ub = _ulp(qa.value) * fa, _ulp(qb.value) * fb
        # Rounding: "$3.2B" for "$3.21 billion", but a plain price is exact: "$2" is not "$1.50".
        # Not for a one-digit figure: "1 year" states a count, not "0.5 year" rounded.
        coarse = qa.value if ua > ub else qb.value
        rounds = ua != ub and (max(ua, ub) > 1 or not (qa.currency or qb.currency)) \
            and len(coarse.normalize().as_tuple().digits) > 1
        if diff <= tol or (rounds and diff <= max(ua, ub) / 2):
            return "compatible"
        return "different"
    if qa.value is None and qb.value is None:
        # The claim's range (a) may narrow the source's, never widen it: "2-3个工作日" fits
        # "1-5个工作日", but "18到55周岁" does not fit "22至55周岁".
        return "compatible" if blo - tol <= alo and ahi <= bhi + tol else "different"
    if blo - tol <= alo and ahi <= bhi + tol or alo - tol <= blo and bhi <= ahi + tol:
        return "compatible"  # a value inside a range
    return "different"


_CMP_WORDS = {"le": "up to ", "lt": "less than ", "ge": "at least ", "gt": "more than ", "eq": ""}
_SYMBOLS = {BARE_DOLLAR: "$", BARE_YEN: "¥", "USD": "$", "CNY": "¥", "EUR": "€", "GBP": "£", "HKD": "HK$", "TWD": "NT$"}
_UNIT_NAMES = {"tenth_of_price": ("tenths of the price", "tenths of the price"),"business_day": ("business day", "business days"), "person": ("person", "people"),
               "times": ("time", "times"), "millisecond": ("ms", "ms")}
_NO_PLURAL = {"km", "m", "kg", "g", "MB", "GB", "TB"}
_SCALE_NAMES = ((Decimal("1E12"), "trillion"), (Decimal("1E9"), "billion"), (Decimal("1E6"), "million"))


def describe(f: Fact) -> str:
    """A short human form of the value: "1 to 5 business days", "¥300 per night"."""
    v = f.value
    if not isinstance(v, Quantity):
        return v.iso if f.kind == "date" else f.text  # type: ignore[union-attr]
    if v.value is not None:
        amount, plural = _amount(v.value, v), abs(v.value) != 1
    else:
        amount, plural = f"{_amount(v.low, v)} to {_amount(v.high, v)}", True  # type: ignore[arg-type]
    out = ("about " if v.approximate else "") + _CMP_WORDS[v.comparator] + amount
    if v.unit and v.unit not in ("percent", "percentage_point"):
        one, many = _UNIT_NAMES.get(v.unit, (v.unit.replace("_", " "), v.unit.replace("_", " ") + "s"))
        out += " " + (v.unit if v.unit in _NO_PLURAL else many if plural else one)
    return out + (f" per {v.per}" if v.per else "")


def _amount(x: Decimal, q: Quantity) -> str:
    if q.unit == "percent":
        return _plain(x) + "%"
    if q.unit == "percentage_point":
        return _plain(x) + " percentage points"
    for size, name in _SCALE_NAMES:
        if abs(x) >= size:
            scaled = f"{_plain(x / size)} {name}"
            return f"{scaled} {q.currency}" if q.currency else scaled
    if q.currency in _SYMBOLS:
        return _SYMBOLS[q.currency] + _plain(x)
    return f"{_plain(x)} {q.currency}" if q.currency else _plain(x)


def _plain(x: Decimal) -> str:
    text = f"{x:,f}"
    return text.rstrip("0").rstrip(".") if "." in text and x == x.to_integral_value() else text

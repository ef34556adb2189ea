"""Chinese numerals -> Decimal: ``三十二亿``, ``一万五千``, ``零点五``, ``3.2万``, ``贰佰``, ``二〇二六``.

Traditional forms (``兩``, ``萬``, ``億``) are accepted directly, so callers may pass either the
original or the ``normalise``d text. Results keep their stated precision in the Decimal
exponent (``3.2万`` -> ``3.2E+4``): the comparison step reads it to judge rounding.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

DIGITS = {
    "零": 0, "〇": 0, "○": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
    "三": 3, "叁": 3, "參": 3, "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6, "陸": 6,
    "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9,
}
DIGITS.update({str(d): d for d in range(10)})
SMALL_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
BIG_UNITS = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
POINTS = ("点", "點", ".")
_ALLOWED = frozenset(DIGITS) | frozenset(SMALL_UNITS) | frozenset(BIG_UNITS) | frozenset(POINTS)
# Every character that may appear inside a Chinese numeral (used by the extractor's regex).
NUMERAL_CHARS = "".join(k for k in DIGITS if not k.isdigit()) + "".join(SMALL_UNITS) + "".join(BIG_UNITS)


# "三四块", "两三天", "十三四岁", "三四十元", "两三百": two neighbouring digits say "about this
# many or one more", a range, never the number the digits spell (34, 23).
_PAIR = re.compile(r"(十?)([一两兩二三四五六七八])([两兩二三四五六七八九])([十百千万萬]*)")


def approximate_pair(s: str) -> tuple[str, str] | None:
    """The two numerals an approximate pair stands for ("三四十" -> ("三十", "四十")), or None."""
    m = _PAIR.fullmatch(s)
    if not m or DIGITS[m.group(3)] != DIGITS[m.group(2)] + 1 or (m.group(1) and m.group(4)):
        return None
    head, tail = m.group(1), m.group(4)
    return head + m.group(2) + tail, head + m.group(3) + tail


def _scale(exp: int) -> Decimal:
    return Decimal(1).scaleb(exp)


def _split_trailing_scale(s: str) -> tuple[str, int]:
    """``3.2万`` -> ("3.2", 4); ``1.5千万`` -> ("1.5", 7). Only big/small unit chars at the end."""
    exp = 0
    i = len(s)
    while i > 0 and (s[i - 1] in BIG_UNITS or s[i - 1] in SMALL_UNITS):
        unit = BIG_UNITS.get(s[i - 1]) or SMALL_UNITS[s[i - 1]]
        exp += len(str(unit)) - 1
        i -= 1
    return s[:i], exp


def _parse_integer(s: str) -> int | None:
    """Positional Chinese integer with 十百千万亿, or a digit string like ``二〇二六``."""
    if not s:
        return None
    if all(ch in DIGITS for ch in s):
        return int("".join(str(DIGITS[ch]) for ch in s))
    total = 0  # everything already multiplied by 亿
    wan = 0  # the part multiplied by 万, not yet by 亿
    section = 0  # the part below 万
    number = 0
    last_unit = 0
    saw_zero = False
    for ch in s:
        if ch in DIGITS:
            d = DIGITS[ch]
            saw_zero = saw_zero or d == 0
            number = number * 10 + d
        elif ch in SMALL_UNITS:
            unit = SMALL_UNITS[ch]
            if number == 0 and unit != 10 and section == 0 and wan == 0 and total == 0:
                return None  # a bare 百/千 is a word ("百货"), not a number
            section += (number or 1) * unit
            number, last_unit, saw_zero = 0, unit, False
        else:
            unit = BIG_UNITS[ch]
            chunk = section + number
            if chunk == 0 and (wan == 0 or unit == 10**4):
                return None  # "万一", "亿万": words, not amounts
            if unit == 10**4:
                wan = chunk * unit
            else:
                total = (total + wan + chunk) * unit
                wan = 0
            section, number, last_unit, saw_zero = 0, 0, unit, False
    # Colloquial trailing digit: 一万五 = 15000, 三百五 = 350 (but 一千零五 = 1005).
    if number and last_unit >= 100 and not saw_zero and number < 10 and s[-1] in DIGITS:
        number *= last_unit // 10
    return total + wan + section + number


def parse_chinese_number(s: str) -> Decimal | None:
    """Parse a Chinese (or mixed Arabic/Chinese) numeral; None when `s` is not a number."""
    s = s.strip().replace(",", "")
    if not s or any(ch not in _ALLOWED for ch in s):
        return None
    for point in POINTS:
        if point in s:
            head, _, tail = s.partition(point)
            tail, exp = _split_trailing_scale(tail)
            if not tail or not all(ch in DIGITS for ch in tail):
                return None
            whole = _parse_integer(head)
            if whole is None:
                return None
            frac = "".join(str(DIGITS[ch]) for ch in tail)
            try:
                return Decimal(f"{whole}.{frac}").scaleb(exp)
            except InvalidOperation:
                return None
    if all(ch.isdigit() for ch in s):
        return Decimal(s)
    head, exp = _split_trailing_scale(s)
    if head and head.isdigit():  # "32亿", "5千": keep precision at the scale's position
        return Decimal(head).scaleb(exp)
    value = _parse_integer(s)
    if value is None:
        return None
    if s[-1] in BIG_UNITS:  # 三十二亿: state precision as 3.2E+9 like the Arabic form
        return Decimal(value // 10**exp).scaleb(exp) if value % 10**exp == 0 else Decimal(value)
    return Decimal(value)

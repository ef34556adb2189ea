"""Word lists for the number extractor: surface form (lower-case, normalised) -> canonical value.

Chinese entries are in Simplified script because the extractor scans ``normalise``d text.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Mapping


def _expand(groups: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    return {surface: canonical for canonical, surfaces in groups.items() for surface in surfaces}


def phrase_key(words: str) -> str:
    """How a matched phrase is looked up in these tables: lower case, single spaces ("Up  To" -> "up to")."""
    return " ".join(words.lower().split())


def alternation(words: Mapping[str, object], zh_only: bool = False) -> str:
    """Regex alternation, longest first; Latin words must not run into further letters."""
    parts = []
    for w in sorted(words, key=len, reverse=True):
        latin = w[-1].isascii() and w[-1].isalpha()
        if zh_only and w.isascii():
            continue
        body = re.escape(w).replace(r"\ ", r"\s+")
        if w[0].isascii() and w[0].isalpha():
            body = r"(?<![A-Za-z])" + body
        parts.append(body + (r"(?![A-Za-z])" if latin else ""))
    return "|".join(parts)


UNITS = _expand(
    {
        "business_hour": ("business hours", "business hour", "working hours", "working hour", "个工作小时",
                          "工作小时"),
        "business_day": ("business days", "business day", "working days", "working day", "work days",
                         "workdays", "个工作日", "工作日", "个工作天", "工作天"),
        "business_week": ("business weeks", "business week", "working weeks", "working week", "个工作周", "工作周"),
        # ("five consecutive days" is five days; so are five full, clear, straight or whole days)
        "day": ("calendar days", "calendar day", "consecutive days", "straight days", "full days", "clear days",
                "whole days", "days", "day", "个自然日", "自然日", "天", "日"),
        "hour": ("hours", "hour", "hrs", "hr", "h", "个小时", "小时", "个钟头", "钟头", "个钟"),  # 个钟: Cantonese
        "minute": ("minutes", "minute", "mins", "min", "分钟"),
        "second": ("seconds", "second", "secs", "sec", "秒钟", "秒"),
        "millisecond": ("milliseconds", "ms", "毫秒"),
        "week": ("consecutive weeks", "full weeks", "weeks", "week", "个星期", "个礼拜", "星期", "周"),
        # "two months' rent" is an amount, not a duration (also: "half a month's rent").
        "month_rent": ("months' rent", "month's rent", "months’ rent", "month’s rent", "个月租金", "个月的租金",
                       "个月房租", "个月租"),
        "month_salary": ("months' salary", "month's salary", "months’ salary", "month’s salary", "months' pay",
                         "month's pay", "个月工资", "个月的工资", "个月薪资"),
        "month": ("calendar months", "calendar month", "consecutive months", "full months", "months", "month", "个自然月", "个月", "自然月"),
        "year": ("years", "year", "yrs", "年", "周岁", "岁"),  # 岁: an age, like "18 years old"
        "night": ("consecutive nights", "nights", "night", "晚", "夜", "间夜"),
        "km": ("kilometres", "kilometers", "kilometre", "kilometer", "km", "公里", "千米"),
        "mile": ("miles", "mile"),  # how far out a yard or house is: "more than 25 miles from Hexham"
        "m": ("metres", "meters", "metre", "meter", "m", "米", "公尺"),  # 公尺: Taiwan's metre
        "kg": ("kilograms", "kilogram", "kilos", "kilo", "kg", "公斤", "千克"),
        "cm": ("centimetres", "centimeters", "centimetre", "centimeter", "cm", "公分", "厘米"),
        "ft": ("feet", "foot", "ft"),  # a tree's, a room's height: "a 7 ft tree"
        "cc": ("cc",),  # an engine's size: "250cc以下", "over 600cc"
        "inch": ("inches", "inch", "英寸", "寸", "吋"),  # a suitcase's or a screen's size
        "litre": ("litres", "liters", "litre", "liter", "公升", "升"),
        "ml": ("millilitres", "milliliters", "millilitre", "milliliter", "ml", "毫升"),  # a bottle's size
        "g": ("grams", "gram", "g", "克"),
        "GB": ("gb",), "MB": ("mb",), "TB": ("tb",),
        "device": ("devices", "device", "台"),
        "page": ("pages", "页", "頁"),  # a document's length: "300页以内的标书" (not "a one-page certificate")
        "person": ("people", "persons", "person", "employees", "employee", "staff", "users", "user",
                   "guests", "guest", "participants", "attendees", "trainees", "students", "student",
                   "learners", "passengers", "visitors", "个人", "人", "名", "位"),
        "seat": ("seats", "seat", "licenses", "licences", "license", "licence", "accounts", "个席位", "席位",
                 "个账号", "账号", "个帐号", "帐号"),
        "times": ("times", "次"),
        "multiple": ("倍",),
        "item": ("items", "件", "条"),  # 两条裤子
        "piece": ("颗", "粒"),  # 一百颗练习球
        "barrel": ("桶",),  # 一百桶水票
        "pair": ("双",),  # 两双运动鞋
        "lesson": ("节课", "堂课", "次课"),  # 十节课, 共8次课 (not a bare 节: "一节半小时" is one half-hour lesson)
        "sheet": ("张",),  # tickets, vouchers, cards: 两张免费升级券
        "copy": ("copies", "copy", "册", "冊", "本"),  # books: 精装书10册, 三本书
        "plant": ("株",),  # plants, and hair grafts: 1,000株以上
        "unit": ("个单位", "個單位", "单位", "單位"),  # follicular units: 1500单位以内
        "floor": ("层", "楼"),  # 门诊楼三层, 3楼
        "variety": ("款",),  # products, wines, set menus: 四款葡萄酒, 两款套餐
        "transaction": ("transactions", "transaction", "笔"),
        "call": ("calls", "call", "通"),  # answered calls: 含200通来电, "120 answered calls" (not 通 in 通知: after a number only)
        "point": ("points", "point", "个积分", "积分"),  # loyalty points: 8000积分一晚
        "kWh": ("kilowatt-hours", "kilowatt hours", "kilowatt-hour", "kilowatt hour", "kwh", "千瓦时", "度"),
        # installed capacity: "装机2兆瓦", "1兆瓦及以上"
        "MW": ("megawatts", "megawatt", "mw", "兆瓦"),
        "kW": ("kilowatts", "kilowatt", "kw", "千瓦"),
        "W": ("watts", "watt", "瓦"),  # a price per watt of capacity: 每瓦0.025元
        # text lengths: translation, copywriting, voice-over ("两千字", "a 500-word script")
        "character": ("个字", "個字", "字"),
        "word": ("words", "word"),
        # floor area: "100平方米以内", colloquially "90平"
        "m2": ("square metres", "square meters", "square metre", "square meter", "sq m", "m²", "sqm", "平方米",
               "平方公尺", "平米", "平方", "平"),
        "km2": ("square kilometres", "square kilometers", "sq km", "km²", "平方公里", "平方千米"),
        "ft2": ("square feet", "square foot", "sq ft", "ft²"),
    }
)

PER_WORDS = _expand(
    {
        "night": ("night", "间夜", "晚", "夜"),
        "person": ("person", "head", "employee", "trainee", "participant", "attendee", "delegate", "人", "位"),
        "month": ("month", "mo", "月"),
        "year": ("year", "annum", "yr", "年"),
        "day": ("day", "天", "日"),
        "hour": ("hour", "hr", "h", "小时", "个钟"),
        "minute": ("minute", "min", "分钟"),  # "每分钟8元", "£1.20 per minute"
        "week": ("week", "周"),
        "user": ("user", "seat", "用户"),
        "device": ("device", "台"),
        "item": ("item", "件", "条"),
        "pair": ("pair", "双"),
        "sheet": ("ticket", "张"),  # "128元一张", "每张128元"
        "lesson": ("lesson", "节课", "节"),
        "trip": ("trip", "次"),
        "order": ("order", "单", "笔"),
        "call": ("call", "通"),  # "每通2元", "70p a call"
        "km": ("km", "公里"),
        "m": ("metre", "meter", "米", "公尺"),  # fencing, flooring: "每米165元", "$85 per metre"
        "ft": ("foot", "linear foot", "ft"),  # "$85 to $110 per linear foot"
        "ft2": ("square foot", "sq ft"),
        "m2": ("square metre", "square meter", "sq m", "sqm", "m²", "平方米", "平方公尺", "平米"),  # "每平方米6元"
        "kg": ("kg", "公斤"),
        "litre": ("litre", "liter", "公升", "升"),
        "kWh": ("kwh", "kilowatt-hour", "千瓦时", "度"),  # electricity: 每度 = per kWh
        "plant": ("株",),  # hair grafts: 每株50元
        "W": ("watt", "瓦"), "kW": ("kilowatt", "kw", "千瓦"),
        "character": ("字",),  # 每百字15元 (the block size goes in front: per "100 character")
        "word": ("words", "word"),
        "unit": ("单位", "單位"),  # 每单位8元
    }
)

# "$20", "twenty dollars", "15 cents": a dollar of no named country, and "¥700", a yen or a
# yuan. Each agrees with any currency of its family (extractors.compare.same_currency): an answer
# says "$25" for the source's "A$25", a source "¥700" for the answer's "seven hundred yen".
# A bare 元 in Traditional Chinese that names no currency may be Taiwan's or Hong Kong's dollar
# as well as the yuan ("預約要先付300元訂金" for the source's "新台幣300元").
BARE_DOLLAR, BARE_YEN, BARE_HANT_YUAN = "$", "¥", "元"
BARE_FAMILIES = {BARE_DOLLAR: frozenset({"USD", "AUD", "CAD", "HKD", "NZD", "SGD", "TWD"}),
                 BARE_YEN: frozenset({"CNY", "JPY"}),
                 BARE_HANT_YUAN: frozenset({"CNY", "TWD", "HKD", "MOP", BARE_YEN})}

CUR_PREFIX = _expand(
    {
        BARE_DOLLAR: ("$",),
        "USD": ("us$", "usd"),
        "NZD": ("nz$", "nzd"),
        "HKD": ("hk$", "hkd", "港币", "港元"),
        "TWD": ("nt$", "ntd", "twd", "新台币", "台币"),
        "SGD": ("s$", "sgd"),
        "AUD": ("au$", "a$", "aud"),
        "CAD": ("ca$", "c$", "cad"),
        BARE_YEN: ("¥", "￥"),
        "CNY": ("rmb", "cny", "人民币"),
        "EUR": ("€", "eur"),
        "GBP": ("£", "gbp"),
        "JPY": ("jpy", "日元"),
    }
)

CUR_SUFFIX = _expand(
    {
        BARE_DOLLAR: ("dollars", "dollar", "cents", "cent", "¢"),  # cents: numbers_money scales them
        "USD": ("us dollars", "usd", "美元", "美金"),
        "CNY": ("元人民币", "人民币", "yuan", "rmb", "cny", "块钱", "块", "元", "蚊",  # bare 元/块/蚊: see numbers_money._local_dollar
                "毛钱", "角钱", "毛"),  # tenths of a yuan: numbers_money scales them
        "EUR": ("euros", "euro", "eur", "欧元"),
        "GBP": ("pounds", "gbp", "英镑"),
        "HKD": ("hkd", "港元", "港币"),
        "TWD": ("twd", "ntd", "新台币", "台币"),
        "JPY": ("jpy", "yen", "日元"),
    }
)

SCALES = {
    "thousand": Decimal("1E3"), "k": Decimal("1E3"),
    "million": Decimal("1E6"), "mn": Decimal("1E6"), "mln": Decimal("1E6"), "m": Decimal("1E6"),
    "billion": Decimal("1E9"), "bn": Decimal("1E9"), "b": Decimal("1E9"),
    "trillion": Decimal("1E12"), "tn": Decimal("1E12"),
}

CMP_PREFIX = _expand(
    {
        "le": ("up to", "at most", "no more than", "not more than", "never more than", "not exceeding", "not to exceed",
               "a maximum of", "maximum of", "maximum", "no older than", "not older than", "max.", "max", "capped at", "limited to", "within",
               "<=", "≤", "不超过", "不得超过", "不能超过", "不可超过", "不应超过", "不高于", "不能高于", "不多于", "最多", "最高", "至多", "上限为", "上限",
               "封顶", "未超过"),
        "ge": ("at least", "no less than", "not less than", "never less than", "no fewer than", "no younger than", "not younger than", "a minimum of", "minimum of",
               "minimum", "min.", ">=", "≥", "不少于", "不低于", "不得少于", "不得低于", "不能少于", "不能低于", "不可少于", "不可低于",
               "不应少于", "不应低于", "至少", "最少", "最低",
               "起码", "满", "from age"),
        "lt": ("less than", "fewer than", "under", "below", "before age", "younger than", "<", "低于", "少于", "不到", "不足", "未满",
               "未达到", "未達到", "未达", "未達",
               "不够", "唔够", "唔夠"),  # 唔够: Cantonese 不够
        "gt": ("more than", "over", "above", "beyond", "exceeding", "exceeds", "greater than", "in excess of", "older than", ">", "超过",
               "高于", "多于", "大于", "超出", "逾"),
    }
)

# "no car seat is": a subject that denies the bound after it (at most, not more than, five years)
NO_SUBJECT = r"no(?:\s+[A-Za-z'-]+){1,3}\s+(?:is|are|was|were|will\s+be|can\s+be|may\s+be|gets?)\s+"

CMP_SUFFIX = _expand(
    {
        "le": ("or less", "or fewer", "or shorter", "or below", "or under", "or younger", "and under", "and below", "and younger", "max", "at most", "以内", "以下", "之内", "内",
               "封顶", "为限"),
        "ge": ("or more", "or longer", "or above", "or greater", "or older", "or over", "and over", "and older", "and above",
               "and up", "and upwards", "or upwards", "upwards", "at least", "minimum", "或以上",
               "及以上", "以上", "起"),
    }
)

"""The typed data model shared by every later step: claims and the facts found in text.

Offsets are Python string indices into the ORIGINAL text (never into a normalised or
converted copy): ``text[fact.start:fact.end] == fact.text`` always holds.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

Language = Literal["en", "zh-Hans", "zh-Hant", "mixed"]
FactKind = Literal["number", "date", "entity", "identifier", "qualifier"]
Comparator = Literal["eq", "lt", "le", "gt", "ge"]
Granularity = Literal["year", "year_range", "quarter", "month", "day", "time", "datetime", "weekday_range"]
EntityLabel = Literal["PERSON", "ORG", "GPE", "LOC", "PRODUCT", "LAW", "CODE", "EVENT", "NORP", "MISC"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Quantity(_Frozen):
    """A normalised amount: one value, or a range [low, high]."""

    type: Literal["quantity"] = "quantity"
    value: Decimal | None = None
    low: Decimal | None = None
    high: Decimal | None = None
    unit: str | None = None  # canonical unit: "percent", "business_day", "day", "km", "device", ...
    currency: str | None = None  # ISO 4217: "USD", "CNY", "EUR", ...
    per: str | None = None  # rate denominator: "night", "person", "month", ...
    comparator: Comparator = "eq"
    approximate: bool = False

    @model_validator(mode="after")
    def _one_shape(self) -> "Quantity":
        if self.value is None and (self.low is None or self.high is None):
            raise ValueError("a quantity needs either value, or both low and high")
        return self

    @property
    def is_range(self) -> bool:
        return self.value is None


class DateValue(_Frozen):
    """A calendar date or time at its stated granularity (missing parts stay None)."""

    type: Literal["date"] = "date"
    granularity: Granularity
    year: int | None = None
    year_to: int | None = None  # last year of a year range ("2025-26": 2025 to 2026)
    quarter: int | None = None
    month: int | None = None
    day: int | None = None
    hour: int | None = None
    minute: int | None = None
    weekday_from: int | None = None  # 0 = Monday, for weekday ranges
    weekday_to: int | None = None
    relative: bool = False  # resolved from words like "last Friday" / "上周五" against as_of
    iso: str  # canonical text: "2026-03-01", "2026-03", "2026-Q3", "2026", "2025/2026", "17:30", "Mon-Fri"


class EntityValue(_Frozen):
    type: Literal["entity"] = "entity"
    label: EntityLabel
    key: str  # matching key: casefolded, half-width, Simplified, punctuation dropped


class IdentifierValue(_Frozen):
    """Codes, section numbers, phone numbers: compared as exact strings, never as amounts."""

    type: Literal["identifier"] = "identifier"
    scheme: Literal["code", "section", "phone", "year_in_title", "other"] = "other"
    key: str


class QualifierValue(_Frozen):
    """Who or how often a statement applies to: slot "customer", value "enterprise"."""

    type: Literal["qualifier"] = "qualifier"
    slot: str
    value: str


FactValue = Annotated[Union[Quantity, DateValue, EntityValue, IdentifierValue, QualifierValue],
                      Field(discriminator="type")]


class Fact(_Frozen):
    kind: FactKind
    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    value: FactValue
    # Words near the fact that name what it measures ("refund", "退款", "per night"); used to
    # decide whether two facts fill the same slot.
    context: str = ""


class Claim(_Frozen):
    text: str  # self-contained claim text (may add context words that the span lacks)
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    source_text: str  # answer[start:end], verbatim
    citations: tuple[str, ...] = ()  # parsed markers: "1", "S2", ...
    hedged: bool = False
    facts: tuple[Fact, ...] = ()
    # The whole sentence, without citation markers, when the claim is one of several cut from
    # it: a sentence the evidence entails entails each of its parts.
    sentence: str = ""

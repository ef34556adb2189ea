"""Turn text into atomic claims and normalised facts, with exact character offsets.

Pure functions over strings; the only state is the `Analyzer`, which holds the loaded
spaCy/LAC pipelines and is created once by its owner (the Verifier) and passed in.

    from extractors import Analyzer, split_claims, extract_facts
    analyzer = Analyzer()
    claims = split_claims("Refunds take 1-5 business days [1].", analyzer=analyzer)
"""

from extractors.claims import split_claims
from extractors.dates import extract_dates
from extractors.entities import extract_entities
from extractors.facts import extract_facts
from extractors.nlp import Analyzer
from extractors.numbers import extract_numbers
from extractors.schema import (
    Claim,
    DateValue,
    EntityValue,
    Fact,
    IdentifierValue,
    Language,
    Quantity,
)

__all__ = [
    "Analyzer",
    "Claim",
    "DateValue",
    "EntityValue",
    "Fact",
    "IdentifierValue",
    "Language",
    "Quantity",
    "compare_facts",
    "detect_language",
    "extract_dates",
    "extract_entities",
    "extract_facts",
    "extract_numbers",
    "same_slot",
    "split_claims",
]

_LATER = {"detect_language": "extractors.language", "same_slot": "extractors.compare", "compare_facts": "extractors.compare"}


def __getattr__(name: str):
    # language.py and compare.py are imported on first use so that importing the package
    # stays cheap and does not depend on their import order.
    if name in _LATER:
        import importlib

        return getattr(importlib.import_module(_LATER[name]), name)
    raise AttributeError(f"module 'extractors' has no attribute {name!r}")

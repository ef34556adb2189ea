"""Turn text into atomic claims and normalised facts, with exact character offsets.

Pure functions over strings; the only state is the `Analyzer`, which holds the loaded
spaCy/LAC pipelines and is created once by its owner (the Verifier) and passed in.

    from extractors import Analyzer, split_claims, extract_facts
    analyzer = Analyzer()
    claims = split_claims("Refunds take 1-5 business days [1].", analyzer=analyzer)
"""

from extractors.claims import split_claims
from extractors.compare import compare_facts, same_slot
from extractors.dates import extract_dates
from extractors.entities import extract_entities
from extractors.facts import extract_facts
from extractors.language import detect_language
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

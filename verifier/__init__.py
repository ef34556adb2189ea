"""verifier: decide whether a RAG answer may go out, claim by claim, with cited evidence.

    from verifier import Verifier
    report = Verifier().verify("Refunds take 1-5 business days.", [{"id": "S1", "text": "..."}])
"""

from verifier.pipeline import Verifier
from verifier.schema import Report, Source, VerifyRequest
from verifier.verdict import Thresholds

__all__ = ["Report", "Source", "Thresholds", "Verifier", "VerifyRequest"]

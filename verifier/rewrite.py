"""The answer reduced to its supported claims, with citations, and a plain note on the rest.

Nothing is invented: the kept text is the answer's own wording for each supported claim,
the citations are the ones it had (or the sources that support it), and the note is fixed
phrasing.
"""

from __future__ import annotations

import re

from verifier.messages import family, message
from verifier.schema import ClaimReport

_CITATION = re.compile(r"\s*(?:\[[^\]]{1,12}\]|【[^】]{1,12}】)")
_END = re.compile(r"[.!?。！？]$")


def rewrite_answer(claims: list[ClaimReport], language: str) -> str:
    zh = family(language) == "zh"
    kept = []
    for claim in claims:
        if claim.label != "supported":
            continue
        # The self-contained claim text: the answer's own words, citations removed, and for a
        # clause split from a longer sentence, the subject it shares.
        text = _CITATION.sub("", claim.text).strip().rstrip(",，;；")
        refs = claim.citations or sorted({e.source_id for e in claim.evidence if e.relation == "supports"})
        marker = "".join(f"[{r}]" for r in refs)
        if not _END.search(text):
            text += "。" if zh else "."
        if marker:
            text = text[:-1] + marker + text[-1] if zh else text[:-1] + " " + marker + text[-1]
        kept.append(text)
    note = message(language, "user_rewrite_gap")
    return ("" if zh else " ").join(kept + [note])

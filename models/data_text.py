"""Text helpers and the pair record shared by the training-data builders (`models.data`,
`models.data_synth`): detokenising NLI text, sentence spans, reading JSONL."""
from __future__ import annotations

import json
import re
from pathlib import Path


_DETOK = [(re.compile(r" ([.,!?;:%)\]])"), r"\1"), (re.compile(r"([(\[$]) "), r"\1"),
          (re.compile(r" n't"), "n't"), (re.compile(r" '(s|re|ve|d|ll|m)\b"), r"'\1"),
          (re.compile(r"-LRB-"), "("), (re.compile(r"-RRB-"), ")"), (re.compile(r"`` | ''"), '"')]


def detok(s: str) -> str:
    s = s.replace("-LRB- ", "(").replace(" -RRB-", ")").replace("-LSB- ", "[").replace(" -RSB-", "]")
    for pat, rep in _DETOK:
        s = pat.sub(rep, s)
    return re.sub(r"\s+", " ", s).strip()


def is_zh(s: str) -> bool:
    return len(re.findall(r"[\u4e00-\u9fff]", s)) > len(s) * 0.2


_ZH_SENT = re.compile(r"[^。！？!?；\n]+[。！？!?；]?[”」』]?")
_EN_SENT = re.compile(r".+?(?:[.!?](?=\s+[A-Z0-9\"'(])|[.!?]$|$)", re.S)


def split_sents(text: str) -> list[tuple[int, int]]:
    """Sentence spans (start, end) over ``text``."""
    spans = []
    if is_zh(text):
        for m in _ZH_SENT.finditer(text):
            if m.group().strip():
                spans.append((m.start(), m.end()))
    else:
        for m in _EN_SENT.finditer(text):
            s, e = m.start(), m.end()
            while s < e and text[s].isspace():
                s += 1
            if e > s:
                spans.append((s, e))
    return spans


def _jsonl(path: Path):
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _pair(ev, claim, label, src, lang="en"):
    return {"evidence": ev, "claim": claim, "label": label, "source": src, "lang": lang}

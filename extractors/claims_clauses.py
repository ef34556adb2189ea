"""Where a sentence splits into several checkable clauses, and what each clause carries over.

A split is made only when every resulting part has its own predicate and some content;
a part without a subject gets the previous clause's subject (and modal/auxiliary) as a
prefix so that its claim text stands alone. English uses the dependency parse (coordinated
verbs, "while"-clauses, semicolons), here; Chinese uses LAC tags over `，`/`；`-separated
pieces (`extractors.claims_zh`).
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Token


@dataclass(frozen=True)
class Part:
    start: int  # offsets into the answer, before trimming
    end: int
    prefix: str = ""  # carried subject (+ modal) that makes the clause self-contained


# --- English ---------------------------------------------------------------------------

_CONTENT_POS = frozenset({"NOUN", "PROPN", "NUM", "PRON", "ADJ", "ADV", "SYM"})
_SUBJ = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})


def _is_verb(tok: Token) -> bool:
    return tok.pos_ in ("VERB", "AUX") or tok.tag_.startswith("VB") or tok.tag_ == "MD" or (
        tok.dep_ == "ROOT" and tok.tag_ == "NNS" and tok.lower_ in _VERBS_READ_AS_NOUNS)


# The tagger reads some verbs after a noun as plural nouns, "A standard pitch costs £32 per
# market", and makes them the sentence's root: the sentence is still a statement.
_VERBS_READ_AS_NOUNS = frozenset({"costs", "charges", "pays", "takes", "lasts", "covers", "includes", "needs",
                                  "requires", "offers", "opens", "closes", "starts", "runs", "allows", "gets"})


def _checkable_en(doc: Doc, lo: int, hi: int) -> bool:
    toks = [t for t in doc if lo <= t.idx < hi]
    return any(_is_verb(t) for t in toks) and any(t.pos_ in _CONTENT_POS for t in toks if not _is_verb(t))


def _finite(verb: Token) -> bool:
    """A verb that makes a clause by itself ("is covered", "pays", "will need")."""
    return verb.tag_ in ("VBZ", "VBP", "VBD", "MD") or any(
        c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBZ", "VBP", "VBD", "MD") for c in verb.children)


def _subject_of(verb: Token) -> Token | None:
    while True:
        for child in verb.children:
            if child.dep_ in _SUBJ:
                return child
        if verb.dep_ != "conj" or verb.head.i == verb.i:
            return None
        verb = verb.head


def _en_prefix(doc: Doc, head: Token, verb: Token, offset: int, original: str, first_token: int) -> str | None:
    """'' when `verb` has its own subject, the carried subject (+ aux), or None if none.
    `first_token`: the index of the clause's first token."""
    # (the parse may hang the clause's subject on its auxiliary: "and they'll re-dye ...")
    if any(c.dep_ in _SUBJ for c in verb.children) or any(t.dep_ in _SUBJ for t in doc[first_token : verb.i]):
        return ""
    subj = _subject_of(head)
    if subj is None:
        return None
    s, e = subj.left_edge.idx, subj.right_edge.idx + len(subj.right_edge.text)
    words = [original[offset + s : offset + e]]
    has_aux = any(c.dep_ in ("aux", "auxpass") for c in verb.children)
    if not has_aux and verb.tag_ not in ("VBZ", "VBP"):
        words += [c.text for c in head.children if c.dep_ in ("aux", "auxpass") and c.i < head.i]
    return " ".join(words) + " "


_CONDITION_MARKS = frozenset({"if", "unless", "when", "whenever", "once"})


def _listed_noun_read_as_verb(verb: Token) -> bool:
    """A bare verb form without a helper, joined to a verb of another form: the tagger's reading
    of a listed noun ("not allowed in the pods, shower blocks or play area" tags shower and play
    as verbs). A real second clause agrees in form ("Open the windows and switch off the gas")."""
    if verb.tag_ != "VB" or any(c.dep_ in ("aux", "auxpass") for c in verb.children) or verb.i + 1 >= len(verb.doc):
        return False
    head, before, after = verb.head, verb.doc[verb.i - 1], verb.doc[verb.i + 1]
    if head.dep_ == "conj" and head.head.i < head.i and _listed_noun_read_as_verb(head):
        return True  # "… shower blocks or play area": the list goes on
    # (a list item follows a comma, and its "object" is the noun it qualifies: "shower blocks")
    return head.tag_ not in ("VB", "MD") and before.text == "," and after.pos_ == "NOUN" and after.head.i == verb.i


def _in_condition(verb: Token) -> bool:
    """Whether `verb` joins a condition ("If he starts bleeding and it won't stop, call 999"):
    the condition is one, and its parts are no claims (the parse may also hang the main clause
    on the condition's last verb)."""
    while True:
        if any(c.dep_ == "mark" and c.lower_ in _CONDITION_MARKS for c in verb.children):
            return True
        if verb.dep_ != "conj" or verb.head.i == verb.i:
            return False
        verb = verb.head


# Verb pairs that say one thing: "can come and go outside visiting hours".
_ONE_ACTION = frozenset({("come", "go"), ("pick", "choose"), ("mix", "match"), ("drop", "collect"),
                         ("wait", "see"), ("try", "buy")})


def _base(tok: Token) -> str:
    word = tok.lower_
    return word[:-2] if word.endswith("oes") else word[:-1] if word.endswith("s") else word  # goes, comes


def en_parts(doc: Doc, offset: int, original: str) -> list[Part]:
    """Clause parts of one parsed English sentence; `offset` is the doc's start in the answer."""
    # (cut, next_start, head, verb, the clause's first token) in doc offsets; head/verb are None at
    # a semicolon.
    cuts: list[tuple[int, int, Token | None, Token | None, int]] = []
    for tok in doc:
        if tok.dep_ == "conj" and _is_verb(tok) and _is_verb(tok.head) and tok.head.i < tok.i \
                and not _in_condition(tok) and not _listed_noun_read_as_verb(tok) \
                and (_base(tok.head), _base(tok)) not in _ONE_ACTION:
            between = [c for c in tok.head.children if c.dep_ in ("cc", "punct") and c.i < tok.left_edge.i]
            if not between or between[-1].i <= tok.head.i:
                continue
            first = conj = between[-1]
            if first.dep_ == "cc" and first.i > 0 and doc[first.i - 1].text in (",", ";"):
                first = doc[first.i - 1]
            # The clause starts right after the conjunction, whatever the parse hangs elsewhere:
            # "but won't be re-enrolled" keeps its "won't be re-".
            cuts.append((first.idx, doc[conj.i + 1].idx, tok.head, tok, conj.i + 1))
        elif tok.dep_ == "advcl" and tok.head.i < tok.i and any(c.dep_ in _SUBJ for c in tok.children):
            # ", while" / "whereas" contrast two statements; a bare "while" is temporal.
            marks = [c for c in tok.children if c.dep_ == "mark" and c.lower_ in ("while", "whereas")]
            if marks and marks[0].i > 0 and (marks[0].lower_ == "whereas" or doc[marks[0].i - 1].text == ","):
                comma = doc[marks[0].i - 1].text == ","
                cut = doc[marks[0].i - 1].idx if comma else marks[0].idx
                cuts.append((cut, marks[0].idx + len(marks[0].text), tok.head, tok, marks[0].i + 1))
        elif tok.dep_ in ("nsubj", "nsubjpass") and _is_verb(tok.head) and tok.head.i > tok.i \
                and (first := tok.left_edge.i) >= 2 and doc[first - 1].lower_ in ("and", "but", "then") \
                and doc[first - 2].text == "," and _finite(tok.head):
            # ", and the sump pump is covered for 10 years": a clause with its own subject, even
            # where the parse hangs it on a word before ("a warranty that transfers …"); so is
            # ", then it's £1 per hour" after the first half hour's price.
            cuts.append((doc[first - 2].idx, doc[first].idx, tok.head, tok.head, first))
    for tok in doc:
        if tok.text == ";" and 0 < tok.i < len(doc) - 1:
            cuts.append((tok.idx, tok.idx + 1, None, None, tok.i + 1))
    gapped = _gapped_rest(doc, offset, original)
    if gapped is not None:
        cuts.append(gapped.cut)
    cuts.sort(key=lambda c: c[0])
    length = len(doc.text)
    parts: list[Part] = []
    start, prefix = 0, ""
    for n, (cut, nxt, head, verb, first_token) in enumerate(cuts):
        if cut <= start:
            continue
        following = cuts[n + 1][0] if n + 1 < len(cuts) else length
        # (a gapped clause has no verb of its own: its carried one makes it checkable)
        rest_gap = gapped is not None and cut == gapped.cut[0]
        carry = gapped.prefix if rest_gap else \
            "" if verb is None else _en_prefix(doc, head, verb, offset, original, first_token)
        if carry is None or not _checkable_en(doc, start, cut) or not (rest_gap or _checkable_en(doc, nxt, following)) \
                or _refers_back(doc, head, nxt, following):
            continue
        parts.append(Part(offset + start, offset + cut, prefix))
        start, prefix = nxt, carry
    parts.append(Part(offset + start, offset + length, prefix))
    return parts


def _refers_back(doc: Doc, head: Token | None, lo: int, hi: int) -> bool:
    """Whether the clause's object is "them" for the things the clause before is about ("Spray tans
    are £25 a session and you can book them at Chippenham"): cut off, it would say nothing of them."""
    subject = _subject_of(head) if head is not None else None
    return subject is not None and subject.tag_ in ("NNS", "NNPS") \
        and any(t.lower_ == "them" and t.dep_ in ("dobj", "pobj", "obj") for t in doc if lo <= t.idx < hi)


_REST = frozenset({"rest", "balance", "remainder"})


@dataclass(frozen=True)
class _Gap:
    cut: tuple[int, int, None, None, int]  # as en_parts' cuts: before "and", the clause's start, its first token
    prefix: str  # the first clause's subject and verb, carried: "You pay "


def _gapped_rest(doc: Doc, offset: int, original: str) -> _Gap | None:
    """The cut before "and the rest on completion of fitting", a clause whose verb is the first
    one's ("You pay a 50% deposit when you order and the rest ..."): it says when the rest is
    paid, a claim of its own, and carries the first clause's subject and verb."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ != "VERB" or (subj := _subject_of(root)) is None or subj.i > root.i:
        return None
    for tok in doc:
        if tok.lower_ in _REST and tok.i >= 2 and tok.i > root.i and doc[tok.i - 1].lower_ == "the" \
                and doc[tok.i - 2].lower_ == "and" and not any(_is_verb(t) for t in doc[tok.i + 1:]):
            first = doc[tok.i - 3] if doc[tok.i - 3].text == "," else doc[tok.i - 2]
            s, e = subj.left_edge.idx, subj.right_edge.idx + len(subj.right_edge.text)
            prefix = f"{original[offset + s : offset + e]} {root.text} "
            return _Gap((first.idx, doc[tok.i - 1].idx, None, None, tok.i - 1), prefix)
    return None

"""`Verifier(...).verify(answer, sources)`: the one entry point.

Verification runs in three phases so that model calls can be batched across answers (in
`verify_batch`, the HTTP service's micro-batcher and audits):

1. `prepare`: split claims, segment sources, pick candidate spans (CPU, no model);
2. `pairs` -> one `model.predict` call over many answers;
3. `finish`: fact checks, labels, coverage and the decision.
"""

from __future__ import annotations

import functools
import time
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from extractors import Analyzer, Claim, detect_language, extract_entities, split_claims
from models import NLIModel, NLIScores, Pair, load_model
from verifier.cache import VerifierCache, content_hash
from verifier.arithmetic import per_unit_reading, sum_operands, working
from verifier.candidates import SpanIndex
from verifier.conflicts import claim_conflicts, unresolved
from verifier.decide import decide
from verifier.decision_log import DecisionLog
from verifier.factcheck import check_facts
from verifier.history import about_the_past, names_a_date, of_other_years, years_of
from verifier.qualify import asker_qualifiers
from verifier.handoff import handoff_package
from verifier.messages import family, message
from verifier.policy import Policy, load_policy
from verifier.schema import Context, Coverage, ModelInfo, Report, Source, VerifyRequest
from verifier.prepared import PreparedAnswer, only_sum, per_claim
from verifier.resplit import kept, pieces
from verifier.segment import SegmentedSource, segment_source
from verifier.verdict import ScoredCandidate, Thresholds, label_claim


def _merge(mask: list[bool], main: Iterator[NLIScores], rivals: Iterator[NLIScores]) -> list[NLIScores]:
    return [next(rivals) if r else next(main) for r in mask]


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


class Verifier:
    """Checks draft answers against their sources and says whether they may go out."""

    def __init__(
        self,
        model: str | NLIModel = "default",
        *,
        device: str = "auto",
        thresholds: Thresholds | None = None,
        analyzer: Analyzer | None = None,
        models_file: str | None = None,
        batch_size: int | None = None,
        cache: VerifierCache | None = None,
        policy: str | Policy = "default",
        decision_log: DecisionLog | None = None,
    ) -> None:
        # How to build the same model again, e.g. in the service's model worker processes;
        # None when the caller handed over a model object.
        self.model_loader: Callable[[], NLIModel] | None = None
        if isinstance(model, str):
            self.model_loader = functools.partial(load_model, model, device=device, models_file=models_file,
                                                  batch_size=batch_size)
            model = self.model_loader()
        self.model: NLIModel = model
        self.policy = policy if isinstance(policy, Policy) else load_policy(policy)
        # Explicit thresholds win over the policy's (e.g. while calibrating).
        self.thresholds = thresholds or self.policy.thresholds
        self.decision_log = decision_log
        self.analyzer = analyzer or Analyzer()
        self.cache = cache  # None: nothing is kept between calls
        # The asyncio engine (micro-batcher) behind `averify` and the HTTP service; made on first use.
        self.async_engine: Any = None

    # -- public API ---------------------------------------------------------------------

    def verify(
        self,
        answer: str,
        sources: Sequence[Source | Mapping[str, Any]] = (),
        *,
        question: str | None = None,
        context: Context | Mapping[str, Any] | None = None,
        id: str | None = None,
    ) -> Report:
        return self.verify_request(_request(answer, sources, question, context, id))

    async def averify(
        self,
        answer: str,
        sources: Sequence[Source | Mapping[str, Any]] = (),
        *,
        question: str | None = None,
        context: Context | Mapping[str, Any] | None = None,
        id: str | None = None,
        timeout_ms: int | None = None,
    ) -> Report:
        """`verify` for asyncio apps: the model call is batched with concurrent callers (and with the
        HTTP service when one serves this verifier in this process). Past `timeout_ms` the report is
        an explicit abstain ("verification timed out"); an internal error gives an abstain carrying
        an error id."""
        from verifier.service.engine import averify_request

        return await averify_request(self, _request(answer, sources, question, context, id), timeout_ms)

    def verify_request(self, request: VerifyRequest | Mapping[str, Any]) -> Report:
        return self.verify_batch([request])[0]

    def verify_batch(self, requests: Iterable[VerifyRequest | Mapping[str, Any]]) -> list[Report]:
        """Verify many answers with one batched model call over all their pairs (and one more for
        the sentences of sources read only for conflicts)."""
        prepared = [self.prepare(r) for r in requests]
        started = time.perf_counter()
        # Rival sentences are scored in a call of their own: the model's batches for the pairs that
        # label claims stay the same, and so do their scores to the last digit.
        masks = [p.rival_pairs() for p in prepared]
        main = self.score([[x for x, r in zip(p.pairs(), m) if not r] for p, m in zip(prepared, masks)])
        rivals = self.score([[x for x, r in zip(p.pairs(), m) if r] for p, m in zip(prepared, masks)])
        scores = [_merge(m, iter(a), iter(b)) for m, a, b in zip(masks, main, rivals)]
        model_ms = _ms(started)
        total_pairs = sum(len(s) for s in scores) or 1
        reports = []
        for p, s in zip(prepared, scores):
            # Each answer is charged its share of the shared model call.
            p.timing_ms["model"] = round(model_ms * len(s) / total_pairs, 3)
            reports.append(self.finish(p, s))
        # Contradicted claims read again in pieces: one more model call for all their new pairs.
        again = [(k, p.followup) for k, p in enumerate(prepared) if p.followup is not None]
        if again:
            started = time.perf_counter()
            new = self.score([f.unscored() for _, f in again])
            seconds = _ms(started)
            total_new = sum(len(n) for n in new) or 1
            for (k, followup), n in zip(again, new):
                followup.timing_ms["model"] = round(followup.timing_ms.get("model", 0.0) + seconds * len(n) / total_new, 3)
                reports[k] = self.finish_followup(followup, followup.all_scores(n))
        return reports

    # -- phases ---------------------------------------------------------------------------

    def prepare(self, request: VerifyRequest | Mapping[str, Any]) -> PreparedAnswer:
        started = time.perf_counter()
        if not isinstance(request, VerifyRequest):
            request = VerifyRequest.model_validate(request)
        as_of = request.context.as_of
        language = detect_language(request.answer)
        t = time.perf_counter()
        claims = self._claims(request.answer, as_of)
        timing = {"claims": _ms(t)}
        t = time.perf_counter()
        sources = [self._segment(s, as_of) for s in self._in_scope(request)]
        timing["segment"] = _ms(t)
        t = time.perf_counter()
        index = SpanIndex(sources)
        workings = [working(c, request.answer[: c.start], request.question or "") for c in claims]
        # A sum finds its sources by the words of its sentence, which name what it adds up.
        sums = [only_sum(c, pieces) for c, pieces in zip(claims, workings)]
        candidates = [index.candidates(c, words_from=c.sentence if c.sentence and alone else None,
                                       operands=sum_operands(c, request.answer[: c.start], request.question or "")
                                       if alone else ())
                      for c, alone in zip(claims, sums)]
        readings = [per_unit_reading(c, [x.span for x in sorted(cands, key=lambda x: -x.relevance)[:3]])
                    for c, cands in zip(claims, candidates)]
        timing["candidates"] = _ms(t)
        timing["prepare"] = _ms(started)
        return PreparedAnswer(request, language, claims, sources, candidates, workings, timing, readings)

    def score(self, pair_lists: Sequence[Sequence[Pair]]) -> list[list[NLIScores]]:
        """One model call for the pairs of many answers; identical or cached pairs are scored once."""
        return score_pairs(self.model, pair_lists, self.cache)

    def finish(self, prepared: PreparedAnswer, scores: Sequence[NLIScores]) -> Report:
        """Labels, coverage and the decision. When a contradicted claim is to be read again clause
        by clause (`verifier.resplit`), `prepared.followup` holds the pieces: score its pairs and
        call `finish_followup`, whose report replaces this one (and is the one logged)."""
        started = time.perf_counter()
        claim_reports, conflicts = self._label(prepared, scores)
        if prepared.groups is None:
            prepared.followup = self._followup(prepared, scores, claim_reports)
        report = self._report(prepared, claim_reports, conflicts, started, log=prepared.followup is None)
        if prepared.followup is not None:  # (its verdict time adds to this one's)
            prepared.followup.timing_ms["verdict"] = report.timing_ms["verdict"]
        return report

    def finish_followup(self, followup: PreparedAnswer, scores: Sequence[NLIScores]) -> Report:
        """The report of an answer whose contradicted claims were cut into pieces: `scores` for
        `followup.pairs()`. A cut stands where the pieces keep the contradiction (`resplit.kept`)."""
        started = time.perf_counter()
        assert followup.groups is not None
        trial, _ = self._label(followup, scores)
        by_claim = per_claim(followup, scores)
        chosen: list[int] = []
        for whole, parts in followup.groups:
            if parts and kept(trial[whole], [trial[k] for k in parts]):
                chosen.extend(parts)
            else:
                chosen.append(whole)
        final = followup.subset(chosen)
        final_scores = [x for k in chosen for x in by_claim[k]]
        claim_reports, conflicts = self._label(final, final_scores)
        return self._report(final, claim_reports, conflicts, started, log=True)

    def _followup(self, prepared: PreparedAnswer, scores: Sequence[NLIScores], claim_reports: list
                  ) -> PreparedAnswer | None:
        """The answer's claims with each contradicted one that cuts followed by its pieces; None
        when none cuts."""
        answer = prepared.request.answer
        cut = [pieces(c, r, answer, self.analyzer) for c, r in zip(prepared.claims, claim_reports)]
        if not any(cut):
            return None
        index = SpanIndex(prepared.sources)
        question = prepared.request.question or ""
        claims, candidates, workings, readings, groups = [], [], [], [], []
        for i, claim in enumerate(prepared.claims):
            groups.append((len(claims), list(range(len(claims) + 1, len(claims) + 1 + len(cut[i] or [])))))
            claims.append(claim)
            candidates.append(prepared.candidates[i])
            workings.append(prepared.workings[i])
            readings.append(prepared.readings[i] if prepared.readings else None)
            for piece in cut[i] or []:
                pieces_working = working(piece, answer[: piece.start], question)
                cands = index.candidates(piece)
                claims.append(piece)
                candidates.append(cands)
                workings.append(pieces_working)
                readings.append(per_unit_reading(piece, [x.span for x in sorted(cands, key=lambda x: -x.relevance)[:3]]))
        followup = PreparedAnswer(prepared.request, prepared.language, claims, prepared.sources, candidates, workings,
                                  dict(prepared.timing_ms), readings)
        followup.groups = groups
        followup.known = dict(zip(prepared.pairs(), scores))
        return followup

    def _label(self, prepared: PreparedAnswer, scores: Sequence[NLIScores]) -> tuple[list, list]:
        request, language = prepared.request, prepared.language
        claim_reports, conflicts = [], []
        titles = {seg.source.id: seg.source.title for seg in prepared.sources if seg.current and seg.source.title}
        asker = asker_qualifiers(request.question)
        entities_of = functools.lru_cache(maxsize=64)(lambda text: extract_entities(text, self.analyzer))
        pairs = prepared.pairs()
        dated_sentences = {c.sentence for c in prepared.claims if c.sentence and names_a_date(c.facts)}
        # The years of each answer sentence: every claim cut from it speaks of them.
        sentence_years: dict[str, set[int]] = {}
        for c in prepared.claims:
            sentence_years.setdefault(c.sentence or c.text, set()).update(years_of(c.facts))
        position = 0
        for i, (claim, cands) in enumerate(zip(prepared.claims, prepared.candidates)):
            scored = []
            # A claim about the present does not rest on a sentence about the past.
            present = not about_the_past(claim, claim.sentence in dated_sentences) \
                or of_other_years(claim, sentence_years[claim.sentence or claim.text], [c.span for c in cands if not c.rival])
            for cand in cands:
                seg = prepared.sources[cand.source_index]
                past = present and cand.span.past
                pair, pair_scores = pairs[position], scores[position]
                position += 1
                if claim.sentence:
                    pair_scores = _with_sentence(pair_scores, scores[position])
                    position += 1
                scored.append(ScoredCandidate(cand, pair_scores, seg.current and not past,
                                              seg.not_current_because or (("later" if cand.span.later else "past") if past else None),
                                              pair))
            claim_id = f"c{i + 1}"
            found = claim_conflicts(claim_id, claim, scored, prepared.sources, self.thresholds)
            scored = [s for s in scored if not s.candidate.rival]
            current_cands = [s.candidate for s in scored if s.current]
            earlier = [s.candidate for s in scored if s.not_current_because == "past"]
            facts = check_facts(claim, current_cands, min_relevance=self.thresholds.relevance, titles=titles, present=present, earlier=earlier,
                                entities_of=entities_of, question=request.question or "",
                                earlier_answer=request.answer[: claim.start])
            report = label_claim(claim_id, claim, scored, facts, self.thresholds, language, asker=asker,
                                 has_sources=bool(prepared.sources), only_sum=only_sum(claim, prepared.workings[i]),
                                 answer=request.answer, question=request.question or "")
            open_conflicts = unresolved(found)
            if open_conflicts and report.label == "supported":
                # Resting on sources that disagree: show both sides, never call it supported. One
                # in-force source says otherwise, so the claim as stated is contradicted.
                c = open_conflicts[0]
                report = report.model_copy(update={"label": "contradicted", "reason": message(
                    language, "conflict_reason", a=c.source_a, b=c.source_b, slot=c.slot,
                    values=" / ".join(c.values))})
            conflicts.extend(found)
            claim_reports.append(report)
        return claim_reports, conflicts

    def _report(self, prepared: PreparedAnswer, claim_reports: list, conflicts: list, started: float, *, log: bool
                ) -> Report:
        request, language = prepared.request, prepared.language
        coverage = _coverage(claim_reports)
        decision = decide(self.policy, claim_reports, coverage, conflicts, request, language)
        timing = dict(prepared.timing_ms)
        timing["verdict"] = round(timing.get("verdict", 0.0) + _ms(started), 3)
        timing["total"] = round(sum(timing[k] for k in ("prepare", "model", "verdict") if k in timing), 3)
        result = Report(
            id=request.id,
            language=language,
            claims=claim_reports,
            coverage=coverage,
            conflicts=conflicts,
            decision=decision,
            model=ModelInfo(name=self.model.name, revision=self.model.revision),
            timing_ms=timing,
        )
        if decision.action == "handoff":
            team = self.policy.handoff_team.get(family(language), self.policy.handoff_team["en"])
            result.decision.handoff = handoff_package(request, result, team)
        if log and self.decision_log is not None:
            self.decision_log.write(request, result)
        return result

    # -- helpers --------------------------------------------------------------------------

    def _claims(self, answer: str, as_of) -> list[Claim]:
        if self.cache is None:
            return split_claims(answer, analyzer=self.analyzer, as_of=as_of)
        key = content_hash(answer, as_of)
        claims = self.cache.claims.get(key)
        if claims is None:
            claims = split_claims(answer, analyzer=self.analyzer, as_of=as_of)
            self.cache.claims.put(key, claims)
        return claims

    def _segment(self, source: Source, as_of) -> SegmentedSource:
        if self.cache is None:
            return segment_source(source, as_of)
        key = content_hash(source.id, source.text, source.metadata.model_dump_json(), as_of)
        segmented = self.cache.segments.get(key)
        if segmented is None:
            segmented = segment_source(source, as_of)
            self.cache.segments.put(key, segmented)
        return segmented

    @staticmethod
    def _in_scope(request: VerifyRequest) -> list[Source]:
        """Sources meant for this asker: with `context.scope`, scoped sources must share a scope."""
        wanted = set(request.context.scope or ())
        if not wanted:
            return list(request.sources)
        return [s for s in request.sources if not s.metadata.scope or wanted & set(s.metadata.scope)]


def score_pairs(model: NLIModel, pair_lists: Sequence[Sequence[Pair]], cache: VerifierCache | None = None
                ) -> list[list[NLIScores]]:
    """`Verifier.score` without a Verifier: also what the service's model worker processes run."""
    known: dict[Pair, NLIScores] = {}
    todo: dict[Pair, None] = {}
    for pairs in pair_lists:
        for pair in pairs:
            if pair in known or pair in todo:
                continue
            cached = cache.scores.get(content_hash(*pair)) if cache else None
            if cached is None:
                todo[pair] = None
            else:
                known[pair] = cached
    if todo:
        for pair, scores in zip(todo, model.predict(list(todo))):
            known[pair] = scores
            if cache:
                cache.scores.put(content_hash(*pair), scores)
    return [[known[pair] for pair in pairs] for pairs in pair_lists]


def _request(answer: str, sources: Sequence[Source | Mapping[str, Any]], question: str | None,
             context: Context | Mapping[str, Any] | None, id: str | None) -> VerifyRequest:
    return VerifyRequest.model_validate(
        {"id": id, "question": question, "answer": answer, "sources": list(sources),
         "context": context if context is not None else {}}
    )


def _with_sentence(part: NLIScores, sentence: NLIScores) -> NLIScores:
    """A part's scores, with the entailment of its whole sentence where that is higher (what
    entails the sentence entails each part). Its contradiction stays the part's own: another
    part of the sentence may be the one the evidence contradicts."""
    if sentence.entailment <= part.entailment:
        return part
    return NLIScores(entailment=sentence.entailment, neutral=max(0.0, 1.0 - sentence.entailment - part.contradiction),
                     contradiction=min(part.contradiction, 1.0 - sentence.entailment))


def _coverage(claims: list) -> Coverage:
    counts = {label: sum(1 for c in claims if c.label == label)
              for label in ("supported", "partial", "unsupported", "contradicted")}
    n = len(claims)
    return Coverage(claims=n, **counts, supported_ratio=round(counts["supported"] / n, 4) if n else 0.0)

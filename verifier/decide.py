"""From a coverage report and the caller's context to a decision that explains itself."""

from __future__ import annotations

from typing import Any

from extractors.tokens import token_recall
from verifier.messages import LABELS, family, message, quote
from verifier.policy import Policy
from verifier.rewrite import rewrite_answer
from verifier.schema import ClaimReport, Conflict, Coverage, Decision, VerifyRequest


def signals(claims: list[ClaimReport], coverage: Coverage, conflicts: list[Conflict],
            request: VerifyRequest) -> dict[str, Any]:
    """Everything a policy rule may test, by name."""
    ctx = request.context
    return {
        "claims": coverage.claims,
        "supported": coverage.supported,
        "partial": coverage.partial,
        "unsupported": coverage.unsupported,
        "contradicted": coverage.contradicted,
        "supported_ratio": coverage.supported_ratio,
        "contradicted_facts": sum(1 for c in claims if any(f.status == "mismatched" for f in c.facts)),
        "key_contradicted": len(_key_contradicted(claims, request.question)),
        "conflicts": sum(1 for c in conflicts if c.winner is None),
        "resolved_conflicts": sum(1 for c in conflicts if c.winner is not None),
        "not_current": len(_not_current_only(claims)),
        "sources": len(request.sources),
        "risk_level": ctx.risk_level,
        "retrieval_ok": ctx.retrieval_ok,
        "permission_ok": ctx.permission_ok,
        "missing_slots": len(ctx.missing_slots),
        "requires_approval": ctx.requires_approval,
    }


def _not_current_only(claims: list[ClaimReport]) -> list[ClaimReport]:
    """Claims left unsupported although a non-current source supports them."""
    return [c for c in claims if c.label != "supported"
            and any(e.relation == "supports" and not e.current for e in c.evidence)]


def _key_contradicted(claims: list[ClaimReport], question: str | None) -> list[ClaimReport]:
    """Contradicted claims that answer what was asked: those sharing at least half as many of the
    question's words as the claim closest to it (every contradicted claim when there is no question
    to go by). Rewriting drops a contradicted claim; when that claim was the answer, what is left
    no longer answers the question. Half, because the answer's other claims often repeat the
    question's subject while the one asked about names only its own slot ("由谁审批")."""
    contradicted = [c for c in claims if c.label == "contradicted"]
    if not contradicted or not question:
        return contradicted
    closeness = {c.id: token_recall(question, c.text) for c in claims}
    top = max(closeness.values())
    return [c for c in contradicted if top == 0 or closeness[c.id] >= top / 2]


def decide(policy: Policy, claims: list[ClaimReport], coverage: Coverage, conflicts: list[Conflict],
           request: VerifyRequest, language: str) -> Decision:
    sig = signals(claims, coverage, conflicts, request)
    action, keys = policy.decide(sig)
    reasons = [_reason(key, sig, claims, conflicts, request, language) for key in keys]
    reasons += [message(language, "claim_detail", claim=c.id, label=LABELS[family(language)][c.label],
                        reason=c.reason) for c in claims if c.label != "supported"]
    reasons += [_conflict_reason(c, language) for c in conflicts]
    reasons = list(dict.fromkeys(reasons))  # the conflict that decides is also listed with the others
    return Decision(
        action=action,  # type: ignore[arg-type]
        reason=reasons[0],
        confidence=_confidence(action, claims, coverage),
        risk_level=request.context.risk_level,
        evidence_status=_evidence_status(coverage, sig),
        missing_information=list(request.context.missing_slots) + [c.text for c in claims if c.label != "supported"],
        reasons=reasons,
        policy_version=policy.version,
        message=_user_message(action, policy, claims, request, language),
        rewrite=rewrite_answer(claims, language) if action == "rewrite" else None,
    )


def _reason(key: str, sig: dict, claims: list[ClaimReport], conflicts: list[Conflict], request: VerifyRequest,
            language: str) -> str:
    if key == "contradicted":
        worst = next(c for c in claims if c.label == "contradicted")
        return message(language, "contradicted", claim=worst.id, reason=worst.reason)
    if key == "contradicted_key":
        worst = _key_contradicted(claims, request.question)[0]
        return message(language, "contradicted_key", claim=worst.id, reason=worst.reason)
    if key == "conflict":
        return _conflict_reason(next(c for c in conflicts if c.winner is None), language)
    if key == "superseded_only":
        return message(language, "superseded_only", claims=", ".join(c.id for c in _not_current_only(claims)))
    if key == "missing_slots":
        return message(language, "missing_slots", slots=", ".join(request.context.missing_slots))
    if key in ("risk_partial", "risk_unsupported"):
        return message(language, key, risk=sig["risk_level"])
    if key in ("all_supported", "none_supported"):
        return message(language, key, n=sig["claims"])
    if key == "some_supported":
        return message(language, key, supported=sig["supported"], n=sig["claims"])
    return message(language, key)


def _conflict_reason(conflict: Conflict, language: str) -> str:
    values = " / ".join(conflict.values)
    if conflict.winner:
        return message(language, "conflict_resolved", a=conflict.source_a, b=conflict.source_b,
                       slot=conflict.slot, values=values, winner=conflict.winner)
    return message(language, "conflict_reason", a=conflict.source_a, b=conflict.source_b,
                   slot=conflict.slot, values=values)


def _confidence(action: str, claims: list[ClaimReport], coverage: Coverage) -> float:
    if not claims:
        return 1.0
    if action == "answer":
        return round(min(c.score for c in claims), 4)
    if action == "rewrite":
        return round(min((c.score for c in claims if c.label == "supported"), default=0.0), 4)
    # For holding back: how sure we are that something is wrong or missing.
    return round(max((c.score for c in claims if c.label != "supported"), default=coverage.supported_ratio), 4)


def _evidence_status(coverage: Coverage, sig: dict) -> str:
    if sig["conflicts"] or coverage.contradicted:
        return "conflicting"
    if coverage.claims and coverage.supported == coverage.claims:
        return "direct"
    if coverage.supported or coverage.partial:
        return "partial"
    if sig["not_current"]:
        return "background"
    return "missing"


def _user_message(action: str, policy: Policy, claims: list[ClaimReport], request: VerifyRequest,
                  language: str) -> str | None:
    fam = family(language)
    if action == "clarify":
        slots = request.context.missing_slots[:2]  # never more than two questions at once
        questions = " ".join(
            getattr(policy.questions[s], fam) if s in policy.questions else message(language, "slot_question", slot=s)
            for s in slots
        )
        return message(language, "user_clarify", questions=questions) + " " + message(language, "user_clarify_why")
    if action == "abstain":
        open_points = [quote(c.text, 80) for c in claims if c.label != "supported"][:3]
        if not open_points:
            return message(language, "user_abstain_empty")
        return message(language, "user_abstain", what=("; " if fam == "en" else "；").join(open_points))
    if action == "handoff":
        return message(language, "user_handoff", team=policy.handoff_team.get(fam, policy.handoff_team["en"]))
    return None

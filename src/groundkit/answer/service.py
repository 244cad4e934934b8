"""The answer path: retrieve, bundle, ask once, validate — and on any failure, the evidence.

``answer_question`` never raises for an AI failure: the report says ``disabled``,
``unavailable``, ``failed`` or ``refused`` and carries the ranked passages all the same, so the
user is never worse off than with AI off. Retrieval errors (a bad query, a missing collection)
still raise, as they do for `grk search`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from groundkit.answer.bundle import EvidenceBundle, build_bundle
from groundkit.answer.chat import ChatModel, credentials
from groundkit.answer.contract import ANSWER_SCHEMA, validate_answer
from groundkit.answer.judge import judge_answer
from groundkit.answer.prompts import ANSWER_SYSTEM, answer_user
from groundkit.answer.report import AIState, AIStatus, AnswerReport
from groundkit.answer.rewrite import rewrite_query
from groundkit.answer.scrub import Scrubber
from groundkit.answer.spans import QuoteMenu, constrained_schema
from groundkit.errors import ConfigError, ErrorCode, GroundkitError
from groundkit.types import SearchMode

if TYPE_CHECKING:
    from groundkit.collection import Collection

__all__ = ["QuoteMode", "answer_question", "quote_mode", "state_for"]

QuoteMode = Literal["constrained", "free"]

_FAILED = {
    ErrorCode.AI_PROVIDER_FAILED,
    ErrorCode.AI_RATE_LIMITED,
    ErrorCode.AI_TIMEOUT,
    ErrorCode.AI_REWRITE_INVALID,
    ErrorCode.URL_UNSAFE,
}


def state_for(error: GroundkitError) -> AIState:
    """The degraded state a failure to build or call a model leads to."""
    if error.code == ErrorCode.AI_DISABLED:
        return AIState.DISABLED
    if error.code == ErrorCode.AI_INVALID_OUTPUT:
        return AIState.REFUSED
    if error.code in _FAILED:
        return AIState.FAILED
    return AIState.UNAVAILABLE  # credentials, keychain, missing packages, redaction, config


def quote_mode(chat: ChatModel, configured: QuoteMode | None) -> QuoteMode:
    """The profile's ``quotes`` setting, else constrained for a local model, free otherwise
    (hosted structured-output APIs cap enum sizes: docs/answer.md)."""
    return configured or ("constrained" if chat.local else "free")


def answer_question(
    collection: Collection,
    question: str,
    chat: ChatModel | AIStatus,
    *,
    profile: str | None = None,
    top_k: int | None = None,
    mode: SearchMode | str | None = None,
    rewrite: bool = False,
    judge: bool = False,
    max_bundle_bytes: int | None = None,
    quotes: QuoteMode | None = None,
) -> AnswerReport:
    """Answer ``question`` from ``collection``, or explain why only the evidence is shown.

    ``chat`` is the model to ask, or the ``AIStatus`` that says why there is none (the caller
    found AI disabled or a credential missing); then no model is called at all. ``quotes`` is
    the profile's setting (None: by the model's locality, see ``quote_mode``).
    """
    cap = max_bundle_bytes or collection.settings.answer.max_bundle_bytes
    # An in-process model has a fixed context: evidence beyond it would fail the call.
    budget = getattr(chat, "prompt_budget_bytes", None)
    cap = min(cap, budget) if isinstance(budget, int) and budget > 0 else cap
    status = chat if isinstance(chat, AIStatus) else _status(chat, profile, AIState.ANSWERED)
    scrub = Scrubber(() if isinstance(chat, AIStatus) else credentials(chat))
    query, rewritten = question, None
    if rewrite and not isinstance(chat, AIStatus):
        try:
            rewritten = scrub(rewrite_query(chat, question))
            query = rewritten
        except GroundkitError as exc:  # reported, never replaced by the original silently
            status = _degraded(status, exc)
    hits = collection.search(query, top_k=top_k, mode=mode)
    bundle = build_bundle(hits, collection=collection.name, query=query, max_bytes=cap)
    if isinstance(chat, AIStatus) or status.state != AIState.ANSWERED:
        return AnswerReport(question, rewritten, bundle, status)
    if not bundle.items and bundle.truncated:  # passages were found; none fits the cap
        return AnswerReport(question, rewritten, bundle, _degraded(status, _cap_too_small(cap)))
    if not bundle.items:
        return AnswerReport(question, rewritten, bundle, _with(status, AIState.NO_EVIDENCE))
    min_chars = collection.settings.answer.min_quote_chars
    schema, menu = _schema(bundle, quote_mode(chat, quotes), min_chars)
    try:
        raw = chat.complete(ANSWER_SYSTEM, answer_user(question, bundle), response_schema=schema)
        answer = validate_answer(
            raw,
            bundle,
            collection.show,
            question=question,
            min_quote_chars=min_chars,
            scrub=scrub,
        )
    except GroundkitError as exc:
        return AnswerReport(question, rewritten, bundle, _degraded(status, exc), quotes=menu)
    verdict = judge_error = None
    if judge and answer.items:
        try:
            verdict = judge_answer(chat, question, bundle, answer, scrub=scrub)
        except GroundkitError as exc:  # advisory: its failure is reported, never fatal
            judge_error = exc
    return AnswerReport(
        question, rewritten, bundle, status, answer, verdict, judge_error, quotes=menu
    )


def _schema(
    bundle: EvidenceBundle, mode: QuoteMode, min_chars: int
) -> tuple[dict[str, Any], QuoteMenu | None]:
    if mode == "constrained":
        return constrained_schema(bundle, min_chars=min_chars)
    return ANSWER_SCHEMA, None


def _status(chat: ChatModel, profile: str | None, state: AIState) -> AIStatus:
    return AIStatus(state, profile, chat.provider, chat.model_name)


def _with(status: AIStatus, state: AIState) -> AIStatus:
    return AIStatus(
        state, status.profile, status.provider, status.model, status.error, status.warning
    )


def _degraded(status: AIStatus, error: GroundkitError) -> AIStatus:
    return AIStatus(
        state_for(error), status.profile, status.provider, status.model, error, status.warning
    )


def _cap_too_small(cap: int) -> ConfigError:
    return ConfigError(
        ErrorCode.CONFIG_INVALID,
        f"no retrieved passage fits answer.max_bundle_bytes ({cap})",
        hint="raise answer.max_bundle_bytes in grk.toml, or use grk search to read the passages",
    )

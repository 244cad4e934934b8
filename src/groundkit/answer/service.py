"""The answer path: gather evidence, bundle, ask once, validate — and on any failure, the evidence.

Two ways in, one way through: ``answer_question`` gathers passages (and, with a code map, the
edges that match the query); ``ask_code`` gathers the edges of a symbol's trace and/or blast.
Both hand their bundle to ``explain``, which asks once and passes the reply through the one
``validate_answer``. Neither raises for an AI failure: the report says ``disabled``,
``unavailable``, ``failed`` or ``refused`` and carries the evidence all the same, so the user is
never worse off than with AI off. Retrieval errors (a bad query, a missing collection, a symbol
not found or ambiguous) still raise, as they do for `grk search` and `grk trace`.

A refused reply is kept on the report (scrubbed, in no JSON form) for `--show-reply`; one that
the token limit cut off is refused as ``ai.reply_cut_off``, naming the limit, rather than by
whichever rule the truncated text broke first. ``busy`` wraps every model call, so that a
caller can show that one is running (`grk answer` draws a spinner on a terminal).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from groundkit.answer.bundle import EvidenceBundle, build_bundle
from groundkit.answer.chat import ChatModel, credentials, cut_off_at
from groundkit.answer.code import CodeScope, matching_edges, symbol_edges
from groundkit.answer.contract import ANSWER_SCHEMA, MIN_QUOTE_CHARS, validate_answer
from groundkit.answer.evidence import Origins
from groundkit.answer.judge import judge_answer
from groundkit.answer.prompts import answer_user, system_for
from groundkit.answer.report import AIState, AIStatus, AnswerReport
from groundkit.answer.rewrite import rewrite_query
from groundkit.answer.scrub import Scrubber
from groundkit.answer.spans import QuoteMenu, constrained_schema
from groundkit.config import QuoteMode
from groundkit.errors import AIError, ConfigError, ErrorCode, GroundkitError
from groundkit.types import SearchMode

if TYPE_CHECKING:
    from groundkit.codemap.api import CodeMap
    from groundkit.collection import Collection

__all__ = [
    "Busy",
    "QuoteMode",
    "answer_question",
    "ask_code",
    "explain",
    "quote_mode",
    "state_for",
]

# Wraps each model call, given what the model is doing ("answering", "judging"...).
Busy = Callable[[str], AbstractContextManager[object]]


def state_for(error: GroundkitError) -> AIState:
    """The degraded state a failure to build or call a model leads to (``OUTCOMES``: by default
    unavailable, as for credentials, keychain, missing packages, redaction, config)."""
    return AIState(error.outcome.answer_state or AIState.UNAVAILABLE)


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
    code: CodeMap | None = None,
    code_top_k: int = 5,
    busy: Busy | None = None,
) -> AnswerReport:
    """Answer ``question`` from ``collection``, or explain why only the evidence is shown.

    ``chat`` is the model to ask, or the ``AIStatus`` that says why there is none (the caller
    found AI disabled or a credential missing); then no model is called at all. ``quotes`` is
    the profile's setting (None: by the model's locality, see ``quote_mode``). With ``code``,
    the ``code_top_k`` edges of that map that best match the query follow the passages in the
    same bundle (`grk answer --with-code`). ``busy`` wraps each model call (see ``explain``).
    """
    cap = _cap(max_bundle_bytes or collection.settings.answer.max_bundle_bytes, chat)
    status = chat if isinstance(chat, AIStatus) else _status(chat, profile, AIState.ANSWERED)
    scrub = _scrubber(chat)
    query, rewritten = question, None
    if rewrite and not isinstance(chat, AIStatus):
        try:
            with _busy(busy, "rewriting the question"):
                rewritten = scrub(rewrite_query(chat, question))
            query = rewritten
        except GroundkitError as exc:  # reported, never replaced by the original silently
            status = _degraded(status, exc)
    hits = collection.search(query, top_k=top_k, mode=mode)
    edges = matching_edges(code, query, top_k=code_top_k) if code is not None else []
    bundle = build_bundle(
        hits,
        collection=collection.name,
        query=query,
        max_bytes=cap,
        edges=edges,
        code_map=code.name if code is not None else None,
        code_scope="search" if code is not None else None,
    )
    return explain(
        bundle,
        chat,
        Origins(collection.show, code),
        question=question,
        status=status,
        rewritten=rewritten,
        judge=judge,
        quotes=quotes,
        min_quote_chars=collection.settings.answer.min_quote_chars,
        busy=busy,
    )


def ask_code(
    codemap: CodeMap,
    symbol: str,
    question: str,
    chat: ChatModel | AIStatus,
    *,
    scope: CodeScope = "both",
    depth: int = 2,
    top_k: int = 20,
    profile: str | None = None,
    judge: bool = False,
    max_bundle_bytes: int | None = None,
    quotes: QuoteMode | None = None,
    busy: Busy | None = None,
) -> AnswerReport:
    """Answer ``question`` about ``symbol`` from the edges of its trace and/or blast (`grk ask`).

    The symbol is resolved first: not found and ambiguous raise, as `grk trace` does, before any
    model is asked. The first ``top_k`` edges in order (path confidence, depth, identity) are the
    evidence; everything else is as for ``answer_question``, through the same gate.
    """
    settings = codemap.settings.answer
    cap = _cap(max_bundle_bytes or settings.max_bundle_bytes, chat)
    name, found = symbol_edges(codemap, symbol, scope=scope, depth=depth)
    bundle = build_bundle(
        (),
        collection=None,
        query=question,
        max_bytes=cap,
        edges=found[: max(top_k, 0)],
        code_map=codemap.name,
        symbol=name,
        code_scope=scope,
        code_found=len(found),
    )
    status = chat if isinstance(chat, AIStatus) else _status(chat, profile, AIState.ANSWERED)
    return explain(
        bundle,
        chat,
        Origins(code=codemap),
        question=question,
        status=status,
        judge=judge,
        quotes=quotes,
        min_quote_chars=settings.min_quote_chars,
        busy=busy,
    )


def explain(
    bundle: EvidenceBundle,
    chat: ChatModel | AIStatus,
    origins: Origins,
    *,
    question: str,
    status: AIStatus,
    rewritten: str | None = None,
    judge: bool = False,
    quotes: QuoteMode | None = None,
    min_quote_chars: int = MIN_QUOTE_CHARS,
    busy: Busy | None = None,
) -> AnswerReport:
    """The one path from a bundle to a report, whatever kind of evidence it holds: ask once
    under the (constrained) schema, validate, judge; on any failure the evidence and why.

    ``busy(doing)`` is entered around each model call (and only around them), for a caller
    that shows progress; it must not print on standard output."""
    if isinstance(chat, AIStatus) or status.state != AIState.ANSWERED:
        return AnswerReport(question, rewritten, bundle, status)
    if not bundle.items and bundle.truncated:  # evidence was found; none fits the cap
        cap_error = _cap_too_small(bundle.max_bytes)
        return AnswerReport(question, rewritten, bundle, _degraded(status, cap_error))
    if not bundle.items:
        return AnswerReport(question, rewritten, bundle, _with(status, AIState.NO_EVIDENCE))
    scrub = _scrubber(chat)
    schema, menu = _schema(bundle, quote_mode(chat, quotes), min_quote_chars)
    raw: str | None = None
    try:
        user = answer_user(question, bundle)
        with _busy(busy, "answering"):
            raw = chat.complete(system_for(bundle), user, response_schema=schema)
        answer = validate_answer(
            raw, bundle, origins, question=question, min_quote_chars=min_quote_chars, scrub=scrub
        )
    except GroundkitError as exc:
        refused = raw is not None and exc.code == ErrorCode.AI_INVALID_OUTPUT
        limit = cut_off_at(chat) if refused else None
        error = _cut_off(status, limit) if limit is not None else exc
        return AnswerReport(
            question,
            rewritten,
            bundle,
            _degraded(status, error),
            quotes=menu,
            refused_reply=scrub(raw) if refused and raw is not None else None,
        )
    verdict = judge_error = None
    if judge and answer.items:
        try:
            with _busy(busy, "judging the answer"):
                verdict = judge_answer(chat, question, bundle, answer, scrub=scrub)
        except GroundkitError as exc:  # advisory: its failure is reported, never fatal
            judge_error = exc
    return AnswerReport(
        question, rewritten, bundle, status, answer, verdict, judge_error, quotes=menu
    )


def _busy(busy: Busy | None, doing: str) -> AbstractContextManager[object]:
    return busy(doing) if busy is not None else nullcontext()


def _cut_off(status: AIStatus, limit: int) -> AIError:
    where = f"[profiles.{status.profile}]" if status.profile else "the profile"
    return AIError(
        ErrorCode.AI_REPLY_CUT_OFF,
        f"the model's answer was refused: the reply was cut off at max_tokens={limit} before"
        " it was complete",
        hint=f"raise max_tokens in {where} in grk.toml, or send less evidence (--top-k)",
    )


def _cap(cap: int, chat: ChatModel | AIStatus) -> int:
    """The bundle cap, and no more than an in-process model's context can hold beside its
    reply (evidence beyond it would fail the call)."""
    budget = getattr(chat, "prompt_budget_bytes", None)
    return min(cap, budget) if isinstance(budget, int) and budget > 0 else cap


def _scrubber(chat: ChatModel | AIStatus) -> Scrubber:
    return Scrubber(() if isinstance(chat, AIStatus) else credentials(chat))


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

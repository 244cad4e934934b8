"""The one way a question reaches a model: `grk answer`, `grk ask`, the answer page and the code
map's ask box all call ``answer_from`` or ``ask_about``.

A ``Session`` is decided once, before any network: whether the collection (or code map) allows
AI and with which profile, and then the model that profile builds, or the ``AIStatus`` that says
why there is none (``access.resolve_chat``); with it, the profile chosen and its quote mode. The
question then goes through ``service`` as it always does: evidence first, one call, the contract.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundkit.answer.access import AIEnvironment, AIScope, enabled_profile, resolve_chat
from groundkit.answer.extractive import Answerer
from groundkit.answer.report import AIStatus, AnswerReport
from groundkit.answer.service import Busy, QuoteMode, answer_question, ask_code
from groundkit.config import Settings
from groundkit.types import SearchMode

if TYPE_CHECKING:
    from groundkit.answer.code import CodeScope
    from groundkit.codemap.api import CodeMap
    from groundkit.collection import Collection

__all__ = ["BusyFor", "Session", "answer_from", "ask_about", "open_session"]

# What shows that a model is working, made once the model is known (`grk answer`'s spinner).
BusyFor = Callable[[Answerer | AIStatus], Busy]


@dataclass(frozen=True, slots=True)
class Session:
    """The model a question may use (or why there is none), the profile chosen, its quotes."""

    chat: Answerer | AIStatus
    profile: str | None
    quotes: QuoteMode | None


def open_session(
    settings: Settings,
    scope: AIScope,
    environment: AIEnvironment,
    *,
    profile: str | None = None,
    also: Sequence[AIScope] = (),
) -> Session:
    """The session for evidence from ``scope`` (and each of ``also``): ``profile``, or the one
    the scope allows."""
    chat = resolve_chat(
        settings,
        scope.folder,
        scope.name,
        profile=profile,
        environment=environment,
        kind=scope.kind,
        also=also,
    )
    chosen = profile or enabled_profile(environment, scope.folder)
    config = settings.profiles.get(chosen) if chosen else None
    return Session(chat, chosen, config.quotes if config else None)


def answer_from(
    collection: Collection,
    question: str,
    environment: AIEnvironment,
    *,
    profile: str | None = None,
    top_k: int | None = None,
    mode: SearchMode | str | None = None,
    rewrite: bool = False,
    judge: bool = False,
    code: CodeMap | None = None,
    code_top_k: int = 5,
    busy_for: BusyFor | None = None,
) -> AnswerReport:
    """Answer ``question`` from ``collection`` (with ``code``, that map's matching edges too,
    which needs the map's own opt-in), or say why only the evidence is shown."""
    also = [AIScope(code.folder, code.name, "map")] if code is not None else []
    scope = AIScope(collection.path, collection.name)
    session = open_session(collection.settings, scope, environment, profile=profile, also=also)
    return answer_question(
        collection,
        question,
        session.chat,
        profile=session.profile,
        top_k=top_k,
        mode=mode,
        rewrite=rewrite,
        judge=judge,
        quotes=session.quotes,
        code=code,
        code_top_k=code_top_k,
        busy=busy_for(session.chat) if busy_for is not None else None,
    )


def ask_about(
    codemap: CodeMap,
    symbol: str,
    question: str,
    environment: AIEnvironment,
    *,
    profile: str | None = None,
    scope: CodeScope = "both",
    depth: int = 2,
    top_k: int = 20,
    judge: bool = False,
    busy_for: BusyFor | None = None,
    goal: str | None = None,
) -> AnswerReport:
    """Answer ``question`` about ``symbol`` from its edges, or with ``goal`` from the hops of
    the paths to it. Both are found first: not found and ambiguous raise before any opt-in or
    key is read."""
    for name in (symbol,) if goal is None else (symbol, goal):
        codemap.find(name)
    where = AIScope(codemap.folder, codemap.name, "map")
    session = open_session(codemap.settings, where, environment, profile=profile)
    return ask_code(
        codemap,
        symbol,
        question,
        session.chat,
        scope=scope,
        depth=depth,
        top_k=top_k,
        profile=session.profile,
        judge=judge,
        quotes=session.quotes,
        busy=busy_for(session.chat) if busy_for is not None else None,
        goal=goal,
    )

"""The questions a model may explain evidence for: `grk answer` / the answer page, and `grk ask`
/ the code map's ask box. Each opens what it reads and goes through the one answer session
(``answer.session``)."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundkit.answer.session import BusyFor, answer_from, ask_about
from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.types import SearchMode

if TYPE_CHECKING:
    from groundkit.answer.access import AIEnvironment
    from groundkit.answer.code import CodeScope
    from groundkit.answer.report import AnswerReport
    from groundkit.config import Settings
    from groundkit.ops.collections import Collections

__all__ = ["Question", "SymbolQuestion", "answer", "ask", "extract"]


@dataclass(frozen=True, slots=True)
class Question:
    """A question for a collection. ``with_code``: a code map whose best-matching edges join the
    passages (it needs its own opt-in); None fields: the settings decide."""

    question: str
    collection: str | None = None
    profile: str | None = None
    top_k: int | None = None
    mode: SearchMode | str | None = None
    rewrite: bool = False
    judge: bool = False
    with_code: str | None = None
    code_top_k: int = 5


def answer(
    collections: Collections,
    request: Question,
    environment: AIEnvironment,
    *,
    busy_for: BusyFor | None = None,
) -> AnswerReport:
    """The evidence for ``request``, and a model's explanation where every quote checks."""
    name = request.collection if request.collection is not None else collections.settings.collection
    with collections.reading(name) as collection, ExitStack() as stack:
        code = None
        if request.with_code is not None:
            from groundkit.codemap.api import open_codemap  # only a question that asks for code

            code = stack.enter_context(
                open_codemap(request.with_code, settings=collections.settings)
            )
        return answer_from(
            collection,
            request.question,
            environment,
            profile=request.profile,
            top_k=request.top_k,
            mode=request.mode,
            rewrite=request.rewrite,
            judge=request.judge,
            code=code,
            code_top_k=request.code_top_k,
            busy_for=busy_for,
        )


def extract(collections: Collections, request: Question) -> AnswerReport:
    """The evidence for ``request`` and its extracted answer, with no model whatever the
    collection allows: what a link to the answer page (a GET) shows, and nothing else."""
    from groundkit.answer.extractive import Extractive
    from groundkit.answer.service import answer_question

    name = request.collection if request.collection is not None else collections.settings.collection
    with collections.reading(name) as collection:
        return answer_question(
            collection, request.question, Extractive(), top_k=request.top_k, mode=request.mode
        )


@dataclass(frozen=True, slots=True)
class SymbolQuestion:
    """A question about a symbol of a code map, answered from its trace and/or blast edges, or
    with ``to`` (``table:user``, ``env:NAME``, a symbol) from the hops of the paths to it, as
    `grk trace --to` lists them (``scope`` is then unused; ``depth`` bounds a path)."""

    map: str
    symbol: str
    question: str
    profile: str | None = None
    scope: CodeScope = "both"
    depth: int = 2
    top_k: int = 20
    judge: bool = False
    edge_filter: EdgeFilter = NO_FILTER  # which edges the walks leave out (codemap.filters)
    to: str | None = None


def ask(
    settings: Settings,
    request: SymbolQuestion,
    environment: AIEnvironment,
    *,
    busy_for: BusyFor | None = None,
) -> AnswerReport:
    """The edges of ``request.symbol``, and a model's explanation where every quote checks.
    The symbol is found first: not found and ambiguous raise before any opt-in or key is read."""
    from groundkit.codemap.api import open_codemap

    with open_codemap(request.map, settings=settings) as codemap:
        codemap.edge_filter = request.edge_filter
        return ask_about(
            codemap,
            request.symbol,
            request.question,
            environment,
            profile=request.profile,
            scope=request.scope,
            depth=request.depth,
            top_k=request.top_k,
            judge=request.judge,
            busy_for=busy_for,
            goal=request.to,
        )

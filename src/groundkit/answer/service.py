"""The answer path: gather evidence, bundle, ask once, validate — and on any failure, the evidence.

Two ways in, one way through: ``answer_question`` gathers passages (and, with a code map, the
edges that match the query); ``ask_code`` gathers the edges of a symbol's trace and/or blast.
Both hand their bundle to ``explain``, which asks once and passes the reply through the one
``validate_answer``. Neither raises for an AI failure: the report says ``disabled``,
``unavailable``, ``failed`` or ``refused`` and carries the evidence all the same, so the user is
never worse off than with AI off. Retrieval errors (a bad query, a missing collection, a symbol
not found or ambiguous) still raise, as they do for `grk search` and `grk trace`.

Who writes the answer depends on the answerer and its quote mode: a model writes prose (``free``
or ``constrained`` quotes), which must also pass the gate on useless prose (``answer.gate``); a
model picks sentences by number and groundkit writes them out (``pick``, ``answer.pick``); or no
model runs and groundkit extracts the best sentences itself (``Extractive``). Whenever no
answer is shown, the extracted one is (``AnswerReport.extracted``): it needs no model.

A refused reply is kept on the report (scrubbed, in no JSON form) for `--show-reply`; one that
the token limit cut off is refused as ``ai.reply_cut_off``, naming the limit, rather than by
whichever rule the truncated text broke first. ``busy`` wraps every model call, so that a
caller can show that one is running (`grk answer` draws a spinner on a terminal).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from groundkit.answer.bundle import EvidenceBundle, build_bundle
from groundkit.answer.contract import (
    ANSWER_SCHEMA,
    MIN_QUOTE_CHARS,
    Answer,
    Composed,
    QuoteRules,
    validate_answer,
)
from groundkit.answer.evidence import Origins
from groundkit.answer.excerpt import Excerpt, excerpt_of
from groundkit.answer.extract import Sentence, candidates, closeness, rank
from groundkit.answer.extractive import Answerer, Extractive
from groundkit.answer.report import AIState, AIStatus, AnswerReport
from groundkit.answer.shown import recall
from groundkit.answer.states import (
    cap_too_small,
    cut_off,
    degraded,
    state_for,
    status_of,
    warned,
    with_state,
)
from groundkit.config import QuoteMode
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.types import SearchMode

# What only a model, or a code map, needs (the chat transport, the judge, the gate, the code
# map's search) is imported where it is used: with AI off, `grk answer` never loads it.
if TYPE_CHECKING:
    from groundkit.answer.chat import ChatModel
    from groundkit.answer.code import CodeScope
    from groundkit.answer.gate import Near
    from groundkit.answer.menu import QuoteMenu
    from groundkit.answer.scrub import Scrubber
    from groundkit.codemap.api import CodeMap
    from groundkit.collection import Collection
    from groundkit.embed.base import Embedder

__all__ = [
    "Busy",
    "EmbedderSource",
    "QuoteMode",
    "answer_question",
    "ask_code",
    "explain",
    "quote_mode",
    "state_for",
]

# Wraps each model call, given what the model is doing ("answering", "judging"...).
Busy = Callable[[str], AbstractContextManager[object]]
# The collection's embedder, loaded only when a sentence ranking asks for it (None: it has none).
EmbedderSource = Callable[[], "Embedder | None"]
# A model's refusal that keeps its reply for --show-reply: it came back, and was judged.
_JUDGED = (ErrorCode.AI_INVALID_OUTPUT, ErrorCode.AI_UNHELPFUL)


def quote_mode(chat: Answerer, configured: QuoteMode | None) -> QuoteMode:
    """The profile's ``quotes`` setting, else: pick for an in-process llama.cpp model (a small
    one: it chooses well and writes badly, docs/answer.md), constrained for another local model,
    free otherwise (hosted structured-output APIs cap enum sizes)."""
    if configured is not None:
        return configured
    if chat.provider == "llamacpp":
        return "pick"
    return "constrained" if chat.local else "free"


def answer_question(
    collection: Collection,
    question: str,
    chat: Answerer | AIStatus,
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

    ``chat`` is the model to ask (or ``Extractive``, no model), or the ``AIStatus`` that says
    why there is none (the caller found AI disabled or a credential missing); then no model is
    called at all. ``quotes`` is the profile's setting (None: see ``quote_mode``). With ``code``,
    the ``code_top_k`` edges of that map that best match the query follow the passages in the
    same bundle (`grk answer --with-code`). ``busy`` wraps each model call (see ``explain``).
    """
    cap, capped_by = _cap(
        max_bundle_bytes or collection.settings.answer.max_bundle_bytes, chat, quotes
    )
    status = chat if isinstance(chat, AIStatus) else _status(chat, profile)
    query, rewritten = question, None
    if rewrite and isinstance(chat, Extractive):
        status = warned(status, "--rewrite needs a model: the question was searched as asked")
    elif rewrite and not isinstance(chat, AIStatus | Extractive):
        try:
            with _busy(busy, "rewriting the question"):
                from groundkit.answer.rewrite import rewrite_query

                rewritten = _scrubber(chat)(rewrite_query(chat, question))
            query = rewritten
        except GroundkitError as exc:  # reported, never replaced by the original silently
            status = degraded(status, exc)
    hits = collection.search(query, top_k=top_k, mode=mode)
    edges = []
    if code is not None:
        from groundkit.answer.code import matching_edges

        edges = matching_edges(code, query, top_k=code_top_k)
    documents = _stored_text(collection)
    bundle = build_bundle(
        hits,
        collection=collection.name,
        query=query,
        max_bytes=cap,
        capped_by=capped_by,
        edges=edges,
        code_map=code.name if code is not None else None,
        code_scope="search" if code is not None else None,
        documents=documents,
    )
    recall(collection, bundle)  # the sentences' vectors ingest stored: none embedded again
    report = explain(
        bundle,
        chat,
        Origins(collection.show, code, documents),
        question=question,
        status=status,
        rewritten=rewritten,
        judge=judge,
        quotes=quotes,
        min_quote_chars=collection.settings.answer.min_quote_chars,
        busy=busy,
        embedder=collection.embedder,
    )
    if not hits and not collection.searchable(query):
        return dataclasses.replace(report, no_searchable_words=True)
    return report


def ask_code(
    codemap: CodeMap,
    symbol: str,
    question: str,
    chat: Answerer | AIStatus,
    *,
    scope: CodeScope = "both",
    depth: int = 2,
    top_k: int = 20,
    profile: str | None = None,
    judge: bool = False,
    max_bundle_bytes: int | None = None,
    quotes: QuoteMode | None = None,
    busy: Busy | None = None,
    goal: str | None = None,
) -> AnswerReport:
    """Answer ``question`` about ``symbol`` from the edges of its trace and/or blast (`grk ask`),
    or with ``goal`` from the hops of the paths from ``symbol`` to it (`grk ask --to`).

    The symbol (and goal) is resolved first: not found and ambiguous raise, as `grk trace` does,
    before any model is asked. The first ``top_k`` edges in order (a walk's: path confidence,
    depth, identity; chains': `grk trace --to`'s) are the evidence; everything else is as for
    ``answer_question``, through the same gate.
    """
    settings = codemap.settings.answer
    cap, capped_by = _cap(max_bundle_bytes or settings.max_bundle_bytes, chat, quotes)
    from groundkit.answer.code import chain_edges, symbol_edges

    if goal is None:
        name, found = symbol_edges(codemap, symbol, scope=scope, depth=depth)
    else:
        name, goal, found = chain_edges(codemap, symbol, goal, depth=depth)
    bundle = build_bundle(
        (),
        collection=None,
        query=question,
        max_bytes=cap,
        capped_by=capped_by,
        edges=found[: max(top_k, 0)],
        code_map=codemap.name,
        symbol=name,
        code_scope=scope if goal is None else "chain",
        code_found=len(found),
        goal=goal,
    )
    status = chat if isinstance(chat, AIStatus) else _status(chat, profile)
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
    chat: Answerer | AIStatus,
    origins: Origins,
    *,
    question: str,
    status: AIStatus,
    rewritten: str | None = None,
    judge: bool = False,
    quotes: QuoteMode | None = None,
    min_quote_chars: int = MIN_QUOTE_CHARS,
    busy: Busy | None = None,
    embedder: EmbedderSource | None = None,
) -> AnswerReport:
    """The one path from a bundle to a report, whatever kind of evidence it holds: ask once
    (for prose, under the constrained schema; for a pick, over numbered sentences), validate,
    judge; on any failure the evidence, why, and the extracted answer.

    ``busy(doing)`` is entered around each model call (and only around them), for a caller
    that shows progress; it must not print on standard output. ``embedder`` gives the
    collection's embedder to the sentence ranking (None: BM25 alone)."""
    done = _Done(question, rewritten, bundle, origins, min_quote_chars, embedder)
    if isinstance(chat, AIStatus) or status.state != AIState.ANSWERED:
        return done.without(status)
    if not bundle.items and bundle.truncated:  # evidence was found; none fits the cap
        too_small = cap_too_small(bundle.max_bytes, bundle.capped_by, status.profile)
        return done.without(degraded(status, too_small))
    if not bundle.items:
        return done.without(with_state(status, AIState.NO_EVIDENCE))
    if isinstance(chat, Extractive):
        answer = done.extract(chat)
        return AnswerReport(
            question, rewritten, bundle, status, answer, excerpt=done.excerpt(answer)
        )
    return _ask_model(done, chat, status, quotes, judge, busy)


def _ask_model(
    done: _Done,
    chat: ChatModel,
    status: AIStatus,
    quotes: QuoteMode | None,
    judge: bool,
    busy: Busy | None,
) -> AnswerReport:
    """Ask the model once, validate (and for prose, gate), judge; a report either way."""
    from groundkit.answer.chat import cut_off_at
    from groundkit.answer.gate import check_helpful
    from groundkit.answer.judge import judge_answer
    from groundkit.answer.pick import PICK_SYSTEM, pick_menu
    from groundkit.answer.prompts import answer_user, system_for

    question, rewritten, bundle = done.question, done.rewritten, done.bundle
    min_quote_chars = done.min_quote_chars
    mode = quote_mode(chat, quotes)
    scrub = _scrubber(chat)
    menu: QuoteMenu | None = None
    raw: str | None = None
    try:
        if mode == "pick":
            offered = pick_menu(done.ranked())
            with _busy(busy, "choosing sentences"):
                raw = chat.complete(
                    PICK_SYSTEM, offered.user(question), response_schema=offered.schema()
                )
            answer = done.validate(offered.compose(raw), "picked", scrub)
        else:
            schema, menu = _schema(bundle, mode, min_quote_chars)
            with _busy(busy, "answering"):
                raw = chat.complete(
                    system_for(bundle), answer_user(question, bundle), response_schema=schema
                )
            answer = done.validate(raw, "prose", scrub)
            check_helpful(answer, bundle, question, bundle.query, near=done.near())
    except GroundkitError as exc:
        refused = raw is not None and exc.code in _JUDGED
        limit = cut_off_at(chat) if refused else None
        error = cut_off(status, limit) if limit is not None else exc
        reply = scrub(raw) if refused and raw is not None else None
        return done.without(degraded(status, error), quotes=menu, refused_reply=reply)
    verdict = judge_error = None
    if judge and answer.items:
        try:
            with _busy(busy, "judging the answer"):
                verdict = judge_answer(chat, question, bundle, answer, scrub=scrub)
        except GroundkitError as exc:  # advisory: its failure is reported, never fatal
            judge_error = exc
    return AnswerReport(
        question,
        rewritten,
        bundle,
        status,
        answer,
        verdict,
        judge_error,
        quotes=menu,
        excerpt=done.excerpt(answer),
    )


class _Done:
    """What a report is made of, for one question and bundle: the sentences ranked (once),
    a reply validated, and a report without a model's answer (with the extracted one)."""

    def __init__(
        self,
        question: str,
        rewritten: str | None,
        bundle: EvidenceBundle,
        origins: Origins,
        min_quote_chars: int,
        embedder: EmbedderSource | None,
    ) -> None:
        self.question, self.rewritten, self.bundle = question, rewritten, bundle
        self.origins, self.min_quote_chars, self.embedder = origins, min_quote_chars, embedder
        self._ranked: list[Sentence] | None = None

    def ranked(self) -> list[Sentence]:
        if self._ranked is None:
            rules = QuoteRules.of(self.min_quote_chars, self.question, self.bundle.query)
            self._ranked = rank(
                self.question, candidates(self.bundle, rules, self.question), self._embedder()
            )
        return self._ranked

    def validate(self, raw: str, composed: Composed, scrub: Scrubber | None = None) -> Answer:
        return validate_answer(
            raw,
            self.bundle,
            self.origins,
            question=self.question,
            min_quote_chars=self.min_quote_chars,
            scrub=scrub,
            composed=composed,
        )

    def near(self) -> Near | None:
        """Texts scored against the question by the collection's embedder (for the gate)."""
        embedder = self._embedder()
        return None if embedder is None else functools.partial(closeness, embedder, self.question)

    def extract(self, extractive: Extractive) -> Answer:
        return self.validate(extractive.compose_ranked(self.ranked()), "extracted")

    def without(self, status: AIStatus, **more: Any) -> AnswerReport:
        """A report with no model's answer: the evidence, why, and the extracted answer."""
        extracted = None
        if self.bundle.items:
            try:
                extracted = self.extract(Extractive())
            except GroundkitError:  # a source changed since it was retrieved: evidence only
                extracted = None
        return AnswerReport(
            self.question,
            self.rewritten,
            self.bundle,
            status,
            extracted=extracted,
            excerpt=self.excerpt(extracted),
            **more,
        )

    def excerpt(self, answer: Answer | None) -> Excerpt | None:
        """The best passage around an answer made of the evidence's own sentences: the one
        holding its best-ranked sentence (an extract) or its first (a model's pick)."""
        if answer is None or answer.composed == "prose":
            return None
        best = None
        if answer.composed == "extracted" and self._ranked is not None:
            cited = {(c.source, c.cited_text) for c in answer.citations}
            best = next((s.source for s in self._ranked if (s.source, s.text) in cited), None)
        try:
            return excerpt_of(answer, self.bundle, self.origins, best)
        except GroundkitError:  # the passage changed since it was retrieved: no excerpt
            return None

    def _embedder(self) -> Embedder | None:
        if self.embedder is None:
            return None
        try:
            return self.embedder()
        except GroundkitError:  # the embedder's package is missing, say: rank by BM25 alone
            return None


def _stored_text(collection: Collection) -> Callable[[str], str]:
    """A document's stored text by its id, each read once per answer: a passage cut inside
    its example is read on in it, then read back there when cited (``answer.overrun``)."""

    @functools.cache
    def text(document_id: str) -> str:
        return collection.document(document_id).text

    return text


def _busy(busy: Busy | None, doing: str) -> AbstractContextManager[object]:
    return busy(doing) if busy is not None else nullcontext()


def _cap(cap: int, chat: Answerer | AIStatus, quotes: QuoteMode | None) -> tuple[int, str]:
    """The bundle cap and the setting that sets it: no more than an in-process model's context
    holds beside its reply (evidence beyond it would fail the call). A model that only picks
    is sent a few sentences, not the bundle, so its context does not cap the evidence."""
    budget = getattr(chat, "prompt_budget_bytes", None)
    if isinstance(chat, AIStatus | Extractive) or quote_mode(chat, quotes) == "pick":
        return cap, "answer.max_bundle_bytes"
    if isinstance(budget, int) and 0 < budget < cap:
        return budget, "n_ctx"
    return cap, "answer.max_bundle_bytes"


def _scrubber(chat: Answerer | AIStatus) -> Scrubber:
    from groundkit.answer.chat import credentials
    from groundkit.answer.scrub import Scrubber

    return Scrubber(() if isinstance(chat, AIStatus) else credentials(chat))


def _schema(
    bundle: EvidenceBundle, mode: QuoteMode, min_chars: int
) -> tuple[dict[str, Any], QuoteMenu | None]:
    if mode == "constrained":
        from groundkit.answer.menu import constrained_schema

        return constrained_schema(bundle, min_chars=min_chars)
    return ANSWER_SCHEMA, None


def _status(chat: Answerer, profile: str | None) -> AIStatus:
    return status_of(chat.provider, chat.model_name, profile, AIState.ANSWERED)

"""The answer page: the evidence always, and a model's explanation only where every quote checks.

This page and the code map's ask box (``map_ask``) are the only places the server calls a model,
and only on a POST from their own form (a browser sends its Origin with a POST, so ``HostGuard``
refuses one from another site; a GET, which any link could trigger, never calls a model). The
checks are those of `grk answer`, through the same ``ops.answer.answer``: opt-in,
profile, key, endpoint rules, redaction, the citation contract. Neither REST nor MCP can reach a
model.

A GET with ``?q=`` (a bookmark, a link, the search page's address with another path) shows what
needs no model: the evidence and the extracted answer (``ops.answer.extract``), with the best
passage's excerpt marked; where AI is on, the form's button then asks the model (a POST).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import ValidationError

from groundkit.answer.passages import BundleItem, CitedQuote
from groundkit.errors import GroundkitError
from groundkit.ops import answer as answer_ops
from groundkit.ops import collections as ops
from groundkit.serve.errors import invalid_request
from groundkit.serve.models import SearchRequest
from groundkit.serve.ui.ai import ai_view
from groundkit.serve.ui.search import MODES
from groundkit.serve.ui.spans import quote_pieces
from groundkit.serve.ui.web import AIEnv, Served, error_page, on_form, page, runtime_of

if TYPE_CHECKING:
    from groundkit.answer.access import AIEnvironment
    from groundkit.answer.report import AnswerReport
    from groundkit.serve.runtime import Runtime

__all__ = ["report_view", "router"]

# What each state means to a person; the reason (code, message, hint) is shown beside it.
STATES = {
    "answered": "The model's explanation: every quote below was checked against the stored text.",
    "no_evidence": "Nothing was retrieved, so no model was asked.",
    "disabled": "AI is off for this collection: here is the evidence.",
    "extracted": "No model was asked: the sentences below are the evidence's own.",
    "unavailable": "AI is on, but the model cannot be used now: here is the evidence.",
    "failed": "The model could not be asked: here is the evidence.",
    "refused": "The model's answer was refused (it broke the citation contract, or was cut"
    " off): here is the evidence.",
}


def report_view(report: AnswerReport, collection: str) -> dict[str, Any]:
    """The report as the template shows it: markers linked to their spans, and each evidence
    item cut into pieces that know which markers quote them."""
    ai = report.ai
    # The document page asks without a code map, so its evidence is passages only.
    citations = [
        c for c in (report.answer.citations if report.answer else ()) if isinstance(c, CitedQuote)
    ]
    by_marker = {c.marker: c for c in citations}
    items = []
    for item in report.answer.items if report.answer else ():
        markers = [
            {
                "marker": m,
                "href": f"/ui/c/{collection}/doc/{by_marker[m].chunk_id}"
                f"?start={by_marker[m].start}&end={by_marker[m].end}",
                "source": by_marker[m].source,
                "source_name": by_marker[m].source_name,
            }
            for m in item.markers
        ]
        items.append({"text": item.text, "markers": markers})
    evidence = []
    for bundled in report.bundle.items:
        if not isinstance(bundled, BundleItem):
            continue
        quotes = [
            (c.marker, c.start - bundled.start, c.end - bundled.start)
            for c in citations
            if c.source == bundled.number
        ]
        evidence.append(
            {
                "number": bundled.number,
                "source": bundled.source,
                "chunk_id": bundled.chunk_id,
                "start": bundled.start,
                "end": bundled.end,
                "pieces": quote_pieces(bundled.text, quotes),
                "href": f"/ui/c/{collection}/doc/{bundled.chunk_id}",
            }
        )
    reason = ai.error.to_dict() if ai.error else None
    extracted_only = report.answer is not None and report.answer.composed == "extracted"
    state = "extracted" if extracted_only and ai.provider == "extractive" else str(ai.state)
    return {
        "composed": report.answer.composed if report.answer else None,
        "extracted": _extracted(report, collection),
        "state": state,
        "state_text": STATES.get(state, ""),
        # AI that is simply off is said once, by the note above the form: no state box.
        "show_state": not (reason is not None and reason["code"] == "ai.disabled"),
        "excerpt": _excerpt(report, collection),
        "no_searchable_words": report.no_searchable_words,
        "profile": ai.profile,
        "provider": ai.provider,
        "model": ai.model,
        "reason": reason,
        "warning": ai.warning,
        "answered": report.answer is not None and not extracted_only,
        "abstained": report.answer is not None and report.answer.abstained,
        "answer_items": items,
        "citations": [c.to_dict() for c in citations],
        "evidence": evidence,
        "omitted": report.bundle.omitted,
        "max_bytes": report.bundle.max_bytes,
    }


def _excerpt(report: AnswerReport, collection: str) -> dict[str, Any] | None:
    """The best passage's excerpt, cut into pieces that know which sentences are marked."""
    shown = report.excerpt
    if shown is None or not shown.marks:
        return None
    c = shown.cited
    return {
        "place": f"{c.source_name}:{c.line}" if c.line is not None else c.source_name,
        "href": f"/ui/c/{collection}/doc/{c.chunk_id}?start={c.start}&end={c.end}#hl",
        "verification": c.verification,
        "pieces": quote_pieces(shown.text, [(m.marker, m.start, m.end) for m in shown.marks]),
        "markers": [m.marker for m in shown.marks],
    }


def _extracted(report: AnswerReport, collection: str) -> list[dict[str, Any]]:
    """The extracted answer shown when no model's is (AI off, refused, failed): each sentence
    with its ``path:line`` and a link to it in its document."""
    extracted = report.extracted
    if report.answer is not None and report.answer.composed == "extracted":
        extracted = report.answer  # the extractive profile's answer, or a link's (no model)
    if extracted is None:
        return []
    marked = {m.marker for m in report.excerpt.marks} if report.excerpt else set()
    return [
        {
            "text": c.cited_text,
            "place": f"{c.source_name}:{c.line}" if c.line is not None else c.source_name,
            "href": f"/ui/c/{collection}/doc/{c.chunk_id}?start={c.start}&end={c.end}#hl",
        }
        for c in extracted.citations
        if isinstance(c, CitedQuote) and c.marker not in marked
    ]


router = APIRouter(include_in_schema=False)


def context_for(
    runtime: Runtime, environment: AIEnvironment, name: str, form: dict[str, str]
) -> dict[str, Any]:
    ai = ai_view(environment, ops.folder_of(runtime, name))
    return {
        "title": f"Answer from {name}",
        "name": name,
        "form": form,
        "modes": MODES,
        "ai": ai,
        "report": None,
    }


@router.get("/ui/c/{name}/answer", response_class=HTMLResponse)
def ask_form(
    request: Request,
    runtime: Served,
    environment: AIEnv,
    name: str,
    q: Annotated[str | None, Query(max_length=4000)] = None,
    mode: Annotated[str | None, Query(max_length=16)] = None,
    k: Annotated[str | None, Query(max_length=8)] = None,
) -> HTMLResponse:
    """The form, and for ``?q=`` the evidence and its extracted answer: never a model."""
    form = {"q": q or "", "mode": mode or "auto", "k": k or "10"}
    try:
        context = context_for(runtime, environment, name, form)
    except GroundkitError as exc:
        return error_page(request, exc, name=name)
    if not form["q"].strip():
        return page(request, "answer.html", context)
    return _shown(
        request, name, form, context, lambda question: answer_ops.extract(runtime, question)
    )


@router.post("/ui/c/{name}/answer", response_class=HTMLResponse)
async def ask(request: Request, environment: AIEnv, name: str) -> HTMLResponse:
    answer = partial(_answer, request, environment, name)
    return await on_form(request, {"q": "", "mode": "auto", "k": "10"}, answer, name=name)


def _answer(
    request: Request, environment: AIEnvironment, name: str, form: dict[str, str]
) -> HTMLResponse:
    runtime = runtime_of(request)
    try:
        context = context_for(runtime, environment, name, form)
    except GroundkitError as exc:  # no such collection, say: the page itself fails
        return error_page(request, exc, name=name)
    return _shown(
        request, name, form, context, lambda q: answer_ops.answer(runtime, q, environment)
    )


def _shown(
    request: Request,
    name: str,
    form: dict[str, str],
    context: dict[str, Any],
    answered: Callable[[answer_ops.Question], AnswerReport],
) -> HTMLResponse:
    try:
        body = _validated(name, form)
        question = answer_ops.Question(
            body.query, collection=name, top_k=body.top_k, mode=body.mode
        )
        report = answered(question)
    except GroundkitError as exc:  # retrieval failed (AI failures are in the report)
        request.state.error_code = str(exc.code)
        context["error"] = exc
        return page(request, "answer.html", context, status=int(exc.outcome.http))
    request.state.results = len(report.bundle.items)
    context["report"] = report_view(report, name)
    return page(request, "answer.html", context)


def _validated(name: str, form: dict[str, str]) -> SearchRequest:
    try:
        return SearchRequest(
            collection=name,
            query=form["q"],
            top_k=int(form["k"]) if form["k"].strip().isdigit() else 0,
            mode=None if form["mode"] == "auto" else form["mode"],
        )
    except ValidationError as exc:
        raise invalid_request(exc.errors()) from None

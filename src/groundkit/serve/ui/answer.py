"""The answer page: the evidence always, and a model's explanation only where every quote checks.

This page and the code map's ask box (``map_ask``) are the only places the server calls a model,
and only on a POST from their own form (a browser sends its Origin with a POST, so ``HostGuard``
refuses one from another site; a GET, which any link could trigger, never calls a model). The
checks are those of `grk answer`, through the same ``ops.answer.answer``: opt-in,
profile, key, endpoint rules, redaction, the citation contract. Neither REST nor MCP can reach a
model.
"""

from __future__ import annotations

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
    return {
        "composed": report.answer.composed if report.answer else None,
        "extracted": _extracted(report, collection),
        "state": str(ai.state),
        "state_text": STATES.get(str(ai.state), ""),
        "profile": ai.profile,
        "provider": ai.provider,
        "model": ai.model,
        "reason": reason,
        "warning": ai.warning,
        "answered": report.answer is not None,
        "abstained": report.answer is not None and report.answer.abstained,
        "answer_items": items,
        "citations": [c.to_dict() for c in citations],
        "evidence": evidence,
        "omitted": report.bundle.omitted,
        "max_bytes": report.bundle.max_bytes,
    }


def _extracted(report: AnswerReport, collection: str) -> list[dict[str, Any]]:
    """The extracted answer shown when no model's is (AI off, refused, failed): each sentence
    with its ``path:line`` and a link to it in its document."""
    if report.extracted is None:
        return []
    return [
        {
            "text": c.cited_text,
            "place": f"{c.source_name}:{c.line}" if c.line is not None else c.source_name,
            "href": f"/ui/c/{collection}/doc/{c.chunk_id}?start={c.start}&end={c.end}#hl",
        }
        for c in report.extracted.citations
        if isinstance(c, CitedQuote)
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
) -> HTMLResponse:
    form = {"q": q or "", "mode": "auto", "k": "10"}
    try:
        context = context_for(runtime, environment, name, form)
    except GroundkitError as exc:
        return error_page(request, exc, name=name)
    return page(request, "answer.html", context)


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
    try:
        body = _validated(name, form)
        question = answer_ops.Question(
            body.query, collection=name, top_k=body.top_k, mode=body.mode
        )
        report = answer_ops.answer(runtime, question, environment)
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

"""The code map's "ask" box: a model explains a symbol's edges, quoting only them (`grk ask`).

Like the answer page, this is a page, never an API route, and a model is only asked on a POST
from the box (``HostGuard`` refuses a POST from another site's page; no GET asks). The checks and
the call are those of `grk ask`, through the same ``ops.answer.ask``: the symbol is
found first (not found or ambiguous is an error on the page, before the opt-in, a key or a model
is touched), then the map's session and ``ask_code``. Whatever the AI state, the edges that were
(or would have been) sent are shown. With "Paths to" filled in (``to``), those edges are the hops
of the paths from the symbol to it, as `grk ask --to` sends them.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from groundkit.answer.code import CHAIN_DEPTH, SCOPES
from groundkit.answer.edges import CitedEdge, EdgeItem
from groundkit.errors import ErrorCode, GroundkitError, UsageError
from groundkit.ops import answer as ops
from groundkit.ops.codemap import hidden_by
from groundkit.serve.ui.maps import filter_of, map_ai
from groundkit.serve.ui.spans import quote_pieces
from groundkit.serve.ui.web import AIEnv, error_page, on_form, page, runtime_of

if TYPE_CHECKING:
    from groundkit.answer.access import AIEnvironment
    from groundkit.answer.report import AnswerReport

__all__ = ["SCOPES", "ask_view", "router"]

DEPTH = 2  # `grk ask`'s defaults: the box asks what the command asks with no option given
TOP_K = 20
_MAX_SYMBOL = 500
_MAX_QUESTION = 4000

# What each state means here; the reason (code, message, hint) is shown beside it.
STATES = {
    "answered": "The model's explanation: every quote below was checked against the edges sent.",
    "no_evidence": "The symbol has no edge in this scope (or no path to the target), so no"
    " model was asked.",
    "disabled": "AI is off for this map: here are the edges.",
    "unavailable": "AI is on, but the model cannot be used now: here are the edges.",
    "failed": "The model could not be asked: here are the edges.",
    "refused": "The model's answer was refused (it broke the citation contract, or was cut"
    " off): here are the edges.",
}


def ask_view(report: AnswerReport) -> dict[str, Any]:
    """The report as the page shows it: each citation at its ``file:line`` with the quoted part
    of its edge's evidence marked, and each edge sent with the quotes of it that markers light."""
    ai = report.ai
    cited = [
        c for c in (report.answer.citations if report.answer else ()) if isinstance(c, CitedEdge)
    ]
    by_marker = {c.marker: c for c in cited}
    items = [
        {
            "text": item.text,
            "markers": [
                {"marker": m, "source": by_marker[m].source} for m in item.markers if m in by_marker
            ],
        }
        for item in (report.answer.items if report.answer else ())
    ]
    citations = [
        {
            "marker": c.marker,
            "source": c.source,
            "location": c.location,
            "kind": str(c.edge.kind),
            "provenance": str(c.edge.provenance),
            "confidence": c.edge.confidence,
            "source_name": c.edge.source.qualname,
            "target_name": c.edge.target.qualname,
            "verification": c.verification,
            "edge_id": c.edge.id,
            # offsets into the evidence line as the map holds it: the mark is exactly the quote
            "pieces": quote_pieces(c.edge.evidence, [(c.marker, c.start, c.end)]),
        }
        for c in cited
    ]
    edges = []
    for item in report.bundle.items:
        if not isinstance(item, EdgeItem):
            continue
        quotes = [(c.marker, c.start, c.end) for c in cited if c.source == item.number]
        edges.append(
            {
                "number": item.number,
                "role": item.role,
                "chain": item.chain,
                "depth": item.depth,
                "path_confidence": round(item.path_confidence, 2),
                "edge": item.edge.to_dict(),
                "location": str(item.edge.location),
                "pieces": quote_pieces(item.text, quotes),
            }
        )
    bundle = report.bundle
    return {
        "state": str(ai.state),
        "state_text": STATES.get(str(ai.state), ""),
        "profile": ai.profile,
        "provider": ai.provider,
        "model": ai.model,
        "reason": ai.error.to_dict() if ai.error else None,
        "warning": ai.warning,
        "answered": report.answer is not None,
        "abstained": report.answer is not None and report.answer.abstained,
        "answer_items": items,
        "citations": citations,
        "edges": edges,
        "symbol": bundle.symbol,
        "goal": bundle.goal,
        "found": bundle.code_found,
        "omitted": bundle.omitted,
        "max_bytes": bundle.max_bytes,
    }


router = APIRouter(include_in_schema=False)


@router.post("/ui/maps/{name}/ask", response_class=HTMLResponse)
async def ask(request: Request, environment: AIEnv, name: str) -> HTMLResponse:
    asked = partial(_ask, request, environment, name)
    defaults = {"symbol": "", "q": "", "scope": "both", "to": ""} | dict.fromkeys(_FILTER, "")
    return await on_form(request, defaults, asked, map_name=name)


_FILTER = ("certain", "min_confidence", "exclude")  # the page's filter, carried by the box


def _ask(request: Request, answers: AIEnvironment, name: str, form: dict[str, str]) -> HTMLResponse:
    form["symbol"], form["to"] = form["symbol"].strip(), form["to"].strip()
    context: dict[str, Any] = {
        "title": f"Ask the code map {name}",
        "map_name": name,
        "ask": form,
        "report": None,
    }
    settings = runtime_of(request).settings
    try:
        context["ai"] = map_ai(answers, settings, name)
        _check(form)
        edge_filter = filter_of(form["certain"], form["min_confidence"], [form["exclude"]])
        request_ = ops.SymbolQuestion(
            name,
            form["symbol"],
            form["q"],
            scope=form["scope"],  # type: ignore[arg-type]  # _check checked it
            depth=CHAIN_DEPTH if form["to"] else DEPTH,
            top_k=TOP_K,
            edge_filter=edge_filter,
            to=form["to"] or None,
        )
        report = ops.ask(settings, request_, answers)
        if edge_filter.active and not form["to"]:  # what it hid, as trace and blast say it
            context["filter"] = edge_filter.describe()
            context["hidden"] = hidden_by(
                settings, name, form["symbol"], edge_filter, scope=form["scope"], depth=DEPTH
            )
    except GroundkitError as exc:
        if exc.code in (ErrorCode.CODEMAP_NOT_FOUND, ErrorCode.INVALID_NAME):
            return error_page(request, exc, **context)  # no such map: the page itself fails
        request.state.error_code = str(exc.code)  # the form or the symbol (AI: the report)
        context["error"] = exc
        return page(request, "map_ask.html", context, status=int(exc.outcome.http))
    request.state.results = len(report.bundle.items)
    context["report"] = ask_view(report)
    return page(request, "map_ask.html", context)


def _check(form: dict[str, str]) -> None:
    if not form["symbol"] or len(form["symbol"]) > _MAX_SYMBOL:
        raise UsageError(ErrorCode.USAGE, f"name a symbol (at most {_MAX_SYMBOL} characters)")
    if not form["q"].strip() or len(form["q"]) > _MAX_QUESTION:
        raise UsageError(ErrorCode.USAGE, f"ask a question (at most {_MAX_QUESTION} characters)")
    if len(form["to"]) > _MAX_SYMBOL:
        raise UsageError(ErrorCode.USAGE, f"name a target of at most {_MAX_SYMBOL} characters")
    if form["scope"] not in SCOPES:
        raise UsageError(ErrorCode.USAGE, "scope is trace, blast or both")

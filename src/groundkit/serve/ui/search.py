"""The search page and the document view: a hit, and its citation seen in its source.

The search is the one ``ops.collections.search`` every surface calls, validated by the same
request model as ``POST /v1/search`` (``collapse`` included: ``?collapse=off`` keeps every
near-duplicate). Unlike the API, the page carries the query in its URL, so that a search can be
bookmarked and shared; the access log still records only the route template.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import ValidationError

from groundkit.errors import ErrorCode, GroundkitError, UsageError
from groundkit.ops import collections as ops
from groundkit.serve.errors import invalid_request
from groundkit.serve.models import SearchRequest
from groundkit.serve.runtime import Runtime
from groundkit.serve.ui.spans import document_view
from groundkit.serve.ui.web import error_page, page, runtime_of
from groundkit.types import Hit, SearchMode, Verification

__all__ = ["BADGES", "parse_where", "router"]

MODES = [m.value for m in SearchMode]
# Verification -> (label, what it means): the badge says it in words, not only in colour.
BADGES: dict[str, tuple[str, str]] = {
    Verification.VERIFIED: ("Verified", "The source file still holds exactly what was ingested."),
    Verification.DRIFTED: (
        "Drifted",
        "The source file changed since it was ingested. The highlighted text is what was stored"
        " and cited; what the file says now is shown beside it.",
    ),
    Verification.MISSING: ("Missing", "The source file is gone. The stored text is shown."),
    Verification.UNREADABLE: (
        "Unreadable",
        "The source file is there but cannot be read to compare. The stored text is shown.",
    ),
    Verification.NOT_CHECKED: (
        "Not checked",
        "A remote source: groundkit never fetches it again to check. The stored text is shown.",
    ),
}

Text = Annotated[str | None, Query(max_length=4000)]


def parse_where(lines: list[str]) -> dict[str, str]:
    """``KEY=VALUE`` filters as `grk search --where` takes them (values are text; the store
    also matches numbers and booleans spelled that way)."""
    out: dict[str, str] = {}
    for line in (one for chunk in lines for one in chunk.splitlines()):
        if not line.strip():
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise UsageError(ErrorCode.USAGE, "a metadata filter is KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _hit_view(hit: Hit) -> dict[str, Any]:
    c = hit.citation
    headings = hit.metadata.get("heading_path")
    heading = " \u203a ".join(str(h) for h in headings) if isinstance(headings, list) else ""
    lines = ""
    if c.line is not None:
        lines = f"{c.line}" if c.end_line in (None, c.line) else f"{c.line}\u2013{c.end_line}"
    return {
        "rank": hit.rank,
        "score": hit.score,
        "title": heading or c.source,
        "source": c.source,
        "lines": lines,
        "start": c.start,
        "end": c.end,
        "chunk_id": c.chunk_id,
        "snippet": hit.snippet,
        "ranks": sorted(hit.ranks.items(), key=lambda kv: _ARM_ORDER.get(kv[0], 9)),
        "page": hit.metadata.get("page"),
    }


_ARM_ORDER = {"bm25": 0, "dense": 1, "fused": 2, "rerank": 3}


router = APIRouter(include_in_schema=False)


@router.get("/ui/c/{name}/search", response_class=HTMLResponse)
def search(
    request: Request,
    name: str,
    q: Text = None,
    mode: Text = None,
    k: Text = None,
    source: Text = None,
    where: Annotated[list[str] | None, Query(max_length=32)] = None,
    collapse: Text = None,
) -> HTMLResponse:
    form = {
        "q": q or "",
        "mode": mode or "auto",
        "k": k or "10",
        "source": source or "",
        "where": "\n".join(where or []),
    }
    context: dict[str, Any] = {"title": f"Search {name}", "name": name, "form": form}
    context.update(modes=MODES, hits=None, searched=False)
    runtime = runtime_of(request)
    if not form["q"].strip():
        try:
            context["has_vectors"] = ops.status(runtime, name).embedder is not None
        except GroundkitError as exc:  # no such collection, say: the page itself fails
            return error_page(request, exc, **context)
        return page(request, "search.html", context)
    try:
        body = _request(name, form, where or [], collapse)
        found = ops.search(runtime, body)
    except GroundkitError as exc:
        try:
            context["has_vectors"] = _has_vectors(runtime, name)
        except GroundkitError as failed:  # no such collection, say: the page itself fails
            return error_page(request, failed, **context)
        request.state.error_code = str(exc.code)  # shown where the results would be
        context["error"] = exc
        return page(request, "search.html", context, status=int(exc.outcome.http))
    request.state.results = len(found.hits)
    context.update(
        hits=[_hit_view(h) for h in found.hits],
        searched=True,
        mode_used=str(found.mode),
        has_vectors=found.has_vectors,
        no_searchable_words=found.no_searchable_words,
    )
    return page(request, "search.html", context)


@router.get("/ui/search")
def search_in(
    request: Request, collection: Annotated[str, Query(max_length=64)], q: Text = None
) -> RedirectResponse:
    """The first page's search box: to the chosen collection's search page."""
    target = f"/ui/c/{quote(collection, safe='')}/search"
    return RedirectResponse(target + ("?" + urlencode({"q": q}) if q else ""), status_code=303)


@router.get("/ui/c/{name}/doc/{chunk_id}", response_class=HTMLResponse)
def document(
    request: Request, name: str, chunk_id: str, start: Text = None, end: Text = None
) -> HTMLResponse:
    context: dict[str, Any] = {"title": "Document", "name": name}
    try:
        shown = ops.show_in_document(runtime_of(request), name, chunk_id)
        resolved, doc = shown.resolved, shown.document
        c = resolved.citation
        mark = _span(start, end)
        view = document_view(doc.text, (c.start, c.end), mark)
        state = str(resolved.verification)
        context.update(
            title=doc.title or c.source,
            doc=doc,
            citation=c,
            view=view,
            mark_start=mark[0] if mark else c.start,
            mark_end=mark[1] if mark else c.end,
            state=state,
            badge=BADGES[state],
            now=resolved.now,
        )
    except GroundkitError as exc:
        return error_page(request, exc, **context)
    request.state.results = 1
    return page(request, "document.html", context)


def _has_vectors(runtime: Runtime, name: str) -> bool:
    return ops.status(runtime, name).embedder is not None


def _request(
    name: str, form: dict[str, str], where: list[str], collapse: str | None
) -> ops.SearchQuery:
    """The search as ``POST /v1/search`` would validate it."""
    try:
        top_k = int(form["k"])
    except ValueError:
        raise UsageError(ErrorCode.USAGE, "top-k must be a whole number") from None
    mode = None if form["mode"] == "auto" else form["mode"]
    if collapse not in (None, "on", "off"):
        raise UsageError(ErrorCode.USAGE, "collapse is on or off")
    try:
        body = SearchRequest(
            collection=name,
            query=form["q"],
            top_k=top_k,
            mode=mode,
            source=form["source"].strip() or None,
            where=parse_where(where) or None,
            collapse=None if collapse is None else collapse == "on",
        )
    except ValidationError as exc:
        raise invalid_request(exc.errors()) from None
    return body.as_search()


def _span(start: str | None, end: str | None) -> tuple[int, int] | None:
    if start is None and end is None:
        return None
    try:
        return int(start or ""), int(end or "")
    except ValueError:
        raise UsageError(ErrorCode.USAGE, "start and end must both be offsets") from None

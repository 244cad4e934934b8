"""The code map page: the drawing, and a panel that shows the evidence behind what is clicked.

Read-only, as ``/v1/code``, through the same operations (``groundkit.ops.codemap``): a map made
by ``grk map`` is opened, read and closed per request.
A node shows its trace (where it leads) and its blast (what depends on it), each step with its
evidence line; an edge shows the edges it stands for, each re-checked against the mapped folder
(verified, drifted, missing), as ``grk edge`` does. The paths from a node to a target (a table,
an env var, a symbol) show every hop with its evidence, re-checked too, as ``grk trace --to``.

Where AI is on for the map (`grk ai enable map:NAME`), the panel also offers an "ask" box
(``map_ask``): reading the opt-in file to decide so never calls a model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse

from groundkit.codemap.api import map_dir
from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.config import Settings
from groundkit.errors import ErrorCode, GroundkitError, NotFoundError, UsageError
from groundkit.ops import codemap as ops
from groundkit.serve.ui.ai import AIView, ai_view
from groundkit.serve.ui.graph import (
    AREA_PREFIX,
    PACKAGE_PREFIX,
    Hierarchy,
    Level,
    Places,
    drawing,
    ends_of,
    members,
)
from groundkit.serve.ui.web import SECURITY_HEADERS, AIEnv, error_page, page, runtime_of

if TYPE_CHECKING:
    from groundkit.answer.access import AIEnvironment
    from groundkit.codemap.model import Edge

__all__ = ["ask_fields", "filter_of", "map_ai", "router"]

_LIST_CAP = 200  # entries of one trace, blast or edge list shown; the rest is counted
_DEPTH = 3  # trace and blast depth from a clicked node (grk trace/blast go further)
_NODE_ID = re.compile(r"^[0-9a-f]{16}$")
Param = Annotated[str | None, Query(max_length=500)]


def _level(value: str | None) -> Level:
    if value in (None, "", "area"):
        return "area"
    if value in ("module", "package"):
        return value  # type: ignore[return-value]  # one of the two just compared
    raise UsageError(ErrorCode.USAGE, "level is area, package or module")


def _filter(request: Request) -> EdgeFilter:
    """The page's "Filter edges" controls, from the query: ``certain``, ``min_confidence`` and
    ``exclude`` (globs, repeated or comma-separated)."""
    query = request.query_params
    return filter_of(
        query.get("certain", ""), query.get("min_confidence", ""), query.getlist("exclude")
    )


def filter_of(certain: str, min_confidence: str, exclude: Sequence[str]) -> EdgeFilter:
    """An ``EdgeFilter`` from a form's or a query's fields (``exclude``: each comma-separated)."""
    try:
        least = float(min_confidence) if min_confidence.strip() else None
    except ValueError:
        raise UsageError(ErrorCode.USAGE, "min_confidence is a number from 0 to 1") from None
    globs = [g.strip() for value in exclude for g in value.split(",")]
    return EdgeFilter.of(least, certain in ("1", "true", "on"), [g for g in globs if g])


def ask_fields(symbol: str, edge_filter: EdgeFilter) -> dict[str, str]:
    """The "ask" box's fields, its filter the one the page shows (so the edges sent to a model
    are the edges on screen)."""
    return {
        "symbol": symbol,
        "q": "",
        "scope": "both",
        "to": "",
        "certain": "true" if edge_filter.certain else "",
        "min_confidence": f"{edge_filter.min_confidence:g}" if edge_filter.min_confidence else "",
        "exclude": ", ".join(edge_filter.exclude),
    }


def map_ai(environment: AIEnvironment, settings: Settings, name: str) -> AIView:
    """Whether AI is on for this map (the page then offers the "ask" box): the opt-in file
    `grk ai enable map:NAME` writes, keyed by the map's folder, as for a collection's."""
    return ai_view(environment, map_dir(settings.index_dir, name))


def _edge_view(edge: Edge, verification: str | None = None) -> dict[str, Any]:
    data = edge.to_dict()
    data["verification"] = verification
    return data


router = APIRouter(include_in_schema=False)


@router.get("/ui/maps/{name}", response_class=HTMLResponse)
def map_page(
    request: Request, environment: AIEnv, name: str, level: Param = None, area: Param = None
) -> Any:
    context: dict[str, Any] = {"title": f"Code map {name}", "map_name": name}
    try:
        chosen = _level(level)
        shown = _filter(request)
        settings = runtime_of(request).settings
        overview = ops.overview(settings, name).to_dict()
        context.update(
            overview=overview,
            level="area" if chosen == "area" else "module",
            area=area or "",
            areas=[a["area"] for a in overview["areas"]],
            kinds=sorted(k for k in overview["edges"] if k != "defines"),
            ai=map_ai(environment, settings, name),
            ask=ask_fields("", shown),
            filter=shown.to_dict(),
        )
    except GroundkitError as exc:
        return error_page(request, exc, **context)
    return page(request, "map.html", context)


@router.get("/ui/maps/{name}/graph.json")
def graph(request: Request, name: str, level: Param = None, area: Param = None) -> Any:
    try:
        chosen = _level(level)
        whole = ops.drawable(runtime_of(request).settings, name)
        ends = ends_of(whole.nodes, whole.edges)
        drawn = drawing(whole.nodes, ends, chosen, area or None, _filter(request))
    except GroundkitError as exc:
        body = {**exc.to_dict(), "request_id": getattr(request.state, "request_id", "")}
        return JSONResponse(body, int(exc.outcome.http), headers=SECURITY_HEADERS)
    request.state.results = len(drawn.nodes)
    return JSONResponse(drawn.to_dict(), headers=SECURITY_HEADERS)


@router.get("/ui/maps/{name}/node/{node_id}", response_class=HTMLResponse)
def node_panel(request: Request, environment: AIEnv, name: str, node_id: str) -> HTMLResponse:
    context: dict[str, Any] = {"title": f"Code map {name}", "map_name": name}
    settings = runtime_of(request).settings
    try:
        if node_id.startswith(AREA_PREFIX):
            context.update(_area_panel(settings, name, node_id.removeprefix(AREA_PREFIX)))
        elif node_id.startswith(PACKAGE_PREFIX):
            context.update(_package_panel(settings, name, node_id))
        else:
            shown = _filter(request)
            context.update(_node_panel(settings, name, node_id, shown))
            context["ai"] = map_ai(environment, settings, name)
            context["ask"] = ask_fields(context["heading"], shown)
    except GroundkitError as exc:
        return error_page(request, exc, **context)
    return page(request, "map_panel.html", context)


@router.get("/ui/maps/{name}/edges", response_class=HTMLResponse)
def edges_panel(
    request: Request,
    name: str,
    level: Param = None,
    source: Annotated[str, Query(alias="from", max_length=200)] = "",
    kind: Param = None,
    target: Annotated[str, Query(alias="to", max_length=200)] = "",
) -> HTMLResponse:
    context: dict[str, Any] = {"title": f"Code map {name}", "map_name": name}
    try:
        chosen = _level(level)
        settings = runtime_of(request).settings
        whole = ops.graph(settings, name)
        shown_filter = _filter(request)
        found = members(whole.nodes, whole.edges, chosen, source, kind or "", target, shown_filter)
        shown = found[:_LIST_CAP]
        checks = ops.verify_edges(settings, name, shown)
        labels = _labels(whole.nodes, chosen)
        context.update(
            panel="edges",
            heading=f"{labels.get(source, source)} {kind} {labels.get(target, target)}",
            edges=[_edge_view(e, v) for e, v in zip(shown, checks, strict=True)],
            more=len(found) - len(shown),
        )
    except GroundkitError as exc:
        return error_page(request, exc, **context)
    request.state.results = len(found)
    return page(request, "map_panel.html", context)


@router.get("/ui/maps/{name}/edge/{edge_id}", response_class=HTMLResponse)
def edge_panel(request: Request, name: str, edge_id: str) -> HTMLResponse:
    context: dict[str, Any] = {"title": f"Code map {name}", "map_name": name}
    try:
        found = ops.edge(runtime_of(request).settings, name, edge_id)
        edge, check = found.edge, found.verification
        context.update(panel="edges", heading=edge.evidence, edges=[_edge_view(edge, check)])
        context["more"] = 0
    except GroundkitError as exc:
        return error_page(request, exc, **context)
    return page(request, "map_panel.html", context)


@router.get("/ui/maps/{name}/chains", response_class=HTMLResponse)
def chains_panel(
    request: Request,
    name: str,
    source: Annotated[str, Query(alias="from", max_length=500)] = "",
    target: Annotated[str, Query(alias="to", max_length=500)] = "",
) -> HTMLResponse:
    """The paths from ``from`` to ``to`` (``table:user``, ``env:NAME``, a symbol or a node's
    id), shortest first, each hop's evidence re-checked against the folder."""
    context: dict[str, Any] = {"title": f"Code map {name}", "map_name": name}
    try:
        if not source.strip() or not target.strip():
            raise UsageError(ErrorCode.USAGE, "name where the paths start (from) and end (to)")
        settings = runtime_of(request).settings
        shown = _filter(request)
        found = ops.chains(settings, name, source.strip(), target.strip(), edge_filter=shown)
        paths = found.paths  # at most 20, as `grk trace --to` lists them
        checks = iter(ops.verify_edges(settings, name, [e for p in paths for e in p]))
        context.update(
            panel="chains",
            heading=f"Paths from {found.start.qualname} to {found.goal.qualname}",
            depth=found.depth,
            paths=[
                {
                    "confidence": min(e.confidence for e in path),
                    "edges": [_edge_view(e, next(checks)) for e in path],
                }
                for path in paths
            ],
            truncated=found.truncated,
            filter=shown.describe() if shown.active else "",
        )
    except GroundkitError as exc:
        return error_page(request, exc, **context)
    request.state.results = len(found.paths)
    return page(request, "map_panel.html", context)


def _labels(nodes: list[Any], level: Level) -> dict[str, str]:
    """What the page calls each drawn node: an area or a package by its name, a module by its
    own."""
    places = Places(nodes)
    if level == "area":
        areas = {a for n in nodes if (a := places.areas.of(n)) is not None}
        return {AREA_PREFIX + a: a for a in areas}
    if level == "package":
        drawn = Hierarchy(nodes)
        return {
            **{key: key.split("::", 1)[1] for key in drawn.packages},
            **{n.key.id: n.qualname for n in nodes},
        }
    return {n.key.id: n.qualname for n in nodes}


def _area_panel(settings: Settings, name: str, area: str) -> dict[str, Any]:
    whole = ops.drawable(settings, name)
    nodes = whole.nodes
    places = Places(nodes)
    modules = sorted(
        (m for m in places.module_by_path.values() if places.area(m.key.id) == area),
        key=lambda m: m.qualname,
    )
    if not modules and area not in {places.areas.of(n) for n in nodes}:
        raise NotFoundError(ErrorCode.CODEMAP_NOT_FOUND, f"no area {area!r} in this map")
    drawn = drawing(nodes, ends_of(nodes, whole.edges), "area")
    me = AREA_PREFIX + area
    crossings = [e for e in drawn.edges if me in (e["source"], e["target"])]
    return {
        "panel": "area",
        "heading": area,
        "area": area,
        "modules": [{"id": m.key.id, "name": m.qualname, "path": m.path} for m in modules],
        "crossings": crossings,
    }


def _package_panel(settings: Settings, name: str, key: str) -> dict[str, Any]:
    """A package (a folder) of the drawing: its modules, each opening its own panel."""
    whole = ops.drawable(settings, name)
    modules = Hierarchy(whole.nodes).packages.get(key, [])
    if not modules:
        raise NotFoundError(ErrorCode.CODEMAP_NOT_FOUND, "no such package in this map")
    return {
        "panel": "package",
        "heading": key[len(PACKAGE_PREFIX) :].split("::", 1)[-1],
        "modules": [{"id": m.key.id, "name": m.qualname, "path": m.path} for m in modules],
    }


def _node_panel(
    settings: Settings, name: str, node_id: str, edge_filter: EdgeFilter = NO_FILTER
) -> dict[str, Any]:
    found = (
        ops.around(settings, name, node_id, depth=_DEPTH, edge_filter=edge_filter)
        if _NODE_ID.match(node_id)
        else None
    )
    if found is None:
        raise NotFoundError(
            ErrorCode.SYMBOL_NOT_FOUND,
            "no such node in this map",
            hint="the map may have been updated since the page was drawn: reload it",
        )
    node, traced, blasted = found.node, found.trace, found.blast
    return {
        "panel": "node",
        "heading": node.qualname,
        "node": node.to_dict(),
        "depth": _DEPTH,
        "steps": [
            {"depth": s.depth, "stop": s.stop, "edge": _edge_view(s.edge)}
            for s in traced.steps[:_LIST_CAP]
        ],
        "steps_more": max(0, len(traced.steps) - _LIST_CAP) + (1 if traced.truncated else 0),
        "dependents": [
            {
                "name": d.node.qualname,
                "depth": d.depth,
                "confidence": round(d.confidence, 2),
                "via": _edge_view(d.via),
            }
            for d in blasted.dependents[:_LIST_CAP]
        ],
        "dependents_more": max(0, len(blasted.dependents) - _LIST_CAP),
        "filter": edge_filter.describe() if edge_filter.active else "",
        "hidden": traced.hidden + blasted.hidden,
    }

"""An edit that leaves a file's value-flow program as it was (a comment, blank lines, code moved
down the file, reformatting) changes no edge of the map, only where things are: the file's
nodes, edges and web facts are given their new places instead of resolving anything again.

Old and new facts list their sites, imports and scopes in the same order (the program is the
same), so each old place maps to a new one. When two things at one old place would move to two
different places, nothing is guessed: the caller resolves the program again.
"""

from __future__ import annotations

from dataclasses import replace

from groundkit.codemap.edges import QUOTE_MAX
from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.python.parse.facts import Facts, quoted_lines
from groundkit.codemap.model import (
    Edge,
    EdgeKind,
    Location,
    Node,
    NodeKind,
    evidence_line,
    shorten,
)
from groundkit.codemap.routes import Web

__all__ = ["relocate"]

Place = tuple[int, int, int, int]


def relocate(
    path: str,
    module: str,
    old: Facts,
    new: Facts,
    nodes: list[Node],
    edges: list[Edge],
    unresolved: int,
    web: Web,
) -> FileGraph | None:
    """The file's graph with every place moved as the file moved; None when ambiguous."""
    places = _places(old, new)
    if places is None:
        return None
    lines = quoted_lines(new)
    graph = FileGraph(unresolved=unresolved)
    spans: dict[str, tuple[int, int, int]] = {}
    for scope in new.scopes:  # (the first of a scope's lambdas is where its node is)
        name = f"{module}.{scope.qual}" if scope.qual else module
        spans.setdefault(
            name, (scope.line, scope.end, scope.at) if scope.qual else (1, scope.end, 1)
        )
    for node in nodes:
        span = spans.get(node.key.qualname)
        if node.key.path != path or span is None:
            return None
        graph.nodes.append(replace(node, line=span[0], end_line=span[1]))
    for edge in edges:
        where = _edge_place(edge, places, spans)
        if where is None:
            return None
        quote = shorten(lines.get(where.line, "").strip(), QUOTE_MAX)
        evidence = evidence_line(edge.source, edge.kind, edge.target, where, quote)
        graph.edges.append(replace(edge, location=where, quote=quote, evidence=evidence))
    for router in web.routers:
        where = _moved(router.location, places)
        if where is None:
            return None
        graph.routers.append(replace(router, location=where))
    for mount in web.mounts:
        where = _moved(mount.location, places)
        if where is None:
            return None
        graph.mounts.append(replace(mount, location=where))
    for route in web.routes:
        where = _moved(route.location, places)
        if where is None:
            return None
        quote = lines.get(where.line, "")
        graph.routes.append(replace(route, location=where, quote=quote))
    for call in web.calls:
        where = _moved(call.location, places)
        if where is None:
            return None
        graph.http_calls.append(replace(call, location=where, quote=lines.get(where.line, "")))
    return graph


def _places(old: Facts, new: Facts) -> dict[Place, Place] | None:
    """Where each site and import went (a call, a property read, an import statement)."""
    if (len(old.sites), len(old.imports), len(old.scopes)) != (
        len(new.sites),
        len(new.imports),
        len(new.scopes),
    ):
        return None
    out: dict[Place, Place] = {}
    pairs: list[tuple[Place, Place]] = []
    for a, b in zip(old.sites, new.sites, strict=True):
        pairs.append(
            ((a.line, a.col, a.end_line, a.end_col), (b.line, b.col, b.end_line, b.end_col))
        )
    for i, j in zip(old.imports, new.imports, strict=True):
        pairs.append(
            ((i.line, i.col, i.end_line, i.end_col), (j.line, j.col, j.end_line, j.end_col))
        )
    for before, after in pairs:
        if out.setdefault(before, after) != after:
            return None  # two things at one place moved apart
    out.setdefault((1, 0, 1, 0), (1, 0, 1, 0))  # a module's own place (a urlconf's router)
    return out


def _edge_place(
    edge: Edge, places: dict[Place, Place], spans: dict[str, tuple[int, int, int]]
) -> Location | None:
    """Containment is placed at the member's definition, inheritance at the class's; a
    package's ``defines`` of its module at line 1; everything else at its site."""
    if edge.kind == EdgeKind.DEFINES:
        if edge.target.kind in (NodeKind.MODULE, NodeKind.PACKAGE):
            return edge.location
        span = spans.get(edge.target.qualname)
        return None if span is None else Location(edge.location.path, span[2], 0, span[2], 0)
    if edge.kind == EdgeKind.INHERITS:
        span = spans.get(edge.source.qualname)
        return None if span is None else Location(edge.location.path, span[2], 0, span[2], 0)
    return _moved(edge.location, places)


def _moved(location: Location, places: dict[Place, Place]) -> Location | None:
    found = places.get((location.line, location.col, location.end_line, location.end_col))
    if found is None:
        return None
    return Location(location.path, *found)

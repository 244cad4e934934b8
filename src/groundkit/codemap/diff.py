"""What changed between two maps, by identity: nodes (kind + name + file) and edges (kind +
source + target).

An edge whose ends, kind and evidence statement are the same is the same edge wherever it now
stands: a *move* (its line changed: code was added above it), counted apart and listed only on
request, never a change. An edge is *changed* when its provenance, its confidence or the
statement it quotes differ. For a reviewer the diff also says what matters first: edges added
and removed by module, import cycles that are new, edges that now cross from one area to
another, routes that came or went.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from groundkit.codemap.graph import MapGraph
from groundkit.codemap.model import Edge, EdgeKind, Node, NodeKey, NodeKind
from groundkit.codemap.overview import Areas, import_cycles

__all__ = ["MapDiff", "diff_graphs", "diff_stores"]


@dataclass(frozen=True, slots=True)
class MapDiff:
    nodes_added: tuple[Node, ...]
    nodes_removed: tuple[Node, ...]
    edges_added: tuple[Edge, ...]
    edges_removed: tuple[Edge, ...]
    edges_changed: tuple[tuple[Edge, Edge], ...]  # (before, after)
    edges_moved: tuple[tuple[Edge, Edge], ...] = ()  # (before, after): only the place differs
    new_cycles: tuple[tuple[str, ...], ...] = ()  # import cycles the "after" map has anew
    new_crossings: tuple[Edge, ...] = ()  # added edges from one area into another
    by_module: dict[str, dict[str, int]] = field(default_factory=dict)  # added/removed
    list_moves: bool = False  # moves are counted; listed only when asked for
    modules: dict[str, str] = field(default_factory=dict, repr=False)  # path -> module name

    def module_of(self, edge: Edge) -> str:
        """The module an edge starts in (routes, which have no file, under ``(routes)``)."""
        return _module_of(self.modules, edge)

    @property
    def empty(self) -> bool:
        return not (
            self.nodes_added
            or self.nodes_removed
            or self.edges_added
            or self.edges_removed
            or self.edges_changed
        )

    @property
    def routes_added(self) -> tuple[Node, ...]:
        return tuple(n for n in self.nodes_added if n.kind == NodeKind.ROUTE)

    @property
    def routes_removed(self) -> tuple[Node, ...]:
        return tuple(n for n in self.nodes_removed if n.kind == NodeKind.ROUTE)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "nodes": {
                "added": [n.to_dict() for n in self.nodes_added],
                "removed": [n.to_dict() for n in self.nodes_removed],
            },
            "edges": {
                "added": [e.to_dict() for e in self.edges_added],
                "removed": [e.to_dict() for e in self.edges_removed],
                "changed": [
                    {"before": a.to_dict(), "after": b.to_dict(), "fields": changed_fields(a, b)}
                    for a, b in self.edges_changed
                ],
                "moved": len(self.edges_moved),
            },
            "by_module": self.by_module,
            "new_import_cycles": [list(c) for c in self.new_cycles],
            "new_cross_area_edges": [e.to_dict() for e in self.new_crossings],
            "routes": {
                "added": [n.qualname for n in self.routes_added],
                "removed": [n.qualname for n in self.routes_removed],
            },
        }
        if self.list_moves:
            out["edges"]["moves"] = [
                {"edge": b.id, "before": a.location.to_dict(), "after": b.location.to_dict()}
                for a, b in self.edges_moved
            ]
        return out


def changed_fields(a: Edge, b: Edge) -> list[str]:
    """What makes two sightings of one edge a change (its place is not one of them, nor, for
    containment, the line it stands at: a ``def`` line edited is no change of structure)."""
    statement = a.kind != EdgeKind.DEFINES
    return [
        name
        for name, x, y in (
            ("provenance", a.provenance, b.provenance),
            ("confidence", a.confidence, b.confidence),
            ("statement", a.quote if statement else "", b.quote if statement else ""),
        )
        if x != y
    ]


def diff_stores(before: MapGraph, after: MapGraph) -> MapDiff:
    return diff_graphs(before.nodes(), before.edges(), after.nodes(), after.edges())


def diff_graphs(
    nodes_before: list[Node],
    edges_before: list[Edge],
    nodes_after: list[Node],
    edges_after: list[Edge],
) -> MapDiff:
    old_nodes: dict[NodeKey, Node] = {n.key: n for n in nodes_before}
    new_nodes: dict[NodeKey, Node] = {n.key: n for n in nodes_after}
    old_edges = {e.key: e for e in edges_before}
    new_edges = {e.key: e for e in edges_after}
    changed, moved = [], []
    for key in sorted(old_edges.keys() & new_edges.keys()):
        a, b = old_edges[key], new_edges[key]
        if changed_fields(a, b):
            changed.append((a, b))
        elif a.location != b.location:
            moved.append((a, b))
    added = tuple(new_edges[k] for k in sorted(new_edges.keys() - old_edges.keys()))
    modules = _modules(nodes_before) | _modules(nodes_after)
    removed = tuple(old_edges[k] for k in sorted(old_edges.keys() - new_edges.keys()))
    return MapDiff(
        tuple(new_nodes[k] for k in sorted(new_nodes.keys() - old_nodes.keys())),
        tuple(old_nodes[k] for k in sorted(old_nodes.keys() - new_nodes.keys())),
        added,
        removed,
        tuple(changed),
        tuple(moved),
        _new_cycles(edges_before, edges_after),
        _crossings(added, nodes_after),
        _by_module(added, removed, modules),
        modules=modules,
    )


def _new_cycles(before: list[Edge], after: list[Edge]) -> tuple[tuple[str, ...], ...]:
    old = {frozenset(c) for c in import_cycles(before)}
    return tuple(tuple(c) for c in import_cycles(after) if frozenset(c) not in old)


def _crossings(added: tuple[Edge, ...], nodes: list[Node]) -> tuple[Edge, ...]:
    areas = Areas(nodes)
    by_key = {n.key: n for n in nodes}
    out = []
    for edge in added:
        if edge.kind == EdgeKind.DEFINES:
            continue
        source, target = by_key.get(edge.source), by_key.get(edge.target)
        if source is None or target is None:
            continue
        here, there = areas.of(source), areas.of(target)
        if here and there and here != there:
            out.append(edge)
    return tuple(out)


def _by_module(
    added: tuple[Edge, ...], removed: tuple[Edge, ...], modules: dict[str, str]
) -> dict[str, dict[str, int]]:
    """Added and removed edges counted by the module their source is in."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"added": 0, "removed": 0})
    for edges, what in ((added, "added"), (removed, "removed")):
        for edge in edges:
            if edge.kind != EdgeKind.DEFINES:
                out[_module_of(modules, edge)][what] += 1
    return dict(sorted(out.items()))


def _module_of(modules: dict[str, str], edge: Edge) -> str:
    return modules.get(edge.source.path, edge.source.path or "(routes)")


def _modules(nodes: list[Node]) -> dict[str, str]:
    return {n.path: n.qualname for n in nodes if n.kind in (NodeKind.MODULE, NodeKind.PACKAGE)}

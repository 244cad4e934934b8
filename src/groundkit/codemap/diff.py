"""What changed between two maps, by identity: nodes (kind + name + file) and edges (kind +
source + target).

An edge whose ends, kind and evidence statement are the same is the same edge wherever it now
stands: a *move* (its line changed: code was added above it), counted apart and listed only on
request, never a change. An edge is *changed* when its provenance, its confidence or the
statement it quotes differ. Code that moved is one change, not removals and additions
(``carried``): a function renamed or moved to another module (with the edges it carried), and
calls that left one function for another (a method extraction). For a reviewer the diff also
says what matters first: edges added and removed by module, import cycles that are new, which
of the added edges cross from one area to another (each edge is listed once), routes that
came or went. An ``EdgeFilter`` leaves edges (and nodes in excluded files) out, counted.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

from groundkit.codemap.carried import carry
from groundkit.codemap.files_moved import FileMove, inner_name
from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.codemap.graph import MapGraph
from groundkit.codemap.model import Edge, EdgeKind, Node, NodeKey, NodeKind
from groundkit.codemap.overview import Areas, import_cycles

__all__ = ["MapDiff", "diff_graphs", "diff_stores", "filtered"]

_Tally = tuple[Counter[tuple[NodeKey, NodeKey]], Counter[str]]  # by moved node, by moved file


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
    nodes_moved: tuple[tuple[Node, Node], ...] = ()  # (before, after): renamed or moved code
    edges_carried: tuple[tuple[Edge, Edge], ...] = ()  # (before, after): went with moved code
    areas: dict[str, tuple[str, str]] = field(default_factory=dict, repr=False)  # crossings
    filter: EdgeFilter = NO_FILTER
    hidden: int = 0  # edges the filter left out
    files_moved: tuple[FileMove, ...] = ()  # files moved whole: their nodes are in nodes_moved
    _tallies: _Tally | None = field(default=None, init=False, compare=False, repr=False)

    def module_of(self, edge: Edge) -> str:
        """The module an edge starts in (routes, which have no file, under ``(routes)``)."""
        return _module_of(self.modules, edge)

    def crossing(self, edge: Edge) -> tuple[str, str] | None:
        """(from area, to area) when ``edge`` is an added edge that crosses between areas."""
        return self.areas.get(edge.id)

    @property
    def empty(self) -> bool:
        return not (
            self.nodes_added
            or self.nodes_removed
            or self.edges_added
            or self.edges_removed
            or self.edges_changed
            or self.nodes_moved
            or self.edges_carried
        )

    def code_moves(self) -> list[tuple[NodeKey, NodeKey, int]]:
        """Edges that left one node for another (method extraction, code moved between
        functions), as (from, to, edges), outside the nodes that moved whole."""
        moved = {(a.key, b.key) for a, b in self.nodes_moved}
        counts: Counter[tuple[NodeKey, NodeKey]] = Counter()
        for before, after in self.edges_carried:
            if (before.target, after.target) in moved:
                continue  # it went with the node it reaches (a moved function's containment)
            if before.source != after.source and (before.source, after.source) not in moved:
                counts[(before.source, after.source)] += 1
        return [(a, b, n) for (a, b), n in sorted(counts.items())]

    def moved_alone(self) -> tuple[tuple[Node, Node], ...]:
        """The moved nodes a moved file does not account for: renamed or moved on their own
        (or renamed inside a file that moved)."""
        whole = {
            (a, b)
            for move in self.files_moved
            for a, b in move.nodes.items()
            if inner_name(a.qualname, move.module_before)
            == inner_name(b.qualname, move.module_after)
        }
        return tuple((a, b) for a, b in self.nodes_moved if (a.key, b.key) not in whole)

    def carried_with(self, move: FileMove) -> int:
        """How many edges went with a moved file: those leaving it, and those reaching it from a
        file that stayed (so that no edge is counted under two files)."""
        return self._tally()[1][move.before]

    def carried_by(self, before: Node, after: Node) -> int:
        """How many edges went with a moved node (leaving it or reaching it)."""
        return self._tally()[0][(before.key, after.key)]

    def _tally(self) -> _Tally:
        """Carried edges counted by moved node and by moved file, once (a large move carries
        tens of thousands of edges, and every node and file asks)."""
        if self._tallies is None:
            moved = {m.before for m in self.files_moved}
            by_node: Counter[tuple[NodeKey, NodeKey]] = Counter()
            by_file: Counter[str] = Counter()
            for a, b in self.edges_carried:
                by_node.update({(a.source, b.source), (a.target, b.target)})
                if a.source.path in moved:
                    by_file[a.source.path] += 1
                elif a.target.path in moved:
                    by_file[a.target.path] += 1
            object.__setattr__(self, "_tallies", (by_node, by_file))
        assert self._tallies is not None
        return self._tallies

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
            # By id: each of these edges is listed once, under edges.added.
            "new_cross_area_edges": _crossing_rows(self),
            "routes": {
                "added": [n.qualname for n in self.routes_added],
                "removed": [n.qualname for n in self.routes_removed],
            },
            "filter": self.filter.to_dict(),
            "hidden": self.hidden,
        }
        out["files_moved"] = [
            {
                "before": m.before,
                "after": m.after,
                "module_before": m.module_before,
                "module_after": m.module_after,
                "nodes": len(m.nodes),
                "edges": self.carried_with(m),
            }
            for m in self.files_moved
        ]
        out["nodes"]["moved"] = [
            {"before": a.to_dict(), "after": b.to_dict(), "edges": self.carried_by(a, b)}
            for a, b in self.nodes_moved
        ]
        out["edges"]["carried"] = [
            {"before": a.id, "after": b.id, "evidence": b.evidence} for a, b in self.edges_carried
        ]
        out["code_moved"] = [
            {"from": a.qualname, "to": b.qualname, "edges": n} for a, b, n in self.code_moves()
        ]
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


def _crossing_rows(result: MapDiff) -> list[dict[str, Any]]:
    rows: dict[tuple[str, str], list[str]] = defaultdict(list)
    for edge in result.new_crossings:
        pair = result.crossing(edge)
        if pair is not None:
            rows[pair].append(edge.id)
    return [{"from": a, "to": b, "edges": ids} for (a, b), ids in sorted(rows.items())]


def diff_stores(before: MapGraph, after: MapGraph, edge_filter: EdgeFilter = NO_FILTER) -> MapDiff:
    found = diff_graphs(before.nodes(), before.edges(), after.nodes(), after.edges())
    return filtered(found, edge_filter)


def filtered(result: MapDiff, edge_filter: EdgeFilter) -> MapDiff:
    """``result`` with what ``edge_filter`` leaves out taken out, and counted (``hidden``). A
    changed edge stays when either side of it is shown: a confidence crossing the bar is news."""
    if not edge_filter.active:
        return result
    hidden = 0

    def keep(edges: tuple[Edge, ...]) -> tuple[Edge, ...]:
        nonlocal hidden
        shown = tuple(e for e in edges if edge_filter.admits(e))
        hidden += sum(1 for e in edges if e.kind != EdgeKind.DEFINES) - sum(
            1 for e in shown if e.kind != EdgeKind.DEFINES
        )
        return shown

    def keep_pairs(pairs: tuple[tuple[Edge, Edge], ...], either: bool) -> tuple[Any, ...]:
        nonlocal hidden
        test = any if either else all
        shown = tuple(p for p in pairs if test(edge_filter.admits(e) for e in p))
        hidden += len(pairs) - len(shown)
        return shown

    added, removed = keep(result.edges_added), keep(result.edges_removed)
    shown_ids = {e.id for e in added}
    changed = keep_pairs(result.edges_changed, either=True)
    carried = keep_pairs(result.edges_carried, either=True)
    moved = tuple(p for p in result.edges_moved if edge_filter.admits(p[1]))

    def nodes(found: tuple[Node, ...]) -> tuple[Node, ...]:
        return tuple(n for n in found if not edge_filter.excludes(n.key))

    return replace(
        result,
        nodes_added=nodes(result.nodes_added),
        nodes_removed=nodes(result.nodes_removed),
        edges_added=added,
        edges_removed=removed,
        edges_changed=changed,
        edges_moved=moved,
        new_crossings=tuple(e for e in result.new_crossings if e.id in shown_ids),
        by_module=_by_module(added, removed, result.modules),
        nodes_moved=tuple((a, b) for a, b in result.nodes_moved if not edge_filter.excludes(b.key)),
        files_moved=tuple(
            m for m in result.files_moved if not edge_filter.excludes(next(iter(m.nodes.values())))
        ),
        edges_carried=carried,
        filter=edge_filter,
        hidden=hidden,
    )


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
    modules = _modules(nodes_before) | _modules(nodes_after)
    code = carry(
        tuple(new_nodes[k] for k in sorted(new_nodes.keys() - old_nodes.keys())),
        tuple(old_nodes[k] for k in sorted(old_nodes.keys() - new_nodes.keys())),
        tuple(new_edges[k] for k in sorted(new_edges.keys() - old_edges.keys())),
        tuple(old_edges[k] for k in sorted(old_edges.keys() - new_edges.keys())),
    )
    added, removed = code.edges_added, code.edges_removed
    crossings = _crossings(added, nodes_after)
    return MapDiff(
        code.nodes_added,
        code.nodes_removed,
        added,
        removed,
        tuple(changed),
        tuple(moved),
        _new_cycles(edges_before, edges_after),
        tuple(edge for edge, _ in crossings),
        _by_module(added, removed, modules),
        modules=modules,
        nodes_moved=code.moved,
        edges_carried=code.edges,
        areas={edge.id: pair for edge, pair in crossings},
        files_moved=code.files,
    )


def _new_cycles(before: list[Edge], after: list[Edge]) -> tuple[tuple[str, ...], ...]:
    old = {frozenset(c) for c in import_cycles(before)}
    return tuple(tuple(c) for c in import_cycles(after) if frozenset(c) not in old)


def _crossings(added: tuple[Edge, ...], nodes: list[Node]) -> list[tuple[Edge, tuple[str, str]]]:
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
            out.append((edge, (here, there)))
    return out


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

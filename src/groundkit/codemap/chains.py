"""The paths from a symbol to another (``grk trace X --to table:user``): every hop an edge with
its evidence, so that a chain such as button -> client call -> route -> handler -> model ->
table can be read, checked and quoted hop by hop.

Found in two sweeps over any ``MapGraph``: backwards from the goal, the nodes that reach it
within ``depth`` edges and how far each is; then forwards from the start through those nodes
only, each path without a repeated node. Shortest paths first, then the most confident (a
path's confidence is its weakest edge's); at most ``limit`` of them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.codemap.graph import MapGraph
from groundkit.codemap.model import Edge, EdgeKind, Node, NodeKind

__all__ = ["Chains", "chains"]

_CONTAINERS = (NodeKind.CLASS, NodeKind.MODULE, NodeKind.PACKAGE)
_FUNCTIONS = (NodeKind.FUNCTION, NodeKind.METHOD)
_BUDGET = 200_000  # edges looked at in the forward sweep before it stops (said: truncated)


@dataclass(frozen=True, slots=True)
class Chains:
    start: Node
    goal: Node
    depth: int
    kinds: tuple[str, ...]
    paths: tuple[tuple[Edge, ...], ...]
    truncated: bool
    edge_filter: EdgeFilter = NO_FILTER

    def to_dict(self) -> dict[str, Any]:
        return {
            "symbol": self.start.to_dict(),
            "to": self.goal.to_dict(),
            "depth": self.depth,
            "kinds": list(self.kinds),
            "paths": [
                {
                    "hops": len(path),
                    "confidence": min(e.confidence for e in path),
                    "edges": [e.to_dict() for e in path],
                }
                for path in self.paths
            ],
            "truncated": self.truncated,
            "filter": self.edge_filter.to_dict(),
        }


def chains(
    graph: MapGraph,
    start: Node,
    goal: Node,
    *,
    depth: int = 10,
    kinds: Sequence[str],
    edge_filter: EdgeFilter = NO_FILTER,
    limit: int = 20,
) -> Chains:
    """Paths from ``start`` to ``goal`` along ``kinds``; a class or module starts from its
    members, and a function includes the functions it defines (as ``trace`` does)."""
    kinds = tuple(str(k) for k in kinds)
    wanted = [*kinds, str(EdgeKind.DEFINES)]
    begin = start.key.id

    def usable(edge: Edge) -> bool:
        if edge.kind == EdgeKind.DEFINES:
            inner = edge.source.kind in _FUNCTIONS and edge.target.kind == NodeKind.FUNCTION
            if not inner and edge.source.id != begin:
                return False
            if edge.source.id == begin and start.kind not in _CONTAINERS and not inner:
                return False
        return edge_filter.admits(edge, start.key) if edge_filter.active else True

    away = {goal.key.id: 0}
    queue = deque([goal.key.id])
    while queue:
        node = queue.popleft()
        if away[node] >= depth:
            continue
        for edge in graph.edges_to(node, wanted):
            if usable(edge) and edge.source.id not in away:
                away[edge.source.id] = away[node] + 1
                queue.append(edge.source.id)
    found: list[tuple[Edge, ...]] = []
    budget = _BUDGET
    truncated = False

    def walk(node: str, path: tuple[Edge, ...], seen: frozenset[str]) -> None:
        nonlocal budget, truncated
        if node == goal.key.id:
            found.append(path)
            return
        for edge in graph.edges_from(node, wanted):
            budget -= 1
            if budget <= 0:
                truncated = True
                return
            target = edge.target.id
            if target in seen or target not in away or not usable(edge):
                continue
            if len(path) + 1 + away[target] > depth:
                continue
            walk(target, (*path, edge), seen | {target})

    if begin in away:
        walk(begin, (), frozenset({begin}))
    found.sort(key=lambda p: (len(p), -min(e.confidence for e in p), [e.id for e in p]))
    return Chains(start, goal, depth, kinds, tuple(found[:limit]), truncated, edge_filter)

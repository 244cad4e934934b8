"""``trace`` (where a symbol leads) and ``blast`` (what depends on it): walks over a map's
edges (any ``MapGraph``). A blast reads one level of its walk at a time (a widely used symbol
has thousands of dependents); a trace reads one node at a time. An ``EdgeFilter`` leaves edges
out of a walk (it does not go on through them), and the walk counts them (``hidden``)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.codemap.graph import MapGraph
from groundkit.codemap.model import Edge, EdgeKind, Node, NodeKey, NodeKind

__all__ = ["BLAST_KINDS", "TRACE_KINDS", "Blast", "Dependent", "Step", "Trace", "blast", "trace"]

TRACE_KINDS = (
    EdgeKind.CALLS,
    EdgeKind.IMPORTS,
    EdgeKind.HTTP_CALL,
    EdgeKind.HANDLES,
    EdgeKind.READS,
    EdgeKind.WRITES,
    EdgeKind.MAPS_TO,
)
BLAST_KINDS = (
    EdgeKind.CALLS,
    EdgeKind.IMPORTS,
    EdgeKind.INHERITS,
    EdgeKind.HANDLES,
    EdgeKind.HTTP_CALL,
    EdgeKind.READS,
    EdgeKind.WRITES,
    EdgeKind.MAPS_TO,
)
_CONTAINERS = (NodeKind.CLASS, NodeKind.MODULE, NodeKind.PACKAGE)
_FUNCTIONS = (NodeKind.FUNCTION, NodeKind.METHOD)


def _inner(edge: Edge) -> bool:
    """A ``defines`` edge from a function to a function (or lambda) inside it."""
    return edge.source.kind in _FUNCTIONS and edge.target.kind == NodeKind.FUNCTION


@dataclass(frozen=True, slots=True)
class Step:
    """One edge of a trace, at ``depth`` (1: leaving the symbol). ``stop`` says why the path ends
    at its target: ``chain_end`` (nothing further), ``max_depth``, ``cycle`` (the target is
    already on this path) or ``seen`` (expanded elsewhere in the trace, at its shallowest depth);
    None: the path goes on below."""

    depth: int
    edge: Edge
    stop: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"depth": self.depth, "stop": self.stop, "edge": self.edge.to_dict()}


@dataclass(frozen=True, slots=True)
class Trace:
    start: Node
    depth: int
    kinds: tuple[str, ...]
    steps: tuple[Step, ...]
    truncated: bool
    filter: EdgeFilter = NO_FILTER
    hidden: int = 0  # edges leaving the nodes walked that the filter left out

    def to_dict(self) -> dict[str, Any]:
        return {
            "symbol": self.start.to_dict(),
            "depth": self.depth,
            "kinds": list(self.kinds),
            "steps": [s.to_dict() for s in self.steps],
            "truncated": self.truncated,
            "filter": self.filter.to_dict(),
            "hidden": self.hidden,
        }


def trace(
    graph: MapGraph,
    start: Node,
    *,
    depth: int = 10,
    kinds: Sequence[str] = TRACE_KINDS,
    max_steps: int = 5000,
    edge_filter: EdgeFilter = NO_FILTER,
) -> Trace:
    """Outgoing paths from ``start``, depth first, each node expanded once (at its shallowest
    depth). A class or module starts from its members too (``defines``), since its own body is
    rarely what a person means. Edges ``edge_filter`` leaves out are not followed (counted)."""
    kinds = tuple(str(k) for k in kinds)
    cache: dict[str, list[Edge]] = {}
    hidden: set[str] = set()

    def out(node_id: str, first: bool) -> list[Edge]:
        """Edges leaving a node; a function (or lambda) a function defines counts as part of
        it (what it calls happens when the function hands it on: returns it, passes it), once:
        not again beside an edge that already reaches it (``map(lambda ...)`` calls it)."""
        key = node_id + ("+" if first else "")
        if key not in cache:
            found = _shown(
                graph.edges_from(node_id, [*kinds, str(EdgeKind.DEFINES)]),
                edge_filter,
                start.key,
                hidden,
            )
            reached = {e.target.id for e in found if e.kind != EdgeKind.DEFINES}
            cache[key] = [
                e
                for e in found
                if e.kind != EdgeKind.DEFINES or first or (_inner(e) and e.target.id not in reached)
            ]
        return cache[key]

    first = start.kind in _CONTAINERS
    shallowest = _distances(start.key.id, lambda n: out(n, first and n == start.key.id), depth)
    steps: list[Step] = []
    expanded: set[str] = {start.key.id}
    truncated = False

    def walk(node_id: str, level: int, path: tuple[str, ...]) -> None:
        nonlocal truncated
        for edge in out(node_id, first and level == 1):
            if len(steps) >= max_steps:
                truncated = True
                return
            target = edge.target.id
            if target in path:
                steps.append(Step(level, edge, "cycle"))
            elif target in expanded or shallowest.get(target, level) < level:
                steps.append(Step(level, edge, "seen"))
            elif not out(target, False):
                expanded.add(target)
                steps.append(Step(level, edge, "chain_end"))
            elif level >= depth:
                steps.append(Step(level, edge, "max_depth"))
            else:
                expanded.add(target)
                steps.append(Step(level, edge, None))
                walk(target, level + 1, (*path, target))

    walk(start.key.id, 1, (start.key.id,))
    return Trace(start, depth, kinds, tuple(steps), truncated, edge_filter, len(hidden))


def _shown(
    edges: list[Edge], edge_filter: EdgeFilter, start: NodeKey, hidden: set[str]
) -> list[Edge]:
    """The edges the filter shows; the ids of the others go to ``hidden``. Containment is
    never hidden by confidence: it is how a walk enters a class's members."""
    if not edge_filter.active:
        return edges
    out = []
    for edge in edges:
        if edge_filter.admits(edge, start):
            out.append(edge)
        elif edge.kind != EdgeKind.DEFINES:
            hidden.add(edge.id)
    return out


def _distances(start: str, out: Any, depth: int) -> dict[str, int]:
    """Breadth-first depth of every node reachable within ``depth`` edges."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if seen[node] >= depth:
            continue
        for edge in out(node):
            target = edge.target.id
            if target not in seen:
                seen[target] = seen[node] + 1
                queue.append(target)
    return seen


@dataclass(frozen=True, slots=True)
class Dependent:
    """A node that depends on the symbol: ``depth`` edges away at the least, reached through
    ``via`` (its edge toward the symbol on a shortest, most confident path); ``confidence`` is
    the best over paths of each path's weakest edge."""

    node: Node
    depth: int
    via: Edge
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "node": self.node.to_dict(),
            "depth": self.depth,
            "confidence": round(self.confidence, 4),
            "via": self.via.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Blast:
    start: Node
    depth: int
    kinds: tuple[str, ...]
    dependents: tuple[Dependent, ...]
    filter: EdgeFilter = NO_FILTER
    hidden: int = 0  # edges into the nodes walked that the filter left out

    def to_dict(self) -> dict[str, Any]:
        return {
            "symbol": self.start.to_dict(),
            "depth": self.depth,
            "kinds": list(self.kinds),
            "dependents": [d.to_dict() for d in self.dependents],
            "filter": self.filter.to_dict(),
            "hidden": self.hidden,
        }


def blast(
    graph: MapGraph,
    start: Node,
    *,
    depth: int = 10,
    kinds: Sequence[str] = BLAST_KINDS,
    edge_filter: EdgeFilter = NO_FILTER,
) -> Blast:
    """Who depends on ``start``, following edges backwards up to ``depth``. A class counts with
    its members: who calls its methods depends on it. Edges ``edge_filter`` leaves out are not
    followed (counted)."""
    kinds = tuple(str(k) for k in kinds)
    hidden: set[str] = set()
    seeds = {start.key.id}
    if start.kind == NodeKind.CLASS:
        seeds |= {e.target.id for e in graph.edges_from(start.key.id, [str(EdgeKind.DEFINES)])}
    cache: dict[str, list[Edge]] = {}

    def fetch(node_ids: list[str]) -> None:
        """Edges arriving at each node not yet read, in one read of the graph; for a function
        inside a function, also its definer (who hands it on)."""
        wanted = [n for n in node_ids if n not in cache]
        arriving = graph.edges_to_many(wanted, [*kinds, str(EdgeKind.DEFINES)]) if wanted else {}
        for node_id, edges in arriving.items():
            found = _shown(edges, edge_filter, start.key, hidden)
            cache[node_id] = [e for e in found if e.kind != EdgeKind.DEFINES or _inner(e)]

    best: dict[str, float] = dict.fromkeys(seeds, 1.0)
    first: dict[str, tuple[int, float, Edge]] = {}
    frontier = dict.fromkeys(sorted(seeds), 1.0)
    for level in range(1, depth + 1):
        reached: dict[str, tuple[float, Edge]] = {}
        fetch(list(frontier))
        for node_id, confidence in frontier.items():
            for edge in cache[node_id]:
                source = edge.source.id
                if source in seeds:
                    continue
                score = min(confidence, edge.confidence)
                held = reached.get(source)
                if held is None or score > held[0] or (score == held[0] and edge.id < held[1].id):
                    reached[source] = (score, edge)
        frontier = {}
        for source, (score, edge) in sorted(reached.items()):
            if source not in first:
                first[source] = (level, score, edge)
            if score > best.get(source, -1.0):
                best[source] = score
                frontier[source] = score
        if not frontier:
            break
    dependents = []
    for node_id, (level, _, edge) in first.items():
        dependents.append(Dependent(_source_node(graph, edge), level, edge, best[node_id]))
    dependents.sort(key=lambda d: (d.depth, -d.confidence, d.node.qualname, d.node.path))
    return Blast(start, depth, kinds, tuple(dependents), edge_filter, len(hidden))


def _source_node(graph: MapGraph, edge: Edge) -> Node:
    found = graph.node(edge.source.id)
    return found if found is not None else Node(edge.source, "")

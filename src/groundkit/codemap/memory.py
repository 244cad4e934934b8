"""A code map held in dicts: ``MemoryGraph``, a ``MapGraph`` with no SQLite and no parsing.

Built from ``Node`` and ``Edge`` values, it answers what ``MapStore`` answers for the same nodes
and edges, in the same order (``graph.py`` states the orders), so that trace, blast, symbol
lookup and the overview can be exercised, or run, on a graph made by hand. Adding follows the
store's rules too: a node or edge added again replaces the one held (by id, and by kind, source
and target), except an outside node, which the first file to name it keeps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from groundkit.codemap.model import Edge, Node, NodeKind

__all__ = ["MemoryGraph"]

_EdgeKey = tuple[str, str, str]  # (source id, kind, target id): the store's primary key


class MemoryGraph:
    """A ``MapGraph`` in memory, with adjacency dicts both ways."""

    def __init__(self, nodes: Iterable[Node] = (), edges: Iterable[Edge] = ()) -> None:
        self._nodes: dict[str, Node] = {}
        self._edges: dict[_EdgeKey, Edge] = {}
        self._out: dict[str, dict[_EdgeKey, Edge]] = {}
        self._in: dict[str, dict[_EdgeKey, Edge]] = {}
        self._files: dict[str, int] = {}
        self._skipped: dict[str, str] = {}
        for node in nodes:
            self.add_node(node)
        for edge in edges:
            self.add_edge(edge)

    # -- building ---------------------------------------------------------------------------------
    def add_node(self, node: Node) -> None:
        if node.kind == NodeKind.EXTERNAL and node.key.id in self._nodes:
            return
        self._nodes[node.key.id] = node

    def add_edge(self, edge: Edge) -> None:
        """Add an edge; its ends may come later (until then, it is counted but not returned)."""
        key = (edge.source.id, str(edge.kind), edge.target.id)
        self._edges[key] = edge
        self._out.setdefault(edge.source.id, {})[key] = edge
        self._in.setdefault(edge.target.id, {})[key] = edge

    def add_file(self, path: str, unresolved: int = 0) -> None:
        """A mapped file, with the calls in it that could not be resolved."""
        self._files[path] = unresolved

    def add_skipped(self, path: str, reason: str) -> None:
        self._skipped[path] = reason

    # -- nodes ------------------------------------------------------------------------------------
    def node(self, node_id: str) -> Node | None:
        return self._nodes.get(node_id)

    def nodes(self) -> list[Node]:
        return self._sorted(lambda n: True, lambda n: (str(n.kind), n.qualname, n.path))

    def nodes_named(self, name: str) -> list[Node]:
        return self._sorted(lambda n: n.qualname == name, lambda n: (str(n.kind), n.path))

    def nodes_of_kind(self, kind: str) -> list[Node]:
        wanted = str(kind)
        return self._sorted(lambda n: n.kind == wanted, lambda n: (n.qualname, n.path))

    def nodes_in_file(self, path: str) -> list[Node]:
        return self._sorted(lambda n: n.path == path, lambda n: (n.qualname, str(n.kind)))

    def nodes_ending_with(self, suffix: str) -> list[Node]:
        return self._sorted(
            lambda n: len(n.qualname) > len(suffix) and n.qualname.endswith(suffix),
            lambda n: (n.qualname, str(n.kind), n.path),
        )

    def node_names(self) -> list[tuple[str, str, str]]:
        ranked = sorted(self._nodes.items(), key=lambda i: (i[1].qualname, i[0]))
        return [(n.qualname, str(n.kind), n.path) for _, n in ranked]

    def _sorted(
        self, keep: Callable[[Node], bool], order: Callable[[Node], tuple[str, ...]]
    ) -> list[Node]:
        return sorted((n for n in self._nodes.values() if keep(n)), key=order)

    # -- edges ------------------------------------------------------------------------------------
    def edges(self, kinds: Sequence[str] | None = None) -> list[Edge]:
        wanted = None if kinds is None else {str(k) for k in kinds}
        return [
            edge
            for key, edge in sorted(self._edges.items())
            if (wanted is None or key[1] in wanted) and self._joined(edge)
        ]

    def edges_from(self, node_id: str, kinds: Sequence[str]) -> list[Edge]:
        found = self._among(self._out.get(node_id, {}), kinds)
        # Ties fall to the key's order, as the store's scan of its primary key leaves them.
        found.sort(
            key=lambda i: (i[1].location.line, i[1].location.col, i[1].target.qualname, i[0])
        )
        return [edge for _, edge in found]

    def edges_to(self, node_id: str, kinds: Sequence[str]) -> list[Edge]:
        found = self._among(self._in.get(node_id, {}), kinds)
        found.sort(key=lambda i: (i[1].source.qualname, i[0][1], i[0][0]))
        return [edge for _, edge in found]

    def edges_to_many(self, node_ids: Sequence[str], kinds: Sequence[str]) -> dict[str, list[Edge]]:
        return {node_id: self.edges_to(node_id, kinds) for node_id in node_ids}

    def _among(
        self, edges: dict[_EdgeKey, Edge], kinds: Sequence[str]
    ) -> list[tuple[_EdgeKey, Edge]]:
        wanted = {str(k) for k in kinds}
        return [(k, e) for k, e in edges.items() if k[1] in wanted and self._joined(e)]

    def _joined(self, edge: Edge) -> bool:
        return edge.source.id in self._nodes and edge.target.id in self._nodes

    # -- the map as a whole -----------------------------------------------------------------------
    def counts(self) -> dict[str, Any]:
        nodes = Counter(str(n.kind) for n in self._nodes.values())
        edges = Counter(key[1] for key in self._edges)
        return {
            "files": len(self._files),
            "nodes": dict(sorted(nodes.items())),
            "edges": dict(sorted(edges.items())),
            "unresolved_calls": sum(self._files.values()),
        }

    def skipped(self) -> list[tuple[str, str]]:
        return sorted(self._skipped.items())

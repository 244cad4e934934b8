"""What resolving one file into nodes and edges needs whatever the language: where an edge was
seen and the line it quotes, the module node and containment (``defines``) edges, ``external``
nodes, and the edges collected once per (kind, source, target).

A language's resolver subclasses ``FileResolver`` for each file it resolves.
"""

from __future__ import annotations

from collections.abc import Mapping

from groundkit.codemap.edges import EdgeSet
from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.model import (
    EdgeFlag,
    EdgeKind,
    Location,
    Node,
    NodeKey,
    NodeKind,
    Provenance,
)

__all__ = ["FileResolver"]


class FileResolver:
    """One file's graph being built."""

    language = ""

    def __init__(self, path: str, lines: Mapping[int, str]) -> None:
        self.path = path
        self.lines = lines
        self.edges = EdgeSet()
        self.graph = FileGraph()
        self._externals: set[str] = set()

    def location(self, line: int, col: int = 0, end_line: int = 0, end_col: int = 0) -> Location:
        return Location(self.path, line, col, end_line or line, end_col)

    def text(self, line: int) -> str:
        return self.lines.get(line, "")

    def node(self, key: NodeKey, line: int = 0, end_line: int = 0) -> None:
        self.graph.nodes.append(Node(key, self.language, line, end_line))

    def external(self, name: str) -> NodeKey:
        key = NodeKey(NodeKind.EXTERNAL, name, "")
        if name not in self._externals:
            self._externals.add(name)
            self.graph.nodes.append(Node(key, ""))
        return key

    def defines(self, owner: NodeKey, member: NodeKey, line: int) -> None:
        self.edge(EdgeKind.DEFINES, owner, member, Provenance.DEFINE, self.location(line), line)

    def edge(
        self,
        kind: EdgeKind,
        source: NodeKey,
        target: NodeKey,
        provenance: Provenance,
        where: Location,
        line: int,
        flags: frozenset[EdgeFlag] = frozenset(),
    ) -> None:
        self.edges.add(kind, source, target, provenance, where, self.text(line), flags)

    def finish(self) -> FileGraph:
        self.graph.edges = self.edges.edges()
        return self.graph

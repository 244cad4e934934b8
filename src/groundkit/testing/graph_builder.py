"""A code map written by hand, a line per node or edge: ``GraphBuilder``.

For tests of what reads a map (trace, blast, symbol lookup, the overview) that should not depend
on a parser. Everything it makes is deterministic: names default to paths (``a.b`` is ``a/b.py``,
a package ``a`` is ``a/__init__.py``), and each node or edge takes the next line number, so edges
leave a node in the order they were written. A member is defined (``defines``) by the node whose
name is its longest dotted prefix in the same file (a module by its package), as the extractors
do. The same nodes and edges go into a ``MemoryGraph`` or, through ``put_resolution``, a
``MapStore``::

    g = GraphBuilder()
    g.module("shop.api")
    g.function("shop.api.buy")
    g.function("shop.db.save")
    g.calls("shop.api.buy", "shop.db.save")
    trace(g.memory(), g.node_of("shop.api.buy"))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypedDict, Unpack

from groundkit.codemap.memory import MemoryGraph
from groundkit.codemap.model import (
    Edge,
    EdgeFlag,
    EdgeKind,
    Location,
    Node,
    NodeKey,
    NodeKind,
    Provenance,
    evidence_line,
)
from groundkit.codemap.priors import prior
from groundkit.codemap.store import MapStore

__all__ = ["GraphBuilder"]

_PROVENANCE = {
    EdgeKind.CALLS: Provenance.CALL_LOCAL,
    EdgeKind.IMPORTS: Provenance.IMPORT_ABSOLUTE,
    EdgeKind.INHERITS: Provenance.INHERIT_BASE,
    EdgeKind.DEFINES: Provenance.DEFINE,
    EdgeKind.HANDLES: Provenance.ROUTE_DECORATOR,
    EdgeKind.HTTP_CALL: Provenance.HTTP_LITERAL,
    EdgeKind.READS: Provenance.ORM_ARGUMENT,
    EdgeKind.WRITES: Provenance.ORM_INSTANCE,
    EdgeKind.MAPS_TO: Provenance.TABLE_DECLARED,
}
_MEMBERS = (NodeKind.CLASS, NodeKind.FUNCTION, NodeKind.METHOD)
_NOT_OWNERS = (NodeKind.ROUTE, NodeKind.EXTERNAL)

Ref = str | NodeKey  # a node: its qualified name (when only one node has it) or its key


class EdgeOptions(TypedDict, total=False):
    line: int  # default: the next line
    col: int
    provenance: Provenance  # default: the usual one for the kind (``call-local``, ...)
    confidence: float  # default: the provenance's prior
    flags: Iterable[EdgeFlag]
    sites: int


class GraphBuilder:
    """Nodes and edges written one call each; ``memory()`` or ``write(store)`` gives the map."""

    def __init__(self, language: str = "python") -> None:
        self.language = language
        self._nodes: dict[NodeKey, Node] = {}
        self._edges: dict[tuple[EdgeKind, NodeKey, NodeKey], Edge] = {}
        self._unresolved: dict[str, int] = {}
        self._skipped: dict[str, str] = {}
        self._line = 0

    # -- nodes ------------------------------------------------------------------------------------
    def package(self, name: str, path: str | None = None) -> NodeKey:
        return self.add(NodeKind.PACKAGE, name, path or name.replace(".", "/") + "/__init__.py")

    def module(self, name: str, path: str | None = None) -> NodeKey:
        return self.add(NodeKind.MODULE, name, path or name.replace(".", "/") + ".py")

    def cls(self, name: str, path: str | None = None) -> NodeKey:
        return self.add(NodeKind.CLASS, name, path or self._file_of(name))

    def function(self, name: str, path: str | None = None) -> NodeKey:
        return self.add(NodeKind.FUNCTION, name, path or self._file_of(name))

    def method(self, name: str, path: str | None = None) -> NodeKey:
        return self.add(NodeKind.METHOD, name, path or self._file_of(name))

    def route(self, name: str, path: str) -> NodeKey:
        """``GET /items/{id}``, declared in ``path``."""
        return self.add(NodeKind.ROUTE, name, path, language="")

    def external(self, name: str) -> NodeKey:
        return self.add(NodeKind.EXTERNAL, name, "", language="")

    def add(self, kind: NodeKind, name: str, path: str, *, language: str | None = None) -> NodeKey:
        """Any node (written again: the first is kept)."""
        key = NodeKey(kind, name, path)
        if key not in self._nodes:
            line = 0 if kind == NodeKind.EXTERNAL else self._next_line()
            lang = self.language if language is None else language
            self._nodes[key] = Node(key, lang, line, line)
        return key

    def _file_of(self, name: str) -> str:
        """The file of the nearest enclosing node already written (a module's file at least)."""
        owner = self._enclosing(name, lambda k: True)
        if owner is None:
            raise ValueError(f"write the module holding {name!r} first, or give its path")
        return owner.path

    # -- edges ------------------------------------------------------------------------------------
    def calls(self, source: Ref, target: Ref, **how: Unpack[EdgeOptions]) -> Edge:
        return self.edge(EdgeKind.CALLS, source, target, **how)

    def imports(self, source: Ref, target: Ref, **how: Unpack[EdgeOptions]) -> Edge:
        return self.edge(EdgeKind.IMPORTS, source, target, **how)

    def inherits(self, source: Ref, target: Ref, **how: Unpack[EdgeOptions]) -> Edge:
        return self.edge(EdgeKind.INHERITS, source, target, **how)

    def handles(self, route: Ref, view: Ref, **how: Unpack[EdgeOptions]) -> Edge:
        return self.edge(EdgeKind.HANDLES, route, view, **how)

    def http_call(self, source: Ref, target: Ref, **how: Unpack[EdgeOptions]) -> Edge:
        return self.edge(EdgeKind.HTTP_CALL, source, target, **how)

    def edge(
        self,
        kind: EdgeKind,
        source: Ref,
        target: Ref,
        *,
        line: int | None = None,
        col: int = 0,
        provenance: Provenance | None = None,
        confidence: float | None = None,
        flags: Iterable[EdgeFlag] = (),
        sites: int = 1,
    ) -> Edge:
        """One edge; its location is the source's file at the next line unless ``line`` says."""
        a, b = self.key(source), self.key(target)
        at = self._next_line() if line is None else line
        where = Location(a.path, at, col, at, col + 1)
        how = provenance or _PROVENANCE[kind]
        quote = f"{kind} {b.qualname}"
        edge = Edge(
            kind,
            a,
            b,
            how,
            prior(how) if confidence is None else confidence,
            where,
            quote,
            evidence_line(a, kind, b, where, quote),
            frozenset(flags),
            sites,
        )
        self._edges[edge.key] = edge
        return edge

    def key(self, ref: Ref) -> NodeKey:
        """The node ``ref`` names: a key as is, or the one node written with that name."""
        if isinstance(ref, NodeKey):
            return ref
        found = [k for k in self._nodes if k.qualname == ref]
        if len(found) != 1:
            raise ValueError(f"{len(found)} nodes are named {ref!r}: pass its NodeKey")
        return found[0]

    def node_of(self, ref: Ref) -> Node:
        return self._nodes[self.key(ref)]

    # -- the rest of a map ------------------------------------------------------------------------
    def unresolved(self, path: str, calls: int) -> None:
        """``calls`` calls in ``path`` that could not be resolved."""
        self._unresolved[path] = calls

    def skip(self, path: str, reason: str) -> None:
        self._skipped[path] = reason

    # -- out --------------------------------------------------------------------------------------
    def nodes(self) -> list[Node]:
        return list(self._nodes.values())

    def edges(self) -> list[Edge]:
        """The edges written, then each member's ``defines`` edge."""
        return [*self._edges.values(), *self._defines()]

    def files(self) -> dict[str, int]:
        """Each file a node is in, with its unresolved calls."""
        paths = sorted({k.path for k in self._nodes if k.path} | set(self._unresolved))
        return {p: self._unresolved.get(p, 0) for p in paths}

    def memory(self) -> MemoryGraph:
        graph = MemoryGraph(self.nodes(), self.edges())
        for path, unresolved in self.files().items():
            graph.add_file(path, unresolved)
        for path, reason in self._skipped.items():
            graph.add_skipped(path, reason)
        return graph

    def write(self, store: MapStore) -> None:
        """Into a map's store as a build would: per file, its nodes and the edges leaving them."""
        nodes, edges, files = self.nodes(), self.edges(), self.files()

        def owner(edge: Edge) -> str:
            return edge.source.path if edge.source.path in files else ""

        with store.transaction():
            for path, unresolved in files.items():
                store.put_file(
                    path,
                    language=self.language,
                    digest="",
                    size=0,
                    mtime=0,
                    extractor="graph-builder",
                    interface=b"",
                    body=b"",
                    interface_digest="",
                )
                store.put_resolution(
                    path,
                    nodes=[n for n in nodes if n.path == path],
                    edges=[e for e in edges if owner(e) == path],
                    keys=frozenset(),
                    depends_on=frozenset(),
                    unresolved=unresolved,
                    web="",
                )
            store.put_resolution(
                "",
                nodes=[n for n in nodes if not n.path],
                edges=[e for e in edges if not owner(e)],
                keys=frozenset(),
                depends_on=frozenset(),
                unresolved=0,
                web="",
            )
            store.set_skipped(sorted(self._skipped.items()))

    def _defines(self) -> list[Edge]:
        out = []
        for key, node in self._nodes.items():
            owner = self._owner(key)
            if owner is not None and (EdgeKind.DEFINES, owner, key) not in self._edges:
                where = Location(owner.path, node.line, 0, node.line, 1)
                quote = f"{key.kind} {key.qualname.rpartition('.')[2]}"
                line = evidence_line(owner, EdgeKind.DEFINES, key, where, quote)
                out.append(
                    Edge(EdgeKind.DEFINES, owner, key, Provenance.DEFINE, 1.0, where, quote, line)
                )
        return out

    def _owner(self, key: NodeKey) -> NodeKey | None:
        if key.kind in (NodeKind.MODULE, NodeKind.PACKAGE):
            return self._enclosing(key.qualname, lambda k: k.kind == NodeKind.PACKAGE)
        if key.kind in _MEMBERS:
            return self._enclosing(key.qualname, lambda k: k.path == key.path)
        return None

    def _enclosing(self, name: str, fits: Callable[[NodeKey], bool]) -> NodeKey | None:
        """The node named by the longest dotted prefix of ``name`` that ``fits`` (never a route
        or an outside node)."""
        head = name
        while "." in head:
            head = head.rpartition(".")[0]
            for key in self._nodes:
                if key.qualname == head and key.kind not in _NOT_OWNERS and fits(key):
                    return key
        return None

    def _next_line(self) -> int:
        self._line += 1
        return self._line

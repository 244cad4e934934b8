"""``MemoryGraph`` answers as the map's SQLite store does, on any graph: same lists, same order
(ties included), same trace, blast, symbol lookup and overview."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundkit.codemap.graph import MapGraph
from groundkit.codemap.memory import MemoryGraph
from groundkit.codemap.model import Edge, EdgeKind, Location, Node, NodeKey, NodeKind, Provenance
from groundkit.codemap.overview import overview
from groundkit.codemap.store import MapStore
from groundkit.codemap.symbols import SymbolAmbiguous, SymbolNotFound, find_symbol
from groundkit.codemap.traverse import blast, trace
from groundkit.testing import GraphBuilder

# Few names, files and lines, so that names repeat across kinds and files and edges tie.
_NAMES = ("a", "a.b", "a.b.c", "b.c", "c", "a.c", "a.b.<lambda>", "GET /x/{id}", "ANY /x/<y>")
_PATHS = ("a.py", "b.py", "a/__init__.py", "")
_KINDS = tuple(str(k) for k in EdgeKind)
_PROBES = ("b", "c", "b.c", "x", "a.py:", "a.py:c", "b.py:b.c", "GET /x/:z", "POST /x/1", "a.bc")

_node = st.tuples(st.sampled_from(NodeKind), st.sampled_from(_NAMES), st.sampled_from(_PATHS))
_edge = st.tuples(
    st.sampled_from(EdgeKind),
    st.integers(0, 30),  # an index into the nodes; past the end: a node that is not there
    st.integers(0, 30),
    st.integers(1, 3),  # line
    st.integers(0, 1),  # column
    st.sampled_from((0.5, 0.75, 0.9, 1.0)),
)


def _built(nodes: list[tuple[NodeKind, str, str]], edges: list[Any]) -> GraphBuilder:
    g = GraphBuilder()
    keys = [
        g.add(kind, name, "" if kind == NodeKind.EXTERNAL else path) for kind, name, path in nodes
    ]
    keys.append(NodeKey(NodeKind.FUNCTION, "gone", "a.py"))
    for kind, a, b, line, col, confidence in edges:
        source, target = keys[a % len(keys)], keys[b % len(keys)]
        g.edge(kind, source, target, line=line, col=col, confidence=confidence)
    g.unresolved("a.py", len(edges))
    g.skip("z.py", "does not parse")
    return g


def _answers(graph: MapGraph) -> dict[Any, Any]:
    """Everything the queries can ask of ``graph``."""
    out: dict[Any, Any] = {
        "nodes": graph.nodes(),
        "names": graph.node_names(),
        "edges": graph.edges(),
        "counts": graph.counts(),
        "skipped": graph.skipped(),
        "overview": overview(graph, []).to_dict(),
    }
    for kinds in (["calls"], ["defines", "calls", "imports"], []):
        out["edges", *kinds] = graph.edges(kinds)
    ids = {n.key.id for n in graph.nodes()} | {NodeKey(NodeKind.FUNCTION, "gone", "a.py").id}
    for node_id in sorted(ids):
        node = graph.node(node_id)
        out[node_id] = (node, graph.edges_from(node_id, _KINDS), graph.edges_to(node_id, _KINDS))
        out[node_id, "calls"] = graph.edges_from(node_id, ["calls"])
        if node is not None:
            out[node_id, "trace"] = trace(graph, node, depth=3).to_dict()
            out[node_id, "blast"] = blast(graph, node, depth=3).to_dict()
    for text in (*_NAMES, *_PROBES):
        out[text] = (
            graph.nodes_named(text),
            graph.nodes_ending_with("." + text),
            graph.nodes_in_file(text),
            _found(graph, text),
        )
    for kind in NodeKind:
        out[kind] = graph.nodes_of_kind(kind)
    return out


def _found(graph: MapGraph, symbol: str) -> Any:
    try:
        return find_symbol(graph, symbol)
    except (SymbolNotFound, SymbolAmbiguous) as exc:
        return exc.to_dict()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_node, max_size=14), st.lists(_edge, max_size=30))
def test_a_graph_in_memory_answers_every_query_as_the_store_does(
    nodes: list[tuple[NodeKind, str, str]], edges: list[Any]
) -> None:
    built = _built(nodes, edges)
    with tempfile.TemporaryDirectory() as tmp:
        store = MapStore(Path(tmp) / "map.sqlite")
        try:
            built.write(store)
            assert _answers(built.memory()) == _answers(store)
        finally:
            store.close()


def _n(kind: NodeKind, name: str, path: str = "a.py", line: int = 0) -> Node:
    return Node(NodeKey(kind, name, path), "" if kind == NodeKind.EXTERNAL else "python", line)


def _e(source: Node, target: Node, line: int, confidence: float = 0.9) -> Edge:
    where = Location("a.py", line, 0, line, 1)
    return Edge(
        EdgeKind.CALLS, source.key, target.key, Provenance.CALL_LOCAL, confidence, where, "q", "e"
    )


def test_a_node_added_again_replaces_the_one_held_but_an_outside_node_keeps_the_first() -> None:
    graph = MemoryGraph([_n(NodeKind.FUNCTION, "f", line=1), _n(NodeKind.EXTERNAL, "x", "", 1)])
    graph.add_node(_n(NodeKind.FUNCTION, "f", line=2))
    graph.add_node(_n(NodeKind.EXTERNAL, "x", "", 2))
    assert [(n.qualname, n.line) for n in graph.nodes()] == [("x", 1), ("f", 2)]


def test_an_edge_added_again_replaces_the_one_held() -> None:
    f, g = _n(NodeKind.FUNCTION, "f"), _n(NodeKind.FUNCTION, "g")
    graph = MemoryGraph([f, g], [_e(f, g, 1, 0.5)])
    graph.add_edge(_e(f, g, 7, 0.75))
    assert [(e.location.line, e.confidence) for e in graph.edges()] == [(7, 0.75)]
    assert graph.edges_from(f.key.id, ["calls"]) == graph.edges_to(g.key.id, ["calls"])
    assert graph.counts()["edges"] == {"calls": 1}


def test_an_edge_is_returned_once_both_its_ends_are_added() -> None:
    f, g = _n(NodeKind.FUNCTION, "f"), _n(NodeKind.FUNCTION, "g")
    graph = MemoryGraph([f], [_e(f, g, 1)])
    assert graph.edges() == []
    assert graph.counts()["edges"] == {"calls": 1}
    graph.add_node(g)
    assert [e.target.qualname for e in graph.edges_from(f.key.id, ["calls"])] == ["g"]

"""The suite every ``MapGraph`` passes: ``MapGraphContract``, to inherit (as Haystack's document
store suites are)::

    class TestMyGraph(MapGraphContract):
        @pytest.fixture
        def make_graph(self) -> MakeGraph:
            return lambda built: MyGraph(built.nodes(), built.edges())

Each test writes a small map with a ``GraphBuilder``, turns it into the graph under test with
``make_graph``, and checks the answers: each read method's contents and order (``graph.py``
states them), and what trace, blast, symbol lookup and the overview make of them. The expected
answers are written out, so two implementations that pass agree with each other too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from groundkit.codemap.graph import MapGraph
from groundkit.codemap.model import Edge, EdgeFlag, EdgeKind, Node, NodeKey, NodeKind, Provenance
from groundkit.codemap.overview import overview
from groundkit.codemap.priors import prior
from groundkit.codemap.symbols import SymbolAmbiguous, SymbolNotFound, find_symbol
from groundkit.codemap.traverse import blast, trace
from groundkit.errors import ErrorCode
from groundkit.testing.graph_builder import GraphBuilder

__all__ = ["MakeGraph", "MapGraphContract", "shop"]

MakeGraph = Callable[[GraphBuilder], MapGraph]

_TWINS = (NodeKind.FUNCTION, NodeKind.CLASS, NodeKind.MODULE)  # one name, several nodes


def _twins_calling_connect() -> tuple[GraphBuilder, list[NodeKey]]:
    """The shop, with nodes of one name in several kinds and files, each calling and importing
    ``shop.db.connect``."""
    built = shop()
    twins = [built.add(kind, "twin", path) for kind in _TWINS for path in ("a.py", "b.py")]
    for twin in twins:
        built.calls(twin, "shop.db.connect")
        built.imports(twin, "shop.db.connect")
    return built, twins


def shop() -> GraphBuilder:
    """A small shop: a package with an API, a store and models (an import cycle), two routes,
    a command-line tool outside the package calling both in and over HTTP."""
    g = GraphBuilder()
    g.package("shop")
    g.module("shop.api")
    g.function("shop.api.buy")
    g.function("shop.api.list_items")
    g.route("GET /items/{id}", "shop/api.py")
    g.route("POST /items", "shop/api.py")
    g.module("shop.db")
    g.cls("shop.db.Store")
    g.method("shop.db.Store.save")
    g.method("shop.db.Store.load")
    g.function("shop.db.connect")
    g.module("shop.models")
    g.cls("shop.models.Base")
    g.cls("shop.models.Item")
    g.module("tools.cli")
    g.function("tools.cli.main")
    g.external("requests")
    g.imports("shop.api", "shop.db")
    g.imports("shop.api", "shop.models")
    g.imports("shop.db", "shop.models")
    g.imports("shop.models", "shop.db", provenance=Provenance.IMPORT_RELATIVE)
    g.imports("shop.models", "shop.api", flags=[EdgeFlag.TYPE_CHECKING])
    g.imports("tools.cli", "shop.api")
    g.imports("tools.cli", "requests")
    g.calls("shop.api.buy", "shop.models.Item", provenance=Provenance.CALL_CONSTRUCTOR)
    g.calls("shop.api.buy", "shop.db.Store.save", provenance=Provenance.CALL_ANNOTATION)
    g.calls("shop.api.list_items", "shop.db.Store.load", provenance=Provenance.CALL_INSTANCE)
    g.calls("shop.db.Store.save", "shop.db.connect")
    g.calls("shop.db.Store.load", "shop.db.connect")
    g.inherits("shop.models.Item", "shop.models.Base")
    g.handles("GET /items/{id}", "shop.api.list_items")
    g.handles("POST /items", "shop.api.buy")
    g.calls("tools.cli.main", "shop.api.buy", provenance=Provenance.CALL_IMPORTED)
    g.http_call("tools.cli.main", "POST /items")
    g.unresolved("shop/api.py", 2)
    g.skip("shop/broken.py", "does not parse")
    return g


class MapGraphContract:
    """Inherit, and give a ``make_graph`` fixture."""

    # -- the read methods -------------------------------------------------------------------------
    def test_nodes_are_listed_by_kind_then_name_then_path(self, make_graph: MakeGraph) -> None:
        nodes = make_graph(shop()).nodes()
        assert [(str(n.kind), n.qualname) for n in nodes] == sorted(
            (str(n.kind), n.qualname) for n in shop().nodes()
        )
        assert (nodes[0].qualname, nodes[-1].qualname) == ("shop.db.Store", "POST /items")

    def test_a_node_is_read_back_whole_by_its_id(self, make_graph: MakeGraph) -> None:
        built = shop()
        graph = make_graph(built)
        for node in built.nodes():
            assert graph.node(node.key.id) == node
        assert graph.node("0" * 16) is None

    def test_nodes_are_found_by_name_kind_file_and_ending(self, make_graph: MakeGraph) -> None:
        built = shop()
        built.function("shop.db.Store", "shop/other.py")  # the same name, another kind and file
        graph = make_graph(built)
        assert [(str(n.kind), n.path) for n in graph.nodes_named("shop.db.Store")] == [
            ("class", "shop/db.py"),
            ("function", "shop/other.py"),
        ]
        assert _names(graph.nodes_of_kind(NodeKind.ROUTE)) == ["GET /items/{id}", "POST /items"]
        assert _names(graph.nodes_in_file("shop/db.py")) == [
            "shop.db",
            "shop.db.Store",
            "shop.db.Store.load",
            "shop.db.Store.save",
            "shop.db.connect",
        ]
        assert _names(graph.nodes_ending_with(".Store")) == ["shop.db.Store", "shop.db.Store"]
        assert graph.nodes_ending_with("shop.db") == []  # longer than the ending, not equal
        assert graph.nodes_named("nothing") == graph.nodes_in_file("nothing.py") == []

    def test_node_names_are_sorted_by_name_then_node_id(self, make_graph: MakeGraph) -> None:
        built = shop()
        twins = [built.add(kind, "twin", "twin.py") for kind in NodeKind if kind != "external"]
        rows = make_graph(built).node_names()
        assert [r[0] for r in rows] == sorted(n.qualname for n in built.nodes())
        ids = [
            NodeKey(NodeKind(kind), name, path).id for name, kind, path in rows if name == "twin"
        ]
        assert ids == sorted(k.id for k in twins)

    def test_edges_leave_a_node_in_source_order(self, make_graph: MakeGraph) -> None:
        graph = make_graph(shop())
        main = shop().key("tools.cli.main")
        out = graph.edges_from(main.id, ["calls", "http_call"])
        assert [(str(e.kind), e.target.qualname) for e in out] == [  # by line, not by name
            ("calls", "shop.api.buy"),
            ("http_call", "POST /items"),
        ]
        assert _kinds(graph.edges_from(main.id, ["http_call"])) == ["http_call"]
        assert graph.edges_from(main.id, []) == []

    def test_edges_leaving_one_place_for_targets_of_one_name_keep_the_key_order(
        self, make_graph: MakeGraph
    ) -> None:
        built = shop()
        twins = [built.add(kind, "twin", path) for kind in _TWINS for path in ("a.py", "b.py")]
        for kind in (EdgeKind.IMPORTS, EdgeKind.CALLS):
            for twin in twins:
                built.edge(kind, "shop.api.buy", twin, line=1)
        out = make_graph(built).edges_from(built.key("shop.api.buy").id, ["calls", "imports"])
        tied = [(str(e.kind), e.target.id) for e in out if e.target.qualname == "twin"]
        assert tied == sorted(tied)  # by kind, then target id: the primary key's order
        assert len(tied) == 2 * len(twins)

    def test_edges_arrive_by_source_name_then_kind_then_source_id(
        self, make_graph: MakeGraph
    ) -> None:
        built, twins = _twins_calling_connect()
        into = make_graph(built).edges_to(built.key("shop.db.connect").id, ["calls", "imports"])
        rows = [(e.source.qualname, str(e.kind), e.source.id) for e in into]
        assert [r[:2] for r in rows] == [
            ("shop.db.Store.load", "calls"),
            ("shop.db.Store.save", "calls"),
            *[("twin", "calls")] * len(twins),
            *[("twin", "imports")] * len(twins),
        ]
        assert rows == sorted(rows)

    def test_edges_arriving_at_many_nodes_are_what_each_node_is_asked_for_alone(
        self, make_graph: MakeGraph
    ) -> None:
        built, _ = _twins_calling_connect()
        graph = make_graph(built)
        # Past any one query's share of ids: a graph may read them in parts.
        ids = [f"nowhere{i}" for i in range(998)] + [n.key.id for n in graph.nodes()]
        kinds = ["calls", "imports", "defines"]
        assert graph.edges_to_many(ids, kinds) == {i: graph.edges_to(i, kinds) for i in ids}
        assert graph.edges_to_many([], kinds) == {}

    def test_edges_are_listed_by_source_id_kind_and_target_id(self, make_graph: MakeGraph) -> None:
        built = shop()
        graph = make_graph(built)
        listed = graph.edges()
        assert listed == sorted(built.edges(), key=lambda e: (e.source.id, e.kind, e.target.id))
        assert set(_kinds(graph.edges(["inherits", "handles"]))) == {"inherits", "handles"}
        assert graph.edges([]) == []

    def test_an_edge_whose_end_is_gone_is_counted_but_never_returned(
        self, make_graph: MakeGraph
    ) -> None:
        before, built = make_graph(shop()), shop()
        gone = NodeKey(NodeKind.FUNCTION, "shop.api.gone", "shop/api.py")
        built.calls("shop.api.buy", gone)
        built.calls(gone, "shop.db.connect")
        graph = make_graph(built)
        buy, connect = built.key("shop.api.buy").id, built.key("shop.db.connect").id
        assert graph.edges() == before.edges()
        assert graph.edges_from(buy, ["calls"]) == before.edges_from(buy, ["calls"])
        assert graph.edges_to(connect, ["calls"]) == before.edges_to(connect, ["calls"])
        assert graph.counts()["edges"]["calls"] == before.counts()["edges"]["calls"] + 2

    def test_counts_and_skipped_files_describe_the_map(self, make_graph: MakeGraph) -> None:
        graph = make_graph(shop())
        assert graph.counts() == {
            "files": 5,  # shop/__init__.py, api.py, db.py, models.py and tools/cli.py
            "nodes": {
                "class": 3,
                "external": 1,
                "function": 4,
                "method": 2,
                "module": 4,
                "package": 1,
                "route": 2,
            },
            "edges": {
                "calls": 6,
                "defines": 12,
                "handles": 2,
                "http_call": 1,
                "imports": 7,
                "inherits": 1,
            },
            "unresolved_calls": 2,
        }
        assert graph.skipped() == [("shop/broken.py", "does not parse")]

    # -- what the queries make of them ------------------------------------------------------------
    def test_trace_gives_each_step_with_why_it_stops(self, make_graph: MakeGraph) -> None:
        graph = make_graph(shop())
        steps = trace(graph, find_symbol(graph, "tools.cli.main")).steps
        assert [(s.depth, s.edge.target.qualname, s.stop) for s in steps] == [
            (1, "shop.api.buy", None),
            (2, "shop.models.Item", "chain_end"),
            (2, "shop.db.Store.save", None),
            (3, "shop.db.connect", "chain_end"),
            (1, "POST /items", None),
            (2, "shop.api.buy", "seen"),
        ]
        shallow = trace(graph, find_symbol(graph, "tools.cli.main"), depth=1).steps
        assert [(s.edge.target.qualname, s.stop) for s in shallow] == [
            ("shop.api.buy", "max_depth"),
            ("POST /items", "max_depth"),
        ]

    def test_blast_gives_each_dependent_with_depth_via_and_confidence(
        self, make_graph: MakeGraph
    ) -> None:
        graph = make_graph(shop())
        found = blast(graph, find_symbol(graph, "shop.db.Store"))
        instance, annotation = prior(Provenance.CALL_INSTANCE), prior(Provenance.CALL_ANNOTATION)
        assert annotation < instance  # (the path's weakest edge decides)
        assert [
            (d.node.qualname, d.depth, d.via.target.qualname, d.confidence)
            for d in found.dependents
        ] == [
            ("shop.api.list_items", 1, "shop.db.Store.load", instance),
            ("shop.api.buy", 1, "shop.db.Store.save", annotation),
            ("GET /items/{id}", 2, "shop.api.list_items", instance),
            ("POST /items", 2, "shop.api.buy", annotation),
            ("tools.cli.main", 2, "shop.api.buy", annotation),  # not 3, through POST /items
        ]

    def test_a_symbol_is_found_by_name_file_ending_or_route(self, make_graph: MakeGraph) -> None:
        graph = make_graph(shop())
        for symbol, name in [
            ("shop.db.Store.save", "shop.db.Store.save"),
            ("shop/db.py:save", "shop.db.Store.save"),
            ("shop/db.py:", "shop.db"),
            ("Store.save", "shop.db.Store.save"),
            ("get /items/<int:item>", "GET /items/{id}"),
            ("POST /items", "POST /items"),
        ]:
            assert find_symbol(graph, symbol).qualname == name

    def test_a_name_two_nodes_end_with_is_ambiguous(self, make_graph: MakeGraph) -> None:
        built = shop()
        built.module("tools.db")
        built.function("tools.db.connect")
        graph = make_graph(built)
        refused = _refusal(graph, "db.connect")
        assert isinstance(refused, SymbolAmbiguous)
        assert refused.code == ErrorCode.SYMBOL_AMBIGUOUS
        assert _names(refused.candidates) == ["shop.db.connect", "tools.db.connect"]

    def test_an_unknown_symbol_is_not_found_with_the_nearest_names(
        self, make_graph: MakeGraph
    ) -> None:
        graph = make_graph(shop())
        for symbol, suggested in [
            (
                "shop.db.Store.sav",
                ["shop.db.Store.save", "shop.db.Store", "shop.db.Store.load", "shop.db.connect"],
            ),
            ("Store.lod", ["shop.db.Store.load"]),
            ("tools/cli.py:man", ["tools.cli.main", "tools.cli"]),
            ("reqests", ["requests"]),
        ]:
            refused = _refusal(graph, symbol)
            assert isinstance(refused, SymbolNotFound)
            assert refused.code == ErrorCode.SYMBOL_NOT_FOUND
            assert refused.suggestions == suggested

    def test_the_overview_describes_the_map(self, make_graph: MakeGraph) -> None:
        data = overview(make_graph(shop()), [{"name": "shop", "target": "tools.cli:main"}])
        api, db, models = "shop.api", "shop.db", "shop.models"
        assert {
            k: v for k, v in data.to_dict().items() if k not in ("files", "nodes", "edges")
        } == {
            "unresolved_calls": 2,
            # shop holds most modules, so its subpackages are the areas
            "areas": [
                {"area": "(routes)", "nodes": {"route": 2}},
                {"area": "shop", "nodes": {"package": 1}},
                {"area": api, "nodes": {"function": 2, "module": 1}},
                {"area": db, "nodes": {"class": 1, "function": 1, "method": 2, "module": 1}},
                {"area": models, "nodes": {"class": 2, "module": 1}},
                {"area": "tools", "nodes": {"function": 1, "module": 1}},
            ],
            "boundaries": [
                {"from": "(routes)", "to": api, "kind": "handles", "edges": 2},
                {"from": api, "to": db, "kind": "calls", "edges": 2},
                {"from": api, "to": db, "kind": "imports", "edges": 1},
                {"from": api, "to": models, "kind": "calls", "edges": 1},
                {"from": api, "to": models, "kind": "imports", "edges": 1},
                {"from": db, "to": models, "kind": "imports", "edges": 1},
                {"from": models, "to": api, "kind": "imports", "edges": 1},
                {"from": models, "to": db, "kind": "imports", "edges": 1},
                {"from": "tools", "to": "(routes)", "kind": "http_call", "edges": 1},
                {"from": "tools", "to": api, "kind": "calls", "edges": 1},
                {"from": "tools", "to": api, "kind": "imports", "edges": 1},
            ],
            "hubs": {
                "fan_in": [
                    _hub("shop.db.connect", "function", "shop/db.py", 2),
                    _hub("shop.api.buy", "function", "shop/api.py", 1),
                    _hub("shop.db.Store.load", "method", "shop/db.py", 1),
                    _hub("shop.db.Store.save", "method", "shop/db.py", 1),
                    _hub("shop.models.Item", "class", "shop/models.py", 1),
                ],
                "fan_out": [
                    _hub("shop.api.buy", "function", "shop/api.py", 2),
                    _hub("shop.api.list_items", "function", "shop/api.py", 1),
                    _hub("shop.db.Store.load", "method", "shop/db.py", 1),
                    _hub("shop.db.Store.save", "method", "shop/db.py", 1),
                    _hub("tools.cli.main", "function", "tools/cli.py", 1),
                ],
                "most_imported": [  # the outside module is left out
                    _hub(api, "module", "shop/api.py", 2),
                    _hub(db, "module", "shop/db.py", 2),
                    _hub(models, "module", "shop/models.py", 2),
                ],
            },
            # shop.models imports shop.api only under TYPE_CHECKING: no cycle through shop.api
            "import_cycles": [[db, models]],
            "entry_points": {
                "routes": [
                    {"route": "GET /items/{id}", "path": "shop/api.py", "line": 5},
                    {"route": "POST /items", "path": "shop/api.py", "line": 6},
                ],
                "scripts": [{"name": "shop", "target": "tools.cli:main"}],
            },
            "skipped": [{"path": "shop/broken.py", "reason": "does not parse"}],
        }


def _refusal(graph: MapGraph, symbol: str) -> SymbolNotFound | SymbolAmbiguous:
    try:
        find_symbol(graph, symbol)
    except (SymbolNotFound, SymbolAmbiguous) as exc:
        return exc
    raise AssertionError(f"{symbol!r} names one node")


def _hub(name: str, kind: str, path: str, edges: int) -> dict[str, object]:
    return {"name": name, "kind": kind, "path": path, "edges": edges}


def _names(nodes: Iterable[Node]) -> list[str]:
    return [n.qualname for n in nodes]


def _kinds(edges: Iterable[Edge]) -> list[str]:
    return [str(e.kind) for e in edges]

"""trace, blast, symbol lookup and the overview on graphs written by hand: no parsing, no SQLite.

What a parser would have to be coaxed into producing (ties, a lambda's definer, ten hubs, a
route of every method) is written here in a line each with ``GraphBuilder``.
"""

from __future__ import annotations

import json

import pytest

from groundkit.codemap.model import Edge, EdgeFlag, NodeKind, Provenance
from groundkit.codemap.overview import overview
from groundkit.codemap.symbols import SymbolAmbiguous, SymbolNotFound, find_symbol
from groundkit.codemap.traverse import Blast, Trace, blast, trace
from groundkit.errors import ErrorCode
from groundkit.testing import GraphBuilder


def chain() -> GraphBuilder:
    """start -> middle -> end, and start -> loop_one <-> loop_two."""
    g = GraphBuilder()
    g.module("m")
    for name in ("start", "middle", "end", "loop_one", "loop_two"):
        g.function(f"m.{name}")
    g.calls("m.start", "m.middle")
    g.calls("m.middle", "m.end")
    g.calls("m.start", "m.loop_one")
    g.calls("m.loop_one", "m.loop_two")
    g.calls("m.loop_two", "m.loop_one")
    return g


def steps(found: Trace) -> list[tuple[int, str, str | None]]:
    return [(s.depth, s.edge.target.qualname, s.stop) for s in found.steps]


def dependents(found: Blast) -> dict[str, tuple[int, str, float]]:
    return {
        d.node.qualname: (d.depth, d.via.source.qualname, d.confidence) for d in found.dependents
    }


# -- trace ----------------------------------------------------------------------------------------
def test_trace_ends_each_path_with_chain_end_max_depth_or_cycle() -> None:
    graph = chain().memory()
    start = find_symbol(graph, "m.start")
    assert steps(trace(graph, start)) == [
        (1, "m.middle", None),
        (2, "m.end", "chain_end"),
        (1, "m.loop_one", None),
        (2, "m.loop_two", None),
        (3, "m.loop_one", "cycle"),
    ]
    assert steps(trace(graph, start, depth=1)) == [
        (1, "m.middle", "max_depth"),
        (1, "m.loop_one", "max_depth"),
    ]


def test_trace_expands_a_node_once_at_its_shallowest_depth_and_marks_other_meetings_seen() -> None:
    g = GraphBuilder()
    g.module("m")
    for name in ("start", "a", "shared", "deep"):
        g.function(f"m.{name}")
    g.calls("m.start", "m.a")
    g.calls("m.a", "m.shared")  # met first at depth 2, but it is one step from start too
    g.calls("m.start", "m.shared")
    g.calls("m.shared", "m.deep")
    g.calls("m.a", "m.deep")
    graph = g.memory()
    assert steps(trace(graph, find_symbol(graph, "m.start"))) == [
        (1, "m.a", None),
        (2, "m.shared", "seen"),
        (2, "m.deep", "chain_end"),
        (1, "m.shared", None),
        (2, "m.deep", "seen"),
    ]


def test_trace_of_a_module_or_class_starts_from_its_members() -> None:
    g = chain()
    g.cls("m.Box")
    g.method("m.Box.open")
    g.calls("m.Box.open", "m.end")
    graph = g.memory()
    from_class = trace(graph, find_symbol(graph, "m.Box"))
    assert steps(from_class) == [(1, "m.Box.open", None), (2, "m.end", "chain_end")]
    from_module = [(d, name) for d, name, _ in steps(trace(graph, find_symbol(graph, "m")))]
    assert [name for d, name in from_module if d == 1] == [
        "m.start",
        "m.middle",
        "m.end",
        "m.loop_one",
        "m.loop_two",
        "m.Box",
    ]
    assert (2, "m.Box.open") not in from_module  # a member's own members are not members


def test_trace_follows_the_functions_a_function_makes_as_part_of_it() -> None:
    g = chain()
    g.function("m.run")
    g.function("m.run.<lambda>")
    g.function("m.run.helper")
    g.calls("m.run.<lambda>", "m.end")
    g.calls("m.run.helper", "m.middle")
    graph = g.memory()
    # What a lambda or a nested function calls happens when run hands it on (returns it, passes
    # it): click.decorators.option does its work in the function it returns.
    assert steps(trace(graph, find_symbol(graph, "m.run"))) == [
        (1, "m.run.<lambda>", None),
        (2, "m.end", "chain_end"),
        (1, "m.run.helper", None),
        (2, "m.middle", None),
        (3, "m.end", "seen"),
    ]


def test_a_lambda_that_its_function_also_calls_is_one_step_of_its_trace() -> None:
    g = chain()
    g.function("m.run")
    g.function("m.run.<lambda>")
    g.calls("m.run", "m.run.<lambda>")  # map(lambda ...): the function hands it on
    g.calls("m.run.<lambda>", "m.end")
    graph = g.memory()
    assert steps(trace(graph, find_symbol(graph, "m.run"))) == [
        (1, "m.run.<lambda>", None),
        (2, "m.end", "chain_end"),
    ]


def test_trace_follows_only_the_kinds_it_is_given() -> None:
    g = chain()
    g.module("n")
    g.imports("m", "n")
    g.external("requests")
    g.http_call("m.start", "requests")
    graph = g.memory()
    start = find_symbol(graph, "m.start")
    assert [name for _, name, _ in steps(trace(graph, start, kinds=["http_call"]))] == ["requests"]
    assert [name for _, name, _ in steps(trace(graph, start, kinds=["calls"]))] == [
        "m.middle",
        "m.end",
        "m.loop_one",
        "m.loop_two",
        "m.loop_one",
    ]
    assert "requests" in [s.edge.target.qualname for s in trace(graph, start).steps]


def test_trace_stops_at_max_steps_and_says_it_was_truncated() -> None:
    graph = chain().memory()
    found = trace(graph, find_symbol(graph, "m.start"), max_steps=2)
    assert found.truncated
    assert steps(found) == [(1, "m.middle", None), (2, "m.end", "chain_end")]
    assert not trace(graph, find_symbol(graph, "m.start")).truncated


def test_a_route_leads_to_its_view_and_on() -> None:
    g = chain()
    g.route("GET /items/{id}", "m.py")
    g.handles("GET /items/{id}", "m.start")
    graph = g.memory()
    found = trace(graph, find_symbol(graph, "GET /items/{id}"), depth=2)
    assert steps(found)[:2] == [(1, "m.start", None), (2, "m.middle", "max_depth")]


# -- blast ----------------------------------------------------------------------------------------
def test_blast_lists_each_dependent_once_at_its_shallowest_depth() -> None:
    g = chain()
    g.calls("m.loop_two", "m.end")  # end is also reached from start through the loop
    graph = g.memory()
    found = blast(graph, find_symbol(graph, "m.end"))
    assert [(d.node.qualname, d.depth) for d in found.dependents] == [
        ("m.loop_two", 1),
        ("m.middle", 1),
        ("m.loop_one", 2),
        ("m.start", 2),
    ]
    shallow = blast(graph, find_symbol(graph, "m.end"), depth=1)
    assert [d.node.qualname for d in shallow.dependents] == ["m.loop_two", "m.middle"]


def test_path_confidence_is_the_weakest_edge_of_the_best_path() -> None:
    g = GraphBuilder()
    g.module("m")
    for name in ("top", "weak", "direct", "target"):
        g.function(f"m.{name}")
    g.calls("m.weak", "m.target", confidence=0.75)
    g.calls("m.direct", "m.target", confidence=0.98)
    g.calls("m.top", "m.weak", confidence=0.99)
    g.calls("m.top", "m.direct", confidence=0.9)
    graph = g.memory()
    found = dependents(blast(graph, find_symbol(graph, "m.target")))
    assert found["m.weak"] == (1, "m.weak", 0.75)
    assert found["m.top"][2] == 0.9  # min(0.9, 0.98) beats min(0.99, 0.75)


def test_a_dependent_s_via_edge_is_the_most_confident_then_the_smallest_id() -> None:
    g = GraphBuilder()
    g.module("m")
    g.function("m.caller")
    g.function("m.target")
    # Two equally confident ways in: the one met first (through the node of smaller id) is not
    # the edge of smaller id, so only the tie-break picks the same via every time.
    low, high = sorted((g.function("m.a"), g.function("m.b")), key=lambda k: k.id)
    g.calls(low, "m.target")
    g.calls(high, "m.target")
    g.http_call("m.caller", low, confidence=0.9)
    chosen = g.calls("m.caller", high, confidence=0.9)

    def via() -> Edge:
        graph = g.memory()
        found = blast(graph, find_symbol(graph, "m.target")).dependents
        return next(d.via for d in found if d.node.qualname == "m.caller")

    assert via() == chosen
    better = g.http_call("m.caller", low, confidence=0.95)  # written again, more confident
    assert via() == better


def test_blast_of_a_class_counts_who_depends_on_its_members() -> None:
    g = GraphBuilder()
    g.module("m")
    g.cls("m.Store")
    g.method("m.Store.save")
    g.cls("m.Cache")
    g.function("m.use")
    g.calls("m.use", "m.Store.save")
    g.inherits("m.Cache", "m.Store")
    graph = g.memory()
    found = dependents(blast(graph, find_symbol(graph, "m.Store")))
    assert found == {"m.Cache": (1, "m.Cache", 0.95), "m.use": (1, "m.use", 0.99)}
    assert "m.Store.save" not in found  # a member is the class itself, not a dependent


def test_blast_of_what_a_lambda_calls_reaches_the_function_that_makes_it() -> None:
    g = chain()
    g.function("m.run")
    g.function("m.run.<lambda>")
    g.calls("m.run.<lambda>", "m.end")
    graph = g.memory()
    found = dependents(blast(graph, find_symbol(graph, "m.end")))
    assert found["m.run.<lambda>"][:2] == (1, "m.run.<lambda>")
    assert found["m.run"][:2] == (2, "m.run")


def test_a_module_s_importers_and_a_route_s_callers_over_http_depend_on_it() -> None:
    g = GraphBuilder()
    g.module("api")
    g.function("api.view")
    g.route("GET /x", "api.py")
    g.handles("GET /x", "api.view")
    g.module("client")
    g.function("client.fetch")
    g.http_call("client.fetch", "GET /x")
    g.imports("client", "api", flags=[EdgeFlag.TYPE_CHECKING])
    graph = g.memory()
    assert dependents(blast(graph, find_symbol(graph, "api"))) == {"client": (1, "client", 0.99)}
    on_view = dependents(blast(graph, find_symbol(graph, "api.view")))
    assert on_view["client.fetch"][:2] == (2, "client.fetch")


def test_a_symbol_on_a_cycle_is_not_its_own_dependent() -> None:
    graph = chain().memory()
    found = dependents(blast(graph, find_symbol(graph, "m.loop_one")))
    assert found == {
        "m.loop_two": (1, "m.loop_two", 0.99),
        "m.start": (1, "m.start", 0.99),
    }


# -- symbols --------------------------------------------------------------------------------------
def test_a_symbol_is_a_qualified_name_a_name_in_a_file_or_a_unique_ending() -> None:
    graph = chain().memory()
    for symbol in ("m.middle", "m.py:middle", "./m.py:middle", " middle ", "m.py: middle"):
        assert find_symbol(graph, symbol).qualname == "m.middle"
    assert find_symbol(graph, "m.py:").qualname == "m"


def test_an_exact_name_wins_over_longer_names_ending_with_it() -> None:
    g = chain()
    g.module("other")
    g.function("other.m.end", "other.py")
    graph = g.memory()
    assert find_symbol(graph, "m.end").path == "m.py"
    with pytest.raises(SymbolAmbiguous):
        find_symbol(graph, "end")


def test_a_route_is_found_in_any_parameter_syntax_and_its_own_method_beats_any() -> None:
    g = GraphBuilder()
    g.module("urls")
    g.route("GET /items/{item_id}", "urls.py")
    g.route("ANY /items/<int:pk>", "urls.py")
    g.route("ANY /pages/<slug>", "urls.py")
    graph = g.memory()
    for spelling in ("GET /items/{x}", "get /items/<int:y>", "GET /items/:z"):
        assert find_symbol(graph, spelling).qualname == "GET /items/{item_id}"
    assert find_symbol(graph, "POST /items/{n}").qualname == "ANY /items/<int:pk>"
    assert find_symbol(graph, "DELETE /pages/{p}").qualname == "ANY /pages/<slug>"
    with pytest.raises(SymbolNotFound):
        find_symbol(graph, "GET /nowhere")


def test_a_name_in_a_file_is_never_a_route_declared_there() -> None:
    g = GraphBuilder()
    g.module("api")
    g.route("GET /x", "api.py")
    graph = g.memory()
    with pytest.raises(SymbolNotFound):
        find_symbol(graph, "api.py:GET /x")


def test_an_outside_module_is_found_by_its_name_only_never_by_an_ending() -> None:
    g = chain()
    g.external("requests.adapters")
    graph = g.memory()
    assert find_symbol(graph, "requests.adapters").kind == NodeKind.EXTERNAL
    with pytest.raises(SymbolNotFound):
        find_symbol(graph, "adapters")


def test_undecodable_text_is_not_found_and_nothing_is_suggested() -> None:
    graph = chain().memory()
    with pytest.raises(SymbolNotFound) as caught:
        find_symbol(graph, "m.st\udcffart")
    assert caught.value.suggestions == []


def test_an_ambiguous_symbol_lists_every_candidate() -> None:
    g = GraphBuilder()
    for i in range(12):
        g.module(f"p{i:02}.util")
        g.function(f"p{i:02}.util.run")
    graph = g.memory()
    with pytest.raises(SymbolAmbiguous) as caught:
        find_symbol(graph, "util.run")
    assert caught.value.code == ErrorCode.SYMBOL_AMBIGUOUS
    assert [n.qualname for n in caught.value.candidates] == [f"p{i:02}.util.run" for i in range(12)]


# -- the overview ---------------------------------------------------------------------------------
def test_a_package_holding_most_modules_is_split_into_its_subpackages_as_areas() -> None:
    g = GraphBuilder()
    g.package("app")
    for name in ("app.api", "app.db", "app.db.models"):
        g.module(name)
    g.module("scripts.run")
    g.module("setup", "setup.py")
    areas = overview(g.memory(), []).to_dict()["areas"]
    assert [a["area"] for a in areas] == ["(root)", "app", "app.api", "app.db", "scripts"]


def test_without_a_dominant_package_the_top_level_names_are_the_areas() -> None:
    g = GraphBuilder()
    for name in ("one.a", "one.b", "two.a", "two.b"):
        g.module(name)
    areas = overview(g.memory(), []).to_dict()["areas"]
    assert [a["area"] for a in areas] == ["one", "two"]


def test_boundaries_count_edges_between_areas_and_leave_defines_and_outside_nodes_out() -> None:
    g = GraphBuilder()
    g.module("one.a")
    g.function("one.a.f")
    g.module("two.b")
    g.function("two.b.g")
    g.external("requests")
    g.calls("one.a.f", "two.b.g")
    g.calls("one.a.f", "two.b.g", provenance=Provenance.CALL_IMPORTED)  # one edge, two writes
    g.imports("one.a", "two.b")
    g.imports("one.a", "requests")
    assert overview(g.memory(), []).to_dict()["boundaries"] == [
        {"from": "one", "to": "two", "kind": "calls", "edges": 1},
        {"from": "one", "to": "two", "kind": "imports", "edges": 1},
    ]


def test_import_cycles_leave_type_checking_imports_out_and_come_largest_first() -> None:
    g = GraphBuilder()
    for name in ("a", "b", "c", "x", "y", "t"):
        g.module(name)
    for source, target in (("a", "b"), ("b", "c"), ("c", "a"), ("x", "y"), ("y", "x")):
        g.imports(source, target)
    g.imports("t", "a")
    g.imports("a", "t", flags=[EdgeFlag.TYPE_CHECKING])
    g.external("os")
    g.imports("a", "os")
    cycles = overview(g.memory(), []).to_dict()["import_cycles"]
    assert cycles == [["a", "b", "c"], ["x", "y"]]


def test_hubs_rank_by_edges_then_name_and_keep_ten() -> None:
    g = GraphBuilder()
    g.module("m")
    g.function("m.popular")
    g.function("m.z_busy")
    for i in range(12):
        g.function(f"m.f{i:02}")
        g.calls(f"m.f{i:02}", "m.popular")
        g.calls("m.popular", f"m.f{i:02}")
    for i in range(3):
        g.calls(f"m.f{i:02}", "m.z_busy")
    hubs = overview(g.memory(), []).to_dict()["hubs"]
    assert hubs["fan_in"][0] == {
        "name": "m.popular",
        "kind": "function",
        "path": "m.py",
        "edges": 12,
    }
    assert [(h["name"], h["edges"]) for h in hubs["fan_in"][1:]] == [
        ("m.z_busy", 3),
        *[(f"m.f{i:02}", 1) for i in range(8)],
    ]
    assert [(h["name"], h["edges"]) for h in hubs["fan_out"][:4]] == [
        ("m.popular", 12),
        ("m.f00", 2),
        ("m.f01", 2),
        ("m.f02", 2),
    ]
    assert len(hubs["fan_out"]) == 10
    assert hubs["most_imported"] == []


def test_the_same_graph_written_in_another_order_shows_the_same_bytes() -> None:
    def written(reverse: bool) -> str:
        g = GraphBuilder()
        names = ["a.x", "a.y", "b.z"]
        for name in reversed(names) if reverse else names:
            g.module(name)
            g.function(f"{name}.f")
        pairs = [("a.x.f", "a.y.f"), ("a.y.f", "b.z.f"), ("b.z.f", "a.x.f")]
        for source, target in reversed(pairs) if reverse else pairs:
            g.calls(source, target, line=1)
        return json.dumps(overview(g.memory(), []).to_dict())

    assert written(reverse=False) == written(reverse=True)


def test_the_overview_counts_files_unresolved_calls_and_lists_skipped_files_by_path() -> None:
    g = chain()
    g.unresolved("m.py", 3)
    g.unresolved("empty.py", 1)
    g.skip("z.py", "oversized")
    g.skip("a.py", "not UTF-8")
    data = overview(g.memory(), []).to_dict()
    assert (data["files"], data["unresolved_calls"]) == (2, 4)
    assert data["skipped"] == [
        {"path": "a.py", "reason": "not UTF-8"},
        {"path": "z.py", "reason": "oversized"},
    ]
    assert data["edges"] == {"calls": 5, "defines": 5}

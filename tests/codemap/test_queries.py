"""trace, blast, symbols, evidence re-checking and diff, through the library."""

from __future__ import annotations

from pathlib import Path

import pytest
from map_helpers import Repo, build

from groundkit.codemap.api import open_codemap
from groundkit.codemap.diff import diff_stores
from groundkit.codemap.symbols import SymbolAmbiguous, SymbolNotFound
from groundkit.errors import ErrorCode

CHAIN = {
    "chain/__init__.py": "",
    "chain/a.py": """
        from chain import b
        def start():
            b.middle()
            loop_one()
        def loop_one():
            loop_two()
        def loop_two():
            loop_one()
    """,
    "chain/b.py": """
        from chain.c import end
        def middle():
            end()
    """,
    "chain/c.py": "def end(): pass\n",
    "other/c.py": "def end(): pass\n",
    "web.py": """
        from fastapi import FastAPI
        from chain.a import start
        app = FastAPI()
        @app.get("/items/{item_id}")
        def item(item_id):
            start()
    """,
}


def stops(trace: object) -> list[tuple[str, str | None]]:
    return [(s.edge.target.qualname, s.stop) for s in trace.steps]  # type: ignore[attr-defined]


def test_trace_ends_each_path_with_chain_end_max_depth_or_cycle(repo: Repo) -> None:
    build(repo, CHAIN)
    found = repo.map.trace("chain.a.start", kinds=["calls"])
    assert stops(found) == [
        ("chain.b.middle", None),
        ("chain.c.end", "chain_end"),
        ("chain.a.loop_one", None),
        ("chain.a.loop_two", None),
        ("chain.a.loop_one", "cycle"),
    ]
    assert [s.depth for s in found.steps] == [1, 2, 1, 2, 3]
    shallow = repo.map.trace("chain.a.start", depth=1, kinds=["calls"])
    assert stops(shallow) == [("chain.b.middle", "max_depth"), ("chain.a.loop_one", "max_depth")]


def test_a_route_is_a_symbol_in_any_parameter_syntax(repo: Repo) -> None:
    build(repo, CHAIN)
    for spelling in ("GET /items/{item_id}", "GET /items/<int:id>", "get /items/:x"):
        found = repo.map.trace(spelling, depth=3)
        assert found.start.qualname == "GET /items/{item_id}"
        assert [s.edge.target.qualname for s in found.steps][:2] == ["web.item", "chain.a.start"]


def test_symbols_by_qualified_name_file_and_name_or_unique_ending(repo: Repo) -> None:
    build(repo, CHAIN)
    assert repo.map.find("chain.b.middle").qualname == "chain.b.middle"
    assert repo.map.find("chain/b.py:middle").qualname == "chain.b.middle"
    assert repo.map.find("b.middle").qualname == "chain.b.middle"
    assert repo.map.find("chain/b.py:").qualname == "chain.b"


def test_an_unknown_symbol_suggests_the_nearest_names(repo: Repo) -> None:
    build(repo, CHAIN)
    with pytest.raises(SymbolNotFound) as caught:
        repo.map.find("chain.b.midle")
    assert caught.value.code == ErrorCode.SYMBOL_NOT_FOUND
    assert caught.value.suggestions[0] == "chain.b.middle"


def test_a_name_several_nodes_end_with_is_ambiguous_and_lists_them(repo: Repo) -> None:
    build(repo, CHAIN)
    with pytest.raises(SymbolAmbiguous) as caught:
        repo.map.find("end")
    assert caught.value.code == ErrorCode.SYMBOL_AMBIGUOUS
    assert sorted(n.qualname for n in caught.value.candidates) == ["chain.c.end", "other.c.end"]


def test_blast_lists_each_dependent_once_with_depth_via_and_confidence(repo: Repo) -> None:
    build(repo, CHAIN)
    found = repo.map.blast("chain.c.end")
    rows = {d.node.qualname: (d.depth, d.via.source.qualname, d.via.kind) for d in found.dependents}
    assert rows["chain.b.middle"] == (1, "chain.b.middle", "calls")
    assert rows["chain.a.start"] == (2, "chain.a.start", "calls")
    assert rows["web.item"] == (3, "web.item", "calls")
    assert rows["GET /items/{item_id}"] == (4, "GET /items/{item_id}", "handles")
    assert len(rows) == len(found.dependents)
    assert [d.node.qualname for d in repo.map.blast("chain.c.end", depth=1).dependents] == [
        "chain.b.middle"
    ]
    module = {d.node.qualname: d.depth for d in repo.map.blast("chain.c").dependents}
    assert module["chain.b"] == 1  # a module's importers depend on it


def test_path_confidence_is_the_weakest_edge_of_the_best_path(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class T:
                    def target(self): pass
                def weak(t: T):
                    t.target()
                def direct():
                    T().target()
                def top(t: T):
                    weak(t)
                    direct()
            """
        },
    )
    found = {d.node.qualname: d for d in repo.map.blast("m.T.target").dependents}

    def conf(a: str, b: str) -> float:
        return repo.edge("calls", a, b).confidence  # type: ignore[attr-defined,no-any-return]

    weak_path = min(conf("m.top", "m.weak"), conf("m.weak", "m.T.target"))
    direct_path = min(conf("m.top", "m.direct"), conf("m.direct", "m.T.target"))
    assert weak_path != direct_path  # the two paths differ, so max-of-min is tested
    assert found["m.weak"].confidence == conf("m.weak", "m.T.target")
    assert found["m.top"].confidence == max(weak_path, direct_path)


def test_evidence_is_verified_drifted_or_missing_against_the_working_tree(repo: Repo) -> None:
    build(repo, {"a.py": "def g(): pass\ndef f():\n    g()\n", "b.py": "import a\n"})
    edges = {e.evidence: e for e in repo.map.edges(["calls", "imports"])}
    call = edges["a.f calls a.g at a.py:3: g()"]
    imp = edges["b imports a at b.py:1: import a"]
    assert repo.map.verify([call, imp]) == ["verified", "verified"]
    (repo.root / "a.py").write_text("def g(): pass\ndef f():\n    g(1)\n")
    (repo.root / "b.py").unlink()
    assert repo.map.verify([call, imp]) == ["drifted", "missing"]


def test_a_diff_of_a_map_with_itself_is_empty_and_a_change_shows_by_identity(
    repo: Repo, tmp_path: Path
) -> None:
    build(repo, CHAIN)
    assert diff_stores(repo.map.store, repo.map.store).empty
    with open_codemap("copy", index_dir=tmp_path / "other", create=True) as before:
        before.update(repo.root)
        repo.write({"chain/b.py": "#\n#\nfrom chain.c import end\ndef middle():\n    pass\n"})
        repo.build()
        change = diff_stores(before.store, repo.map.store)
    assert not change.nodes_added
    assert not change.nodes_removed
    assert [(e.source.qualname, e.target.qualname) for e in change.edges_removed] == [
        ("chain.b.middle", "chain.c.end")
    ]
    # The import moved down two lines: the same edge, moved, not changed.
    moved = {(a.source.qualname, a.target.qualname) for a, _ in change.edges_moved}
    assert ("chain.b", "chain.c") in moved
    assert not change.edges_changed
    assert change.by_module == {"chain.b": {"added": 0, "removed": 1}}


def test_the_overview_has_areas_boundaries_hubs_cycles_and_entry_points(repo: Repo) -> None:
    build(
        repo,
        {
            **CHAIN,
            "cyc/__init__.py": "",
            "cyc/x.py": "from cyc import y\n",
            "cyc/y.py": "from cyc import x\n",
            "pyproject.toml": '[project]\nname = "t"\n[project.scripts]\ntool = "chain.a:start"\n',
        },
    )
    data = repo.map.overview().to_dict()
    assert {a["area"] for a in data["areas"]} == {"(root)", "(routes)", "chain", "cyc", "other"}
    assert {"from": "(root)", "to": "chain", "kind": "calls", "edges": 1} in data["boundaries"]
    assert data["import_cycles"] == [["cyc.x", "cyc.y"]]
    assert data["entry_points"]["scripts"][0]["name"] == "tool"
    assert data["entry_points"]["scripts"][0]["node"] is not None
    assert data["entry_points"]["routes"][0]["route"] == "GET /items/{item_id}"
    assert data["hubs"]["fan_in"]


def test_a_lambda_leads_on_from_the_function_that_makes_it(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def work(x): pass
                def run(items):
                    return list(map(lambda x: work(x), items))
            """
        },
    )
    assert ("m.run.<lambda>", "m.work") in repo.pairs("calls")
    assert [s.edge.target.qualname for s in repo.map.trace("m.run").steps] == [
        "m.run.<lambda>",
        "m.work",
    ]
    assert {d.node.qualname for d in repo.map.blast("m.work").dependents} == {
        "m.run.<lambda>",
        "m.run",
    }

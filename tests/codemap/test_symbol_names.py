"""Every node a map shows can be named: by the name it shows, whatever that name holds (a
handler named after its route: ``:``, ``<``, spaces), or by its id. (Such a name was once
rejected, with a "did you mean" that offered the very name it rejected.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from grk_runner import Grk
from groundkit.codemap.symbols import SymbolAmbiguous, find_symbol
from groundkit.testing import GraphBuilder

EXPRESS = {
    "package.json": '{"name": "shop", "dependencies": {"express": "4"}}\n',
    "src/articles.controller.js": (
        'const express = require("express");\n'
        "const router = express.Router();\n"
        'router.put("/articles/:slug", (req, res) => { res.json(update(req.params.slug)); });\n'
        'router.get("/articles/:slug/comments", (req, res) => res.json([]));\n'
        "function update(slug) { return slug; }\n"
        "module.exports = router;\n"
    ),
}


@pytest.fixture
def grk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(tmp_path / "index", capsys)


@pytest.fixture
def express(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    for rel, text in EXPRESS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_handler_named_after_its_route_is_traced_by_the_name_the_map_shows(
    grk: Grk, express: Path
) -> None:
    grk("map", str(express), "--quiet")
    shown = [n["name"] for n in grk.json("map", "show", "shop", "--json")["hubs"]["fan_out"]]
    handler = "src/articles.controller.<put /articles/:slug>"
    assert handler in shown
    assert grk("trace", handler, "--map", "shop") == 0, grk.err
    assert "calls src/articles.controller.update" in grk.out
    # ... and by the ending a person would type, and inside its file
    for spelling in (
        "controller.<put /articles/:slug>",
        "src/articles.controller.js:<put /articles/:slug>",
    ):
        assert grk("trace", spelling, "--map", "shop") == 0, grk.err


def test_every_node_of_a_map_is_found_by_its_shown_name_or_else_by_its_id(
    grk: Grk, express: Path
) -> None:
    grk("map", str(express), "--quiet")
    nodes = grk.json("trace", "src/articles.controller.js:", "--map", "shop", "--depth", "1")
    names = [nodes["symbol"]["name"]] + [s["edge"]["target_name"] for s in nodes["steps"]]
    assert len(names) > 3
    for name in names:
        found = grk.json("trace", name, "--map", "shop", "--depth", "1")
        assert found["symbol"]["name"] == name
        by_id = grk.json("trace", found["symbol"]["id"], "--map", "shop", "--depth", "1")
        assert by_id["symbol"] == found["symbol"]


def test_a_name_with_colons_angle_brackets_and_spaces_is_one_name() -> None:
    g = GraphBuilder("typescript")
    g.module("server", "server.ts")
    g.function("server.<get /items/:id>", "server.ts")
    g.function("server.<post /items/:id/tags>", "server.ts")
    graph = g.memory()
    for name in ("server.<get /items/:id>", "server.<post /items/:id/tags>"):
        assert find_symbol(graph, name).qualname == name
    assert find_symbol(graph, "server.ts:<get /items/:id>").qualname == "server.<get /items/:id>"


def test_two_nodes_of_one_name_are_each_named_by_their_id() -> None:
    g = GraphBuilder()
    g.route("GET /health", "a.py")
    g.route("GET /health", "b.py")
    graph = g.memory()
    with pytest.raises(SymbolAmbiguous) as caught:
        find_symbol(graph, "GET /health")
    for node in caught.value.candidates:
        assert node.key.id in (caught.value.hint or "")
        assert find_symbol(graph, node.key.id) == node


def test_a_module_named_by_its_path_is_named_by_the_end_after_a_slash_too() -> None:
    g = GraphBuilder("typescript")
    g.module("src/controllers/article.controller", "src/controllers/article.controller.js")
    name = "src/controllers/article.controller.<put /articles/:slug>"
    g.function(name, "src/controllers/article.controller.js")
    graph = g.memory()
    assert find_symbol(graph, "article.controller.<put /articles/:slug>").qualname == name
    assert find_symbol(graph, "controllers/article.controller").kind == "module"


def test_an_ending_after_a_dot_is_read_before_one_after_a_slash() -> None:
    g = GraphBuilder("typescript")
    g.module("web/pages/ItemsPage", "web/pages/ItemsPage.tsx")
    g.function("web/pages/ItemsPage.ItemsPage", "web/pages/ItemsPage.tsx")
    assert find_symbol(g.memory(), "ItemsPage").kind == "function"

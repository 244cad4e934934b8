"""A TypeScript front end's HTTP calls land on a FastAPI back end's routes: every call of the
fixture (``fixtures/fullstack``) reaches its one known route, none reaches a wrong one."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from map_helpers import Repo

from grk_runner import Grk
from groundkit.codemap.model import Provenance

FIXTURE = Path(__file__).parent / "fixtures" / "fullstack"
FRONT = "frontend/src/api"

# Every HTTP call site of the front end, with the route (or host) it must reach.
EXPECTED = {
    (f"{FRONT}/items.listItems", "GET /api/items/"),
    (f"{FRONT}/items.getItem", "GET /api/items/{item_id}"),
    (f"{FRONT}/items.createItem", "POST /api/items/"),
    (f"{FRONT}/items.deleteItem", "DELETE /api/items/{item_id}"),
    (f"{FRONT}/users.userOrders", "GET /api/users/{user_id}/orders"),
    (f"{FRONT}/users.userOrdersViaKy", "GET /api/users/{user_id}/orders"),
    (f"{FRONT}/users.health", "GET /health"),
    (f"{FRONT}/users.stars", "api.github.com"),
}


@pytest.fixture
def fullstack(tmp_path: Path) -> Iterator[Repo]:
    root = tmp_path / "fullstack"
    shutil.copytree(FIXTURE, root)
    repo = Repo(root, tmp_path / "index")
    repo.build()
    yield repo
    repo.close()


def test_every_front_end_call_reaches_its_back_end_route_and_no_other(fullstack: Repo) -> None:
    assert fullstack.pairs("http_call") == EXPECTED
    routes = dict(fullstack.pairs("handles"))
    assert routes["GET /api/items/{item_id}"] == "app.routers.items.get_item"
    assert routes["GET /api/users/{user_id}/orders"] == "app.routers.users.user_orders"
    assert fullstack.report is not None
    assert not fullstack.report.skipped


def test_the_cross_language_edges_carry_evidence_and_their_provenance(fullstack: Repo) -> None:
    edge = fullstack.edge("http_call", f"{FRONT}/items.getItem", "GET /api/items/{item_id}")
    assert edge.provenance == Provenance.HTTP_TEMPLATE  # type: ignore[attr-defined]
    assert edge.location.path == "frontend/src/api/items.ts"  # type: ignore[attr-defined]
    assert edge.evidence == (  # type: ignore[attr-defined]
        "frontend/src/api/items.getItem calls over HTTP GET /api/items/{item_id}"
        " at frontend/src/api/items.ts:14: return http.get(`/items/${id}`);"
    )
    literal = fullstack.edge("http_call", f"{FRONT}/users.health", "GET /health")
    assert literal.provenance == Provenance.HTTP_LITERAL  # type: ignore[attr-defined]
    alias = fullstack.edge("imports", f"{FRONT}/items", f"{FRONT}/client")
    assert alias.provenance == Provenance.TS_IMPORT  # type: ignore[attr-defined]
    assert "@/api/client" in alias.quote  # type: ignore[attr-defined]


def test_grk_map_then_trace_a_route_and_a_page_across_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grk = Grk(tmp_path / "index", capsys)
    # Inside this repository the fixture's default name would be this project's (see naming).
    assert grk("map", str(FIXTURE), "--quiet", "--name", "fullstack") == 0
    assert "http_call 8" in grk.out
    data = grk.json("trace", "GET /api/items/{id}", "--map", "fullstack")
    assert [s["edge"]["target_name"] for s in data["steps"]] == ["app.routers.items.get_item"]
    kinds = "calls,http_call,handles"
    assert grk("trace", "ItemsPage", "--map", "fullstack", "--kinds", kinds) == 0
    lines = [line.strip() for line in grk.out.splitlines()]
    # The page's nested load() is part of it (what it calls happens when the page runs it).
    assert lines[1].startswith(f"defines {FRONT.replace('api', 'pages')}/ItemsPage.ItemsPage.load")
    at = next(i for i, line in enumerate(lines) if "items.deleteItem" in line)
    assert lines[at].startswith(f"calls {FRONT}/items.deleteItem  (ts-call")
    assert lines[at + 1].startswith("http_call DELETE /api/items/{item_id}  (http-template")
    assert lines[at + 2].startswith("handles app.routers.items.delete_item  (route-decorator")
    data = grk.json("blast", "GET /api/items/{item_id}", "--map", "fullstack")
    assert f"{FRONT}/items.getItem" in [d["node"]["name"] for d in data["dependents"]]

"""The code map over REST (/v1/code) and MCP (code_*): the same answers, the same guards and
error JSON as the other routes, read-only."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from serving import client_for, make_runtime

from groundkit import open_codemap
from groundkit.config import parse_settings
from groundkit.serve.code import CodeBlastRequest, CodeTraceRequest
from groundkit.serve.mcp_server import create_mcp_server
from groundkit.serve.runtime import Runtime

FILES = {
    "shop/__init__.py": "",
    "shop/api.py": "from fastapi import FastAPI\nfrom shop.db import save\napp = FastAPI()\n"
    "@app.post('/orders/{order_id}')\ndef order(order_id):\n    save()\n",
    "shop/db.py": "def save():\n    pass\n",
    "shop/more.py": "def save():\n    pass\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "shop-repo"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture
def code_runtime(index_dir: Path, repo: Path) -> Iterator[Runtime]:
    settings = parse_settings({"index_dir": str(index_dir)})
    with open_codemap("shop", settings=settings, create=True) as codemap:
        codemap.update(repo)
    runtime = make_runtime(settings)
    yield runtime
    runtime.close()


@pytest.fixture
def http(code_runtime: Runtime) -> Iterator[TestClient]:
    with client_for(code_runtime) as c:
        yield c


def mcp_call(runtime: Runtime, tool: str, **arguments: Any) -> Any:
    async def run() -> Any:
        async with Client(create_mcp_server(runtime)) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(run)


def test_the_maps_and_an_overview_are_served_in_the_versioned_envelope(http: TestClient) -> None:
    assert http.get("/v1/code/maps").json() == {
        "schema": "groundkit.codemap/1",
        "kind": "maps",
        "map": None,
        "maps": ["shop"],
    }
    overview = http.get("/v1/code/maps/shop").json()
    assert overview["schema"] == "groundkit.codemap/1"
    assert overview["entry_points"]["routes"][0]["route"] == "POST /orders/{order_id}"


def test_trace_over_mcp_answers_what_rest_answers(http: TestClient, code_runtime: Runtime) -> None:
    body = {"map": "shop", "symbol": "POST /orders/{id}", "depth": 3}
    rest = http.post("/v1/code/trace", json=body).json()
    tool = mcp_call(code_runtime, "code_trace", **body)
    assert not tool.is_error
    assert tool.structured_content == rest
    assert [s["edge"]["target_name"] for s in rest["steps"]] == ["shop.api.order", "shop.db.save"]


def test_trace_to_a_target_lists_the_same_paths_over_rest_and_mcp(
    http: TestClient, code_runtime: Runtime
) -> None:
    body = {"map": "shop", "symbol": "POST /orders/{id}", "to": "shop.db.save"}
    rest = http.post("/v1/code/trace", json=body).json()
    tool = mcp_call(code_runtime, "code_trace", **body)
    assert not tool.is_error
    assert tool.structured_content == rest
    assert rest["kind"] == "chains"
    (path,) = rest["paths"]
    assert [e["target_name"] for e in path["edges"]] == ["shop.api.order", "shop.db.save"]


def test_blast_and_edge_give_evidence_re_checked_against_the_folder(
    http: TestClient, repo: Path
) -> None:
    blast = http.post("/v1/code/blast", json={"map": "shop", "symbol": "shop.db.save"}).json()
    via = blast["dependents"][0]["via"]
    assert via["evidence"] == "shop.api.order calls shop.db.save at shop/api.py:6: save()"
    edge = http.get(f"/v1/code/maps/shop/edges/{via['id']}").json()
    assert edge["verification"] == "verified"
    (repo / "shop" / "api.py").write_text(FILES["shop/api.py"].replace("save()", "save(1)"))
    assert http.get(f"/v1/code/maps/shop/edges/{via['id']}").json()["verification"] == "drifted"


def test_an_unknown_or_ambiguous_symbol_is_an_error_with_its_code(
    http: TestClient, code_runtime: Runtime
) -> None:
    missing = http.post("/v1/code/blast", json={"map": "shop", "symbol": "shop.db.sav"})
    assert missing.status_code == 404
    assert missing.json()["code"] == "codemap.symbol_not_found"
    assert missing.json()["request_id"]
    ambiguous = http.post("/v1/code/trace", json={"map": "shop", "symbol": "save"})
    assert ambiguous.status_code == 409
    assert ambiguous.json()["code"] == "codemap.symbol_ambiguous"
    tool = mcp_call(code_runtime, "code_blast", map="shop", symbol="save")
    assert tool.is_error
    assert json.loads(tool.content[0].text)["code"] == "codemap.symbol_ambiguous"
    assert http.get("/v1/code/maps/nope").json()["code"] == "codemap.not_found"
    bad = http.post("/v1/code/trace", json={"map": "shop", "symbol": "x", "kinds": ["bogus"]})
    assert bad.status_code == 422


def test_diff_between_two_maps_and_two_revisions(
    http: TestClient, code_runtime: Runtime, repo: Path
) -> None:
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (repo / "shop" / "db.py").write_text("def save():\n    pass\ndef load():\n    pass\n")
    subprocess.run([*git, "commit", "-qam", "two"], check=True)
    answer = http.post(
        "/v1/code/diff", json={"map": "shop", "revisions": ["HEAD~1", "HEAD"]}
    ).json()
    assert [n["name"] for n in answer["nodes"]["added"]] == ["shop.db.load"]
    same = http.post("/v1/code/diff", json={"before": "shop", "after": "shop"}).json()
    assert same["edges"] == {
        "added": [],
        "removed": [],
        "changed": [],
        "moved": 0,
        "carried": [],
    }
    listed = http.post("/v1/code/diff", json={"before": "shop", "after": "shop", "moves": True})
    assert listed.json()["edges"]["moves"] == []
    unknown = http.post("/v1/code/diff", json={"map": "shop", "revisions": ["HEAD", "nope"]})
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "codemap.bad_revision"
    tool = mcp_call(code_runtime, "code_diff", before="shop")
    assert json.loads(tool.content[0].text)["code"] == "usage"


def test_the_code_routes_have_the_same_guards(http: TestClient) -> None:
    refused = http.get("/v1/code/maps", headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403
    assert refused.json()["code"] == "serve.origin_rejected"
    wrong_host = http.get("/v1/code/maps", headers={"Host": "evil.example"})
    assert wrong_host.status_code == 421


def test_the_code_tools_take_the_rest_request_fields(code_runtime: Runtime) -> None:
    async def run() -> dict[str, set[str]]:
        async with Client(create_mcp_server(code_runtime)) as client:
            tools = (await client.list_tools()).tools
            return {t.name: set(t.input_schema["properties"]) for t in tools}

    schemas = anyio.run(run)
    assert schemas["code_trace"] == set(CodeTraceRequest.model_fields)
    assert schemas["code_blast"] == set(CodeBlastRequest.model_fields)
    assert schemas["code_edge"] == {"map", "edge_id"}


def test_a_range_where_a_revision_is_expected_is_a_400(http: TestClient, repo: Path) -> None:
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    subprocess.run([*git, "commit", "-qm", "two", "--allow-empty"], check=True)
    ranged = http.post("/v1/code/diff", json={"map": "shop", "revisions": ["HEAD~1..HEAD", "HEAD"]})
    assert ranged.status_code == 400
    assert ranged.json()["code"] == "usage"


def test_rest_and_mcp_take_the_filter_of_grk_trace_and_say_what_it_hid(
    http: TestClient, code_runtime: Runtime
) -> None:
    body = {"map": "shop", "symbol": "shop.api.order", "exclude": ["shop/db.py"]}
    answer = http.post("/v1/code/trace", json=body).json()
    assert answer["hidden"] == 1
    assert answer["filter"] == {"min_confidence": 0.0, "certain": False, "exclude": ["shop/db.py"]}
    assert "shop.db.save" not in {s["edge"]["target_name"] for s in answer["steps"]}
    assert http.post("/v1/code/blast", json={**body, "min_confidence": 2}).status_code == 422
    tool = mcp_call(code_runtime, "code_blast", map="shop", symbol="shop.db.save", certain=True)
    assert json.loads(tool.content[0].text)["hidden"] == 0
    tool = mcp_call(
        code_runtime, "code_blast", map="shop", symbol="shop.db.save", min_confidence=1.0
    )
    found = json.loads(tool.content[0].text)
    assert (found["dependents"], found["hidden"]) == ([], 1)

"""End to end over real sockets and processes: uvicorn on a free loopback port (REST and MCP over
streamable HTTP), and `grk serve-mcp` as a subprocess over stdio."""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn
from mcp import Client, StdioServerParameters
from serving import SECRET, SECRET_ENV

from groundkit.serve.app import create_app
from groundkit.serve.guards import allowed_hosts_for
from groundkit.serve.runtime import Runtime


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def served(writable: Runtime) -> Iterator[str]:
    """A real uvicorn serving the app on loopback, in a thread; its base URL."""
    port = free_port()
    app = create_app(writable, allowed_hosts=allowed_hosts_for("127.0.0.1", port))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run)
    thread.start()
    try:
        while not server.started:  # bounded by the thread: it either starts or dies
            if not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            threading.Event().wait(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_rest_over_a_real_socket_searches_and_ingests(served: str, more: Path) -> None:
    with httpx.Client(base_url=served) as http:
        assert http.get("/healthz").json() == {"status": "ok"}
        hits = http.post("/v1/search", json={"collection": "notes", "query": "wombat"}).json()
        denied = http.post("/v1/ingest", json={"collection": "notes", "inputs": [str(more)]})
        report = http.post(
            "/v1/ingest",
            json={"collection": "notes", "inputs": [str(more)]},
            headers={"X-Groundkit-Secret": SECRET},
        )
        after = http.post("/v1/search", json={"collection": "notes", "query": "quokka"}).json()

    assert hits["hits"][0]["source"].endswith("wombats.md")
    assert denied.status_code == 401
    assert report.json()["new"] == 1
    assert after["hits"][0]["source"].endswith("quokka.md")


def test_mcp_over_streamable_http_on_the_same_server(served: str) -> None:
    async def run() -> tuple[set[str], Any, Any]:
        async with Client(f"{served}/mcp") as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            found = await client.call_tool("search", {"collection": "notes", "query": "wombat"})
            # No secret header on this connection: the mutating tool refuses.
            denied = await client.call_tool("delete_collection", {"collection": "notes"})
            return tools, found, denied

    tools, found, denied = anyio.run(run)

    assert {"search", "fetch_chunk", "ingest"} <= tools
    assert found.structured_content["hits"][0]["source"].endswith("wombats.md")
    assert denied.is_error
    assert denied.structured_content["error"]["code"] == "auth.required"


def test_a_mutating_mcp_tool_over_http_checks_the_secret_header_of_each_call(
    served: str, more: Path
) -> None:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    arguments = {"collection": "notes", "inputs": [str(more)]}

    async def ingest(secret: str) -> Any:
        http = httpx2.AsyncClient(headers={"X-Groundkit-Secret": secret})
        async with http, Client(streamable_http_client(f"{served}/mcp", http_client=http)) as c:
            return await c.call_tool("ingest", arguments)

    async def run() -> tuple[Any, Any]:
        return await ingest("wrong"), await ingest(SECRET)

    wrong, right = anyio.run(run)

    assert wrong.structured_content["error"]["code"] == "auth.invalid"
    assert not right.is_error
    assert right.structured_content["new"] == 1


def test_grk_serve_mcp_speaks_stdio_and_logs_only_to_stderr(
    runtime: Runtime, index_dir: Path, tmp_path: Path
) -> None:
    errlog = tmp_path / "stderr.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "groundkit.cli.main", "--index-dir", str(index_dir), "serve-mcp"],
        env={"PATH": "/usr/bin:/bin", SECRET_ENV: ""},
        cwd=str(tmp_path),
    )

    async def run() -> tuple[set[str], Any]:
        with errlog.open("w") as stderr:
            from mcp.client.stdio import stdio_client

            async with Client(stdio_client(params, errlog=stderr)) as client:
                tools = {tool.name for tool in (await client.list_tools()).tools}
                found = await client.call_tool(
                    "search", {"collection": "notes", "query": "echidna"}
                )
                return tools, found

    tools, found = anyio.run(run)

    assert tools == {
        *("search", "fetch_chunk", "list_collections", "index_status", "verify_citation"),
        "extract",
        *("code_map", "code_trace", "code_blast", "code_diff", "code_edge"),
    }
    assert found.structured_content["hits"][0]["source"].endswith("echidnas.txt")
    logged = errlog.read_text()
    assert '"tool": "search"' in logged  # the access line went to stderr (stdout is protocol)
    assert "echidna" not in logged

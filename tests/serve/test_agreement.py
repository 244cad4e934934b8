"""REST and MCP agree: the same defaults, the same refusals, descriptions an agent can read."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mcp import Client
from serving import SECRET, client_for, make_runtime
from test_mcp import call, error_code, with_client

from groundkit import Settings
from groundkit.serve.mcp_server import MUTATING_TOOLS
from groundkit.serve.runtime import Runtime

DISABLED = "changes are disabled on this server"


@pytest.fixture
def configured(settings: Settings, runtime: Runtime) -> Iterator[Runtime]:
    """A server whose `collection` setting names the collection `notes` (which `runtime` made)."""
    rt = make_runtime(settings.replace(collection="notes"))
    yield rt
    rt.close()


def a_chunk_id(client: TestClient) -> str:
    found = client.post("/v1/search", json={"collection": "notes", "query": "echidna egg"})
    chunk_id: str = found.json()["hits"][0]["chunk_id"]
    return chunk_id


def test_fetch_chunk_and_index_status_default_the_collection_over_mcp_as_search_does(
    configured: Runtime, client: TestClient
) -> None:
    chunk_id = a_chunk_id(client)

    fetched = call(configured, "fetch_chunk", chunk_id=chunk_id)
    status = call(configured, "index_status")

    assert not fetched.is_error, fetched.content
    assert fetched.structured_content == client.get(f"/v1/chunks/notes/{chunk_id}").json()
    assert not status.is_error, status.content
    assert status.structured_content == client.get("/v1/collections/notes").json()


def test_the_rest_twins_without_a_collection_use_the_configured_one(
    configured: Runtime, client: TestClient
) -> None:
    chunk_id = a_chunk_id(client)
    with client_for(configured) as rest:
        fetched = rest.get(f"/v1/chunks/{chunk_id}")
        status = rest.get("/v1/status")

    assert fetched.status_code == 200, fetched.text
    assert fetched.json() == client.get(f"/v1/chunks/notes/{chunk_id}").json()
    assert status.status_code == 200, status.text
    assert status.json() == client.get("/v1/collections/notes").json()


def test_without_a_configured_collection_the_defaults_say_not_found_alike(
    runtime: Runtime, client: TestClient
) -> None:
    chunk_id = a_chunk_id(client)  # `runtime` has the built-in setting: "default", not made

    assert error_code(call(runtime, "fetch_chunk", chunk_id=chunk_id)) == "collection.not_found"
    assert error_code(call(runtime, "index_status")) == "collection.not_found"
    for response in (client.get(f"/v1/chunks/{chunk_id}"), client.get("/v1/status")):
        assert (response.status_code, response.json()["code"]) == (404, "collection.not_found")


def test_every_mutating_route_without_a_secret_is_403_changes_disabled(
    client: TestClient, runtime: Runtime
) -> None:
    auth = {"X-Groundkit-Secret": SECRET}  # offered, but no secret is configured to match it
    for response in (
        client.post("/v1/ingest", json={"collection": "notes", "inputs": ["/tmp"]}),
        client.post("/v1/ingest", json={"collection": "notes", "inputs": ["/tmp"]}, headers=auth),
        client.delete("/v1/collections/notes"),
        client.delete("/v1/collections/notes/documents/d0", headers=auth),
    ):
        assert response.status_code == 403, response.text
        body = response.json()
        assert (body["code"], body["message"]) == ("auth.invalid", DISABLED)
        assert body["request_id"] == response.headers["x-request-id"]
    assert client.get("/v1/collections").json() == {"collections": ["notes"]}


def test_a_mutating_tool_without_a_secret_is_not_offered_and_refused_like_rest(
    runtime: Runtime,
) -> None:
    for tool in MUTATING_TOOLS:
        result = call(runtime, tool, collection="notes")
        assert error_code(result) == "auth.invalid"
        assert DISABLED in result.content[0].text  # type: ignore[union-attr]
    assert call(runtime, "list_collections").structured_content == {"collections": ["notes"]}


def _descriptions(node: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield where, value
            else:
                yield from _descriptions(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _descriptions(value, f"{where}[{index}]")


def test_every_tool_description_is_one_line_without_runs_of_spaces(writable: Runtime) -> None:
    async def session(client: Client) -> list[dict[str, Any]]:
        return [tool.model_dump() for tool in (await client.list_tools()).tools]

    tools: list[dict[str, Any]] = with_client(writable, session)
    found = [pair for tool in tools for pair in _descriptions(tool, tool["name"])]

    assert {tool["name"] for tool in tools} >= set(MUTATING_TOOLS)  # every tool is looked at
    assert all(tool["description"] for tool in tools)
    assert len(found) > 2 * len(tools)  # the arguments' descriptions too, not just the tools'
    for where, text in found:
        assert not re.search(r"\s{2,}|[\n\t]", text), (where, text)
        assert text == text.strip(), where

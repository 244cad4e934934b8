"""MCP through the SDK's in-memory client: the same answers as REST, errors as codes."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from mcp_types import CallToolResult
from serving import SECRET_ENV, make_runtime

from groundkit import Settings
from groundkit.serve import models as m
from groundkit.serve.mcp_server import MUTATING_TOOLS, READ_TOOLS, create_mcp_server
from groundkit.serve.runtime import Runtime

Session = Callable[[Client], Awaitable[Any]]


def with_client(runtime: Runtime, session: Session) -> Any:
    async def run() -> Any:
        async with Client(create_mcp_server(runtime)) as client:
            return await session(client)

    return anyio.run(run)


def call(runtime: Runtime, tool: str, **arguments: Any) -> CallToolResult:
    async def session(client: Client) -> CallToolResult:
        return await client.call_tool(tool, arguments)

    result: CallToolResult = with_client(runtime, session)
    return result


def error_code(result: CallToolResult) -> str:
    assert result.is_error
    body = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert result.structured_content == {"error": body}
    return str(body["code"])


def tool_names(runtime: Runtime) -> set[str]:
    async def session(client: Client) -> set[str]:
        return {tool.name for tool in (await client.list_tools()).tools}

    names: set[str] = with_client(runtime, session)
    return names


def test_a_read_only_server_offers_exactly_the_read_tools(runtime: Runtime) -> None:
    assert tool_names(runtime) == set(READ_TOOLS)


def test_a_server_with_a_secret_offers_the_mutating_tools_too(writable: Runtime) -> None:
    assert tool_names(writable) == {*READ_TOOLS, *MUTATING_TOOLS}


def test_tool_arguments_are_the_rest_request_fields(runtime: Runtime) -> None:
    async def session(client: Client) -> dict[str, set[str]]:
        return {
            t.name: set(t.input_schema["properties"]) for t in (await client.list_tools()).tools
        }

    schemas: dict[str, set[str]] = with_client(runtime, session)

    assert schemas["search"] == set(m.SearchRequest.model_fields)
    assert schemas["verify_citation"] == set(m.VerifyRequest.model_fields)


def test_search_over_mcp_gives_the_same_hits_as_rest(runtime: Runtime, client: TestClient) -> None:
    result = call(runtime, "search", collection="notes", query="wombat burrows", top_k=3)
    rest = client.post(
        "/v1/search", json={"collection": "notes", "query": "wombat burrows", "top_k": 3}
    ).json()

    assert not result.is_error
    assert result.structured_content == rest


def test_fetch_chunk_and_verify_citation_check_a_quote(runtime: Runtime) -> None:
    hit = call(runtime, "search", collection="notes", query="echidna egg").structured_content
    assert hit is not None
    chunk_id = hit["hits"][0]["chunk_id"]

    chunk = call(runtime, "fetch_chunk", collection="notes", chunk_id=chunk_id)
    verdict = call(
        runtime, "verify_citation", collection="notes", chunk_id=chunk_id, quote="lays an egg"
    )

    assert chunk.structured_content is not None
    assert chunk.structured_content["verification"] == "verified"
    assert verdict.structured_content is not None
    assert verdict.structured_content["verbatim"] is True
    start, end = verdict.structured_content["start"], verdict.structured_content["end"]
    offset = chunk.structured_content["start"]
    assert chunk.structured_content["text"][start - offset : end - offset] == "lays an egg"


def test_list_collections_and_index_status(runtime: Runtime) -> None:
    listed = call(runtime, "list_collections").structured_content
    status = call(runtime, "index_status", collection="notes").structured_content

    assert listed == {"collections": ["notes"]}
    assert status is not None
    assert status["documents"] == 2
    assert status["health"] == "ok"


def test_an_unknown_collection_is_a_tool_error_with_its_code(runtime: Runtime) -> None:
    assert error_code(call(runtime, "search", collection="nope", query="x")) == (
        "collection.not_found"
    )
    assert error_code(call(runtime, "index_status", collection="nope")) == "collection.not_found"


def test_invalid_arguments_are_a_tool_error_with_a_code(runtime: Runtime) -> None:
    result = call(runtime, "verify_citation", collection="notes", quote="egg")

    assert error_code(result) == "serve.invalid_request"


def test_a_mutating_tool_works_while_the_secret_is_configured(
    writable: Runtime, more: Path
) -> None:

    report = call(writable, "ingest", collection="notes", inputs=[str(more)])
    found = call(writable, "search", collection="notes", query="quokka")

    assert report.structured_content is not None
    assert report.structured_content["new"] == 1
    assert found.structured_content is not None
    assert found.structured_content["hits"][0]["source"].endswith("quokka.md")


def test_a_mutating_tool_refuses_once_the_secret_is_withdrawn_or_changed(
    writable: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SECRET_ENV)
    assert error_code(call(writable, "delete_collection", collection="notes")) == "auth.invalid"
    monkeypatch.setenv(SECRET_ENV, "another secret")
    assert error_code(call(writable, "delete_collection", collection="notes")) == "auth.invalid"
    assert call(writable, "list_collections").structured_content == {"collections": ["notes"]}


def test_arguments_the_sdk_rejects_are_a_coded_error_that_does_not_echo_them(
    runtime: Runtime,
) -> None:
    # The SDK validates argument types before the tool runs; its own error text quotes the
    # rejected value (which may be the caller's query) and carries no code or request id.
    result = call(runtime, "search", collection="notes", query="wombat", top_k="zebra-secret")

    assert error_code(result) == "serve.invalid_request"
    assert "zebra-secret" not in result.model_dump_json()
    assert json.loads(result.content[0].text)["request_id"]  # type: ignore[union-attr]


def test_an_unknown_tool_is_a_coded_error_with_a_request_id(
    runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    result = call(runtime, "drop_tables")
    assert "drop_tables" not in caplog.text  # the caller's text, not a tool of ours

    assert error_code(result) == "serve.route_not_found"
    assert json.loads(result.content[0].text)["request_id"]  # type: ignore[union-attr]


def test_an_unknown_argument_is_refused_as_the_rest_api_refuses_an_unknown_field(
    runtime: Runtime,
) -> None:
    # A misspelt "top_k" silently dropped would give the agent ten hits and no hint why.
    result = call(runtime, "search", collection="notes", query="wombat", topk=1)

    assert error_code(result) == "serve.invalid_request"
    assert "topk" in json.loads(result.content[0].text)["message"]  # type: ignore[union-attr]


def test_search_and_verify_without_a_collection_use_the_configured_one(
    settings: Settings, runtime: Runtime
) -> None:
    configured = make_runtime(settings.replace(collection="notes"))
    try:
        found = call(configured, "search", query="echidna egg")
        assert not found.is_error
        assert found.structured_content is not None
        assert found.structured_content["collection"] == "notes"
        chunk_id = found.structured_content["hits"][0]["chunk_id"]
        verdict = call(configured, "verify_citation", chunk_id=chunk_id, quote="lays an egg")
        assert verdict.structured_content is not None
        assert verdict.structured_content["verbatim"] is True
    finally:
        configured.close()
    assert error_code(call(runtime, "search", query="echidna egg")) == "collection.not_found"

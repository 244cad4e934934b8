"""GET /metrics: this server's counters, read back by Prometheus' own text parser."""

from __future__ import annotations

from pathlib import Path

import anyio
from fastapi.testclient import TestClient
from mcp import Client
from prometheus_client.parser import text_string_to_metric_families
from serving import SECRET, client_for, make_runtime

from groundkit.config import parse_settings
from groundkit.serve.app import create_app
from groundkit.serve.mcp_server import create_mcp_server
from groundkit.serve.metrics import CONTENT_TYPE, ServeMetrics
from groundkit.serve.runtime import Runtime

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: TestClient) -> Samples:
    """Every sample of one scrape, parsed as Prometheus parses it, by name and labels."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == CONTENT_TYPE
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[sample.name, frozenset(sample.labels.items())] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_requests_are_counted_by_route_template_and_status(client: TestClient) -> None:
    client.post("/v1/search", json={"collection": "notes", "query": "wombat"})
    client.post("/v1/search", json={"collection": "notes", "query": "echidna"})
    client.get("/v1/chunks/notes/c0000000000000000")  # no such chunk: 404

    samples = scrape(client)

    requests = "groundkit_http_requests_total"
    assert value(samples, requests, method="POST", route="/v1/search", status="200") == 2
    route = "/v1/chunks/{collection}/{chunk_id}"
    assert value(samples, requests, method="GET", route=route, status="404") == 1
    assert not any("c0000000000000000" in str(key) for key in samples)  # the path is no label


def test_search_latency_is_a_histogram_per_operation(client: TestClient) -> None:
    for query in ("wombat", "echidna", "platypus"):
        client.post("/v1/search", json={"collection": "notes", "query": query})

    samples = scrape(client)

    labels = {"operation": "search", "route": "/v1/search"}
    assert value(samples, "groundkit_request_duration_seconds_count", **labels) == 3
    assert value(samples, "groundkit_request_duration_seconds_bucket", le="+Inf", **labels) == 3
    assert value(samples, "groundkit_request_duration_seconds_sum", **labels) > 0
    assert value(samples, "groundkit_request_duration_seconds_count", operation="answer") == 0


def test_errors_are_counted_by_error_code(client: TestClient) -> None:
    client.post("/v1/search", json={"collection": "nope", "query": "wombat"})
    client.post("/v1/search", json={"collection": "notes"})  # no query: invalid
    client.get("/v1/collections", headers={"Origin": "https://elsewhere.example"})

    samples = scrape(client)

    assert value(samples, "groundkit_errors_total", code="collection.not_found") == 1
    assert value(samples, "groundkit_errors_total", code="serve.invalid_request") == 1
    assert value(samples, "groundkit_errors_total", code="serve.origin_rejected") == 1
    refused = {"method": "GET", "route": "unmatched", "status": "403"}  # refused before routing
    assert value(samples, "groundkit_http_requests_total", **refused) == 1


def test_ingests_through_the_server_are_counted(admin: TestClient, more: Path) -> None:
    headers = {"X-Groundkit-Secret": SECRET}
    body = {"collection": "notes", "inputs": [str(more)]}
    assert admin.post("/v1/ingest", json=body, headers=headers).status_code == 200
    missing = {"collection": "notes", "inputs": [str(more / "gone.md")]}
    admin.post("/v1/ingest", json=missing, headers=headers)

    samples = scrape(admin)

    assert value(samples, "groundkit_ingest_runs_total", outcome="ok") == 1
    assert value(samples, "groundkit_ingest_runs_total", outcome="failed") == 1
    assert value(samples, "groundkit_ingest_documents_total", change="new") == 1
    assert value(samples, "groundkit_ingest_chunks_total", kind="written") >= 1


def test_the_backend_of_each_configured_collection_is_shown(index_dir: Path) -> None:
    settings = parse_settings(
        {
            "index_dir": str(index_dir),
            "collection": "notes",
            "collections": {"papers": {"backend": "qdrant", "path": str(index_dir / "q")}},
        }
    )
    with client_for(make_runtime(settings)) as client:
        samples = scrape(client)

    backend = "groundkit_collection_backend"
    assert value(samples, backend, collection="notes", backend="embedded") == 1
    assert value(samples, backend, collection="papers", backend="qdrant-path") == 1


def test_metrics_are_guarded_like_every_route(runtime: Runtime) -> None:
    app = create_app(runtime, allowed_hosts={"127.0.0.1:8765"})
    with TestClient(app, base_url="http://evil.example:8765") as client:
        response = client.get("/metrics")

    assert response.status_code == 421
    assert response.json()["code"] == "serve.host_rejected"


def test_two_apps_in_one_process_count_apart(runtime: Runtime) -> None:
    with client_for(runtime) as first, client_for(runtime) as second:
        first.get("/healthz")
        first.get("/healthz")
        second.get("/healthz")
        counted = [scrape(first), scrape(second)]

    route = {"method": "GET", "route": "/healthz", "status": "200"}
    assert [value(s, "groundkit_http_requests_total", **route) for s in counted] == [2, 1]


def test_mcp_tool_calls_are_counted_and_searches_timed(runtime: Runtime) -> None:
    metrics = ServeMetrics(runtime.settings)

    async def session() -> None:
        async with Client(create_mcp_server(runtime, metrics=metrics)) as client:
            await client.call_tool("search", {"collection": "notes", "query": "wombat"})
            await client.call_tool("fetch_chunk", {"collection": "notes", "chunk_id": "c00"})

    anyio.run(session)
    samples: Samples = {}
    for family in text_string_to_metric_families(metrics.exposition().decode()):
        for sample in family.samples:
            samples[sample.name, frozenset(sample.labels.items())] = sample.value

    calls = "groundkit_mcp_tool_calls_total"
    assert value(samples, calls, tool="search", status="ok") == 1
    assert value(samples, calls, tool="fetch_chunk", status="chunk.not_found") == 1
    timed = {"operation": "search", "route": "/mcp"}
    assert value(samples, "groundkit_request_duration_seconds_count", **timed) == 1

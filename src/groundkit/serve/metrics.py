"""Prometheus metrics of one `grk serve` process, served at ``GET /metrics`` in the text format.

What is counted, per process (two replicas each count their own; Prometheus adds them up):
every HTTP request by method, route template and status, refusals by the guards included; the
seconds of search, answer and ask requests (histograms); errors by groundkit error code; the
ingests this server ran (REST, MCP and the pages) and the documents and chunks they touched; and
where each configured collection lives. Labels are route templates, codes and names from the
server's own settings, never a path, a query or anything else a client sent, so a client cannot
grow the number of series.

The registry is the app's own, not prometheus_client's global one: two apps in one process (the
tests) never share counts.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from fastapi import Request
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from groundkit.config import Settings
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.ops import collections as ops
from groundkit.serve.guards import route_template
from groundkit.types import IngestReport

__all__ = ["CONTENT_TYPE", "OPERATIONS", "RequestMetrics", "ServeMetrics", "metrics_of"]

# The classic text format (0.0.4), which every Prometheus version reads.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# The requests whose latency is a histogram: (method, route template) -> operation.
OPERATIONS: Mapping[tuple[str, str], str] = {
    ("POST", "/v1/search"): "search",
    ("GET", "/ui/c/{name}/search"): "search",
    ("POST", "/ui/c/{name}/answer"): "answer",
    ("POST", "/ui/maps/{name}/ask"): "ask",
}

# The MCP tools whose latency goes in the same histogram, under route /mcp.
_TOOL_OPERATIONS: Mapping[str, str] = {"search": "search"}

# A search answers in milliseconds; an answer or an ask that calls a model takes up to minutes.
_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)


class ServeMetrics:
    """The counters of one app, in a registry of its own."""

    def __init__(self, settings: Settings) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        self.requests = Counter(
            "groundkit_http_requests",
            "HTTP requests answered, by method, route template and status.",
            ("method", "route", "status"),
            registry=self.registry,
        )
        self.latency = Histogram(
            "groundkit_request_duration_seconds",
            "Seconds to answer a search, an answer or an ask request.",
            ("operation", "route"),
            buckets=_BUCKETS,
            registry=self.registry,
        )
        self.tools = Counter(
            "groundkit_mcp_tool_calls",
            "MCP tool calls, by tool and status (ok or the error code).",
            ("tool", "status"),
            registry=self.registry,
        )
        self.errors = Counter(
            "groundkit_errors",
            "Requests answered with an error, by groundkit error code.",
            ("code",),
            registry=self.registry,
        )
        self.ingests = Counter(
            "groundkit_ingest_runs",
            "Ingests run by this server: ok, partial (inputs skipped) or failed.",
            ("outcome",),
            registry=self.registry,
        )
        self.documents = Counter(
            "groundkit_ingest_documents",
            "Documents the ingests of this server found new, changed, unchanged, removed or"
            " skipped.",
            ("change",),
            registry=self.registry,
        )
        self.chunks = Counter(
            "groundkit_ingest_chunks",
            "Chunks the ingests of this server wrote and embedded.",
            ("kind",),
            registry=self.registry,
        )
        backend = Gauge(
            "groundkit_collection_backend",
            "Where each configured collection lives (1 for its backend).",
            ("collection", "backend"),
            registry=self.registry,
        )
        for name in sorted({settings.collection, *settings.collections}):
            backend.labels(name, _backend_of(settings, name)).set(1)

    def record_request(
        self, method: str, route: str, status: int | None, seconds: float, error_code: str | None
    ) -> None:
        """``status`` None: the client went away before any answer was sent."""
        self.requests.labels(method, route, "none" if status is None else str(status)).inc()
        operation = OPERATIONS.get((method, route))
        if operation is not None:
            self.latency.labels(operation, route).observe(seconds)
        if error_code is not None:
            self.errors.labels(error_code).inc()
        elif status is not None and status >= 500:  # uncoded: the server's own failure
            self.errors.labels(str(ErrorCode.INTERNAL)).inc()

    def record_tool(self, tool: str, status: str, seconds: float) -> None:
        """One MCP tool call (all of them travel as requests to ``/mcp``)."""
        self.tools.labels(tool, status).inc()
        if tool in _TOOL_OPERATIONS:
            self.latency.labels(_TOOL_OPERATIONS[tool], "/mcp").observe(seconds)

    def record_ingest(self, report: IngestReport) -> None:
        self.ingests.labels("partial" if report.partial else "ok").inc()
        for change, count in (
            ("new", report.new),
            ("changed", report.changed),
            ("unchanged", report.unchanged),
            ("removed", report.removed),
            ("skipped", len(report.skipped)),
        ):
            self.documents.labels(change).inc(count)
        self.chunks.labels("written").inc(report.chunks_written)
        self.chunks.labels("embedded").inc(report.chunks_embedded)

    def ingest(self, collections: ops.Collections, order: ops.IngestOrder) -> IngestReport:
        """``ops.ingest``, counted."""
        try:
            report = ops.ingest(collections, order)
        except GroundkitError:
            self.ingests.labels("failed").inc()
            raise
        self.record_ingest(report)
        return report

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


def _backend_of(settings: Settings, name: str) -> str:
    config = settings.collection_config(name)
    if config.backend == "qdrant" and config.path is not None:
        return "qdrant-path"  # Qdrant's engine inside this process, not a cluster
    return config.backend


class RequestMetrics:
    """Counts every HTTP request when it ends, with the status sent and the error code the
    guards or the handler recorded. Outside the guards, so their refusals count too: a request
    refused before routing (a foreign Host or Origin, a body too large, the server busy) has no
    route, and counts as ``unmatched`` with its status and code, as the access log shows it."""

    def __init__(self, app: ASGIApp, metrics: ServeMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status: int | None = None
        began = time.perf_counter()

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            code = scope.get("state", {}).get("error_code")
            seconds = time.perf_counter() - began
            self.metrics.record_request(
                scope["method"], route_template(scope), status, seconds, code
            )


def metrics_of(request: Request) -> ServeMetrics:
    """The app's metrics (``create_app`` keeps them in the app's state)."""
    served: ServeMetrics = request.app.state.metrics
    return served

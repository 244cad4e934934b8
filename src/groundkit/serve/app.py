"""The HTTP server: the REST API and MCP over streamable HTTP, one runtime, one guard stack."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from groundkit.serve.apidocs import install_docs
from groundkit.serve.code import router as code_router
from groundkit.serve.guards import AccessLog, BodyLimit, Concurrency, HostGuard
from groundkit.serve.metrics import RequestMetrics, ServeMetrics
from groundkit.serve.rest import CatchBugs, install_error_handlers, router
from groundkit.serve.runtime import Runtime
from groundkit.serve.ui import mount_ui

__all__ = ["create_app"]

_VERSION = "0.1.0"


def create_app(runtime: Runtime, *, allowed_hosts: Iterable[str], with_mcp: bool = True) -> FastAPI:
    """The ASGI app. ``allowed_hosts`` are the Host values to answer (see ``allowed_hosts_for``)."""
    hosts = frozenset(allowed_hosts)
    serve = runtime.settings.serve
    metrics = ServeMetrics(runtime.settings)
    mcp_server = None
    if with_mcp:
        from mcp.server.transport_security import TransportSecuritySettings

        from groundkit.serve.mcp_server import create_mcp_server

        mcp_server = create_mcp_server(runtime, metrics=metrics)
        # The SDK's own check repeats HostGuard's; both must agree, HostGuard answers first.
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=sorted(hosts),
            allowed_origins=sorted(f"{s}://{h}" for h in hosts for s in ("http", "https")),
        )
        mcp_app = mcp_server.streamable_http_app(
            streamable_http_path="/mcp",
            stateless_http=True,  # every call stands alone: no session to pin, nothing to leak
            json_response=True,
            transport_security=security,
            max_request_body_size=serve.max_body_bytes,
        )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if mcp_server is None:
            yield
            return
        async with mcp_server.session_manager.run():
            yield

    app = FastAPI(
        title="groundkit",
        version=_VERSION,
        summary="Search your own documents; every citation is machine-checked.",
        docs_url=None,  # FastAPI's page loads Swagger UI from a CDN: install_docs serves our own
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.runtime = runtime
    app.state.metrics = metrics
    app.include_router(router)
    app.include_router(code_router)
    install_docs(app)
    mount_ui(app)  # the web pages: /, /ui/...
    install_error_handlers(app)
    if mcp_server is not None:
        app.router.routes.extend(mcp_app.routes)  # /mcp, outside the OpenAPI document
    # Added innermost first: AccessLog ends up outermost, so even refusals are logged.
    app.add_middleware(CatchBugs)
    app.add_middleware(Concurrency, limit=serve.max_concurrent)
    app.add_middleware(BodyLimit, max_bytes=serve.max_body_bytes)
    app.add_middleware(HostGuard, allowed_hosts=hosts)
    app.add_middleware(RequestMetrics, metrics=metrics)
    app.add_middleware(AccessLog)
    return app

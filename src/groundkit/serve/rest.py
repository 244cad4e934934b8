"""The REST API (FastAPI): thin handlers over the operations (``groundkit.ops``).

Every handler is a plain function at module level, run by FastAPI in its thread pool: the shared
``Runtime`` comes as a dependency, the body is validated by the shared models, one operation is
called, and how many results it returned is recorded for the access log.
Errors become ``{code, message, request_id}`` with the status ``serve.errors`` maps the code to.
"""

from __future__ import annotations

import json
import logging
import traceback
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Path, Request, Response, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from groundkit.errors import ErrorCode, GroundkitError, ServeError, UsageError
from groundkit.ops import collections as ops
from groundkit.serve import models as m
from groundkit.serve.errors import http_status, internal_error, invalid_request
from groundkit.serve.metrics import CONTENT_TYPE, metrics_of
from groundkit.serve.runtime import Runtime
from groundkit.serve.secret import SECRET_HEADER, authorize

__all__ = ["ERROR_RESPONSES", "CatchBugs", "install_error_handlers", "router", "runtime_of"]

_log = logging.getLogger("groundkit.serve")

_ERROR = {"model": m.ErrorBody, "description": "An error: see its code."}
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = dict.fromkeys(
    (400, 404, 409, 413, 421, 422, 500, 501, 502, 503, 504), _ERROR
)
_AUTH_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    401: _ERROR,
    403: _ERROR,
}

Name = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
ChunkId = Annotated[str, Path(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
DocumentKey = Annotated[str, Path(min_length=1, max_length=256, pattern=r"^[^/]+$")]

_secret_header = APIKeyHeader(
    name=SECRET_HEADER, auto_error=False, description="The shared secret (mutating routes only)."
)


def runtime_of(request: Request) -> Runtime:
    """The server's runtime: a FastAPI dependency of every handler."""
    runtime: Runtime = request.app.state.runtime
    return runtime


Served = Annotated[Runtime, Depends(runtime_of)]


def _results(request: Request, count: int) -> None:
    request.state.results = count


def require_secret(
    runtime: Served, offered: Annotated[str | None, Security(_secret_header)]
) -> None:
    authorize(runtime.secret, offered)


# Every route, the mutating ones included: without a configured secret those answer 403
# ``auth.invalid`` ("changes are disabled on this server"), so a client learns why, not 404.
router = APIRouter(responses=ERROR_RESPONSES)
_GUARDED: dict[str, Any] = {
    "dependencies": [Depends(require_secret)],
    "responses": _AUTH_RESPONSES,
    "tags": ["write"],
}


@router.get("/healthz", response_model=m.HealthResponse, tags=["health"])
async def healthz() -> m.HealthResponse:
    """The process is up."""
    # On the event loop, not a worker thread: it answers even when every worker is busy.
    return m.HealthResponse(status="ok")


@router.get("/readyz", response_model=m.HealthResponse, tags=["health"])
def readyz(runtime: Served) -> m.HealthResponse:
    """The index dir can be listed: requests can be served."""
    ops.collection_names(runtime)
    return m.HealthResponse(status="ok")


@router.get(
    "/metrics",
    response_class=Response,
    tags=["health"],
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
)
def metrics(request: Request) -> Response:
    """This process's counters in Prometheus' text format (docs/serve.md, "Metrics")."""
    return Response(metrics_of(request).exposition(), media_type=CONTENT_TYPE)


@router.post("/v1/search", response_model=m.SearchResponse, tags=["read"])
def search(request: Request, runtime: Served, body: m.SearchRequest) -> m.SearchResponse:
    """Ranked, cited passages. The query travels in the body, never in the URL."""
    response = m.SearchResponse.of(ops.search(runtime, body.as_search()))
    _results(request, len(response.hits))
    return response


@router.get("/v1/collections", response_model=m.CollectionsResponse, tags=["read"])
def collections(request: Request, runtime: Served) -> m.CollectionsResponse:
    names = ops.collection_names(runtime)
    _results(request, len(names))
    return m.CollectionsResponse(collections=names)


@router.get("/v1/collections/{name}", response_model=m.CollectionStatus, tags=["read"])
def collection_status(runtime: Served, name: Name) -> m.CollectionStatus:
    """Counts, embedder identity and index health."""
    return m.CollectionStatus.of(ops.status(runtime, name))


@router.get("/v1/chunks/{collection}/{chunk_id}", response_model=m.ChunkResponse, tags=["read"])
def chunk(
    request: Request, runtime: Served, collection: Name, chunk_id: ChunkId
) -> m.ChunkResponse:
    """A chunk read back from its stored document, with the source re-checked."""
    resolved = ops.show(runtime, chunk_id, collection)
    _results(request, 1)
    return m.ChunkResponse.of(resolved)


@router.post("/v1/verify", response_model=m.VerifyResponse, tags=["read"])
def verify(request: Request, runtime: Served, body: m.VerifyRequest) -> m.VerifyResponse:
    """Whether a quote is verbatim in a chunk or document, and its offsets in the document."""
    check = ops.verify(runtime, body.as_verify())
    _results(request, check.occurrences)
    return m.VerifyResponse.of(check)


# The reads whose path names a collection, without it: the configured one, as a search or
# verify body that leaves it out gets (and the MCP tools fetch_chunk and index_status).
@router.get("/v1/chunks/{chunk_id}", response_model=m.ChunkResponse, tags=["read"])
def chunk_in_default(request: Request, runtime: Served, chunk_id: ChunkId) -> m.ChunkResponse:
    """A chunk of the configured collection, as `/v1/chunks/{collection}/{chunk_id}`."""
    resolved = ops.show(runtime, chunk_id)
    _results(request, 1)
    return m.ChunkResponse.of(resolved)


@router.get("/v1/status", response_model=m.CollectionStatus, tags=["read"])
def default_status(runtime: Served) -> m.CollectionStatus:
    """The configured collection's counts and health, as `/v1/collections/{name}`."""
    return m.CollectionStatus.of(ops.status(runtime))


@router.post("/v1/ingest", response_model=m.IngestResponse, **_GUARDED)
def ingest(request: Request, runtime: Served, body: m.IngestRequest) -> m.IngestResponse:
    """Ingest paths on the server's machine, or http(s) URLs, into a collection."""
    report = metrics_of(request).ingest(runtime, ops.IngestOrder(body.collection, body.inputs))
    _results(request, report.new + report.changed)
    return m.IngestResponse.of(body.collection, report)


@router.delete("/v1/collections/{name}", response_model=m.DeletedResponse, **_GUARDED)
def delete_collection(runtime: Served, name: Name) -> m.DeletedResponse:
    ops.drop_collection(runtime, name)
    return m.DeletedResponse(collection=name)


@router.delete(
    "/v1/collections/{name}/documents/{document}", response_model=m.DeletedResponse, **_GUARDED
)
def delete_document(runtime: Served, name: Name, document: DocumentKey) -> m.DeletedResponse:
    """Delete one document, by document id, source (as search shows it) or external id."""
    document_id = ops.delete_document(runtime, name, document)
    return m.DeletedResponse(collection=name, document_id=document_id)


def _error_json(request: Request, error: GroundkitError) -> JSONResponse:
    request.state.error_code = str(error.code)
    body = {**error.to_dict(), "request_id": getattr(request.state, "request_id", "")}
    return JSONResponse(body, status_code=int(http_status(error)))


def install_error_handlers(app: FastAPI) -> None:
    async def on_groundkit(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, GroundkitError)
        return _error_json(request, exc)

    async def on_invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return _error_json(request, invalid_request(exc.errors()))

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        error: GroundkitError
        if exc.status_code == 404:
            error = ServeError(ErrorCode.SERVE_ROUTE_NOT_FOUND, "no such route")
        elif exc.status_code == 405:
            error = ServeError(
                ErrorCode.SERVE_METHOD_NOT_ALLOWED, "this route takes another method"
            )
        else:
            error = UsageError(ErrorCode.USAGE, str(exc.detail))
        return _error_json(request, error)

    app.add_exception_handler(GroundkitError, on_groundkit)
    app.add_exception_handler(RequestValidationError, on_invalid)
    app.add_exception_handler(StarletteHTTPException, on_http)


class CatchBugs:
    """Innermost guard: an unexpected exception becomes a 500 ``internal`` body and a log line
    with the request id, the exception's type and its frames, never its message (which could
    carry a query or document text). Starlette's own handler would re-raise it to the server."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            request_id = scope.get("state", {}).get("request_id", "?")
            frames = "".join(traceback.format_tb(exc.__traceback__))
            _log.error("request %s failed with %s\n%s", request_id, type(exc).__name__, frames)
            if started or scope["type"] != "http":
                return
            body = {**internal_error().to_dict(), "request_id": request_id}
            payload = json.dumps(body).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": payload})

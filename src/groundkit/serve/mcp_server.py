"""The MCP server (official SDK, v2 ``MCPServer``): the operations (``groundkit.ops``) as tools.

Each tool takes flat arguments, builds the shared request model from them (so validation is the
REST API's, field for field; a test keeps the two in step), and returns the shared response
model as structured output. A ``GroundkitError`` becomes an ``is_error`` result whose text is the
same ``{code, message, request_id}`` JSON a REST client gets, so an agent can read the code.

Mutating tools are listed only when a secret is configured (an agent is not offered what it
cannot do; called anyway, one answers ``auth.invalid`` as the REST route does). Each call checks
the secret: over HTTP against the ``X-Groundkit-Secret`` header of that very request; over stdio
the peer is the process that started this one and gave it its environment, so the check is that
the secret is still configured there and still the same.

Every description an agent reads (the tools' and their arguments') is one line of prose: the
docstrings and field descriptions it comes from are wrapped for the source.
"""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from mcp_types import Tool as MCPTool
from pydantic import Field, ValidationError

from groundkit.errors import AuthError, ErrorCode, GroundkitError, ServeError
from groundkit.ops import collections as ops
from groundkit.serve import models as m
from groundkit.serve.code import CODE_TOOLS, add_code_tools
from groundkit.serve.errors import internal_error, invalid_request
from groundkit.serve.guards import ACCESS_LOGGER
from groundkit.serve.runtime import Runtime
from groundkit.serve.secret import SECRET_HEADER, authorize, secret_from_env
from groundkit.types import SearchMode

if TYPE_CHECKING:
    from groundkit.serve.metrics import ServeMetrics

__all__ = ["MUTATING_TOOLS", "READ_TOOLS", "create_mcp_server"]

READ_TOOLS = (
    "search",
    "fetch_chunk",
    "list_collections",
    "index_status",
    "verify_citation",
    *CODE_TOOLS,
)
MUTATING_TOOLS = ("ingest", "delete_document", "delete_collection")

_log = logging.getLogger(ACCESS_LOGGER)
_P = ParamSpec("_P")
_R = TypeVar("_R")

CollectionArg = Annotated[str, Field(description="A collection in the server's index dir.")]
DefaultCollectionArg = Annotated[
    str | None,
    Field(
        description="A collection in the server's index dir [default: the `collection` setting]."
    ),
]
_READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=True)


def _access(name: str, request_id: str, status: str, began: float, results: int | None) -> None:
    record = {
        "request_id": request_id,
        "tool": name,
        "status": status,
        "results": results,
        "latency_ms": round((time.perf_counter() - began) * 1000, 2),
    }
    _log.info(json.dumps(record))


# What a server counts of each tool call: its name, its status (ok or an error code), seconds.
ToolObserver = Callable[[str, str, float], None]


def _translated(
    name: str, fn: Callable[_P, _R], observe: ToolObserver | None = None
) -> Callable[_P, _R]:
    """Errors to ``is_error`` results with a code; one access-log line per call (and, with
    ``observe``, one count: ``grk serve``'s metrics)."""

    @functools.wraps(fn)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        began = time.perf_counter()
        ctx = next((a for a in kwargs.values() if isinstance(a, Context)), None)
        request_id = str(ctx.request_id) if ctx is not None else ""
        status, results = "ok", None
        try:
            result = fn(*args, **kwargs)
            results = _count(result)
            return result
        except (GroundkitError, ValidationError) as exc:
            error = invalid_request(exc.errors()) if isinstance(exc, ValidationError) else exc
            status = str(error.code)
            return cast(_R, _error_result(error, request_id))
        except Exception as exc:
            status = str(ErrorCode.INTERNAL)
            logging.getLogger("groundkit.serve").error(
                "tool %s failed with %s", name, type(exc).__name__
            )
            return cast(_R, _error_result(internal_error(), request_id))
        finally:
            _access(name, request_id, status, began, results)
            if observe is not None:
                observe(name, status, time.perf_counter() - began)

    return call


class _Server(MCPServer[Any]):
    """The SDK's server, with its own refusals coded like the tools' errors.

    The SDK checks that a tool exists and that its arguments have the declared types before the
    tool runs; its error text quotes the rejected value (the caller's data) and has no code or
    request id, and it drops arguments the tool does not declare. Here those are answered as
    every other error is, and an unknown argument is refused as REST refuses an unknown field.
    """

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        began = time.perf_counter()
        tool = next((t for t in await self.list_tools() if t.name == name), None)
        try:
            if tool is None and name in MUTATING_TOOLS:
                authorize(None, None)  # not offered without a secret: say so, as REST does
            if tool is None:
                raise ServeError(
                    ErrorCode.SERVE_ROUTE_NOT_FOUND, "no such tool", hint="list the tools"
                )
            declared = tool.input_schema.get("properties", {})
            unknown = [{"loc": (key,), "msg": _EXTRA} for key in arguments if key not in declared]
            if unknown:
                raise invalid_request(unknown)
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except (GroundkitError, ToolError) as exc:
            if isinstance(exc, GroundkitError):
                error = exc
            elif isinstance(exc.__cause__, ValidationError):
                error = invalid_request(exc.__cause__.errors())
            else:
                raise
            request_id = context.request_id if context is not None else ""
            # An unknown tool's name is the caller's text: it does not go to the log.
            known = tool is not None or name in MUTATING_TOOLS
            _access(name if known else "(unknown)", request_id, str(error.code), began, None)
            return _error_result(error, request_id)

    async def list_tools(self) -> list[MCPTool]:
        """The tools, every description on one line: docstrings and field descriptions are
        wrapped for the source, and an agent reads them as prose."""
        return [
            tool.model_copy(
                update={
                    "description": _one_line(tool.description),
                    "input_schema": _tidy(tool.input_schema),
                    "output_schema": _tidy(tool.output_schema),
                }
            )
            for tool in await super().list_tools()
        ]


def _one_line(text: str | None) -> str | None:
    return " ".join(text.split()) if text is not None else None


def _tidy(node: Any) -> Any:
    """A JSON schema with every ``description`` whitespace-normalised."""
    if isinstance(node, dict):
        return {
            key: _one_line(value)
            if key == "description" and isinstance(value, str)
            else _tidy(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_tidy(item) for item in node]
    return node


_EXTRA = "Extra inputs are not permitted"  # pydantic's words, as REST reports an unknown field


def _count(result: object) -> int | None:
    if isinstance(result, m.SearchResponse):
        return len(result.hits)
    if isinstance(result, m.CollectionsResponse):
        return len(result.collections)
    if isinstance(result, m.VerifyResponse):
        return result.occurrences
    return None


def _error_result(error: GroundkitError, request_id: str) -> CallToolResult:
    body = {**error.to_dict(), "request_id": request_id}
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(body))],
        structured_content={"error": body},
        is_error=True,
    )


def create_mcp_server(runtime: Runtime, metrics: ServeMetrics | None = None) -> MCPServer[Any]:
    server: MCPServer[Any] = _Server(
        "groundkit",
        instructions=(
            "Search the user's own documents. Every hit cites a chunk by id and exact offsets;"
            " fetch_chunk re-reads it and verify_citation checks that a quote is verbatim."
        ),
        log_level="WARNING",
    )

    def search(
        query: Annotated[str, Field(description="Plain words, never query syntax.")],
        collection: DefaultCollectionArg = None,
        top_k: Annotated[int | None, Field(description="How many hits [default: 10].")] = None,
        mode: SearchMode | None = None,
        source: Annotated[str | None, Field(description="Only sources matching a glob.")] = None,
        where: Annotated[
            dict[str, str | int | float | bool] | None,
            Field(description="Metadata equality filters."),
        ] = None,
        collapse: Annotated[
            bool | None,
            Field(description="Fold near-duplicate hits into the best one [default: on]."),
        ] = None,
        ctx: Context | None = None,
    ) -> m.SearchResponse:
        """Search a collection: ranked passages, each citing its chunk id and exact offsets."""
        body = m.SearchRequest(
            collection=collection,
            query=query,
            top_k=top_k,
            mode=mode,
            source=source,
            where=where,
            collapse=collapse,
        )
        return m.SearchResponse.of(ops.search(runtime, body.as_search()))

    def fetch_chunk(
        chunk_id: str, collection: DefaultCollectionArg = None, ctx: Context | None = None
    ) -> m.ChunkResponse:
        """A cited chunk read back from its stored document, and whether its source still
        matches (verified / drifted / missing / unreadable / not_checked)."""
        return m.ChunkResponse.of(ops.show(runtime, chunk_id, collection))

    def list_collections(ctx: Context | None = None) -> m.CollectionsResponse:
        """The collections this server can search."""
        return m.CollectionsResponse(collections=ops.collection_names(runtime))

    def index_status(
        collection: DefaultCollectionArg = None, ctx: Context | None = None
    ) -> m.CollectionStatus:
        """A collection's counts, embedder identity and index health."""
        return m.CollectionStatus.of(ops.status(runtime, collection))

    def verify_citation(
        quote: Annotated[str, Field(description="The text to find, exactly.")],
        collection: DefaultCollectionArg = None,
        chunk_id: str | None = None,
        document_id: str | None = None,
        ctx: Context | None = None,
    ) -> m.VerifyResponse:
        """Whether a quote is a verbatim substring of a chunk (or a whole document, by
        document_id), with its start/end offsets in the stored document."""
        body = m.VerifyRequest(
            collection=collection, quote=quote, chunk_id=chunk_id, document_id=document_id
        )
        return m.VerifyResponse.of(ops.verify(runtime, body.as_verify()))

    translate = functools.partial(
        _translated, observe=None if metrics is None else metrics.record_tool
    )
    for fn in (search, fetch_chunk, list_collections, index_status, verify_citation):
        server.add_tool(translate(fn.__name__, fn), annotations=_READ_ONLY)
    add_code_tools(server, runtime, translate, _READ_ONLY)
    if runtime.mutations_enabled:
        _add_mutating_tools(server, runtime, metrics, translate)
    return server


def _check(runtime: Runtime, ctx: Context) -> None:
    headers = ctx.headers
    if headers is not None:
        offered = headers.get(SECRET_HEADER) or headers.get(SECRET_HEADER.lower())
        authorize(runtime.secret, offered)
        return
    # stdio: the peer started us; the secret must still be configured, and be the same one.
    if runtime.secret is None:
        authorize(None, None)  # raises: changes are disabled
        return
    if not runtime.secret.same_as(secret_from_env(runtime.settings.serve.secret_env)):
        raise AuthError(ErrorCode.AUTH_INVALID, "the shared secret is no longer configured")


def _add_mutating_tools(
    server: MCPServer[Any], runtime: Runtime, metrics: ServeMetrics | None, translate: Any
) -> None:
    def ingest(
        collection: CollectionArg,
        inputs: Annotated[list[str], Field(description="Server-side paths or http(s) URLs.")],
        ctx: Context,
    ) -> m.IngestResponse:
        """Ingest paths on the server's machine, or http(s) URLs, into a collection."""
        _check(runtime, ctx)
        body = m.IngestRequest(collection=collection, inputs=inputs)
        order = ops.IngestOrder(body.collection, body.inputs)
        report = ops.ingest(runtime, order) if metrics is None else metrics.ingest(runtime, order)
        return m.IngestResponse.of(body.collection, report)

    def delete_document(
        collection: CollectionArg,
        document: Annotated[str, Field(description="A document id, source or external id.")],
        ctx: Context,
    ) -> m.DeletedResponse:
        """Delete one document from a collection."""
        _check(runtime, ctx)
        body = m.DeleteDocumentRequest(collection=collection, document=document)
        document_id = ops.delete_document(runtime, body.collection, body.document)
        return m.DeletedResponse(collection=body.collection, document_id=document_id)

    def delete_collection(collection: CollectionArg, ctx: Context) -> m.DeletedResponse:
        """Delete a whole collection and its files."""
        _check(runtime, ctx)
        ops.drop_collection(runtime, collection)
        return m.DeletedResponse(collection=collection)

    for fn in (ingest, delete_document, delete_collection):
        server.add_tool(translate(fn.__name__, fn), annotations=_WRITES)

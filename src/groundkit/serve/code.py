"""The code map over REST (``/v1/code/...``) and MCP (``code_*`` tools).

Evidence only: every operation reads a map made by ``grk map`` in the server's index dir, never
writes one, never calls a model and never reaches the network. ``code_edge`` re-reads the line an
edge cites from the mapped folder on the server's disk (a path leaving that folder is not read).
Both transports validate through the same request models and answer the same JSON the CLI's
``--json`` prints (``"schema": "groundkit.codemap/1"``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from mcp.server.mcpserver import Context
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from groundkit.serve.runtime import Runtime

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from groundkit.codemap.api import CodeMap

__all__ = ["CODE_TOOLS", "add_code_tools", "code_router"]

CODE_TOOLS = ("code_map", "code_trace", "code_blast", "code_diff", "code_edge")

MapName = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
]
Symbol = Annotated[str, StringConstraints(min_length=1, max_length=500)]
EdgeId = Annotated[str, StringConstraints(min_length=1, max_length=120, pattern=r"^[0-9a-z_.]+$")]
Revision = Annotated[
    str, StringConstraints(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_./~^@{}-]+$")
]
EdgeKind = Literal["imports", "calls", "inherits", "defines", "handles", "http_call"]
Depth = Annotated[int, Field(ge=1, le=100)]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CodeTraceRequest(_Request):
    map: MapName = Field(description="A map made by `grk map` in the server's index dir.")
    symbol: Symbol = Field(
        description="pkg.mod.func, path/to/file.py:name, a unique dotted ending, or a route"
        " (GET /items/{id})."
    )
    depth: Depth = 10
    kinds: list[EdgeKind] | None = Field(
        None, description="Edge kinds to follow [default: calls, imports, http_call, handles]."
    )


class CodeBlastRequest(_Request):
    map: MapName = Field(description="A map made by `grk map` in the server's index dir.")
    symbol: Symbol = Field(description="As for code_trace.")
    depth: Depth = 10


class CodeDiffRequest(_Request):
    """Two maps of the server's index dir compared."""

    before: MapName = Field(description="A map in the server's index dir.")
    after: MapName = Field(description="Another one.")


class CodeRevisionsDiffRequest(_Request):
    """Two git revisions of the repository a map was made from, read from git's objects."""

    map: MapName = Field(description="A map in the server's index dir (its folder is the repo).")
    revisions: list[Revision] = Field(min_length=2, max_length=2, description="Before, after.")


class CodeAnswer(BaseModel):
    """The versioned envelope; the rest is the answer of its ``kind`` (see docs/codemap.md)."""

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)

    schema_: str = Field(alias="schema", description="groundkit.codemap/1")
    kind: str = Field(description="overview, trace, blast, diff, edge or maps.")
    map: str | None = None


def _answer(kind: str, name: str | None, data: dict[str, Any]) -> CodeAnswer:
    from groundkit.codemap.api import envelope

    return CodeAnswer.model_validate({**envelope(kind, name), **data})


@contextmanager
def _opened(runtime: Runtime, name: str) -> Iterator[CodeMap]:
    from groundkit.codemap.api import open_codemap

    codemap = open_codemap(name, settings=runtime.settings)
    try:
        yield codemap
    finally:
        codemap.close()


def code_map(runtime: Runtime, name: str) -> CodeAnswer:
    with _opened(runtime, name) as codemap:
        return _answer("overview", name, codemap.overview().to_dict())


def code_maps(runtime: Runtime) -> CodeAnswer:
    from groundkit.codemap.api import list_codemaps

    return _answer("maps", None, {"maps": list_codemaps(runtime.settings.index_dir)})


def code_trace(runtime: Runtime, body: CodeTraceRequest) -> CodeAnswer:
    from groundkit.codemap.traverse import TRACE_KINDS

    with _opened(runtime, body.map) as codemap:
        found = codemap.trace(body.symbol, depth=body.depth, kinds=body.kinds or TRACE_KINDS)
        return _answer("trace", body.map, found.to_dict())


def code_blast(runtime: Runtime, body: CodeBlastRequest) -> CodeAnswer:
    with _opened(runtime, body.map) as codemap:
        return _answer("blast", body.map, codemap.blast(body.symbol, depth=body.depth).to_dict())


def code_diff(runtime: Runtime, body: CodeDiffRequest | CodeRevisionsDiffRequest) -> CodeAnswer:
    from groundkit.codemap.api import diff_map_files, diff_revisions, map_dir
    from groundkit.errors import ErrorCode, NotFoundError

    if isinstance(body, CodeDiffRequest):
        index_dir = runtime.settings.index_dir
        before, after = map_dir(index_dir, body.before), map_dir(index_dir, body.after)
        result = diff_map_files(before / "map.sqlite", after / "map.sqlite")
        return _answer("diff", None, result.to_dict())
    with _opened(runtime, body.map) as codemap:
        root = codemap.root
        if root is None:
            raise NotFoundError(ErrorCode.CODEMAP_NOT_FOUND, f"map {body.map!r} has no folder")
        result = diff_revisions(
            root, body.revisions[0], body.revisions[1], settings=runtime.settings, cache=codemap
        )
    return _answer("diff", body.map, result.to_dict())


def code_edge(runtime: Runtime, name: str, edge_id: str) -> CodeAnswer:
    with _opened(runtime, name) as codemap:
        edge = codemap.edge(edge_id)
        verification = codemap.verify([edge])[0]
    return _answer("edge", name, {**edge.to_dict(), "verification": verification})


# -- REST --------------------------------------------------------------------------------------


def _runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


PathMap = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
PathEdge = Annotated[str, Path(min_length=1, max_length=120, pattern=r"^[0-9a-z_.]+$")]


def code_router(responses: dict[int | str, dict[str, Any]]) -> APIRouter:
    router = APIRouter(prefix="/v1/code", tags=["code"], responses=responses)

    @router.get("/maps", response_model=CodeAnswer)
    def maps(request: Request) -> CodeAnswer:
        """The code maps in the server's index dir."""
        return code_maps(_runtime(request))

    @router.get("/maps/{name}", response_model=CodeAnswer)
    def overview(request: Request, name: PathMap) -> CodeAnswer:
        """A map's areas, boundaries, hubs, import cycles and entry points (code_map)."""
        return code_map(_runtime(request), name)

    @router.get("/maps/{name}/edges/{edge_id}", response_model=CodeAnswer)
    def edge(request: Request, name: PathMap, edge_id: PathEdge) -> CodeAnswer:
        """One edge's evidence, re-checked against the mapped folder (code_edge)."""
        return code_edge(_runtime(request), name, edge_id)

    @router.post("/trace", response_model=CodeAnswer)
    def trace(request: Request, body: CodeTraceRequest) -> CodeAnswer:
        """Outgoing paths from a symbol, each ending with why it stops (code_trace)."""
        return code_trace(_runtime(request), body)

    @router.post("/blast", response_model=CodeAnswer)
    def blast(request: Request, body: CodeBlastRequest) -> CodeAnswer:
        """What depends on a symbol: depth, via edge and path confidence (code_blast)."""
        return code_blast(_runtime(request), body)

    @router.post("/diff", response_model=CodeAnswer)
    def diff(request: Request, body: CodeDiffRequest | CodeRevisionsDiffRequest) -> CodeAnswer:
        """Added, removed and changed nodes and edges between two maps or two revisions."""
        return code_diff(_runtime(request), body)

    return router


# -- MCP ---------------------------------------------------------------------------------------


def add_code_tools(server: MCPServer[Any], runtime: Runtime, wrap: Any, annotations: Any) -> None:
    """Register the code_* tools; ``wrap(name, fn)`` gives them the errors and logs of the rest."""

    def code_map_tool(map: MapName, ctx: Context | None = None) -> CodeAnswer:
        """A code map's areas, boundaries, hubs, import cycles and entry points."""
        return code_map(runtime, map)

    def code_trace_tool(
        map: MapName,
        symbol: Symbol,
        depth: Depth = 10,
        kinds: list[EdgeKind] | None = None,
        ctx: Context | None = None,
    ) -> CodeAnswer:
        """Where a symbol leads: outgoing edges (each with its evidence line), depth first, each
        path ending with chain_end, max_depth, cycle or seen."""
        return code_trace(
            runtime, CodeTraceRequest(map=map, symbol=symbol, depth=depth, kinds=kinds)
        )

    def code_blast_tool(
        map: MapName, symbol: Symbol, depth: Depth = 10, ctx: Context | None = None
    ) -> CodeAnswer:
        """What depends on a symbol: each dependent once, with its depth, the edge it depends
        through (with evidence) and a path confidence."""
        return code_blast(runtime, CodeBlastRequest(map=map, symbol=symbol, depth=depth))

    def code_diff_tool(
        before: MapName,
        after: MapName | None = None,
        revisions: list[Revision] | None = None,
        ctx: Context | None = None,
    ) -> CodeAnswer:
        """The architecture change between two maps (``before``, ``after``), or between two git
        revisions of the repository the map ``before`` was made from (``revisions``): nodes and
        edges added, removed and changed."""
        from groundkit.errors import ErrorCode, UsageError

        if after is not None and revisions is None:
            return code_diff(runtime, CodeDiffRequest(before=before, after=after))
        if revisions is not None and after is None:
            return code_diff(runtime, CodeRevisionsDiffRequest(map=before, revisions=revisions))
        raise UsageError(ErrorCode.USAGE, "give either `after` (a map) or two `revisions`")

    def code_edge_tool(map: MapName, edge_id: EdgeId, ctx: Context | None = None) -> CodeAnswer:
        """One edge's evidence line, re-read from the mapped folder: verified, drifted or
        missing."""
        return code_edge(runtime, map, edge_id)

    tools = (code_map_tool, code_trace_tool, code_blast_tool, code_diff_tool, code_edge_tool)
    for name, fn in zip(CODE_TOOLS, tools, strict=True):
        server.add_tool(wrap(name, fn), name=name, annotations=annotations)

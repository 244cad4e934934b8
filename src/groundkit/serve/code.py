"""The code map over REST (``/v1/code/...``) and MCP (``code_*`` tools): adapters over the
operations of ``groundkit.ops.codemap``.

Evidence only: every operation reads a map made by ``grk map`` in the server's index dir, never
writes one, never calls a model and never reaches the network. ``code_edge`` re-reads the line an
edge cites from the mapped folder on the server's disk (a path leaving that folder is not read).
Both transports validate through the same request models and answer the same JSON the CLI's
``--json`` prints (``"schema": "groundkit.codemap/1"``).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Path
from mcp.server.mcpserver import Context
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from groundkit.codemap import model
from groundkit.codemap.filters import EdgeFilter
from groundkit.config import Settings
from groundkit.errors import ErrorCode, UsageError
from groundkit.ops import codemap as ops
from groundkit.serve.rest import ERROR_RESPONSES, Served
from groundkit.serve.runtime import Runtime

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["CODE_TOOLS", "add_code_tools", "router"]

CODE_TOOLS = ("code_map", "code_trace", "code_blast", "code_diff", "code_edge")

# A map's name as check_name takes it: no two dots in a row (a path could climb out with them).
_MAP_NAME = r"^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.?$"
MapName = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=_MAP_NAME)]
Symbol = Annotated[str, StringConstraints(min_length=1, max_length=500)]
EdgeId = Annotated[str, StringConstraints(min_length=1, max_length=120, pattern=r"^[0-9a-z_.]+$")]
Revision = Annotated[
    str, StringConstraints(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_./~^@{}-]+$")
]
if TYPE_CHECKING:
    EdgeKind = str
else:  # the one list of edge kinds: codemap.model.EdgeKind (a literal, for the schema's enum)
    EdgeKind = Literal[tuple(k.value for k in model.EdgeKind)]
Depth = Annotated[int, Field(ge=1, le=100)]
Glob = Annotated[str, StringConstraints(min_length=1, max_length=200)]
MinConfidence = Annotated[float, Field(ge=0.0, le=1.0)]
_MIN_CONFIDENCE = "Leave out edges whose confidence is below this (0 to 1)."
_CERTAIN = "Only certain edges: leave out partial ones (one of several run-time targets)."
_EXCLUDE = "Leave out edges to or from files matching these gitignore globs (e.g. tests/**)."


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Filtered(_Request):
    """The filter trace, blast and diff share (``codemap.filters.EdgeFilter``): what it hid is
    counted in the answer (``hidden``)."""

    min_confidence: MinConfidence | None = Field(None, description=_MIN_CONFIDENCE)
    certain: bool = Field(False, description=_CERTAIN)
    exclude: list[Glob] = Field(default_factory=list, max_length=50, description=_EXCLUDE)

    def edge_filter(self) -> EdgeFilter:
        return EdgeFilter.of(self.min_confidence, self.certain, self.exclude)


class CodeTraceRequest(_Filtered):
    map: MapName = Field(description="A map made by `grk map` in the server's index dir.")
    symbol: Symbol = Field(
        description="pkg.mod.func, path/to/file.py:name, a unique dotted ending, or a route"
        " (GET /items/{id})."
    )
    depth: Depth = 10
    kinds: list[EdgeKind] | None = Field(
        None,
        description="Edge kinds to follow [default: calls, imports, http_call, handles,"
        " reads, writes, maps_to].",
    )
    to: Symbol | None = Field(
        None,
        description="List the paths to this target instead (table:NAME, env:NAME or any"
        " symbol), shortest first, every hop with its evidence: the answer's kind is chains.",
    )


class CodeBlastRequest(_Filtered):
    map: MapName = Field(description="A map made by `grk map` in the server's index dir.")
    symbol: Symbol = Field(description="As for code_trace.")
    depth: Depth = 10


class _DiffRequest(_Filtered):
    moves: bool = Field(False, description="List the edges that only moved (else counted).")


class CodeDiffRequest(_DiffRequest):
    """Two maps of the server's index dir compared."""

    before: MapName = Field(description="A map in the server's index dir.")
    after: MapName = Field(description="Another one.")


class CodeRevisionsDiffRequest(_DiffRequest):
    """Two git revisions of the repository a map was made from, read from git's objects."""

    map: MapName = Field(description="A map in the server's index dir (its folder is the repo).")
    revisions: list[Revision] = Field(min_length=2, max_length=2, description="Before, after.")


class CodeAnswer(BaseModel):
    """The versioned envelope; the rest is the answer of its ``kind`` (see docs/codemap.md)."""

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)

    schema_: str = Field(alias="schema", description="groundkit.codemap/1")
    kind: str = Field(description="overview, trace, chains, blast, diff, edge or maps.")
    map: str | None = None


def _answer(kind: str, name: str | None, result: Any) -> CodeAnswer:
    return CodeAnswer.model_validate(ops.envelope(kind, name, result))


def code_map(settings: Settings, name: str) -> CodeAnswer:
    return _answer("overview", name, ops.overview(settings, name))


def code_maps(settings: Settings) -> CodeAnswer:
    return _answer("maps", None, ops.map_list(settings))


def code_trace(settings: Settings, body: CodeTraceRequest) -> CodeAnswer:
    if body.to is not None:
        paths = ops.chains(
            settings,
            body.map,
            body.symbol,
            body.to,
            depth=body.depth,
            kinds=body.kinds,
            edge_filter=body.edge_filter(),
        )
        return _answer("chains", body.map, paths)
    found = ops.trace(
        settings,
        body.map,
        body.symbol,
        depth=body.depth,
        kinds=body.kinds,
        edge_filter=body.edge_filter(),
    )
    return _answer("trace", body.map, found)


def code_blast(settings: Settings, body: CodeBlastRequest) -> CodeAnswer:
    found = ops.blast(
        settings, body.map, body.symbol, depth=body.depth, edge_filter=body.edge_filter()
    )
    return _answer("blast", body.map, found)


def code_diff(settings: Settings, body: CodeDiffRequest | CodeRevisionsDiffRequest) -> CodeAnswer:
    shown = body.edge_filter()
    if isinstance(body, CodeDiffRequest):
        found = ops.diff_maps(settings, body.before, body.after, edge_filter=shown)
        return _answer("diff", None, dataclasses.replace(found, list_moves=body.moves))
    revisions = (body.revisions[0], body.revisions[1])
    found = ops.diff_revisions_of(settings, revisions, map_name=body.map, edge_filter=shown)
    return _answer("diff", body.map, dataclasses.replace(found, list_moves=body.moves))


def code_edge(settings: Settings, name: str, edge_id: str) -> CodeAnswer:
    return _answer("edge", name, ops.edge(settings, name, edge_id))


# -- REST --------------------------------------------------------------------------------------

PathMap = Annotated[str, Path(min_length=1, max_length=64, pattern=_MAP_NAME)]
PathEdge = Annotated[str, Path(min_length=1, max_length=120, pattern=r"^[0-9a-z_.]+$")]

router = APIRouter(prefix="/v1/code", tags=["code"], responses=ERROR_RESPONSES)


@router.get("/maps", response_model=CodeAnswer)
def maps(runtime: Served) -> CodeAnswer:
    """The code maps in the server's index dir."""
    return code_maps(runtime.settings)


@router.get("/maps/{name}", response_model=CodeAnswer)
def overview(runtime: Served, name: PathMap) -> CodeAnswer:
    """A map's areas, boundaries, hubs, import cycles and entry points (code_map)."""
    return code_map(runtime.settings, name)


@router.get("/maps/{name}/edges/{edge_id}", response_model=CodeAnswer)
def edge(runtime: Served, name: PathMap, edge_id: PathEdge) -> CodeAnswer:
    """One edge's evidence, re-checked against the mapped folder (code_edge)."""
    return code_edge(runtime.settings, name, edge_id)


@router.post("/trace", response_model=CodeAnswer)
def trace(runtime: Served, body: CodeTraceRequest) -> CodeAnswer:
    """Outgoing paths from a symbol, each ending with why it stops; with ``to``, the paths
    from it to a table, env var or symbol, every hop cited (code_trace)."""
    return code_trace(runtime.settings, body)


@router.post("/blast", response_model=CodeAnswer)
def blast(runtime: Served, body: CodeBlastRequest) -> CodeAnswer:
    """What depends on a symbol: depth, via edge and path confidence (code_blast)."""
    return code_blast(runtime.settings, body)


@router.post("/diff", response_model=CodeAnswer)
def diff(runtime: Served, body: CodeDiffRequest | CodeRevisionsDiffRequest) -> CodeAnswer:
    """Added, removed and changed nodes and edges between two maps or two revisions."""
    return code_diff(runtime.settings, body)


# -- MCP ---------------------------------------------------------------------------------------


def add_code_tools(server: MCPServer[Any], runtime: Runtime, wrap: Any, annotations: Any) -> None:
    """Register the code_* tools; ``wrap(name, fn)`` gives them the errors and logs of the rest."""

    def code_map_tool(map: MapName, ctx: Context | None = None) -> CodeAnswer:
        """A code map's areas, boundaries, hubs, import cycles and entry points."""
        return code_map(runtime.settings, map)

    def code_trace_tool(
        map: MapName,
        symbol: Symbol,
        depth: Depth = 10,
        kinds: list[EdgeKind] | None = None,
        min_confidence: MinConfidence | None = None,
        certain: bool = False,
        exclude: list[Glob] | None = None,
        to: Symbol | None = None,
        ctx: Context | None = None,
    ) -> CodeAnswer:
        """Where a symbol leads: outgoing edges (each with its evidence line), depth first, each
        path ending with chain_end, max_depth, cycle or seen. With ``to`` (``table:user``,
        ``env:DATABASE_URL`` or a symbol): the paths from the symbol to it instead, shortest
        first, every hop with its evidence (kind ``chains``): what a button ends up touching.
        ``min_confidence``, ``certain`` and ``exclude`` (globs such as tests/**) leave edges
        out; ``hidden`` counts them."""
        body = CodeTraceRequest(
            map=map,
            symbol=symbol,
            depth=depth,
            kinds=kinds,
            to=to,
            min_confidence=min_confidence,
            certain=certain,
            exclude=exclude or [],
        )
        return code_trace(runtime.settings, body)

    def code_blast_tool(
        map: MapName,
        symbol: Symbol,
        depth: Depth = 10,
        min_confidence: MinConfidence | None = None,
        certain: bool = False,
        exclude: list[Glob] | None = None,
        ctx: Context | None = None,
    ) -> CodeAnswer:
        """What depends on a symbol: each dependent once, with its depth, the edge it depends
        through (with evidence) and a path confidence. Filters as for code_trace."""
        body = CodeBlastRequest(
            map=map,
            symbol=symbol,
            depth=depth,
            min_confidence=min_confidence,
            certain=certain,
            exclude=exclude or [],
        )
        return code_blast(runtime.settings, body)

    def code_diff_tool(
        before: MapName,
        after: MapName | None = None,
        revisions: list[Revision] | None = None,
        moves: bool = False,
        min_confidence: MinConfidence | None = None,
        certain: bool = False,
        exclude: list[Glob] | None = None,
        ctx: Context | None = None,
    ) -> CodeAnswer:
        """The architecture change between two maps (``before``, ``after``), or between two git
        revisions of the repository the map ``before`` was made from (``revisions``): code that
        moved (renamed or moved functions, calls moved between functions), edges added and
        removed by module, new import cycles, new edges between areas, routes, changed edges
        and nodes. Edges that only moved are counted (listed with ``moves``). Filters as for
        code_trace."""
        shown = {"min_confidence": min_confidence, "certain": certain, "exclude": exclude or []}
        if after is not None and revisions is None:
            request = CodeDiffRequest(before=before, after=after, moves=moves, **shown)
            return code_diff(runtime.settings, request)
        if revisions is not None and after is None:
            body = CodeRevisionsDiffRequest(map=before, revisions=revisions, moves=moves, **shown)
            return code_diff(runtime.settings, body)
        raise UsageError(ErrorCode.USAGE, "give either `after` (a map) or two `revisions`")

    def code_edge_tool(map: MapName, edge_id: EdgeId, ctx: Context | None = None) -> CodeAnswer:
        """One edge's evidence line, re-read from the mapped folder: verified, drifted or
        missing."""
        return code_edge(runtime.settings, map, edge_id)

    tools = (code_map_tool, code_trace_tool, code_blast_tool, code_diff_tool, code_edge_tool)
    for name, fn in zip(CODE_TOOLS, tools, strict=True):
        server.add_tool(wrap(name, fn), name=name, annotations=annotations)

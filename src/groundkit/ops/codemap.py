"""The operations on code maps: map a folder, and ask a map what it holds.

Each takes the settings (whose index dir holds the maps) and a map's name, opens the map for the
call and closes it. Results are the library's own (``Overview``, ``Trace``...); ``envelope``
gives each the versioned JSON every surface answers with (``"schema": "groundkit.codemap/1"``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from groundkit.codemap.api import (
    diff_map_files,
    diff_revisions,
    list_codemaps,
    map_dir,
    open_codemap,
    work_tree,
)
from groundkit.codemap.api import envelope as _envelope
from groundkit.codemap.build import MapReport, Progress
from groundkit.codemap.diff import MapDiff, filtered
from groundkit.codemap.export import Format, Level
from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.codemap.model import Edge, Node
from groundkit.codemap.overview import Overview
from groundkit.codemap.roots import default_name, map_of_folder, map_root
from groundkit.codemap.traverse import BLAST_KINDS, TRACE_KINDS, Blast, Trace
from groundkit.codemap.traverse import blast as blast_from
from groundkit.codemap.traverse import trace as trace_from
from groundkit.config import Settings
from groundkit.errors import ErrorCode, NotFoundError

__all__ = [
    "Around",
    "CheckedEdge",
    "Drawable",
    "Graph",
    "MapList",
    "MapSummary",
    "Traced",
    "around",
    "blast",
    "build",
    "default_name",
    "diff_maps",
    "diff_revisions_of",
    "drawable",
    "edge",
    "envelope",
    "export",
    "graph",
    "hidden_by",
    "map_list",
    "map_of_folder",
    "overview",
    "summary",
    "trace",
    "verify_edges",
]

_FILE = "map.sqlite"


class _Answer(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


def envelope(kind: str, name: str | None, result: _Answer) -> dict[str, Any]:
    """The JSON of ``result``, after the envelope every answer about a map starts with."""
    return {**_envelope(kind, name), **result.to_dict()}


@dataclass(frozen=True, slots=True)
class MapList:
    """The maps in the index dir, and the folder each was made from (None: never made from a
    folder). Over HTTP only the names: a server's folders are its own business."""

    names: list[str]
    roots: dict[str, Path | None]

    def to_dict(self) -> dict[str, Any]:
        return {"maps": self.names}

    def with_roots(self) -> dict[str, Any]:
        roots = {name: str(root) if root else None for name, root in self.roots.items()}
        return {**self.to_dict(), "roots": roots}


def map_list(settings: Settings) -> MapList:
    names = list_codemaps(settings.index_dir)
    return MapList(names, {name: map_root(settings.index_dir, name) for name in names})


def build(
    settings: Settings,
    folder: str | os.PathLike[str],
    name: str | None = None,
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    progress: Progress | None = None,
    replace: bool = False,
) -> tuple[str, MapReport]:
    """Map ``folder`` into the map ``name`` (default: see ``default_name``), parsing only what
    changed; returns the map's name and what the run did. A folder with no file to map makes
    no map (the report says ``nothing_to_map``). A map is of one folder: ``name`` taken by
    another folder's map raises ``codemap.name_taken`` unless ``replace``."""
    root = Path(os.path.abspath(folder))
    chosen = name or default_name(settings.index_dir, root)
    if chosen not in list_codemaps(settings.index_dir):
        listing = work_tree(root, settings, include, exclude).list()
        if not listing.files:
            return chosen, MapReport.nothing(listing.skipped, listing.passed_over)
    with open_codemap(chosen, settings=settings, create=True) as codemap:
        return chosen, codemap.update(
            root, include=include, exclude=exclude, progress=progress, replace=replace
        )


def overview(settings: Settings, name: str) -> Overview:
    """Areas, boundaries, hubs, import cycles and entry points."""
    with open_codemap(name, settings=settings) as codemap:
        return codemap.overview()


def export(settings: Settings, name: str, fmt: Format, level: Level) -> str:
    """The graph to draw (mermaid, dot or json), by module or by area."""
    with open_codemap(name, settings=settings) as codemap:
        return codemap.export(fmt, level)


@dataclass(frozen=True, slots=True)
class Traced:
    """A trace, and (when asked for) each step's edge re-checked against the files."""

    trace: Trace
    checks: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = self.trace.to_dict()
        for step, check in zip(data["steps"], self.checks or (), strict=False):
            step["edge"]["verification"] = check
        return data


def trace(
    settings: Settings,
    name: str,
    symbol: str,
    *,
    depth: int = 10,
    kinds: Sequence[str] | None = None,
    evidence: bool = False,
    edge_filter: EdgeFilter = NO_FILTER,
) -> Traced:
    """Where ``symbol`` leads; with ``evidence``, each edge's line re-read from the files."""
    with open_codemap(name, settings=settings) as codemap:
        found = codemap.trace(
            symbol, depth=depth, kinds=kinds or TRACE_KINDS, edge_filter=edge_filter
        )
        checks = codemap.verify([s.edge for s in found.steps]) if evidence else None
        return Traced(found, checks)


def blast(
    settings: Settings,
    name: str,
    symbol: str,
    *,
    depth: int = 10,
    kinds: Sequence[str] = BLAST_KINDS,
    edge_filter: EdgeFilter = NO_FILTER,
) -> Blast:
    """What depends on ``symbol``: each dependent once, with its depth and confidence."""
    with open_codemap(name, settings=settings) as codemap:
        return codemap.blast(symbol, depth=depth, kinds=kinds, edge_filter=edge_filter)


def hidden_by(
    settings: Settings,
    name: str,
    symbol: str,
    edge_filter: EdgeFilter,
    *,
    scope: str = "both",
    depth: int = 2,
) -> int:
    """How many edges ``edge_filter`` leaves out of the walks ``grk ask`` makes (its trace,
    its blast or both, to ``depth``)."""
    with open_codemap(name, settings=settings) as codemap:
        hidden = 0
        if scope in ("trace", "both"):
            hidden += codemap.trace(symbol, depth=depth, edge_filter=edge_filter).hidden
        if scope in ("blast", "both"):
            hidden += codemap.blast(symbol, depth=depth, edge_filter=edge_filter).hidden
        return hidden


@dataclass(frozen=True, slots=True)
class CheckedEdge:
    """One edge, and its evidence line re-read from the mapped folder."""

    edge: Edge
    verification: str

    def to_dict(self) -> dict[str, Any]:
        return {**self.edge.to_dict(), "verification": self.verification}


def edge(settings: Settings, name: str, edge_id: str) -> CheckedEdge:
    with open_codemap(name, settings=settings) as codemap:
        found = codemap.edge(edge_id)
        return CheckedEdge(found, codemap.verify([found])[0])


@dataclass(frozen=True, slots=True)
class MapSummary:
    """What a map holds, in numbers, and where it lives (its opt-in for AI is keyed by it)."""

    name: str
    folder: Path
    files: int
    nodes: int
    edges: int
    unresolved_calls: int
    size_bytes: int


def summary(settings: Settings, name: str) -> MapSummary:
    with open_codemap(name, settings=settings) as codemap:
        counts = codemap.counts()
        folder = codemap.folder
    return MapSummary(
        name,
        folder,
        counts["files"],
        sum(counts["nodes"].values()),
        sum(counts["edges"].values()),
        counts["unresolved_calls"],
        os.path.getsize(folder / _FILE),
    )


@dataclass(frozen=True, slots=True)
class Graph:
    """Every node and edge of a map, for drawing it."""

    nodes: list[Node]
    edges: list[Edge]


def graph(settings: Settings, name: str) -> Graph:
    with open_codemap(name, settings=settings) as codemap:
        return Graph(codemap.nodes(), codemap.edges())


@dataclass(frozen=True, slots=True)
class Drawable:
    """Every node of a map, and each edge as (kind, source id, target id, confidence, flags):
    what a drawing counts, read without the edges' evidence."""

    nodes: list[Node]
    edges: list[tuple[str, str, str, float, str]]


def drawable(settings: Settings, name: str) -> Drawable:
    with open_codemap(name, settings=settings) as codemap:
        return Drawable(codemap.nodes(), codemap.store.edge_ends())


def verify_edges(settings: Settings, name: str, edges: Sequence[Edge]) -> list[str]:
    """Each edge's evidence line re-read from the mapped folder: verified, drifted, missing."""
    with open_codemap(name, settings=settings) as codemap:
        return codemap.verify(edges)


@dataclass(frozen=True, slots=True)
class Around:
    """A node, where it leads (its trace) and what depends on it (its blast)."""

    node: Node
    trace: Trace
    blast: Blast


def around(
    settings: Settings,
    name: str,
    node_id: str,
    *,
    depth: int,
    edge_filter: EdgeFilter = NO_FILTER,
) -> Around | None:
    """The node ``node_id`` with its trace and blast to ``depth``; None when it is not there
    (the map changed since its id was read)."""
    with open_codemap(name, settings=settings) as codemap:
        node = codemap.store.node(node_id)
        if node is None:
            return None
        found = trace_from(codemap.store, node, depth=depth, edge_filter=edge_filter)
        return Around(
            node, found, blast_from(codemap.store, node, depth=depth, edge_filter=edge_filter)
        )


def diff_maps(
    settings: Settings,
    before: str | Path,
    after: str | Path,
    *,
    edge_filter: EdgeFilter = NO_FILTER,
) -> MapDiff:
    """Two maps compared: by name in the index dir, or (``Path``) two saved map files."""
    paths = [
        side if isinstance(side, Path) else map_dir(settings.index_dir, side) / _FILE
        for side in (before, after)
    ]
    return filtered(diff_map_files(paths[0], paths[1]), edge_filter)


def diff_revisions_of(
    settings: Settings,
    revisions: tuple[str, str],
    *,
    repo: str | os.PathLike[str] | None = None,
    map_name: str | None = None,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    edge_filter: EdgeFilter = NO_FILTER,
) -> MapDiff:
    """Two git revisions compared, read from git's objects (the work tree is never touched):
    of ``repo``, or of the folder the map ``map_name`` was made from. A map of the repository
    (``map_name``, else the map made from the folder) lends the facts of files that did not
    change. ``exclude`` leaves files out of both maps; ``edge_filter`` leaves edges out of the
    answer (counted)."""
    cache_name = map_name
    if repo is None:
        if map_name is None:
            raise ValueError("diff_revisions_of needs a repo or a map")
        with open_codemap(map_name, settings=settings) as codemap:
            if codemap.root is None:
                raise NotFoundError(ErrorCode.CODEMAP_NOT_FOUND, f"map {map_name!r} has no folder")
            folder = codemap.root
    else:
        folder = Path(os.path.abspath(repo))
        if cache_name is None:
            cache_name = map_of_folder(settings.index_dir, folder)
    cache = open_codemap(cache_name, settings=settings) if cache_name is not None else None
    try:
        found = diff_revisions(
            folder,
            revisions[0],
            revisions[1],
            include=include,
            exclude=exclude,
            settings=settings,
            cache=cache,
        )
        return filtered(found, edge_filter)
    finally:
        if cache is not None:
            cache.close()

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
    map_root,
    name_taken,
    open_codemap,
    same_folder,
    work_tree,
)
from groundkit.codemap.api import envelope as _envelope
from groundkit.codemap.build import MapReport, Progress
from groundkit.codemap.diff import MapDiff, filtered
from groundkit.codemap.export import Format, Level
from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.codemap.model import Edge, Node
from groundkit.codemap.naming import project_name, safe_name
from groundkit.codemap.overview import Overview
from groundkit.codemap.traverse import BLAST_KINDS, TRACE_KINDS, Blast, Trace
from groundkit.codemap.traverse import blast as blast_from
from groundkit.codemap.traverse import trace as trace_from
from groundkit.config import Settings
from groundkit.errors import ErrorCode, NotFoundError

__all__ = [
    "Around",
    "CheckedEdge",
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
    "edge",
    "envelope",
    "export",
    "graph",
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
    """The maps in the index dir."""

    names: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"maps": self.names}


def map_list(settings: Settings) -> MapList:
    return MapList(list_codemaps(settings.index_dir))


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
    chosen = name or default_name(settings, root)
    if chosen not in list_codemaps(settings.index_dir):
        listing = work_tree(root, settings, include, exclude).list()
        if not listing.files:
            return chosen, MapReport.nothing(listing.skipped, listing.passed_over)
    with open_codemap(chosen, settings=settings, create=True) as codemap:
        return chosen, codemap.update(
            root, include=include, exclude=exclude, progress=progress, replace=replace
        )


_PARENTS = 3  # folders above a project's that a default name may take in


def default_name(settings: Settings, root: Path) -> str:
    """The project's name (``project_name``); when a map of another folder holds it, the name
    with the folders above put in front (``req-docs`` beside ``star-docs``), so that two
    projects of one name never write over each other. Raises ``codemap.name_taken`` when
    even those are held."""
    base = project_name(root)
    candidates = [base]
    for above in root.parents[:_PARENTS]:
        if above.name:
            candidates.append(f"{safe_name(above.name)}-{candidates[-1]}"[:64].strip("-._"))
    for candidate in candidates:
        held = map_root(settings.index_dir, candidate)
        if held is None or same_folder(held, root):
            return candidate
    held = map_root(settings.index_dir, base)
    assert held is not None
    raise name_taken(base, held, root)


def map_of_folder(settings: Settings, folder: Path) -> str | None:
    """The map made from ``folder`` or from the nearest folder above it, if any."""
    best: tuple[int, str] | None = None
    for name in list_codemaps(settings.index_dir):
        root = map_root(settings.index_dir, name)
        if root is None:
            continue
        if same_folder(root, folder) or folder.resolve().is_relative_to(root.resolve()):
            depth = len(root.resolve().parts)
            if best is None or depth > best[0]:
                best = (depth, name)
    return best[1] if best else None


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
            cache_name = map_of_folder(settings, folder)
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

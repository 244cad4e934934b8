"""The code map's library face: ``open_codemap(name)`` and what a map answers.

A map is a folder under the index dir, ``<index_dir>/_maps/<name>/``: ``map.sqlite`` (the map)
and ``write.lock`` (held by the one process updating it). The leading underscore keeps it apart
from collections, whose names cannot start with one.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from groundkit.codemap.build import MapReport, Progress, build_map
from groundkit.codemap.chains import Chains, chains
from groundkit.codemap.diff import MapDiff, diff_stores
from groundkit.codemap.evidence import check_edge
from groundkit.codemap.export import Format, Level, render
from groundkit.codemap.extract import extractors
from groundkit.codemap.extract.base import Extractor
from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.codemap.model import Edge, EdgeKind, Node
from groundkit.codemap.overview import Overview, entry_scripts, overview
from groundkit.codemap.relisting import ListingMemo
from groundkit.codemap.roots import (
    check_name,
    list_codemaps,
    map_dir,
    map_root,
    name_taken,
    same_folder,
)
from groundkit.codemap.sources import GitRevision, Selection, WorkTree
from groundkit.codemap.store import MapStore
from groundkit.codemap.symbols import find_symbol
from groundkit.codemap.traverse import BLAST_KINDS, TRACE_KINDS, Blast, Trace, blast, trace
from groundkit.config import Settings
from groundkit.errors import ErrorCode, NotFoundError, UsageError
from groundkit.storage.folders import make_folder
from groundkit.storage.locks import write_lock
from groundkit.types import Verification

__all__ = [
    "SCHEMA",
    "CodeMap",
    "check_name",
    "default_extractors",
    "diff_map_files",
    "diff_revisions",
    "envelope",
    "list_codemaps",
    "map_dir",
    "map_root",
    "name_taken",
    "open_codemap",
    "same_folder",
]

SCHEMA = "groundkit.codemap/1"

_FILE = "map.sqlite"


def default_extractors() -> list[Extractor]:
    """Every language the map reads (``extract.LANGUAGES``): Python always; the others when
    their extractor is present."""
    return extractors()


def open_codemap(
    name: str,
    *,
    index_dir: str | os.PathLike[str] | None = None,
    settings: Settings | None = None,
    create: bool = False,
) -> CodeMap:
    """Open the map called ``name`` (with ``create``, an empty one when there is none)."""
    settings = settings or Settings()
    folder = map_dir(index_dir if index_dir is not None else settings.index_dir, name)
    if not (folder / _FILE).is_file():
        if not create:
            raise NotFoundError(
                ErrorCode.CODEMAP_NOT_FOUND,
                f"no code map named {name!r}",
                hint="map a repository first: grk map PATH",
            )
        make_folder(folder, "code map")
    return CodeMap(name, folder, settings)


class CodeMap:
    """One mapped repository: update it, and ask it questions."""

    def __init__(self, name: str, folder: Path, settings: Settings) -> None:
        self.name = name
        self.folder = folder
        self.settings = settings
        self.store = MapStore(folder / _FILE)
        self._listings = ListingMemo()  # the last listing, for the next update (``relisting``)
        # What trace and blast leave out when they are not told (``grk ask --certain`` sets it
        # once for every walk the answer makes).
        self.edge_filter = NO_FILTER

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> CodeMap:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def root(self) -> Path | None:
        """The folder the map was made from, when it was made from one."""
        root = self.store.manifest().get("root")
        return Path(root) if root else None

    def update(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        progress: Progress | None = None,
        extractors: Sequence[Extractor] | None = None,
        workers: int | None = None,
        replace: bool = False,
    ) -> MapReport:
        """Map ``root`` (default: the folder mapped last time), parsing only what changed.

        A map is of one folder: ``root`` elsewhere than the folder it was made from raises
        ``codemap.name_taken``, unless ``replace`` (then the map becomes ``root``'s)."""
        folder = Path(root) if root is not None else self.root
        if folder is None:
            raise UsageError(ErrorCode.USAGE, f"map {self.name!r} has no folder yet: give PATH")
        previous = self.root
        moved = previous is not None and not same_folder(previous, folder)
        if moved and not replace:
            assert previous is not None
            raise name_taken(self.name, previous, folder)
        chosen = list(extractors) if extractors is not None else default_extractors()
        # (extractors given by the caller may claim other files: listed afresh)
        memo = self._listings if extractors is None else None
        source = work_tree(folder, self.settings, include, exclude, chosen, memo)
        with write_lock(self.folder, what="code map"):  # a second writer fails at once
            if moved:
                # Another folder's files may share a path, a size and a modification time
                # (two checkouts): read each again rather than trust those.
                self.store.forget_stamps()
            report = build_map(
                self.store,
                source,
                chosen,
                max_file_bytes=self.settings.codemap.max_file_bytes,
                parse_seconds=self.settings.codemap.parse_seconds,
                progress=progress,
                workers=workers,
            )
            with self.store.transaction():
                self.store.set_manifest("root", str(source.root))
                self.store.set_manifest("scripts", json.dumps(entry_scripts(source.root)))
        return report

    # -- reads ------------------------------------------------------------------------------------
    def nodes(self) -> list[Node]:
        return self.store.nodes()

    def edges(self, kinds: Sequence[str] | None = None) -> list[Edge]:
        return self.store.edges(kinds)

    def counts(self) -> dict[str, Any]:
        return self.store.counts()

    # -- questions --------------------------------------------------------------------------------
    def find(self, symbol: str) -> Node:
        """The one node ``symbol`` names; ``SymbolNotFound`` / ``SymbolAmbiguous`` otherwise."""
        return find_symbol(self.store, symbol)

    def trace(
        self,
        symbol: str,
        *,
        depth: int = 10,
        kinds: Sequence[str] = TRACE_KINDS,
        edge_filter: EdgeFilter | None = None,
    ) -> Trace:
        _check_depth(depth)
        node = self.find(symbol)
        shown = self.edge_filter if edge_filter is None else edge_filter
        return trace(self.store, node, depth=depth, kinds=_kinds(kinds), edge_filter=shown)

    def chains(
        self,
        symbol: str,
        to: str,
        *,
        depth: int = 10,
        kinds: Sequence[str] = TRACE_KINDS,
        edge_filter: EdgeFilter | None = None,
        limit: int = 20,
    ) -> Chains:
        """The paths from ``symbol`` to ``to`` (``table:user``, ``env:DATABASE_URL``, any
        symbol), shortest first, each hop with its evidence."""
        _check_depth(depth)
        start, goal = self.find(symbol), self.find(to)
        shown = self.edge_filter if edge_filter is None else edge_filter
        return chains(
            self.store,
            start,
            goal,
            depth=depth,
            kinds=_kinds(kinds),
            edge_filter=shown,
            limit=limit,
        )

    def blast(
        self,
        symbol: str,
        *,
        depth: int = 10,
        kinds: Sequence[str] = BLAST_KINDS,
        edge_filter: EdgeFilter | None = None,
    ) -> Blast:
        _check_depth(depth)
        node = self.find(symbol)
        shown = self.edge_filter if edge_filter is None else edge_filter
        return blast(self.store, node, depth=depth, kinds=_kinds(kinds), edge_filter=shown)

    def overview(self) -> Overview:
        scripts = json.loads(self.store.manifest().get("scripts", "[]"))
        for script in scripts:
            module, _, attr = script["target"].partition(":")
            name = f"{module}.{attr}" if attr else module
            found = self.store.nodes_named(name)
            script["node"] = found[0].key.id if len(found) == 1 else None
        shape = overview(self.store, scripts)
        shape.data["passed_over"] = [{"path": p, "reason": r} for p, r in self.store.passed_over()]
        shape.data["read_for_data"] = [
            {"path": p, "reason": r} for p, r in self.store.read_for_data()
        ]
        shape.data["generated"] = [
            {"path": p, "reason": r} for p, r in self.store.generated_files()
        ]
        return shape

    def export(self, fmt: Format, level: Level) -> str:
        return render(self.store, fmt, level, envelope("export", self.name))

    def edge(self, edge_id: str) -> Edge:
        """One edge by its id (``<source id>.<kind>.<target id>``) or its short id (each end
        cut to a prefix, as text output shows it)."""
        parts = edge_id.strip().lower().split(".")
        found = None
        if len(parts) == 3 and parts[1] in {str(k) for k in EdgeKind}:
            source, kind, target = parts
            found = self.store.edge(source, kind, target)
            if found is None and _hex(source) and _hex(target):
                matches = self.store.edges_by_prefix(source, kind, target, limit=5)
                if len(matches) > 1:
                    raise NotFoundError(
                        ErrorCode.CODEMAP_EDGE_NOT_FOUND,
                        f"{edge_id!r} names {len(matches)} or more edges in map {self.name!r}",
                        hint="give the whole id: " + ", ".join(e.id for e in matches[:3]),
                    )
                found = matches[0] if matches else None
        if found is None:
            raise NotFoundError(
                ErrorCode.CODEMAP_EDGE_NOT_FOUND,
                f"no edge {edge_id!r} in map {self.name!r}",
                hint="edge ids come from trace, blast and map show --json",
            )
        return found

    def verify(self, edges: Sequence[Edge]) -> list[str]:
        """Each edge's evidence re-read from the working tree (see ``evidence.check_edge``)."""
        root = self.root
        if root is None:
            return [str(Verification.NOT_CHECKED)] * len(edges)
        cache: dict[str, list[str] | None] = {}
        return [check_edge(root, e, cache) for e in edges]


def _hex(prefix: str) -> bool:
    return len(prefix) > 0 and all(c in "0123456789abcdef" for c in prefix)


def work_tree(
    folder: Path,
    settings: Settings,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    chosen: Sequence[Extractor] | None = None,
    memo: ListingMemo | None = None,
) -> WorkTree:
    """The files of ``folder`` a map reads: those an extractor claims, as selected, outside
    vendored folders and the index dir. ``memo``: the last listing of the same map."""
    if not folder.is_dir():
        raise UsageError(ErrorCode.USAGE, f"{folder.name or str(folder)!r} is not a folder to map")
    claims = list(chosen) if chosen is not None else default_extractors()
    selection = Selection(include, exclude, lambda p: any(e.claims(p) for e in claims))
    return WorkTree(
        folder,
        selection,
        exclude_dirs=[str(Path(settings.index_dir))],
        limit=settings.codemap.max_file_bytes,
        memo=memo,
        memo_key=(tuple(include), tuple(exclude), tuple(type(e) for e in claims)),
    )


def envelope(kind: str, name: str | None) -> dict[str, Any]:
    """What every JSON answer about a map starts with."""
    return {"schema": SCHEMA, "kind": kind, "map": name}


def _check_depth(depth: int) -> None:
    if not 1 <= depth <= 100:
        raise UsageError(ErrorCode.USAGE, "depth must be between 1 and 100")


def _kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    known = {str(k) for k in EdgeKind}
    wrong = [k for k in kinds if k not in known]
    if wrong:
        raise UsageError(
            ErrorCode.USAGE,
            f"unknown edge kind {wrong[0]!r}",
            hint="known: " + ", ".join(sorted(known)),
        )
    return tuple(kinds)


def diff_map_files(before: Path, after: Path) -> MapDiff:
    """Two saved map files compared (each opened read-only in effect: nothing is written)."""
    for path in (before, after):
        if not path.is_file():
            raise NotFoundError(ErrorCode.CODEMAP_NOT_FOUND, f"no map file {path.name!r}")
    a, b = MapStore(before), MapStore(after)
    try:
        return diff_stores(a, b)
    finally:
        a.close()
        b.close()


def diff_revisions(
    repo: str | os.PathLike[str],
    rev_a: str,
    rev_b: str,
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    settings: Settings | None = None,
    cache: CodeMap | None = None,
    extractors: Sequence[Extractor] | None = None,
) -> MapDiff:
    """The maps of two revisions, built from git's objects (the work tree is never touched),
    compared. Files with the same content as in ``cache`` (a map of this repository) or in the
    first revision are not parsed again."""
    settings = settings or Settings()
    chosen = list(extractors) if extractors is not None else default_extractors()
    selection = Selection(include, exclude, lambda p: any(e.claims(p) for e in chosen))
    root = Path(repo)
    sources = [GitRevision(root, rev, selection) for rev in (rev_a, rev_b)]
    with tempfile.TemporaryDirectory(prefix="grk-diff-") as tmp:
        stores = [MapStore(Path(tmp) / f"{i}.sqlite") for i in range(2)]
        try:
            previous = cache.store if cache is not None else None
            for store, source in zip(stores, sources, strict=True):
                build_map(
                    store,
                    source,
                    chosen,
                    max_file_bytes=settings.codemap.max_file_bytes,
                    parse_seconds=settings.codemap.parse_seconds,
                    cache=previous,
                )
                previous = store
            return diff_stores(stores[0], stores[1])
        finally:
            for store in stores:
                store.close()

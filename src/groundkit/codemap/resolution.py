"""Resolving a mapping run's files where a change can reach them: per file for a language whose
files consult one another's interfaces (TypeScript), the whole program for one whose values flow
between any of its files (Python), or only relocated when nothing but places changed."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, MutableMapping, Sequence
from typing import Any

import msgspec

from groundkit.codemap import parsing
from groundkit.codemap.extract.base import (
    Extractor,
    FileFacts,
    FileGraph,
    PerFileResolver,
    Previous,
    ProgramResolver,
    Unparsable,
)
from groundkit.codemap.lines import decode
from groundkit.codemap.parsing import Parsed, Progress, Run, digest
from groundkit.codemap.sources import Source
from groundkit.codemap.store import FileState, MapStore, edge_row

__all__ = ["MapProject", "resolve_languages", "unchanged"]


class MapProject:
    """``base.Project`` over one mapping run: fresh facts, or those stored for unchanged files."""

    def __init__(
        self,
        extractor: Extractor,
        paths: list[str],
        fresh: dict[str, Parsed],
        store: MapStore,
        source: Source,
    ) -> None:
        self._extractor = extractor
        self._paths = paths
        self._fresh = fresh
        self._store = store
        self._source = source
        self._stored: dict[str, tuple[bytes, bytes]] | None = None
        self._decoded: dict[str, tuple[bytes, bytes, FileFacts]] | None = None

    def keep_decoded(self) -> None:
        """Keep every file's decoded facts in the map's memory for the next run (a language
        solved as one program reads every file's facts on each edit: django, 0.12 s of CPU to
        decode them again). A kept file's facts are used only while its stored bytes are the
        same, so another process writing the map in between costs a decode, never a stale
        read."""
        kept = self._store.memory.setdefault(f"{self._extractor.language}:decoded", {})
        assert isinstance(kept, dict)
        wanted = set(self._paths)
        for path in [p for p in kept if p not in wanted]:
            del kept[path]  # (a file gone from the map)
        self._decoded = kept

    def paths(self) -> Sequence[str]:
        return self._paths

    def reopen(self) -> None:
        """In a forked worker: a connection of its own (SQLite's may not cross a fork)."""
        self._store = MapStore(self._store.path)

    def previous(self, path: str) -> Previous:
        facts = self._extractor.decode(*self._store.raw_facts(path))
        nodes, edges, unresolved, web = self._store.resolution(path)
        return Previous(facts, nodes, edges, unresolved, web)

    def facts(self, path: str) -> FileFacts:
        parsed = self._fresh.get(path)
        if parsed is not None:
            if parsed.facts is None:
                parsed.facts = self._extractor.decode(parsed.interface, parsed.body)
            if self._decoded is not None:  # (without its syntax tree: that is not kept)
                kept = FileFacts(parsed.facts.interface, parsed.facts.body)
                self._decoded[path] = (parsed.interface, parsed.body, kept)
            return parsed.facts
        if self._stored is None:  # one query for every file not read again, not one each
            self._stored = self._store.raw_facts_of(
                [p for p in self._paths if p not in self._fresh]
            )
        interface, body = self._stored.get(path) or self._store.raw_facts(path)
        if self._decoded is None:
            return self._extractor.decode(interface, body)
        known = self._decoded.get(path)
        if known is not None and known[0] == interface and known[1] == body:
            return known[2]
        decoded = self._extractor.decode(interface, body)
        self._decoded[path] = (interface, body, decoded)
        return decoded

    def top_name(self) -> str:
        return self._source.top_name()

    def solver_state(self, name: str) -> bytes | None:
        return self._store.solver_state(f"{self._extractor.language}:{name}")

    def memory(self) -> MutableMapping[str, object]:
        return self._store.memory

    def keep_solver_state(self, parts: Iterable[tuple[str, bytes]], *, replace: bool) -> None:
        prefix = f"{self._extractor.language}:"
        named = ((prefix + name, data) for name, data in parts)
        self._store.put_solver_state(named, drop_prefix=prefix if replace else None)

    def read_text(self, path: str) -> str | None:
        if path.startswith("/") or ".." in path.split("/"):
            return None
        for _, data in self._source.read([path]):
            if isinstance(data, bytes):
                try:
                    return decode(data)
                except Unparsable:
                    return None
        return None


def resolve_languages(
    store: MapStore,
    source: Source,
    extractors: Sequence[Extractor],
    present: set[str],
    removed: list[str],
    run: Run,
    old: dict[str, FileState],
    progress: Progress | None,
    workers: int | None,
) -> dict[str, tuple[FileGraph, frozenset[str]]]:
    """Each language's files resolved again where a change can reach them."""
    graphs: dict[str, tuple[FileGraph, frozenset[str]]] = {}
    for extractor in extractors:
        language_paths = sorted(
            p
            for p in present
            if (run.fresh[p].language if p in run.fresh else old[p].language) == extractor.language
        )
        if not language_paths and not any(old[p].language == extractor.language for p in removed):
            continue
        project = MapProject(extractor, language_paths, run.fresh, store, source)
        resolver = extractor.resolver(project)
        if resolver.reach == "program":
            project.keep_decoded()
        keys = {p: resolver.keys(p) for p in language_paths}
        if resolver.reach == "program":
            for path, graph in _resolve_whole(
                resolver,
                extractor.language,
                language_paths,
                run.fresh,
                old,
                keys,
                removed,
                progress,
                run.solves,
            ).items():
                graphs[path] = (graph, keys[path])
            continue
        todo = _to_resolve(store, old, run.fresh, keys, removed, extractor.language)
        for path, graph in _resolve(extractor, project, resolver, todo, progress, workers):
            graphs[path] = (graph, keys[path])

    return graphs


def _resolve_whole(
    resolver: ProgramResolver,
    language: str,
    paths: list[str],
    fresh: dict[str, Parsed],
    old: dict[str, FileState],
    keys: dict[str, frozenset[str]],
    removed: list[str],
    progress: Progress | None,
    solves: list[str],
) -> dict[str, FileGraph]:
    """A language whose values flow between any of its files: when a file's program changed
    (its interface digest), or a file came or went, every file is resolved again; when only
    places changed, the files that moved are relocated."""
    changed = [p for p in paths if p in fresh]
    gone = [p for p in removed if old[p].language == language]
    if not changed and not gone:
        return {}
    program_changed = bool(gone) or any(
        p not in old
        or old[p].interface_digest != fresh[p].interface_digest
        or old[p].keys != keys[p]
        for p in changed
    )
    if not program_changed:
        moved = resolver.relocate(changed)
        if moved is not None:
            return moved
    if not gone and all(p in old for p in changed):
        continued = resolver.continue_edit(changed)
        solves.append(f"{language}: {resolver.solved}")
        if continued is not None:
            return continued
    if progress:
        progress("resolving", 0, len(paths))
    graphs = resolver.resolve_all(paths)
    solves.append(f"{language}: whole program")
    return graphs


def unchanged(
    graphs: dict[str, tuple[FileGraph, frozenset[str]]],
    webs: dict[str, str],
    old: dict[str, FileState],
) -> dict[str, str]:
    """Each resolution's digest; those that came out as stored are dropped from ``graphs``
    and ``webs``: nothing to write."""
    digests = {
        path: _graph_digest(graph, keys, webs[path]) for path, (graph, keys) in graphs.items()
    }
    for path in [p for p in graphs if p in old and old[p].resolution == digests[p]]:
        del graphs[path]
        del webs[path]
    return digests


def _graph_digest(graph: FileGraph, keys: frozenset[str], web: str) -> str:
    """What a file's resolution stores, as one digest: equal digests, nothing to write."""
    nodes = sorted(
        (str(n.key.kind), n.key.qualname, n.key.path, n.language, n.line, n.end_line)
        for n in graph.nodes
    )
    edges = sorted(edge_row(e) for e in graph.edges)
    # msgpack, not JSON: the same rows in a fifteenth of the time (a map digests every row it
    # writes). A map written before digests differently: its files are written once again.
    whole = [nodes, edges, graph.unresolved, web, sorted(keys), sorted(graph.depends_on)]
    return digest(_PACKER.encode(whole))


_PACKER = msgspec.msgpack.Encoder()

# What a forked resolving worker inherits (set just before the pool forks it).
_FORKED: dict[str, Any] = {}


def _resolve(
    extractor: Extractor,
    project: MapProject,
    resolver: PerFileResolver,
    todo: list[str],
    progress: Progress | None,
    workers: int | None,
) -> list[tuple[str, FileGraph]]:
    """Resolve ``todo``: in this process, or split over forked workers for a large run (each
    with its own resolver, reading the stored facts through its own connection)."""
    count = workers if workers is not None else min(2, os.cpu_count() or 1)
    if count < 2 or len(todo) < parsing.PARALLEL_FROM or threading.active_count() > 1:
        out = []
        for done, path in enumerate(todo, start=1):
            out.append((path, resolver.resolve(path)))
            if progress and done % 25 == 0:
                progress("resolving", done, len(todo))
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _FORKED.update(extractor=extractor, project=project)
    shares = [todo[i::count] for i in range(count)]
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
            results = list(pool.map(_resolve_share, shares))
    finally:
        _FORKED.clear()
    if progress:
        progress("resolving", len(todo), len(todo))
    return sorted((item for share in results for item in share), key=lambda r: r[0])


def _resolve_share(paths: list[str]) -> list[tuple[str, FileGraph]]:
    project: MapProject = _FORKED["project"]
    project.reopen()
    resolver = _FORKED["extractor"].resolver(project)
    assert resolver.reach == "file"  # only per-file languages are split over workers
    return [(path, resolver.resolve(path)) for path in paths]


def _to_resolve(
    store: MapStore,
    old: dict[str, FileState],
    fresh: dict[str, Parsed],
    keys: dict[str, frozenset[str]],
    removed: list[str],
    language: str,
) -> list[str]:
    changed = {p for p in keys if p in fresh}
    renamed = {p for p in keys if p in old and old[p].keys != keys[p]}
    new_interface = {
        p for p in changed if p not in old or old[p].interface_digest != fresh[p].interface_digest
    }
    dirty: set[str] = set()
    for path in new_interface | renamed:
        dirty |= keys[path] | (old[path].keys if path in old else frozenset())
    for path in removed:
        if old[path].language == language:
            dirty |= old[path].keys
    dependents = {p for p in store.dependents(dirty) if p in keys}
    return sorted(changed | renamed | dependents)

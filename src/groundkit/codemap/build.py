"""One mapping run: list -> hash -> parse what changed -> resolve what it can reach -> one commit.

Only files whose content hash (or extractor version) changed are parsed. A changed file is
resolved again; so is every file that consulted a key (a module name) whose provider changed its
interface, appeared, disappeared or was renamed. Edges into a file whose interface did not change
stay as they are: they point at nodes that still exist. Routes and HTTP calls are composed and
matched over the whole map each run (they are few).

Every write of the run is in one SQLite transaction: a crash (``kill -9`` included) before the
commit leaves the map as it was; after it, as it is now.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundkit.checkpoints import checkpoint
from groundkit.codemap.edges import EdgeSet
from groundkit.codemap.extract.base import Extractor, FileFacts, FileGraph, SourceFile, Unparsable
from groundkit.codemap.generated import generated
from groundkit.codemap.lines import decode
from groundkit.codemap.model import Edge, EdgeKind, Node, NodeKey, NodeKind
from groundkit.codemap.routes import Matcher, compose, dump_web, load_web, match
from groundkit.codemap.sources import Source
from groundkit.codemap.store import FileState, MapStore
from groundkit.types import Skipped

__all__ = ["MapReport", "Progress", "build_map"]

Progress = Callable[[str, int, int], None]  # (stage, done, in all)

_PARALLEL_FROM = 200  # files to parse before a second process pays for itself


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class MapReport:
    """What one mapping run did. ``skipped`` non-empty means partial success."""

    files: int
    parsed: int
    unchanged: int
    removed: int
    resolved: int
    skipped: tuple[Skipped, ...]
    ignored: int
    nodes: dict[str, int]
    edges: dict[str, int]
    unresolved_calls: int
    seconds: float
    nothing_to_map: bool = False  # no file to map was found, and so no map was made

    @classmethod
    def nothing(cls, skipped: Sequence[Skipped] = ()) -> MapReport:
        """The report of a folder with no file a map reads."""
        return cls(0, 0, 0, 0, 0, tuple(skipped), 0, {}, {}, 0, 0.0, nothing_to_map=True)

    @property
    def partial(self) -> bool:
        return bool(self.skipped)

    @property
    def files_per_second(self) -> float:
        return self.files / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "parsed": self.parsed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "resolved": self.resolved,
            "skipped": [{"path": s.source, "reason": s.reason} for s in self.skipped],
            "ignored": self.ignored,
            "nodes": self.nodes,
            "edges": self.edges,
            "unresolved_calls": self.unresolved_calls,
            "seconds": round(self.seconds, 3),
            "files_per_second": round(self.files_per_second, 1),
            "nothing_to_map": self.nothing_to_map,
        }


@dataclass(slots=True)
class _Parsed:
    language: str
    digest: str
    size: int
    extractor: str
    facts: FileFacts | None  # None when it came from a worker: decoded where it is needed
    interface: bytes
    body: bytes
    interface_digest: str


def _tag(extractor: Extractor) -> str:
    return f"{extractor.language}:{extractor.version}"


def _parse_one(
    extractor: Extractor, path: str, data: bytes, seconds: float = math.inf
) -> _Parsed | str:
    try:
        facts = extractor.parse(SourceFile(path, decode(data), time.monotonic() + seconds))
    except Unparsable as exc:
        return exc.reason
    interface, body = extractor.encode(facts)
    return _Parsed(
        extractor.language,
        _digest(data),
        len(data),
        _tag(extractor),
        facts,
        interface,
        body,
        _digest(interface),
    )


def _parse_batch(
    items: list[tuple[Extractor, str, bytes]], seconds: float = math.inf
) -> list[tuple[str, _Parsed | str]]:
    out = [(path, _parse_one(extractor, path, data, seconds)) for extractor, path, data in items]
    for _, result in out:
        if isinstance(result, _Parsed):
            result.facts = None  # the packed bytes travel back; the objects would cost twice
    return out


class _Project:
    """What resolution sees of one language: fresh facts, or those stored for unchanged files."""

    def __init__(
        self,
        extractor: Extractor,
        paths: list[str],
        fresh: dict[str, _Parsed],
        store: MapStore,
        source: Source,
    ) -> None:
        self._extractor = extractor
        self._paths = paths
        self._fresh = fresh
        self._store = store
        self._source = source

    def paths(self) -> Sequence[str]:
        return self._paths

    def reopen(self) -> None:
        """In a forked worker: a connection of its own (SQLite's may not cross a fork)."""
        self._store = MapStore(self._store.path)

    def previous(self, path: str) -> tuple[FileFacts, list[Node], list[Edge], int, str]:
        """A file's facts and resolution as the map holds them from the last run."""
        facts = self._extractor.decode(*self._store.raw_facts(path))
        return (facts, *self._store.resolution(path))

    def facts(self, path: str) -> FileFacts:
        parsed = self._fresh.get(path)
        if parsed is not None:
            if parsed.facts is None:
                parsed.facts = self._extractor.decode(parsed.interface, parsed.body)
            return parsed.facts
        return self._extractor.decode(*self._store.raw_facts(path))

    def top_name(self) -> str:
        return self._source.top_name()

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


@dataclass(slots=True)
class _Run:
    skipped: list[Skipped] = field(default_factory=list)
    fresh: dict[str, _Parsed] = field(default_factory=dict)
    unchanged: int = 0
    ignored: int = 0
    touched: list[tuple[int, int, str]] = field(default_factory=list)  # same content, new mtime
    generated: set[str] = field(default_factory=set)  # skipped as made, not written: dropped


def build_map(
    store: MapStore,
    source: Source,
    extractors: Sequence[Extractor],
    *,
    max_file_bytes: int,
    parse_seconds: float = 10.0,
    progress: Progress | None = None,
    workers: int | None = None,
    cache: MapStore | None = None,
) -> MapReport:
    """Build or update the map in ``store`` from ``source``. ``cache``: another map whose facts
    may be reused for files with the same content (``grk diff`` of revisions)."""
    started = time.perf_counter()
    listing = source.list()
    run = _Run(skipped=list(listing.skipped))
    old = store.file_states()
    owners: dict[str, Extractor] = {}
    stamps = {path: (size, mtime) for path, size, mtime in listing.files}
    for path, size, _mtime in listing.files:
        extractor = next((e for e in extractors if e.claims(path)), None)
        if extractor is None:
            run.ignored += 1
        elif size > max_file_bytes:
            run.skipped.append(
                Skipped(
                    path,
                    f"oversized ({size:,} bytes; codemap.max_file_bytes is {max_file_bytes:,})",
                )
            )
        else:
            owners[path] = extractor
    _read_and_parse(
        run,
        source,
        owners,
        old,
        stamps,
        store,
        cache,
        max_file_bytes,
        progress,
        workers,
        parse_seconds,
    )
    skipped_paths = {s.source for s in run.skipped}
    present = {p for p in owners if p in run.fresh or (p in old and p not in skipped_paths)}
    # A bad read loses nothing; a file found to be generated is dropped.
    present |= {p for p in skipped_paths if p in old and p in owners and p not in run.generated}
    removed = sorted(p for p in old if p not in present)

    graphs = _resolve_languages(
        store, source, extractors, present, removed, run, old, progress, workers
    )

    # The map-wide web pass (routes, HTTP calls) only when some file's web facts changed.
    after = {
        path: dump_web(graph.routers, graph.mounts, graph.routes, graph.http_calls)
        for path, (graph, _) in graphs.items()
    }
    digests = {
        path: _graph_digest(graph, keys_of, after[path])
        for path, (graph, keys_of) in graphs.items()
    }
    for path in [p for p in graphs if p in old and old[p].resolution == digests[p]]:
        del graphs[path]  # resolved again, and the same: nothing to write
        del after[path]
    before = store.webs_of([*removed, *graphs])
    web_changed = any(before.get(p, "") != after.get(p, "") for p in {*before, *after})
    rewritten = [*removed, *graphs, *([""] if web_changed else [])]
    replaced = store.node_ids_owned(rewritten) if old else None
    with store.transaction():
        for path in removed:
            store.delete_file(path)
        store.touch(run.touched)
        for path, parsed in run.fresh.items():
            store.put_file(
                path,
                language=parsed.language,
                digest=parsed.digest,
                size=parsed.size,
                mtime=stamps.get(path, (0, 0))[1],
                extractor=parsed.extractor,
                interface=parsed.interface,
                body=parsed.body,
                interface_digest=parsed.interface_digest,
            )
        for done, (path, (graph, keys_of)) in enumerate(sorted(graphs.items()), start=1):
            web = after[path]
            store.put_resolution(
                path,
                nodes=graph.nodes,
                edges=graph.edges,
                keys=keys_of,
                depends_on=graph.depends_on,
                unresolved=graph.unresolved,
                web=web,
                digest=digests[path],
            )
            if done == max(1, len(graphs) // 2):
                checkpoint("mid-map")
        if web_changed or not old:
            _web_pass(store)
        store.tidy(replaced)
        store.set_skipped([(s.source, s.reason) for s in run.skipped])
    checkpoint("after-map-commit")
    counts = store.counts()
    return MapReport(
        files=counts["files"],
        parsed=len(run.fresh),
        unchanged=run.unchanged,
        removed=len(removed),
        resolved=len(graphs),
        skipped=tuple(sorted(run.skipped, key=lambda s: s.source)),
        ignored=run.ignored,
        nodes=counts["nodes"],
        edges=counts["edges"],
        unresolved_calls=counts["unresolved_calls"],
        seconds=time.perf_counter() - started,
    )


def _resolve_languages(
    store: MapStore,
    source: Source,
    extractors: Sequence[Extractor],
    present: set[str],
    removed: list[str],
    run: _Run,
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
        project = _Project(extractor, language_paths, run.fresh, store, source)
        resolver = extractor.resolver(project)
        keys = {p: resolver.keys(p) for p in language_paths}
        todo = _to_resolve(store, old, run.fresh, keys, removed, extractor.language)
        whole = getattr(resolver, "resolve_all", None)
        if whole is not None:
            for path, graph in _resolve_whole(
                resolver,
                extractor.language,
                language_paths,
                run.fresh,
                old,
                keys,
                removed,
                progress,
            ).items():
                graphs[path] = (graph, keys[path])
            continue
        for path, graph in _resolve(extractor, project, resolver, todo, progress, workers):
            graphs[path] = (graph, keys[path])

    return graphs


def _resolve_whole(
    resolver: Any,
    language: str,
    paths: list[str],
    fresh: dict[str, _Parsed],
    old: dict[str, FileState],
    keys: dict[str, frozenset[str]],
    removed: list[str],
    progress: Progress | None,
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
    relocate = getattr(resolver, "relocate", None)
    if not program_changed and relocate is not None:
        moved: dict[str, FileGraph] | None = relocate(changed)
        if moved is not None:
            return moved
    if progress:
        progress("resolving", 0, len(paths))
    found: dict[str, FileGraph] = resolver.resolve_all(paths)
    return found


def _unchanged(
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
    edges = sorted(
        (
            str(e.kind),
            e.source.id,
            e.target.id,
            str(e.provenance),
            e.confidence,
            e.location.line,
            e.location.col,
            e.location.end_line,
            e.location.end_col,
            e.quote,
            e.evidence,
            ",".join(sorted(e.flags)),
            e.sites,
        )
        for e in graph.edges
    )
    text = json.dumps([nodes, edges, graph.unresolved, web, sorted(keys), sorted(graph.depends_on)])
    return _digest(text.encode())


def _read_and_parse(
    run: _Run,
    source: Source,
    owners: dict[str, Extractor],
    old: dict[str, FileState],
    stamps: dict[str, tuple[int, int]],
    store: MapStore,
    cache: MapStore | None,
    max_file_bytes: int,
    progress: Progress | None,
    workers: int | None,
    parse_seconds: float = 10.0,
) -> None:
    pending: list[tuple[Extractor, str, bytes]] = []
    to_read = []
    for path in sorted(owners):
        state = old.get(path)
        size, mtime = stamps[path]
        # Same size and modification time (to the nanosecond) as when it was read: as git
        # does, the content is taken to be the same without reading it.
        same = state is not None and mtime and (state.size, state.mtime) == (size, mtime)
        if same and state is not None and state.extractor == _tag(owners[path]):
            run.unchanged += 1
        else:
            to_read.append(path)
    for path, data in source.read(to_read):
        if isinstance(data, OSError):
            reason = (data.strerror or str(data) or type(data).__name__).lower()
            run.skipped.append(Skipped(path, f"unreadable: {reason}"))
            continue
        if len(data) > max_file_bytes:  # it grew since it was listed
            run.skipped.append(Skipped(path, "oversized (codemap.max_file_bytes)"))
            continue
        made = generated(path, data)
        if made is not None:  # a bundle, compiled output: not the code people wrote
            run.skipped.append(Skipped(path, made))
            run.generated.add(path)
            continue
        extractor = owners[path]
        digest = _digest(data)
        state = old.get(path)
        if state is not None and state.digest == digest and state.extractor == _tag(extractor):
            run.unchanged += 1
            run.touched.append((len(data), stamps[path][1], path))
            continue
        cached = cache.raw_facts_by_digest(digest, _tag(extractor)) if cache is not None else None
        if cached is not None:
            interface, body = cached
            run.fresh[path] = _Parsed(
                extractor.language,
                digest,
                len(data),
                _tag(extractor),
                None,
                interface,
                body,
                _digest(interface),
            )
            continue
        pending.append((extractor, path, data))
    for path, result in _parse(pending, progress, workers, parse_seconds):
        if isinstance(result, str):
            run.skipped.append(Skipped(path, result))
        else:
            run.fresh[path] = result


def _parse(
    items: list[tuple[Extractor, str, bytes]],
    progress: Progress | None,
    workers: int | None,
    seconds: float = math.inf,
) -> list[tuple[str, _Parsed | str]]:
    count = workers if workers is not None else min(2, os.cpu_count() or 1)
    # Forking is only safe from a process with one thread (the CLI); a server parses in line.
    if count < 2 or len(items) < _PARALLEL_FROM or threading.active_count() > 1:
        out = []
        for done, (extractor, path, data) in enumerate(items, start=1):
            out.append((path, _parse_one(extractor, path, data, seconds)))
            if progress and done % 25 == 0:
                progress("parsing", done, len(items))
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    size = max(16, len(items) // (count * 8))
    batches = [items[i : i + size] for i in range(0, len(items), size)]
    results: list[tuple[str, _Parsed | str]] = []
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        for batch in pool.map(_parse_batch, batches, [seconds] * len(batches)):
            results.extend(batch)
            if progress:
                progress("parsing", len(results), len(items))
    return results


# What a forked resolving worker inherits (set just before the pool forks it).
_FORKED: dict[str, Any] = {}


def _resolve(
    extractor: Extractor,
    project: _Project,
    resolver: Any,
    todo: list[str],
    progress: Progress | None,
    workers: int | None,
) -> list[tuple[str, FileGraph]]:
    """Resolve ``todo``: in this process, or split over forked workers for a large run (each
    with its own resolver, reading the stored facts through its own connection)."""
    count = workers if workers is not None else min(2, os.cpu_count() or 1)
    if count < 2 or len(todo) < _PARALLEL_FROM or threading.active_count() > 1:
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
    project: _Project = _FORKED["project"]
    project.reopen()
    resolver = _FORKED["extractor"].resolver(project)
    return [(path, resolver.resolve(path)) for path in paths]


def _to_resolve(
    store: MapStore,
    old: dict[str, FileState],
    fresh: dict[str, _Parsed],
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


def _web_pass(store: MapStore) -> None:
    """Routes at their composed paths, with ``handles`` edges; HTTP calls onto routes or hosts."""
    web = load_web(text for _, text in store.webs())
    routes = compose(web.routers, web.mounts, web.routes)
    nodes: list[Node] = []
    edges = EdgeSet()
    for route in routes:
        nodes.append(Node(route.key, "", route.decl.location.line, route.decl.location.line))
        decl = route.decl
        edges.add(
            EdgeKind.HANDLES, route.key, decl.handler, decl.provenance, decl.location, decl.quote
        )
    matcher = Matcher(routes)
    for call in web.calls:
        target = match(call, matcher)
        if target is None:
            continue
        if target.route is not None:
            key = target.route.key
        else:
            assert target.host is not None
            key = NodeKey(NodeKind.EXTERNAL, target.host, "")
            nodes.append(Node(key, ""))
        edges.add(EdgeKind.HTTP_CALL, call.caller, key, call.provenance, call.location, call.quote)
    store.put_resolution(
        "",
        nodes=nodes,
        edges=edges.edges(),
        keys=frozenset(),
        depends_on=frozenset(),
        unresolved=0,
        web="",
    )

"""One mapping run: list -> hash -> parse what changed (``parsing``) -> resolve what a change
can reach (``resolution``) -> write only what came out different, in one commit.

Routes and HTTP calls are composed and matched over the whole map, only when some file's route
or client facts changed (they are few). Every write of the run is in one SQLite transaction: a
crash (``kill -9`` included) before the commit leaves the map as it was; after it, as it is now.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundkit.checkpoints import checkpoint
from groundkit.codemap.data import CALL, Data, assemble
from groundkit.codemap.data.collect import collect_data, load_schemas
from groundkit.codemap.data.django import django_models
from groundkit.codemap.data_files import data_files
from groundkit.codemap.edges import EdgeSet
from groundkit.codemap.extract.base import Extractor, collector_paused
from groundkit.codemap.model import EdgeFlag, EdgeKind, Node, NodeKey, NodeKind
from groundkit.codemap.parsing import Progress, Run, read_and_parse
from groundkit.codemap.resolution import resolve_languages, unchanged
from groundkit.codemap.route_hooks import hook_calls
from groundkit.codemap.routes import (
    Matcher,
    compose,
    dump_web,
    load_web,
    match,
)
from groundkit.codemap.sources import Source
from groundkit.codemap.store import MapStore
from groundkit.codemap.wrappers import through_wrappers
from groundkit.types import Skipped

__all__ = ["MapReport", "Progress", "build_map"]


@dataclass(frozen=True, slots=True)
class MapReport:
    """What one mapping run did. ``skipped`` (files meant to be mapped that could not be)
    non-empty means partial success; ``passed_over`` (files not to be mapped: no extractor
    reads them, vendored, generated, excluded) is a choice, never a failure."""

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
    passed_over: tuple[Skipped, ...] = ()
    # Files no extractor parses that the map reads for what they declare (a Prisma schema,
    # ORM settings, SQL an app runs): read, so neither mapped nor passed over.
    read_for_data: tuple[Skipped, ...] = ()
    languages: dict[str, int] = field(default_factory=dict)  # files mapped, by language
    # How each language whose values flow between files was solved: the whole program, or
    # an edit continued from the last solve (and why not, when it could not be).
    solves: tuple[str, ...] = ()

    @classmethod
    def nothing(
        cls, skipped: Sequence[Skipped] = (), passed_over: Sequence[Skipped] = ()
    ) -> MapReport:
        """The report of a folder with no file a map reads."""
        return cls(
            0,
            0,
            0,
            0,
            0,
            tuple(skipped),
            0,
            {},
            {},
            0,
            0.0,
            nothing_to_map=True,
            passed_over=tuple(passed_over),
        )

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
            "passed_over": [{"path": s.source, "reason": s.reason} for s in self.passed_over],
            "read_for_data": [{"path": s.source, "reason": s.reason} for s in self.read_for_data],
            "languages": self.languages,
            "ignored": self.ignored,
            "nodes": self.nodes,
            "edges": self.edges,
            "unresolved_calls": self.unresolved_calls,
            "seconds": round(self.seconds, 3),
            "files_per_second": round(self.files_per_second, 1),
            "nothing_to_map": self.nothing_to_map,
            "solves": list(self.solves),
        }


# A run's facts, answers and indexes live until it ends, and it leaves little cyclic garbage
# (per file: none from parsing TypeScript, some fifty objects from resolving it, some forty
# from parsing Python): the collector's passes over what lives are all cost (express: ~8% of
# its map's CPU).
@collector_paused()
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
    run = Run(skipped=list(listing.skipped))
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
    read_and_parse(
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
    # Made, not written (a bundle, compiled output): passed over, as a vendored tree is.
    made = [s for s in run.skipped if s.source in run.generated]
    run.skipped = [s for s in run.skipped if s.source not in run.generated]
    passed_over = sorted([*listing.passed_over, *made], key=lambda s: s.source)
    skipped_paths = {s.source for s in run.skipped} | run.generated
    present = {p for p in owners if p in run.fresh or (p in old and p not in skipped_paths)}
    # A bad read loses nothing; a file found to be generated is dropped.
    present |= {p for p in skipped_paths if p in old and p in owners and p not in run.generated}
    removed = sorted(p for p in old if p not in present)

    graphs = resolve_languages(
        store, source, extractors, present, removed, run, old, progress, workers
    )

    # The map-wide web pass (routes, HTTP calls, data) only when some file's facts changed.
    before = store.webs_of([*removed, *graphs])
    reads = collect_data(graphs, run.texts, before, source, run.early)
    after = {
        path: dump_web(
            graph.routers,
            graph.mounts,
            graph.routes,
            graph.http_calls,
            graph.url_arguments,
            graph.data,
        )
        for path, (graph, _) in graphs.items()
    }
    files = data_files(store, source, passed_over, reads, removed)
    digests = unchanged(graphs, after, old)  # resolved again, and the same: nothing to write
    web_changed = any(before.get(p, "") != after.get(p, "") for p in {*before, *after})
    web_changed = web_changed or store.manifest().get("schemas", "") != files.schemas
    web_changed = web_changed or bool((graphs or removed) and store.manifest().get("calls_by_name"))
    rewritten = [*removed, *graphs, *([""] if web_changed else [])]
    replaced = store.node_ids_owned(rewritten) if old else None
    with store.page_cache(len(run.fresh) + len(graphs)), store.transaction():
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
                generated=parsed.generated,
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
            store.set_manifest("schemas", files.schemas)
            _web_pass(store)
        store.tidy(replaced)
        store.set_skipped([(s.source, s.reason) for s in run.skipped])
        store.set_passed_over([(s.source, s.reason) for s in files.passed_over])
        store.set_read_for_data([(s.source, s.reason) for s in files.read], files.reads)
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
        passed_over=tuple(files.passed_over),
        read_for_data=tuple(files.read),
        languages=store.file_languages(),
        solves=tuple(run.solves),
    )


def _web_pass(store: MapStore) -> None:
    """Routes at their composed paths, with ``handles`` edges; HTTP calls onto routes or hosts."""
    web = load_web(text for _, text in store.webs())
    routes = compose(web.routers, web.mounts, web.routes)
    schemas = load_schemas(store.manifest().get("schemas", ""))
    django = Data()  # Django's models: their bases and app configs lie in any file
    django.models = django_models(web.data.django, web.data.apps, django.unresolved)
    data = assemble([web.data, schemas, django], _named(store))
    # Calls by name reach nodes of other files: any file's new resolution may change them.
    by_name = bool(web.data.hooks) or any(a.mode == CALL for a in web.data.accesses)
    store.set_manifest("calls_by_name", "1" if by_name else "")
    unresolved = data.unresolved
    nodes: list[Node] = list(data.nodes)
    edges = EdgeSet()
    for edge in data.edges:
        edges.add(
            edge.kind,
            edge.source,
            edge.target,
            edge.provenance,
            edge.location,
            edge.quote,
            edge.flags,
        )
    named = _named(store)
    for hooked in hook_calls(routes, web.routers, web.mounts, web.data.hooks, named, unresolved):
        hook = hooked.hook
        flags = frozenset({EdgeFlag.PARTIAL}) if hooked.partial else frozenset()
        where = (hook.provenance, hook.location, hook.quote)
        edges.add(EdgeKind.CALLS, hooked.handler, hooked.function, *where, flags)
    for route in routes:
        nodes.append(Node(route.key, "", route.decl.location.line, route.decl.location.line))
        decl = route.decl
        edges.add(
            EdgeKind.HANDLES, route.key, decl.handler, decl.provenance, decl.location, decl.quote
        )
    matcher = Matcher(routes)
    for call in [*web.calls, *through_wrappers(web.calls, web.arguments)]:
        if not call.method or not any(call.url):
            continue  # a wrapper's own call: its method or its whole URL comes from its callers
        target = match(call, matcher)
        if target is None:
            continue
        how = (call.provenance, call.location, call.quote)
        if target.host is not None:
            key = NodeKey(NodeKind.EXTERNAL, target.host, "")
            nodes.append(Node(key, ""))
            edges.add(EdgeKind.HTTP_CALL, call.caller, key, *how)
        if target.route is not None:
            # Through a named host, the route is one of the call's possible targets.
            # So is it through a base URL's literal fallback (``process.env.X || "..."``).
            partial = target.host is not None or call.partial
            flags = frozenset({EdgeFlag.PARTIAL}) if partial else frozenset()
            edges.add(EdgeKind.HTTP_CALL, call.caller, target.route.key, *how, flags)
    # What the data facts could not name (SQL that does not parse, a model not found), by reason.
    store.set_manifest("data_unresolved", json.dumps(dict(unresolved), sort_keys=True))
    store.put_resolution(
        "",
        nodes=nodes,
        edges=edges.edges(),
        keys=frozenset(),
        depends_on=frozenset(),
        unresolved=0,
        web="",
    )


def _named(store: MapStore) -> Callable[[str], list[NodeKey]]:
    return lambda name: [n.key for n in store.nodes_named(name)]

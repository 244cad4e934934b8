"""A code map's SQLite file: files with their facts, nodes, edges, dependencies.

Opened, migrated and written through the same SQLite layer as a collection's store
(``storage.sqlite``): WAL, a busy timeout, the schema version with migrations, faults said as
they are (a full disk is ``store.disk_full``), and every run's writes in one transaction, so
that a crash leaves the map as it was before the run or as it is after it. Facts are stored as
each extractor encodes them (typed records: ``Extractor.encode``/``decode``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundkit.codemap.migrations import SCHEMA
from groundkit.codemap.model import (
    Edge,
    EdgeFlag,
    EdgeKind,
    Location,
    Node,
    NodeKey,
    NodeKind,
    Provenance,
)
from groundkit.codemap.sources import language_of
from groundkit.storage.sqlite import Database

__all__ = ["LARGE_MAP_FILES", "FileState", "MapStore", "edge_row"]


@dataclass(frozen=True, slots=True)
class FileState:
    language: str
    digest: str
    size: int
    mtime: int
    extractor: str
    interface_digest: str
    keys: frozenset[str]
    unresolved: int
    resolution: str = ""  # a digest of its last resolution


_EDGE_COLUMNS = (
    "e.kind, e.provenance, e.confidence, e.path, e.line, e.col, e.end_line, e.end_col,"
    " e.quote, e.evidence, e.flags, e.sites, s.kind, s.name, s.path, t.kind, t.name, t.path"
)
_IDS_PER_QUERY = 500
LARGE_MAP_FILES = 5000  # a run writing more files' rows than this takes a larger page cache
_LARGE_CACHE_KB = 131072
_EDGE_JOIN = "FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"


def _edge(row: Sequence[Any]) -> Edge:
    flags = frozenset(EdgeFlag(f) for f in row[10].split(",") if f)
    return Edge(
        EdgeKind(row[0]),
        NodeKey(NodeKind(row[12]), row[13], row[14]),
        NodeKey(NodeKind(row[15]), row[16], row[17]),
        Provenance(row[1]),
        row[2],
        Location(row[3], row[4], row[5], row[6], row[7]),
        row[8],
        row[9],
        flags,
        row[11],
    )


def _node(row: Sequence[Any]) -> Node:
    return Node(NodeKey(NodeKind(row[0]), row[1], row[2]), row[3], row[4], row[5])


class MapStore:
    """One mapped repository's ``map.sqlite``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # Read-only where it cannot be written (no byte free, read-only media): a map is still
        # read then, and a write says why it cannot be made.
        self._db = Database(path, SCHEMA, fallback_read_only=True)
        self._conn = self._db.conn
        # What resolvers keep in memory between runs while this map is open (a solver's
        # loaded snapshot): gone with the map.
        self.memory: dict[str, object] = {}

    def close(self) -> None:
        self._db.close()

    def transaction(self) -> AbstractContextManager[None]:
        return self._db.transaction()

    @contextmanager
    def page_cache(self, files: int) -> Iterator[None]:
        """A larger page cache while a run of ``files`` writes its rows, given back after.
        SQLite's default (2 MB) is a fraction of a large map's indexes, which each insert
        walks: oci-python-sdk's 17,845 files (a 550 MB map) spent a third of the write's CPU
        re-reading pages. A small map keeps the default (its peak is the solve's)."""
        if files < LARGE_MAP_FILES:
            yield
            return
        default = self._conn.execute("PRAGMA cache_size").fetchone()[0]
        self._conn.execute(f"PRAGMA cache_size = {-_LARGE_CACHE_KB}")
        try:
            yield
        finally:
            self._conn.execute(f"PRAGMA cache_size = {int(default)}")

    # -- manifest ---------------------------------------------------------------------------------
    def manifest(self) -> dict[str, str]:
        return dict(self._conn.execute("SELECT key, value FROM manifest").fetchall())

    def set_manifest(self, key: str, value: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO manifest VALUES (?, ?)", (key, value))

    # -- a solver's kept state (named parts, each a blob) ------------------------------------------
    def solver_state(self, name: str) -> bytes | None:
        row = self._conn.execute("SELECT data FROM solver_state WHERE name = ?", (name,)).fetchone()
        return None if row is None else bytes(row[0])

    def put_solver_state(
        self, parts: Iterable[tuple[str, bytes]], *, drop_prefix: str | None
    ) -> None:
        """Keep ``parts`` (name, data; each written as it comes); with ``drop_prefix``, every
        other part so named goes first."""
        with self.transaction():
            if drop_prefix is not None:
                self._conn.execute(
                    "DELETE FROM solver_state WHERE substr(name, 1, ?) = ?",
                    (len(drop_prefix), drop_prefix),
                )
            self._conn.executemany("INSERT OR REPLACE INTO solver_state VALUES (?, ?)", parts)

    # -- files and facts --------------------------------------------------------------------------
    def file_states(self) -> dict[str, FileState]:
        rows = self._conn.execute(
            "SELECT path, language, digest, size, mtime, extractor, interface_digest, keys,"
            " unresolved, resolution FROM files"
        )
        return {
            r[0]: FileState(
                r[1], r[2], r[3], r[4], r[5], r[6], frozenset(json.loads(r[7])), r[8], r[9]
            )
            for r in rows
        }

    def raw_facts(self, path: str) -> tuple[bytes, bytes]:
        """A file's facts as stored (the extractor decodes them)."""
        row = self._conn.execute(
            "SELECT interface, body FROM files WHERE path = ?", (path,)
        ).fetchone()
        if row is None:
            raise KeyError(path)
        return bytes(row[0]), bytes(row[1])

    def raw_facts_of(self, paths: Sequence[str]) -> dict[str, tuple[bytes, bytes]]:
        """The facts of many files at once, by path."""
        wanted = set(paths)
        rows = self._conn.execute("SELECT path, interface, body FROM files")
        return {r[0]: (bytes(r[1]), bytes(r[2])) for r in rows if r[0] in wanted}

    def raw_facts_by_digest(self, digest: str, extractor: str) -> tuple[bytes, bytes] | None:
        row = self._conn.execute(
            "SELECT interface, body FROM files WHERE digest = ? AND extractor = ? LIMIT 1",
            (digest, extractor),
        ).fetchone()
        return None if row is None else (bytes(row[0]), bytes(row[1]))

    def put_file(
        self,
        path: str,
        *,
        language: str,
        digest: str,
        size: int,
        mtime: int,
        extractor: str,
        interface: bytes,
        body: bytes,
        interface_digest: str,
        generated: str = "",
    ) -> None:
        self._conn.execute(
            "INSERT INTO files (path, language, digest, size, mtime, extractor, interface, body,"
            " interface_digest, generated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (path) DO UPDATE SET language = excluded.language,"
            " digest = excluded.digest, size = excluded.size, mtime = excluded.mtime,"
            " extractor = excluded.extractor, interface = excluded.interface,"
            " body = excluded.body, interface_digest = excluded.interface_digest,"
            " generated = excluded.generated",
            (
                path,
                language,
                digest,
                size,
                mtime,
                extractor,
                interface,
                body,
                interface_digest,
                generated,
            ),
        )

    def touch(self, stamps: Sequence[tuple[int, int, str]]) -> None:
        """Record (size, mtime, path) of files found unchanged by content with a new mtime."""
        self._conn.executemany("UPDATE files SET size = ?, mtime = ? WHERE path = ?", stamps)

    def forget_stamps(self) -> None:
        """Make the next run read every file (its size and time no longer vouch for it)."""
        with self.transaction():
            self._conn.execute("UPDATE files SET mtime = 0")

    def delete_file(self, path: str) -> None:
        self._conn.execute("DELETE FROM files WHERE path = ?", (path,))
        self._drop_owned(path)

    def _drop_owned(self, owner: str) -> None:
        self._conn.execute("DELETE FROM nodes WHERE owner = ?", (owner,))
        self._conn.execute("DELETE FROM edges WHERE owner = ?", (owner,))
        self._conn.execute("DELETE FROM deps WHERE path = ?", (owner,))

    def dependents(self, keys: Iterable[str]) -> set[str]:
        """Files that consulted any of ``keys`` when they were last resolved."""
        out: set[str] = set()
        batch = sorted(set(keys))
        for i in range(0, len(batch), 500):
            part = batch[i : i + 500]
            marks = ",".join("?" * len(part))
            rows = self._conn.execute(f"SELECT path FROM deps WHERE key IN ({marks})", part)
            out.update(r[0] for r in rows)
        return out

    def put_resolution(
        self,
        owner: str,
        *,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        keys: frozenset[str],
        depends_on: frozenset[str],
        unresolved: int,
        web: str,
        digest: str = "",
    ) -> None:
        """Replace everything ``owner`` (a file, or '' for the map-wide pass) contributed."""
        self._drop_owned(owner)
        self._put_nodes(owner, nodes)
        self._put_edges(owner, edges)
        if owner:
            self._conn.executemany(
                "INSERT OR IGNORE INTO deps VALUES (?, ?)", [(k, owner) for k in depends_on]
            )
            self._conn.execute(
                "UPDATE files SET keys = ?, unresolved = ?, web = ?, resolution = ? WHERE path = ?",
                (json.dumps(sorted(keys)), unresolved, web, digest, owner),
            )

    def _put_nodes(self, owner: str, nodes: Sequence[Node]) -> None:
        rows: list[tuple[Any, ...]] = []
        shared: list[tuple[Any, ...]] = []
        for n in nodes:
            k = n.key
            language = language_of(k.path, n.language) if n.language else ""
            row = (k.id, str(k.kind), k.qualname, k.path, language, n.line, n.end_line)
            # Outside nodes are shared by every file pointing at them: owned by none ('*'), and
            # dropped by tidy() once nothing points at them.
            (shared if k.kind == NodeKind.EXTERNAL else rows).append(row)
        self._conn.executemany(
            "INSERT OR REPLACE INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(*r, owner) for r in rows],
        )
        self._conn.executemany(
            "INSERT OR IGNORE INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?, '*')", shared
        )

    def _put_edges(self, owner: str, edges: Sequence[Edge]) -> None:
        self._conn.executemany(
            "INSERT OR REPLACE INTO edges VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*edge_row(e), owner) for e in edges],
        )

    def resolution(self, path: str) -> tuple[list[Node], list[Edge], int, str]:
        """What a file's last resolution stored: its nodes (outside nodes aside), its edges,
        its unresolved calls and its web facts."""
        nodes = [
            _node(r)
            for r in self._conn.execute(
                "SELECT kind, name, path, language, line, end_line FROM nodes WHERE owner = ?",
                (path,),
            )
        ]
        edges = [
            _edge(r)
            for r in self._conn.execute(
                f"SELECT {_EDGE_COLUMNS} {_EDGE_JOIN} WHERE e.owner = ?", (path,)
            )
        ]
        row = self._conn.execute(
            "SELECT unresolved, web FROM files WHERE path = ?", (path,)
        ).fetchone()
        return nodes, edges, (row[0] if row else 0), (row[1] if row else "")

    def webs_of(self, paths: Sequence[str]) -> dict[str, str]:
        """The stored web facts of these files ('' for none)."""
        out: dict[str, str] = {}
        for i in range(0, len(paths), 500):
            part = list(paths[i : i + 500])
            marks = ",".join("?" * len(part))
            rows = self._conn.execute(f"SELECT path, web FROM files WHERE path IN ({marks})", part)
            out.update(dict(rows.fetchall()))
        return out

    def webs(self) -> Iterator[tuple[str, str]]:
        yield from self._conn.execute("SELECT path, web FROM files WHERE web <> '' ORDER BY path")

    def node_ids_owned(self, owners: Sequence[str]) -> set[str]:
        out: set[str] = set()
        for i in range(0, len(owners), 500):
            part = list(owners[i : i + 500])
            marks = ",".join("?" * len(part))
            rows = self._conn.execute(f"SELECT id FROM nodes WHERE owner IN ({marks})", part)
            out.update(r[0] for r in rows)
        return out

    def tidy(self, replaced: set[str] | None = None) -> int:
        """Drop outside nodes nothing points at any more, and edges whose ends are gone: among
        the nodes ``replaced`` this run (or, with None, anywhere). Returns how many edges went.

        A dangling edge means a file was not resolved again when it should have been; this is
        the net under that, not the mechanism."""
        self._conn.execute(
            "DELETE FROM nodes WHERE kind = 'external'"
            " AND NOT EXISTS (SELECT 1 FROM edges WHERE target = nodes.id)"
        )
        if replaced is None:
            cur = self._conn.execute(
                "DELETE FROM edges WHERE NOT EXISTS (SELECT 1 FROM nodes WHERE id = edges.source)"
                " OR NOT EXISTS (SELECT 1 FROM nodes WHERE id = edges.target)"
            )
            return cur.rowcount
        gone = [(i,) for i in replaced if self.node(i) is None]
        self._conn.executemany("DELETE FROM edges WHERE source = ?", gone)
        self._conn.executemany("DELETE FROM edges WHERE target = ?", gone)
        return len(gone)

    def set_skipped(self, skipped: Sequence[tuple[str, str]]) -> None:
        self._conn.execute("DELETE FROM skipped")
        self._conn.executemany("INSERT OR REPLACE INTO skipped VALUES (?, ?)", skipped)

    def set_passed_over(self, passed_over: Sequence[tuple[str, str]]) -> None:
        """What the last run did not map on purpose, with why (kept for ``grk map show``)."""
        self.set_manifest("passed_over", json.dumps([list(p) for p in passed_over]))

    def set_read_for_data(
        self, read: Sequence[tuple[str, str]], by_file: dict[str, list[str]]
    ) -> None:
        """The files the last run read for data though no extractor parses them, with what;
        and which of them each source file's facts were read from (``by_file``)."""
        self.set_manifest("read_for_data", json.dumps([list(p) for p in read]))
        self.set_manifest("resource_reads", json.dumps(by_file, sort_keys=True))

    # -- reads ------------------------------------------------------------------------------------
    def skipped(self) -> list[tuple[str, str]]:
        return self._conn.execute("SELECT path, reason FROM skipped ORDER BY path").fetchall()

    def passed_over(self) -> list[tuple[str, str]]:
        """(path, reason) of what the last run passed over on purpose, by path."""
        row = self._conn.execute("SELECT value FROM manifest WHERE key = 'passed_over'").fetchone()
        return [(p, r) for p, r in json.loads(row[0])] if row else []

    def read_for_data(self) -> list[tuple[str, str]]:
        """(path, what for) of the files the last run read for data, by path."""
        return [(p, r) for p, r in json.loads(self.manifest().get("read_for_data") or "[]")]

    def generated_files(self) -> list[tuple[str, str]]:
        """(path, why) of the files mapped that are generated source, by path."""
        return self._conn.execute(
            "SELECT path, generated FROM files WHERE generated <> '' ORDER BY path"
        ).fetchall()

    def file_languages(self) -> dict[str, int]:
        """Files mapped, by the language each is written in (``sources.language_of``)."""
        counts: dict[str, int] = {}
        for path, language in self._conn.execute("SELECT path, language FROM files"):
            label = language_of(path, language)
            counts[label] = counts.get(label, 0) + 1
        return dict(sorted(counts.items()))

    def nodes(self) -> list[Node]:
        rows = self._conn.execute(
            "SELECT kind, name, path, language, line, end_line FROM nodes ORDER BY kind, name, path"
        )
        return [_node(r) for r in rows]

    def node(self, node_id: str) -> Node | None:
        row = self._conn.execute(
            "SELECT kind, name, path, language, line, end_line FROM nodes WHERE id = ?", (node_id,)
        ).fetchone()
        return None if row is None else _node(row)

    def nodes_named(self, name: str) -> list[Node]:
        rows = self._conn.execute(
            "SELECT kind, name, path, language, line, end_line FROM nodes WHERE name = ?"
            " ORDER BY kind, path",
            (name,),
        )
        return [_node(r) for r in rows]

    def nodes_of_kind(self, kind: str) -> list[Node]:
        rows = self._conn.execute(
            "SELECT kind, name, path, language, line, end_line FROM nodes WHERE kind = ?"
            " ORDER BY name, path",
            (str(kind),),
        )
        return [_node(r) for r in rows]

    def nodes_in_file(self, path: str) -> list[Node]:
        rows = self._conn.execute(
            "SELECT kind, name, path, language, line, end_line FROM nodes WHERE path = ?"
            " ORDER BY name, kind",
            (path,),
        )
        return [_node(r) for r in rows]

    def nodes_ending_with(self, suffix: str) -> list[Node]:
        rows = self._conn.execute(
            "SELECT kind, name, path, language, line, end_line FROM nodes"
            " WHERE length(name) > ?1 AND substr(name, length(name) - ?1 + 1) = ?2"
            " ORDER BY name, kind, path",
            (len(suffix), suffix),
        )
        return [_node(r) for r in rows]

    def edge(self, source: str, kind: str, target: str) -> Edge | None:
        row = self._conn.execute(
            f"SELECT {_EDGE_COLUMNS} {_EDGE_JOIN}"
            " WHERE e.source = ? AND e.kind = ? AND e.target = ?",
            (source, kind, target),
        ).fetchone()
        return None if row is None else _edge(row)

    def edges_by_prefix(self, source: str, kind: str, target: str, limit: int) -> list[Edge]:
        """Edges of ``kind`` whose ends' ids start with ``source`` and ``target`` (hex)."""
        rows = self._conn.execute(
            f"SELECT {_EDGE_COLUMNS} {_EDGE_JOIN} WHERE e.source >= ? AND e.source < ?"
            " AND e.kind = ? AND e.target >= ? AND e.target < ? ORDER BY e.source, e.target"
            " LIMIT ?",
            (source, source + "g", kind, target, target + "g", limit),
        )
        return [_edge(r) for r in rows]

    def node_names(self) -> list[tuple[str, str, str]]:
        """(name, kind, path) of every node, for suggestions."""
        return self._conn.execute("SELECT name, kind, path FROM nodes ORDER BY name").fetchall()

    def edges(self, kinds: Sequence[str] | None = None) -> list[Edge]:
        sql = f"SELECT {_EDGE_COLUMNS} {_EDGE_JOIN}"
        params: list[str] = []
        if kinds is not None:
            sql += f" WHERE e.kind IN ({','.join('?' * len(kinds))})"
            params = list(kinds)
        rows = self._conn.execute(sql + " ORDER BY e.source, e.kind, e.target", params)
        return [_edge(r) for r in rows]

    def edge_ends(self) -> list[tuple[str, str, str, float, str]]:
        """(kind, source id, target id, confidence, flags) of every edge: what a drawing
        counts, without the evidence and places that make reading every edge slow."""
        return self._conn.execute(
            "SELECT kind, source, target, confidence, flags FROM edges"
            " ORDER BY source, kind, target"
        ).fetchall()

    def edges_from(self, node_id: str, kinds: Sequence[str]) -> list[Edge]:
        marks = ",".join("?" * len(kinds))
        rows = self._conn.execute(
            f"SELECT {_EDGE_COLUMNS} {_EDGE_JOIN} WHERE e.source = ? AND e.kind IN ({marks})"
            " ORDER BY e.line, e.col, t.name",
            (node_id, *kinds),
        )
        return [_edge(r) for r in rows]

    def edges_to(self, node_id: str, kinds: Sequence[str]) -> list[Edge]:
        marks = ",".join("?" * len(kinds))
        rows = self._conn.execute(
            f"SELECT {_EDGE_COLUMNS} {_EDGE_JOIN} WHERE e.target = ? AND e.kind IN ({marks})"
            " ORDER BY s.name, e.kind",
            (node_id, *kinds),
        )
        return [_edge(r) for r in rows]

    def edges_to_many(self, node_ids: Sequence[str], kinds: Sequence[str]) -> dict[str, list[Edge]]:
        found: dict[str, list[Edge]] = {node_id: [] for node_id in node_ids}
        ids = list(found)
        marks = ",".join("?" * len(kinds))
        # A few hundred ids a query: far under SQLite's bound on parameters, and one query
        # per few hundred nodes is what makes a wide blast fast.
        for start in range(0, len(ids), _IDS_PER_QUERY):
            chunk = ids[start : start + _IDS_PER_QUERY]
            rows = self._conn.execute(
                f"SELECT {_EDGE_COLUMNS} {_EDGE_JOIN}"
                f" WHERE e.target IN ({','.join('?' * len(chunk))}) AND e.kind IN ({marks})"
                " ORDER BY e.target, s.name, e.kind, e.source",
                (*chunk, *kinds),
            )
            for row in rows:
                edge = _edge(row)
                found[edge.target.id].append(edge)
        return found

    def counts(self) -> dict[str, Any]:
        nodes = dict(self._conn.execute("SELECT kind, count(*) FROM nodes GROUP BY kind"))
        edges = dict(self._conn.execute("SELECT kind, count(*) FROM edges GROUP BY kind"))
        files, unresolved = self._conn.execute(
            "SELECT count(*), coalesce(sum(unresolved), 0) FROM files"
        ).fetchone()
        return {"files": files, "nodes": nodes, "edges": edges, "unresolved_calls": unresolved}


def edge_row(e: Edge) -> tuple[str | int | float, ...]:
    """An edge as the columns of its row (its owner aside): what is stored is what is compared."""
    return (
        str(e.kind),
        e.source.id,
        e.target.id,
        str(e.provenance),
        e.confidence,
        e.location.path,
        e.location.line,
        e.location.col,
        e.location.end_line,
        e.location.end_col,
        e.quote,
        e.evidence,
        ",".join(sorted(map(str, e.flags))) if e.flags else "",  # (most have none)
        e.sites,
    )

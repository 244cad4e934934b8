"""A collection's SQLite store: documents, chunks and ingest state. The source of truth.

Every derived index can be rebuilt from it. Writes happen inside ``transaction()``; a crash
before its commit leaves the store exactly as it was (SQLite's WAL guarantees it). Each change
is also written to the change log that the derived indexes catch up from (see migration 4).
Opening, migrating, transactions and what a failure means are the shared SQLite layer's
(``storage.sqlite``).
"""

from __future__ import annotations

import json
import time
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Protocol

from groundkit.index import keys, sentences, spans, writes
from groundkit.index.filters import chunk_filter
from groundkit.index.migrations import SCHEMA
from groundkit.index.rows import ChunkRow, DocumentRow, HitRow, IngestState, NewDocument
from groundkit.storage.sqlite import Database

_INGEST_CACHE_KIB = 256 * 1024
# Pages read through a memory map rather than a read() each: a search reads a hundred chunk and
# document rows from pages SQLite's own small cache seldom still holds (a top 100 on SciFact took
# about 30% less time). Address space, not memory: the OS keeps or drops the pages.
_MMAP_BYTES = 1 << 30
_SETTLED_NS = 2_000_000_000  # a file's time must be this much older than its reading to be trusted

__all__ = ["Follower", "Settles", "Store"]


class Follower(Protocol):
    """What keeps in step with the store's document writes as they are made (``followed_by``):
    the lexical index during an ingest (``index.feed``). What a savepoint's block wrote before
    it raised is taken back (``undo``), as the savepoint takes back the rows."""

    def put(
        self, documents: Sequence[NewDocument], rowids: Sequence[int], first_chunk: int
    ) -> None:
        """``documents`` stored as ``rowids``; their chunks as ``first_chunk`` and on, in order."""
        ...

    def delete(self, rowids: Sequence[int]) -> None: ...

    def mark(self) -> int:
        """A savepoint begins; what ``undo`` or ``release`` is given when it ends."""
        ...

    def undo(self, mark: int) -> None: ...

    def release(self, mark: int) -> None: ...


class Settles(Protocol):
    """What holds rows it has not read yet (a search's hits)."""

    def settle(self) -> object:
        """Read them now."""
        ...


class Store:
    """One collection's ``store.sqlite``.

    On read-only media, or a disk with no byte free, it is opened for reading only
    (``read_only``): for searching, as the shared SQLite layer says.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = Database(path, SCHEMA, fallback_read_only=True)
        self._conn = self._db.conn
        self._conn.execute(f"PRAGMA mmap_size = {_MMAP_BYTES}")
        self.read_only = self._db.read_only
        self._follower: Follower | None = None
        self._unread: weakref.WeakSet[Settles] = weakref.WeakSet()
        self._bulk = False  # inside large_cache: see transaction

    def close(self) -> None:
        # Hits made unread are read now: a caller may read them after closing the collection.
        for reader in list(self._unread):
            # A failure is the hit's to report when read; closing goes on.
            with suppress(Exception):
                reader.settle()
        self._db.close()

    def read_before_close(self, reader: Settles) -> None:
        """Have ``reader`` read what it holds unread before the store closes (kept weakly)."""
        self._unread.add(reader)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A write transaction, taken up front so that two writers never deadlock mid-way.

        Inside ``large_cache`` (one ingest), an empty store's id indexes are built at its end
        (``index.keys``)."""
        with self._db.transaction():
            if self._bulk:
                with keys.built_at_end(self._conn):
                    yield
            else:
                yield

    @contextmanager
    def large_cache(self) -> Iterator[None]:
        """A page cache the size of a large collection's unique indexes, for one ingest (and
        an empty store's id indexes built at its end: see ``transaction``).

        SQLite's default (2 MB) is far smaller: an ingest, one transaction, spilled and re-read
        their pages, and its SQLite writes per document doubled from 25k to 500k documents.
        Pages are taken only as they are used, and given back after: a reader keeps the default.
        """
        default = self._conn.execute("PRAGMA cache_size").fetchone()[0]
        self._conn.execute(f"PRAGMA cache_size = {-_INGEST_CACHE_KIB}")
        self._bulk = True
        try:
            yield
        finally:
            self._bulk = False
            self._conn.execute(f"PRAGMA cache_size = {int(default)}")

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A nested transaction inside ``transaction()``: undone alone when its block raises."""
        follower = self._follower
        mark = follower.mark() if follower is not None else 0
        try:
            with self._db.savepoint():
                yield
        except BaseException:
            if follower is not None:
                follower.undo(mark)
            raise
        if follower is not None:
            follower.release(mark)

    @contextmanager
    def followed_by(self, follower: Follower) -> Iterator[None]:
        """Tell ``follower`` of every document put or deleted meanwhile (see ``Follower``)."""
        self._follower = follower
        try:
            yield
        finally:
            self._follower = None

    # -- manifest ---------------------------------------------------------------------------------
    def manifest(self) -> dict[str, str]:
        return dict(self._conn.execute("SELECT key, value FROM manifest").fetchall())

    def manifest_value(self, key: str) -> str | None:
        """One entry of the manifest: a search in `auto` mode reads the embedder's on every call."""
        row = self._conn.execute("SELECT value FROM manifest WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_manifest(self, key: str, value: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO manifest VALUES (?, ?)", (key, value))

    # -- ingest state -----------------------------------------------------------------------------
    def ingest_state(self, origin: str) -> dict[str, IngestState]:
        """What is stored of each source that came from ``origin``."""
        rows = self._conn.execute(
            "SELECT source, id, fingerprint, content_hash, format FROM documents WHERE origin = ?",
            (origin,),
        )
        return {row[0]: IngestState(*row[1:]) for row in rows}

    def file_unchanged(self, origin: str, size: int, mtime_ns: int, settings: str) -> int | None:
        """How many documents came from ``origin`` when it looks as it did when last read (same
        size, time and settings, and its time well before that reading), else None."""
        row = self._conn.execute(
            "SELECT size, mtime_ns, settings, recorded_ns FROM files WHERE origin = ?", (origin,)
        ).fetchone()
        if row is None or (row[0], row[1], row[2]) != (size, mtime_ns, settings):
            return None
        if mtime_ns > row[3] - _SETTLED_NS:
            return None  # changed, perhaps, within the tick it was read in: hash it
        count = self._conn.execute("SELECT count(*) FROM documents WHERE origin = ?", (origin,))
        return int(count.fetchone()[0]) or None

    def record_file(self, origin: str, size: int, mtime_ns: int, settings: str) -> None:
        self._conn.execute(
            "INSERT INTO files VALUES (?, ?, ?, ?, ?) ON CONFLICT (origin) DO UPDATE SET"
            " size = excluded.size, mtime_ns = excluded.mtime_ns, settings = excluded.settings,"
            " recorded_ns = excluded.recorded_ns",
            (origin, size, mtime_ns, settings, time.time_ns()),
        )

    def forget_file(self, origin: str) -> None:
        self._conn.execute("DELETE FROM files WHERE origin = ?", (origin,))

    def origins_under(self, directory: str) -> list[str]:
        """Origins stored from inside ``directory`` (an absolute path)."""
        prefix = directory.rstrip("/") + "/"
        rows = self._conn.execute(
            "SELECT DISTINCT origin FROM documents WHERE substr(origin, 1, ?) = ?",
            (len(prefix), prefix),
        )
        return [r[0] for r in rows]

    def name_origin(self, origin: str, name: str) -> None:
        """Show the documents read from ``origin`` as ``name`` (a record file's as
        ``name#id``); only the name changes, never a document's identity."""
        self._conn.execute(
            "UPDATE documents SET path = ?1 || substr(source, length(origin) + 1)"
            " WHERE origin = ?2 AND path IS NOT ?1 || substr(source, length(origin) + 1)",
            (name, origin),
        )

    def name_taken(self, name: str, origin: str) -> bool:
        """Whether a document read from elsewhere than ``origin`` is shown as ``name`` (or,
        from a record file, as ``name#id``)."""
        row = self._conn.execute(
            "SELECT 1 FROM documents WHERE origin IS NOT ?2"
            " AND (path = ?1 OR (path >= ?1 || '#' AND path < ?1 || '$')) LIMIT 1",
            (name, origin),
        ).fetchone()
        return row is not None

    def documents_from(self, origin: str) -> list[int]:
        rows = self._conn.execute("SELECT id FROM documents WHERE origin = ?", (origin,))
        return [r[0] for r in rows]

    def put_documents(self, documents: Sequence[NewDocument]) -> list[int]:
        """Insert each document, or replace one in place (keeping its rowid), with its chunks
        (see ``index.writes``); the rowid of each, in order."""
        rowids, first_chunk = writes.put_documents(self._conn, documents)
        self.mark_changed(rowids)
        if self._follower is not None:
            self._follower.put(documents, rowids, first_chunk)
        return rowids

    def put_document(self, **fields: Any) -> int:
        """``put_documents`` of one document, given as ``NewDocument``'s fields."""
        return self.put_documents([NewDocument(**fields)])[0]

    def delete_documents(self, rowids: Iterable[int]) -> int:
        ids = [(r,) for r in rowids]
        self._conn.executemany("DELETE FROM documents WHERE id = ?", ids)
        self.mark_changed(r for (r,) in ids)
        if self._follower is not None and ids:
            self._follower.delete([r for (r,) in ids])
        return len(ids)

    # -- the change log the derived indexes catch up from -----------------------------------------
    def mark_changed(self, rowids: Iterable[int], scope: str | None = None) -> None:
        """Log documents whose derived entries must be redone (``scope``: only that index's)."""
        self._conn.executemany(
            "INSERT INTO changes (doc, scope) VALUES (?, ?)", [(r, scope) for r in rowids]
        )

    def head(self) -> int:
        """The newest change's number (0 for none)."""
        return int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM changes").fetchone()[0])

    def applied(self, index: str) -> int | None:
        """The last change ``index`` has applied, or None when it was never built."""
        row = self._conn.execute(
            "SELECT value FROM manifest WHERE key = ?", (f"derived.{index}.applied",)
        ).fetchone()
        return None if row is None else int(row[0])

    def pending(self, index: str, upto: int | None = None) -> list[int]:
        """Documents changed since ``index`` last caught up (all changes when never built)."""
        since = self.applied(index) or 0
        rows = self._conn.execute(
            "SELECT DISTINCT doc FROM changes WHERE seq > ? AND seq <= ?"
            " AND (scope IS NULL OR scope = ?) ORDER BY doc",
            (since, self.head() if upto is None else upto, index),
        )
        return [r[0] for r in rows]

    def version(self) -> tuple[int, int]:
        """What differs whenever the store may have changed: a commit by another connection
        (SQLite's ``data_version``) or a row written through this one (``total_changes``,
        committed or not)."""
        found = self._conn.execute("PRAGMA data_version").fetchone()[0]
        return int(found), self._conn.total_changes

    def in_step(self, index: str) -> tuple[int, int] | None:
        """The store's ``version`` when ``index`` has applied every logged change, else None.
        The version is read first: a change made meanwhile leaves it an older one."""
        version = self.version()
        return version if self.applied(index) is not None and not self.pending(index) else None

    def changes_logged(self) -> bool:
        """Whether the change log holds a change some derived index has not applied (one
        statement; ``unsearched`` counts them per index)."""
        return bool(self._conn.execute("SELECT EXISTS (SELECT 1 FROM changes)").fetchone()[0])

    def unsearched(self, index: str) -> int:
        """Documents stored now that ``index`` has not caught up with (new or changed since;
        the rows of a document deleted or replaced meanwhile are not counted)."""
        since = self.applied(index)
        if since is None:
            return 0  # never built: opening rebuilds it whole
        row = self._conn.execute(
            "SELECT count(DISTINCT c.doc) FROM changes c JOIN documents d ON d.id = c.doc"
            " WHERE c.seq > ? AND (c.scope IS NULL OR c.scope = ?)",
            (since, index),
        ).fetchone()
        return int(row[0])

    def set_applied(self, index: str, seq: int) -> None:
        """Record that ``index`` has applied every change up to ``seq``; forget the changes
        every index has applied."""
        with self.transaction():
            self.set_manifest(f"derived.{index}.applied", str(seq))
            self._conn.execute(
                "DELETE FROM changes WHERE seq <= (SELECT min(CAST(value AS INTEGER))"
                " FROM manifest WHERE key LIKE 'derived.%.applied')"
            )

    # -- dense vectors ----------------------------------------------------------------------------
    def chunks_without_vectors(self) -> list[tuple[int, str]]:
        """``(chunk rowid, text to embed)`` for every chunk that has no vector yet."""
        where = "NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk = c.id) ORDER BY c.doc"
        return [(rowid, text) for rowid, _, text in spans.indexed_texts(self._conn, where, ())]

    def chunks_without_fold(self, after: int, limit: int) -> list[tuple[int, str]]:
        """``(chunk rowid, text)`` of up to ``limit`` chunks past ``after`` that have no
        near-duplicate fingerprint (stored before schema 7), in rowid order."""
        rows = self._conn.execute(
            'SELECT id, doc, start, "end" FROM chunks WHERE fold IS NULL AND id > ?'
            " ORDER BY id LIMIT ?",
            (after, limit),
        ).fetchall()
        return list(zip((row[0] for row in rows), spans.texts_of(self._conn, rows), strict=True))

    def chunk_folds(self) -> Iterator[tuple[int, bytes | None]]:
        """``(chunk rowid, near-duplicate fingerprint or None)`` of every chunk, in rowid order."""
        rows = self._conn.execute("SELECT id, fold FROM chunks ORDER BY id")
        while batch := rows.fetchmany(2000):
            yield from batch

    def chunks_after(self, rowid: int) -> int:
        """How many chunks have a rowid above ``rowid``."""
        found = self._conn.execute("SELECT count(*) FROM chunks WHERE id > ?", (rowid,))
        return int(found.fetchone()[0])

    def unfolded_count(self) -> int:
        return int(
            self._conn.execute("SELECT count(*) FROM chunks WHERE fold IS NULL").fetchone()[0]
        )

    def put_folds(self, rows: Iterable[tuple[bytes, int]]) -> None:
        """Store ``(fingerprint, chunk rowid)`` pairs."""
        self._conn.executemany("UPDATE chunks SET fold = ? WHERE id = ?", rows)

    def put_vectors(self, rows: Sequence[tuple[int, bytes]]) -> None:
        """Store chunk vectors, and log their documents for the vector index."""
        # An upsert, not INSERT OR REPLACE: a replace deletes without firing the count trigger.
        self._conn.executemany(
            "INSERT INTO chunk_vectors VALUES (?, ?)"
            " ON CONFLICT (chunk) DO UPDATE SET vector = excluded.vector",
            rows,
        )
        for i in range(0, len(rows), 500):
            batch = [chunk for chunk, _ in rows[i : i + 500]]
            marks = ",".join("?" * len(batch))
            self._conn.execute(
                "INSERT INTO changes (doc, scope)"
                f" SELECT DISTINCT doc, 'vector' FROM chunks WHERE id IN ({marks})",
                batch,
            )

    def vectors(self, doc_rowids: Sequence[int] | None = None) -> Iterator[tuple[int, int, bytes]]:
        """``(chunk rowid, document rowid, float32 bytes)`` for some documents, or all."""
        sql = "SELECT c.id, c.doc, v.vector FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk"
        return self._per_document(sql, doc_rowids)

    def vector_count(self) -> int:
        return self._count("vectors")

    # -- the sentences the extract may show (``index.sentences``) -------------------------------
    def unsplit_chunks(self) -> list[sentences.Unsplit]:
        return sentences.unsplit(self._conn)

    def put_sentences(self, rows: Sequence[tuple[int, bytes, bytes]]) -> None:
        sentences.put(self._conn, rows)

    def sentences_of(
        self, chunk_ids: Sequence[str], dims: int
    ) -> dict[str, sentences.ChunkSentences]:
        return sentences.read(self._conn, chunk_ids, dims)

    def clear_sentences(self) -> int:
        with self.transaction():
            return sentences.clear(self._conn)

    def _count(self, name: str) -> int:
        return int(self._conn.execute("SELECT n FROM counts WHERE name = ?", (name,)).fetchone()[0])

    def indexed_texts(
        self, doc_rowids: Sequence[int] | None = None
    ) -> Iterator[tuple[int, int, str]]:
        """``(chunk rowid, document rowid, text to index)`` for some documents, or all."""
        if doc_rowids is None:
            yield from spans.indexed_texts(self._conn, "1 ORDER BY c.doc, c.id", ())
            return
        for i in range(0, len(doc_rowids), 500):
            batch = doc_rowids[i : i + 500]
            marks = ",".join("?" * len(batch))
            where = f"c.doc IN ({marks}) ORDER BY c.doc, c.id"
            yield from spans.indexed_texts(self._conn, where, batch)

    def _per_document(self, sql: str, doc_rowids: Sequence[int] | None) -> Iterator[Any]:
        """Rows of ``sql`` (over chunks ``c``) for some documents, in batches, or for all."""
        if doc_rowids is None:
            yield from self._conn.execute(sql + " ORDER BY c.id")
            return
        for i in range(0, len(doc_rowids), 500):
            batch = doc_rowids[i : i + 500]
            marks = ",".join("?" * len(batch))
            yield from self._conn.execute(f"{sql} WHERE c.doc IN ({marks})", batch)

    # -- reads ------------------------------------------------------------------------------------
    def chunks_by_rowid(self, rowids: Sequence[int]) -> dict[int, ChunkRow]:
        found: dict[int, ChunkRow] = {}
        for i in range(0, len(rowids), 500):
            batch = rowids[i : i + 500]
            marks = ",".join("?" * len(batch))
            found.update(
                (r.rowid, r) for r in spans.chunk_rows(self._conn, f"c.id IN ({marks})", batch)
            )
        return found

    def hit_rows(self, rowids: Sequence[int], *, fold: bool = False) -> dict[int, HitRow]:
        """The rows a search shows, by chunk rowid; ``fold``: with their fingerprints. Each
        document is read once, however many of its chunks are asked for."""
        return spans.hit_rows(self._conn, rowids, fold=fold) if rowids else {}

    def present(self, rowids: Sequence[int]) -> set[int]:
        """Those of the chunk rowids ``rowids`` still stored."""
        return spans.present(self._conn, rowids) if rowids else set()

    def chunk(self, chunk_id: str) -> tuple[ChunkRow, DocumentRow] | None:
        found = self._conn.execute("SELECT doc FROM chunks WHERE chunk_id = ?", (chunk_id,))
        doc = found.fetchone()
        row = next(spans.chunk_rows(self._conn, "c.chunk_id = ?", (chunk_id,)), None)
        document = None if doc is None else self.document(doc[0])
        return None if row is None or document is None else (row, document)

    def document(self, rowid: int) -> DocumentRow | None:
        found = self._documents("id = ?", (rowid,))
        return found[0] if found else None

    def all_documents(self) -> list[DocumentRow]:
        return self._documents("1", ())

    def all_chunks(self) -> Iterator[ChunkRow]:
        return spans.chunk_rows(self._conn, "1", ())

    def find_documents(self, key: str) -> list[DocumentRow]:
        """Documents whose id or source is ``key``; failing that, those shown as ``key`` (a path
        relative to the folder ingested) or with that external id."""
        exact = self._documents("document_id = ?1 OR source = ?1", (key,))
        return exact or self._documents("path = ?1 OR external_id = ?1", (key,))

    def _documents(self, where: str, params: tuple[Any, ...]) -> list[DocumentRow]:
        rows = self._conn.execute(
            "SELECT id, document_id, source, coalesce(path, source), origin, external_id, format,"
            f" title, text, content_hash, metadata FROM documents WHERE {where} ORDER BY id",
            params,
        )
        return [
            DocumentRow(
                rowid, doc_id, source, path, origin, ext, fmt, title, text, digest, json.loads(meta)
            )
            for rowid, doc_id, source, path, origin, ext, fmt, title, text, digest, meta in rows
        ]

    def filter_chunks(self, source_glob: str | None, where: dict[str, Any]) -> list[int]:
        """Chunk rowids whose source matches the glob and whose metadata has every pair (see
        ``index.filters.chunk_filter``)."""
        sql, params = chunk_filter(source_glob, where)
        return [r[0] for r in self._conn.execute(sql, params)]

    def counts(self) -> tuple[int, int]:
        """``(documents, chunks)``, kept by triggers: no table is scanned."""
        return self._count("documents"), self._count("chunks")

    def formats(self) -> dict[str, int]:
        rows = self._conn.execute("SELECT format, count(*) FROM documents GROUP BY format")
        return dict(rows.fetchall())

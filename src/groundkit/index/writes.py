"""Writing a batch of documents and their chunks, in the order that keeps SQLite's unique
indexes cheap.

``document_id`` and ``chunk_id`` are hashes, so rows inserted in the order they come land at
random places in those indexes: once an index outgrows the CPU's caches, every insert touches a
page far from the last, and an ingest's SQLite writes per document grew by half from 5k to 100k
documents. A batch is inserted sorted by those keys instead (a file's documents and chunks at
once), with rowids given explicitly in the order they come, so rowids still follow the
documents and chunks as read.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from operator import itemgetter

from groundkit.index.rows import NewDocument

__all__ = ["put_documents"]

# ``json.dumps(value, sort_keys=True)``, without making an encoder per call (json.dumps does,
# whenever it is given an option): the same text, for each document and chunk written.
_METADATA_JSON = json.JSONEncoder(sort_keys=True).encode
_SECOND = itemgetter(1)


def _next_rowids(conn: sqlite3.Connection) -> tuple[int, int]:
    """The next free rowid of documents, and of chunks (AUTOINCREMENT: never one used before)."""
    doc = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM documents").fetchone()[0]
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").fetchone()
    chunk = (
        max(
            row[0] if row else 0,
            conn.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0],
        )
        + 1
    )
    return int(doc), int(chunk)


def put_documents(
    conn: sqlite3.Connection, documents: Sequence[NewDocument]
) -> tuple[list[int], int]:
    """Insert each document, or replace it in place (keeping its rowid), with its chunks; the
    rowid of each, in order, and that of the first chunk (the others follow it, in order)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    next_doc, next_chunk = _next_rowids(conn)
    first_chunk = next_chunk
    rowids: list[int] = []
    new: list[tuple[object, ...]] = []
    for d in documents:
        values = (
            d.document_id, d.source, d.path, d.origin, d.external_id, d.format, d.title, d.text,
            d.content_hash, d.fingerprint, _METADATA_JSON(d.metadata), now,
        )  # fmt: skip
        if d.rowid is None:
            rowids.append(next_doc)
            new.append((next_doc, *values))
            next_doc += 1
        else:
            rowids.append(d.rowid)
            conn.execute("DELETE FROM chunks WHERE doc = ?", (d.rowid,))
            conn.execute(
                "UPDATE documents SET document_id = ?, source = ?, path = ?, origin = ?,"
                " external_id = ?, format = ?, title = ?, text = ?, content_hash = ?,"
                " fingerprint = ?, metadata = ?, ingested_at = ? WHERE id = ?",
                (*values, d.rowid),
            )
    new.sort(key=_SECOND)  # by document_id
    conn.executemany(
        "INSERT INTO documents (id, document_id, source, path, origin, external_id, format,"
        " title, text, content_hash, fingerprint, metadata, ingested_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        new,
    )
    chunks: list[tuple[object, ...]] = []
    for rowid, d in zip(rowids, documents, strict=True):
        for i, c in enumerate(d.chunks):
            meta = _METADATA_JSON(c.metadata) if c.metadata else "{}"
            chunks.append(
                (next_chunk, c.chunk_id, rowid, i, c.start, c.end, meta, c.line, c.end_line, c.fold)
            )
            next_chunk += 1
    chunks.sort(key=_SECOND)  # by chunk_id
    conn.executemany(
        "INSERT INTO chunks"
        ' (id, chunk_id, doc, ordinal, start, "end", metadata, line, end_line, fold)'
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        chunks,
    )
    # Counted here, once, not by a trigger per row (migration 10).
    conn.executemany(
        "UPDATE counts SET n = n + ? WHERE name = ?",
        [(len(new), "documents"), (len(chunks), "chunks")],
    )
    return rowids, first_chunk

"""The unique indexes of document and chunk ids, built once at the end of an ingest into an
empty collection rather than kept up row by row.

The ids are hashes, so each row inserted goes to a random page of each index: once the indexes
outgrow the CPU's caches every insert misses them, and an ingest's SQLite writes per document
grew with the collection (25 -> 36 us from 50k to 200k documents; built at the end: 22 -> 23,
and 3 more at the commit, where they are built from the rows sorted in one pass:
benchmarks/store_writes.py). Into a collection that holds documents already, the
indexes are kept up as before: rebuilding them would cost as much as the rows already there.

Dropped and built inside the ingest's transaction: a run that stops before its commit leaves
them as they were, with the rows. A duplicate id (a hash collision: ``source`` is still checked
row by row) fails the whole run at the end instead of its one file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["built_at_end"]

# (index, table, column): named in migration 12.
_KEYS = (("documents_key", "documents", "document_id"), ("chunks_key", "chunks", "chunk_id"))


@contextmanager
def built_at_end(conn: sqlite3.Connection) -> Iterator[None]:
    """Inside a write transaction: when the store is empty, drop the id indexes for the block
    and build them when it ends without raising (when it raises, the rollback restores them)."""
    empty = conn.execute("SELECT NOT EXISTS (SELECT 1 FROM documents)").fetchone()[0]
    if not empty:
        yield
        return
    for name, _, _ in _KEYS:
        conn.execute(f"DROP INDEX {name}")
    yield
    for name, table, column in _KEYS:
        conn.execute(f"CREATE UNIQUE INDEX {name} ON {table} ({column})")

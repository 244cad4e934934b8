"""Schema migrations for a collection's SQLite store, applied in order on open."""

from __future__ import annotations

import sqlite3

from groundkit.errors import ErrorCode, StoreError

__all__ = ["SCHEMA_VERSION", "migrate"]

_MIGRATIONS: tuple[str, ...] = (
    # 1: documents with their whole normalised text; chunks as offsets into it.
    """
    CREATE TABLE manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        document_id TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL UNIQUE,
        origin TEXT NOT NULL,
        external_id TEXT,
        format TEXT NOT NULL,
        title TEXT,
        text TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        ingested_at TEXT NOT NULL
    );
    CREATE INDEX documents_origin ON documents (origin);
    -- AUTOINCREMENT: a chunk rowid is never reused, so a posting the lexical index has not yet
    -- dropped can only miss, never point at another chunk's text.
    CREATE TABLE chunks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chunk_id TEXT NOT NULL UNIQUE,
        doc INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        start INTEGER NOT NULL,
        "end" INTEGER NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX chunks_doc ON chunks (doc);
    -- Documents whose lexical postings must be made to match their chunks here. Written in the
    -- same transaction as the change, cleared after the lexical index commits: a crash in
    -- between is repaired on the next open.
    CREATE TABLE lexical_pending (doc INTEGER PRIMARY KEY);
    """,
    # 2: dense vectors, one per chunk, as float32 bytes; the vector index is derived from them.
    """
    CREATE TABLE chunk_vectors (
        chunk INTEGER PRIMARY KEY REFERENCES chunks (id) ON DELETE CASCADE,
        vector BLOB NOT NULL
    );
    -- Like lexical_pending, for the derived vector index.
    CREATE TABLE vector_pending (doc INTEGER PRIMARY KEY);
    """,
    # 3: counting vectors must not read every vector BLOB (it runs on each open).
    """
    CREATE INDEX chunk_vectors_chunk ON chunk_vectors (chunk);
    """,
)

SCHEMA_VERSION = len(_MIGRATIONS)


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the store up to ``SCHEMA_VERSION``; refuse a store written by a newer groundkit.

    ``conn`` must be in autocommit mode: each migration is its own transaction.
    """
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    if current > SCHEMA_VERSION:
        raise StoreError(
            ErrorCode.STORE_TOO_NEW,
            f"this collection uses schema {current}; this groundkit knows up to {SCHEMA_VERSION}",
            hint="upgrade groundkit",
        )
    for version in range(current + 1, SCHEMA_VERSION + 1):
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE; {_MIGRATIONS[version - 1]}"
                f" INSERT OR REPLACE INTO manifest VALUES ('schema_version', '{version}');"
                f" PRAGMA user_version = {version}; COMMIT;"
            )
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

"""Schema migrations for a code map's SQLite file, applied in order on open by the shared SQLite
layer, as a collection's store's are (``PRAGMA user_version`` holds the version; a newer file is
refused)."""

from __future__ import annotations

from groundkit.storage.sqlite import Migration, Schema

__all__ = ["SCHEMA", "SCHEMA_VERSION"]

_MIGRATIONS: tuple[Migration, ...] = (
    # 1: files with their facts; nodes and edges, each owned by the file whose resolution made it
    # ('' for the map-wide pass: routes, their edges, HTTP calls, outside nodes).
    """
    CREATE TABLE manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE files (
        path TEXT PRIMARY KEY,
        language TEXT NOT NULL,
        digest TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime INTEGER NOT NULL DEFAULT 0,
        extractor TEXT NOT NULL,
        interface BLOB NOT NULL,
        body BLOB NOT NULL,
        interface_digest TEXT NOT NULL,
        keys TEXT NOT NULL DEFAULT '[]',
        unresolved INTEGER NOT NULL DEFAULT 0,
        web TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX files_digest ON files (digest);
    CREATE TABLE deps (key TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (key, path))
        WITHOUT ROWID;
    CREATE INDEX deps_path ON deps (path);
    CREATE TABLE nodes (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        path TEXT NOT NULL,
        language TEXT NOT NULL,
        line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        owner TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX nodes_name ON nodes (name);
    CREATE INDEX nodes_kind ON nodes (kind);
    CREATE INDEX nodes_owner ON nodes (owner);
    CREATE TABLE edges (
        kind TEXT NOT NULL,
        source TEXT NOT NULL,
        target TEXT NOT NULL,
        provenance TEXT NOT NULL,
        confidence REAL NOT NULL,
        path TEXT NOT NULL,
        line INTEGER NOT NULL,
        col INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        end_col INTEGER NOT NULL,
        quote TEXT NOT NULL,
        evidence TEXT NOT NULL,
        flags TEXT NOT NULL,
        sites INTEGER NOT NULL,
        owner TEXT NOT NULL,
        PRIMARY KEY (source, kind, target)
    ) WITHOUT ROWID;
    CREATE INDEX edges_target ON edges (target, kind);
    CREATE INDEX edges_owner ON edges (owner);
    CREATE TABLE skipped (path TEXT PRIMARY KEY, reason TEXT NOT NULL);
    """,
    # 2: a digest of each file's last resolution, so that one that comes out the same is not
    # written again (a change anywhere resolves a whole language's files).
    """
    ALTER TABLE files ADD COLUMN resolution TEXT NOT NULL DEFAULT '';
    """,
    # 3: why a file is generated source ('' for written by hand): analysed, and flagged.
    """
    ALTER TABLE files ADD COLUMN generated TEXT NOT NULL DEFAULT '';
    """,
    # 4: a language's solver state, kept so that an edit continues the last solve instead of
    # solving the whole program again (``extract/python/values/snapshot.py``), by part name.
    """
    CREATE TABLE solver_state (name TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
    """,
)

SCHEMA = Schema(
    _MIGRATIONS,
    what="code map",
    file="code map",
    too_new_hint="upgrade groundkit, or map the repository again into a new name",
    damaged_hint="if the file is damaged, delete the map and map the repository again",
)
SCHEMA_VERSION = SCHEMA.version

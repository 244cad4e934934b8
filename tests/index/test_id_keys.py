"""Document and chunk ids are unique by named indexes (migration 12), which an ingest into an
empty collection builds once at its end (``index.keys``)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import groundkit
from groundkit.index.migrations import SCHEMA, SCHEMA_VERSION
from groundkit.index.store import Store
from groundkit.storage.sqlite import Database


def _store_of_schema_11(path: Path) -> None:
    """Two documents, three chunks (one deleted since: its rowid is never to be given again),
    a vector and a sentence row, written by the schema before migration 12."""
    db = Database(path, replace(SCHEMA, migrations=SCHEMA.migrations[:11]))
    with db.transaction():
        for rowid in (1, 2):
            db.conn.execute(
                "INSERT INTO documents (id, document_id, source, origin, format, text,"
                " content_hash, fingerprint, ingested_at, path)"
                " VALUES (?, ?, ?, '/o', 'txt', 'some text', 'h', 'f', 'now', ?)",
                (rowid, f"d{rowid}", f"/o/{rowid}", f"{rowid}.txt"),
            )
        for rowid, doc in ((1, 1), (2, 2), (3, 2)):
            db.conn.execute(
                'INSERT INTO chunks (id, chunk_id, doc, ordinal, start, "end")'
                " VALUES (?, ?, ?, 0, 0, 4)",
                (rowid, f"c{rowid}", doc),
            )
        db.conn.execute("UPDATE counts SET n = 2 WHERE name = 'documents'")
        db.conn.execute("UPDATE counts SET n = 3 WHERE name = 'chunks'")
        db.conn.execute("DELETE FROM chunks WHERE id = 3")
        db.conn.execute("INSERT INTO chunk_vectors VALUES (1, x'0000803f')")
        db.conn.execute("INSERT INTO chunk_sentences VALUES (2, x'00', x'01')")
    db.close()


def _index_found_by(conn: sqlite3.Connection, table: str, column: str) -> str:
    plan = conn.execute(f"EXPLAIN QUERY PLAN SELECT * FROM {table} WHERE {column} = 'x'")
    return str(plan.fetchall()[0][-1])


def _rows(path: Path) -> dict[str, object]:
    with sqlite3.connect(path) as conn:
        queries = {
            "documents": "SELECT id, document_id, source, path FROM documents ORDER BY id",
            "chunks": "SELECT id, chunk_id, doc FROM chunks ORDER BY id",
            "vectors": "SELECT * FROM chunk_vectors",
            "sentences": "SELECT * FROM chunk_sentences",
            "counts": "SELECT * FROM counts ORDER BY name",
            "next chunk": "SELECT seq FROM sqlite_sequence WHERE name = 'chunks'",
        }
        return {name: conn.execute(sql).fetchall() for name, sql in queries.items()}


def test_a_store_of_schema_11_opens_with_every_row_vector_and_rowid_kept(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    _store_of_schema_11(path)
    before = _rows(path)
    Store(path).close()
    assert _rows(path) == before
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert "INDEX chunks_key" in _index_found_by(conn, "chunks", "chunk_id")
        # Deleting a document still takes its chunks, their vectors and sentences with it.
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("DELETE FROM documents WHERE id = 1")
        assert conn.execute("SELECT count(*) FROM chunk_vectors").fetchone()[0] == 0
        assert conn.execute("SELECT n FROM counts WHERE name = 'chunks'").fetchone()[0] == 1


def test_chunks_are_found_by_id_through_an_index_after_an_ingest_into_an_empty_collection(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.md").write_text("# Alpha\n\nThe alpha document talks about granite.\n")
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(tmp_path / "a.md")])
        hit = coll.search("granite")[0]
        assert hit.text in coll.show(hit.citation.chunk_id).text
    with sqlite3.connect(tmp_path / "index" / "c" / "store.sqlite") as conn:
        assert "INDEX chunks_key" in _index_found_by(conn, "chunks", "chunk_id")
        assert "INDEX documents_key" in _index_found_by(conn, "documents", "document_id")

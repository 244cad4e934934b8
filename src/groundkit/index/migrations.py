"""Schema migrations for a collection's SQLite store, applied in order on open by the shared
SQLite layer (``storage.sqlite.migrate``: all pending ones in one transaction, decided under the
write lock, so two processes opening a new collection at once do the work once).
"""

from __future__ import annotations

import sqlite3

from groundkit.storage.sqlite import Migration, Schema

__all__ = ["SCHEMA", "SCHEMA_VERSION"]


def _cut_chunk_texts(conn: sqlite3.Connection) -> None:
    """Give each chunk its own text, cut from its document's (migration 7)."""
    documents = conn.execute("SELECT id, text FROM documents ORDER BY id")
    for doc, text in documents:
        rows = conn.execute('SELECT id, start, "end" FROM chunks WHERE doc = ?', (doc,)).fetchall()
        conn.executemany(
            "UPDATE chunks SET text = ? WHERE id = ?",
            [(text[start:end], rowid) for rowid, start, end in rows],
        )


_MIGRATIONS: tuple[Migration, ...] = (
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
    CREATE TABLE lexical_pending (doc INTEGER PRIMARY KEY);
    """,
    # 2: dense vectors, one per chunk, as float32 bytes; the vector index is derived from them.
    """
    CREATE TABLE chunk_vectors (
        chunk INTEGER PRIMARY KEY REFERENCES chunks (id) ON DELETE CASCADE,
        vector BLOB NOT NULL
    );
    CREATE TABLE vector_pending (doc INTEGER PRIMARY KEY);
    """,
    # 3: counting vectors must not read every vector BLOB.
    """
    CREATE INDEX chunk_vectors_chunk ON chunk_vectors (chunk);
    """,
    # 4: one change log for every derived index, and counts kept as rows change.
    #
    # A change is a document whose derived entries must be made to match the store; it is
    # written in the same transaction as the change itself. Each derived index records in the
    # manifest (derived.NAME.applied) the last change it has applied, so a crash between the
    # store's commit and an index's commit is replayed on the next open, and a new kind of index
    # needs no table of its own. ``scope`` names the one index a change concerns (new vectors
    # concern only the vector index); NULL concerns all of them.
    #
    # Counting rows at every open cost 97% of the open time of a million-chunk collection, so
    # triggers keep the counts as rows come and go (cascaded deletes fire them too).
    """
    CREATE TABLE changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        doc INTEGER NOT NULL,
        scope TEXT
    );
    INSERT INTO changes (doc) SELECT doc FROM lexical_pending;
    INSERT INTO changes (doc, scope) SELECT doc, 'vector' FROM vector_pending;
    DROP TABLE lexical_pending;
    DROP TABLE vector_pending;
    CREATE TABLE counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
    INSERT INTO counts VALUES ('documents', (SELECT count(*) FROM documents));
    INSERT INTO counts VALUES ('chunks', (SELECT count(*) FROM chunks));
    INSERT INTO counts VALUES ('vectors', (SELECT count(*) FROM chunk_vectors));
    CREATE TRIGGER documents_in AFTER INSERT ON documents
        BEGIN UPDATE counts SET n = n + 1 WHERE name = 'documents'; END;
    CREATE TRIGGER documents_out AFTER DELETE ON documents
        BEGIN UPDATE counts SET n = n - 1 WHERE name = 'documents'; END;
    CREATE TRIGGER chunks_in AFTER INSERT ON chunks
        BEGIN UPDATE counts SET n = n + 1 WHERE name = 'chunks'; END;
    CREATE TRIGGER chunks_out AFTER DELETE ON chunks
        BEGIN UPDATE counts SET n = n - 1 WHERE name = 'chunks'; END;
    CREATE TRIGGER vectors_in AFTER INSERT ON chunk_vectors
        BEGIN UPDATE counts SET n = n + 1 WHERE name = 'vectors'; END;
    CREATE TRIGGER vectors_out AFTER DELETE ON chunk_vectors
        BEGIN UPDATE counts SET n = n - 1 WHERE name = 'vectors'; END;
    """,
    # 5: what a person sees of a source, and where a chunk lies in it. ``path`` is the source
    # relative to the folder that was ingested (NULL in rows stored before: ``source`` stands
    # in); ``line``/``end_line`` are 1-based lines of a chunk's first and last character.
    """
    ALTER TABLE documents ADD COLUMN path TEXT;
    CREATE INDEX documents_path ON documents (path);
    ALTER TABLE chunks ADD COLUMN line INTEGER;
    ALTER TABLE chunks ADD COLUMN end_line INTEGER;
    """,
    # 6: what each file looked like when it was last read, so that a re-ingest passes over an
    # unchanged file by its size and modification time alone; ``settings`` names the chunking
    # it was read with, and ``recorded_ns`` when, since a file changed within the same clock
    # tick as its reading cannot be told from an unchanged one by its time.
    """
    CREATE TABLE files (
        origin TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        settings TEXT NOT NULL,
        recorded_ns INTEGER NOT NULL
    );
    """,
    # 7: a chunk's own text, and its near-duplicate fingerprint, kept with it. A hit used to be
    # cut out of its document's text (``substr`` of the whole document, read again for every
    # chunk); the fingerprint was made from the text at every search, which cost more than the
    # rest of a hit. Rows stored before keep NULL in ``fold`` (made at search time, as before).
    #    The texts are cut in Python, one read of each document: SQLite's ``substr`` walks a
    #    text from its start, so cutting every chunk of a large document in SQL took seconds.
    (
        """
        ALTER TABLE chunks ADD COLUMN text TEXT;
        ALTER TABLE chunks ADD COLUMN fold BLOB;
        """,
        _cut_chunk_texts,
    ),
    # 8: what a search reads, without reading past what it needs.
    #  - The chunks still without a fingerprint (stored before 7): a search makes a missing one
    #    for every hit of every query (ten times the rest of a hit), so ingest makes and stores
    #    them, and this partial index finds them without reading the table.
    #  - What a hit shows of its document, in an index that covers it: ``path`` was added after
    #    ``text``, so reading it from the row walks every overflow page of the document's text
    #    (five times the cost of a hit from a 2.6 MB page). Search names the index (INDEXED BY):
    #    SQLite's planner prefers the rowid.
    """
    CREATE INDEX chunks_unfolded ON chunks (id) WHERE fold IS NULL;
    CREATE INDEX documents_shown ON documents (id, document_id, external_id, path, source);
    """,
    # 9: each text stored once. A chunk is a span of its document's text again, as in 1-6, but
    # read as readers read a batch of hits since 7: each document once per batch, its chunks cut
    # out in Python (``index.spans``). The copies doubled what an ingest wrote (and the store);
    # the covering index served hits that no longer read a document's row without its text.
    """
    DROP INDEX documents_shown;
    ALTER TABLE chunks DROP COLUMN text;
    """,
    # 10: inserts counted by the one writer that inserts (``index.writes``), once per batch. A
    # trigger run for every row inserted was half of what an ingest's SQLite writes cost (127 ->
    # 62 us per document, benchmarks/ingest_phases.py's corpus). Deletes keep their triggers:
    # cascades delete chunks that no code lists.
    """
    DROP TRIGGER documents_in;
    DROP TRIGGER chunks_in;
    """,
    # 11: the sentences of each chunk that the extractive answer may show, split once at ingest:
    # their offsets in the chunk's text (int32 pairs) and their vectors (float32 rows), by the
    # collection's one embedder, as its chunk vectors are. Embedding them while a reader waits
    # was most of a cold ``grk answer`` (issue 35). A row is deleted with its chunk; a chunk
    # with a vector and no row here is split and embedded by the next ingest.
    """
    CREATE TABLE chunk_sentences (
        chunk INTEGER PRIMARY KEY REFERENCES chunks (id) ON DELETE CASCADE,
        spans BLOB NOT NULL,
        vectors BLOB NOT NULL
    );
    """,
    # 12: ``document_id`` and ``chunk_id`` unique by named indexes, not column constraints, so
    # that an ingest into an empty collection can build them once at its end (``index.keys``):
    # kept up row by row, these indexes of hashes took each insert to a random page, and an
    # ingest's SQLite writes per document grew 1.5x from 50k to 200k documents (``keys``,
    # benchmarks/store_writes.py).
    # SQLite cannot drop a column's constraint: each table is copied. Migrations run with
    # foreign keys off (``storage.sqlite``), and with ``legacy_alter_table`` renaming a table
    # leaves the tables that refer to it by name (chunks -> documents, vectors and sentences ->
    # chunks) referring to the name, so to the copy; dropping the original cascades nowhere.
    """
    PRAGMA legacy_alter_table = ON;
    ALTER TABLE documents RENAME TO documents_v11;
    CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        document_id TEXT NOT NULL,
        source TEXT NOT NULL UNIQUE,
        origin TEXT NOT NULL,
        external_id TEXT,
        format TEXT NOT NULL,
        title TEXT,
        text TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        ingested_at TEXT NOT NULL,
        path TEXT
    );
    INSERT INTO documents SELECT * FROM documents_v11;
    DROP TABLE documents_v11;
    CREATE UNIQUE INDEX documents_key ON documents (document_id);
    CREATE INDEX documents_origin ON documents (origin);
    CREATE INDEX documents_path ON documents (path);
    CREATE TRIGGER documents_out AFTER DELETE ON documents
        BEGIN UPDATE counts SET n = n - 1 WHERE name = 'documents'; END;
    ALTER TABLE chunks RENAME TO chunks_v11;
    CREATE TABLE chunks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chunk_id TEXT NOT NULL,
        doc INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        start INTEGER NOT NULL,
        "end" INTEGER NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        line INTEGER,
        end_line INTEGER,
        fold BLOB
    );
    -- The copy keeps the old table's highest rowid ever given (AUTOINCREMENT, migration 1).
    INSERT INTO sqlite_sequence (name, seq)
        SELECT 'chunks', seq FROM sqlite_sequence WHERE name = 'chunks_v11';
    INSERT INTO chunks SELECT * FROM chunks_v11;
    DROP TABLE chunks_v11;
    CREATE UNIQUE INDEX chunks_key ON chunks (chunk_id);
    CREATE INDEX chunks_doc ON chunks (doc);
    CREATE INDEX chunks_unfolded ON chunks (id) WHERE fold IS NULL;
    CREATE TRIGGER chunks_out AFTER DELETE ON chunks
        BEGIN UPDATE counts SET n = n - 1 WHERE name = 'chunks'; END;
    PRAGMA legacy_alter_table = OFF;
    """,
)

SCHEMA = Schema(
    _MIGRATIONS,
    what="collection",
    file="collection store",
    too_new_hint="upgrade groundkit",
    damaged_hint="restore store.sqlite from a backup, or ingest the sources into a new collection",
    # A document's row (its whole text, some 2 KB in scale.py's corpus) took a 4 KB page to
    # itself, half of it empty, and an ingest is one transaction whose write-ahead log SQLite
    # searches, block by block, on each page it spills: with a quarter of the pages, an ingest's
    # SQLite writes per document grew 1.4x from 80k to 400k documents, not 2.3x
    # (benchmarks/README.md, issue 24). Hits read no slower.
    page_size=16384,
)
SCHEMA_VERSION = SCHEMA.version

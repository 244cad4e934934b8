"""The stored sentences of each chunk: where they lie in its text, and their vectors.

What counts as a sentence is not decided here: ingest is handed a splitter from above (the
extractive answer's own, ``answer.shown``), and this module only keeps what it found, one row
per chunk (``chunk_sentences``, migration 11). A chunk's row goes with the chunk (a foreign key
that cascades), so deleting or re-ingesting a document drops its sentences in the same
transaction; ``clear`` drops every row, and the next ingest makes them again from the store.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundkit.index import spans

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["ChunkSentences", "Unsplit", "clear", "put", "read", "unsplit"]


@dataclass(frozen=True, slots=True)
class Unsplit:
    """A chunk with a vector whose sentences were not stored yet: its text as a hit shows it,
    and its document's name as shown (release notes are told by it)."""

    rowid: int
    source: str
    text: str


@dataclass(frozen=True, slots=True)
class ChunkSentences:
    """A chunk's stored sentences: ``spans[i]`` is ``(start, end)`` in the chunk's text,
    ``texts[i]`` the text there (cut from the store), and ``vectors[i]`` its vector."""

    spans: list[tuple[int, int]]
    texts: list[str]
    vectors: npt.NDArray[np.float32]


def unsplit(conn: sqlite3.Connection) -> list[Unsplit]:
    """Every chunk that has a vector and no stored sentences, in rowid order."""
    rows = conn.execute(
        'SELECT c.id, c.doc, c.start, c."end", coalesce(d.path, d.source) FROM chunks c'
        " JOIN documents d ON d.id = c.doc"
        " WHERE EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk = c.id)"
        " AND NOT EXISTS (SELECT 1 FROM chunk_sentences s WHERE s.chunk = c.id) ORDER BY c.id"
    ).fetchall()
    texts = spans.texts_of(conn, [row[:4] for row in rows])
    return [Unsplit(row[0], row[4], text) for row, text in zip(rows, texts, strict=True)]


def put(conn: sqlite3.Connection, rows: Sequence[tuple[int, bytes, bytes]]) -> None:
    """Store ``(chunk rowid, int32 offset pairs, float32 vectors)`` rows."""
    conn.executemany(
        "INSERT INTO chunk_sentences VALUES (?, ?, ?) ON CONFLICT (chunk)"
        " DO UPDATE SET spans = excluded.spans, vectors = excluded.vectors",
        rows,
    )


def read(
    conn: sqlite3.Connection, chunk_ids: Sequence[str], dims: int
) -> dict[str, ChunkSentences]:
    """The stored sentences of each of ``chunk_ids`` that has them (by public chunk id)."""
    import numpy as np

    rows = conn.execute(
        'SELECT c.chunk_id, c.doc, c.start, c."end", s.spans, s.vectors FROM chunk_sentences s'
        " JOIN chunks c ON c.id = s.chunk WHERE c.chunk_id IN (SELECT value FROM json_each(?))",
        (json.dumps(list(chunk_ids)),),
    ).fetchall()
    texts = spans.texts_of(conn, [(0, doc, start, end) for _, doc, start, end, _, _ in rows])
    out = {}
    for (chunk_id, _doc, _start, _end, offsets, vectors), text in zip(rows, texts, strict=True):
        pairs = [(int(a), int(b)) for a, b in np.frombuffer(offsets, np.int32).reshape(-1, 2)]
        if len(vectors) != len(pairs) * dims * 4:  # a row of another width: not this embedder's
            continue
        found = np.frombuffer(vectors, dtype=np.float32).reshape(-1, dims)
        out[chunk_id] = ChunkSentences(pairs, [text[a:b] for a, b in pairs], found)
    return out


def clear(conn: sqlite3.Connection) -> int:
    """Drop every chunk's stored sentences (to make them anew); returns how many rows."""
    return conn.execute("DELETE FROM chunk_sentences").rowcount

"""Reading chunks whose text is a span of their document's, stored once (migration 9).

Every reader here takes a batch of chunk rows, reads each of their documents once (one query
for the batch), and cuts the chunks' texts out in Python. SQLite's ``substr`` walks a text from
its start, and a join repeats the document's columns for each of its chunks, so either way a long
document was read once per chunk.

A batch of rowids is handed to SQLite as one JSON array (``json_each``), not one bound parameter
each: binding a hundred parameters cost as much as the lookups themselves.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import groupby
from typing import Any, TypeVar

from groundkit.index.rows import (
    CHUNK_COLUMNS,
    DOCUMENT_COLUMNS,
    HEADINGS,
    HIT_COLUMNS,
    ChunkRow,
    HitRow,
    chunk_row,
    hit_rows_of,
    indexed_text,
)

__all__ = ["chunk_rows", "hit_rows", "indexed_texts", "present", "texts_of"]

_BATCH = 500  # chunk rows read at a time
T = TypeVar("T")


def _array(ids: Iterable[int]) -> str:
    """``ids`` as the JSON array ``json_each`` reads."""
    return f"[{','.join(map(str, ids))}]"


def _documents(conn: sqlite3.Connection, ids: Iterable[int], columns: str) -> dict[int, Any]:
    """``columns`` (the first being ``d.id``) of each document in ``ids``, by rowid."""
    rows = conn.execute(
        f"SELECT {columns} FROM documents d WHERE d.id IN (SELECT value FROM json_each(?))",
        (_array(set(ids)),),
    )
    return {row[0]: row for row in rows}


def _cut(
    conn: sqlite3.Connection, rows: Sequence[tuple[Any, ...]], doc_at: int, make: Callable[..., T]
) -> Iterator[T]:
    """``make(row, its document's DOCUMENT_COLUMNS)`` for each chunk row (``row[doc_at]``: its
    document's rowid); a row whose document is gone is left out."""
    documents = _documents(conn, (row[doc_at] for row in rows), DOCUMENT_COLUMNS)
    for row in rows:
        document = documents.get(row[doc_at])
        if document is not None:
            yield make(row, document)


# A search's reads look each id up in the order given (a join on ``json_each``): ``IN (SELECT
# value FROM json_each(?))`` first copies the ids into a temporary index, which cost as much as
# the lookups (with the Python below it, a sixth of a top-10 search on SciFact). An id given twice
# gives its row twice, kept once by rowid; each document's id is given once.
_HITS = f"SELECT {HIT_COLUMNS}, NULL FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value"
_HITS_FOLDED = _HITS.replace(", NULL FROM", ", c.fold FROM")
_HIT_DOCUMENTS = (
    f"SELECT {DOCUMENT_COLUMNS} FROM json_each(?) j CROSS JOIN documents d ON d.id = j.value"
)


def hit_rows(conn: sqlite3.Connection, rowids: Sequence[int], *, fold: bool) -> dict[int, HitRow]:
    rows = conn.execute(_HITS_FOLDED if fold else _HITS, (_array(rowids),)).fetchall()
    documents = conn.execute(_HIT_DOCUMENTS, (_array({row[5] for row in rows}),)).fetchall()
    return hit_rows_of(rows, {document[0]: document for document in documents})


# A search that need not read its hits' rows yet only asks whether they are still stored: the
# chunk's rowid alone is read, from the table's own b-tree (no document, no text). Counted first:
# nearly always all are, and one row back costs a tenth of a hundred (each a step from Python).
_PRESENT = "SELECT c.id FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value"
_PRESENT_COUNT = "SELECT count(*) FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value"


def present(conn: sqlite3.Connection, rowids: Sequence[int]) -> set[int]:
    ids = set(rowids)
    array = _array(ids)
    if conn.execute(_PRESENT_COUNT, (array,)).fetchone()[0] == len(ids):
        return ids
    return {row[0] for row in conn.execute(_PRESENT, (array,))}


def chunk_rows(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> Iterator[ChunkRow]:
    """The chunks ``where`` (over ``chunks c``) selects, in document order, a batch at a time."""
    rows = conn.execute(
        f"SELECT {CHUNK_COLUMNS} FROM chunks c WHERE {where} ORDER BY c.doc, c.ordinal", params
    )
    while batch := rows.fetchmany(_BATCH):
        yield from _cut(conn, batch, 6, chunk_row)


def texts_of(conn: sqlite3.Connection, rows: Sequence[tuple[int, int, int, int]]) -> list[str]:
    """The text of each ``(chunk rowid, document rowid, start, end)``, in order ('' for a chunk
    whose document is gone)."""
    documents = _documents(conn, (row[1] for row in rows), "d.id, d.text")
    return [documents[doc][1][start:end] if doc in documents else "" for _, doc, start, end in rows]


def indexed_texts(
    conn: sqlite3.Connection, where: str, params: Sequence[Any]
) -> Iterator[tuple[int, int, str]]:
    """``(chunk rowid, document rowid, text to index)`` of the chunks ``where`` (over ``chunks
    c``) selects, in rowid order within each batch of rows read."""
    rows = conn.execute(
        f'SELECT c.id, c.doc, c.start, c."end", {HEADINGS} FROM chunks c WHERE {where}', params
    )
    while batch := rows.fetchmany(_BATCH * 4):
        documents = _documents(conn, (row[1] for row in batch), "d.id, d.title, d.text")
        for doc, group in groupby(batch, key=lambda row: row[1]):
            found = documents.get(doc)
            if found is None:
                continue
            _, title, text = found
            for rowid, _, start, end, headings in group:
                yield rowid, doc, indexed_text(title, text, start, end, headings)

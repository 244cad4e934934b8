"""The rows a collection's store gives and takes: documents, chunks, hits, ingest state, and the
SQL that reads each (the store runs it; these are only its shapes)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from groundkit.types import Metadata

__all__ = [
    "CHUNK_COLUMNS",
    "DOCUMENT_COLUMNS",
    "HEADINGS",
    "HIT_COLUMNS",
    "ChunkRow",
    "DocumentRow",
    "HitRow",
    "IngestState",
    "NewChunk",
    "NewDocument",
    "chunk_row",
    "hit_rows_of",
    "indexed_text",
]

# A chunk is a span of its document's text, stored once, in the document (migration 9): readers
# take each document's text once per batch of rows and cut its chunks out in Python (SQLite's
# ``substr`` walks a text from its start, so cutting many chunks of a long document in SQL costs
# as much as reading it many times).
#
# What the lexical index sees of a chunk (``indexed_text``): its text, preceded by the context a
# reader of the chunk would have: the document's title and the Markdown heading path, when the
# chunk does not itself begin with them. Hits still cite (and show) the chunk text alone.
HEADINGS = "(SELECT group_concat(value, char(10)) FROM json_each(c.metadata, '$.heading_path'))"
# A chunk's own columns; its document's come from DOCUMENT_COLUMNS, read once per document.
CHUNK_COLUMNS = (
    'c.id, c.chunk_id, c.ordinal, c.start, c."end", c.metadata, c.doc, c.line, c.end_line'
)
DOCUMENT_COLUMNS = (
    "d.id, d.document_id, d.external_id, coalesce(d.path, d.source), d.source, d.text"
)


def indexed_text(title: str | None, text: str, start: int, end: int, headings: str | None) -> str:
    """What the lexical index and the embedder see of the chunk ``text[start:end]``."""
    cut = text[start:end]
    context = f"{title}\n" if start > 0 and title is not None else ""
    if headings is not None and not cut.startswith("#"):
        context += f"{headings}\n"
    return context + cut if context else cut


@dataclass(frozen=True, slots=True)
class ChunkRow:
    rowid: int
    chunk_id: str
    ordinal: int
    start: int
    end: int
    metadata: Metadata
    text: str
    document_id: str
    external_id: str | None
    source: str  # as shown: relative to the folder that was ingested, or the URL
    location: str  # the absolute path (and "#record-id"), or the URL
    line: int | None  # None in rows stored before lines were kept
    end_line: int | None


class HitRow(NamedTuple):
    """What a search reads of each chunk it ranks: a tuple, with the metadata as stored (JSON),
    parsed only if a caller asks for it, and the near-duplicate fingerprint (None in rows stored
    before fingerprints were kept)."""

    rowid: int
    chunk_id: str
    start: int
    end: int
    metadata_json: str
    text: str
    document_id: str
    external_id: str | None
    source: str
    location: str
    line: int | None
    end_line: int | None
    fold: bytes | None


HIT_COLUMNS = 'c.id, c.chunk_id, c.start, c."end", c.metadata, c.doc, c.line, c.end_line'


@dataclass(frozen=True, slots=True)
class DocumentRow:
    rowid: int
    document_id: str
    source: str  # the identity: absolute path (and "#record-id"), or the URL
    path: str  # as shown
    origin: str
    external_id: str | None
    format: str
    title: str | None
    text: str
    content_hash: str
    metadata: Metadata


class IngestState(NamedTuple):
    """What is stored of one source. A tuple: it is made for every record of a large file on
    each re-ingest."""

    rowid: int
    fingerprint: str
    content_hash: str
    format: str


class NewChunk(NamedTuple):
    """A chunk to store. A tuple, as ``IngestState``: an ingest makes one for every chunk, and a
    frozen dataclass's ``__init__`` (a ``setattr`` per field) cost three times as much."""

    chunk_id: str
    start: int
    end: int
    metadata: Metadata
    line: int
    end_line: int
    # The near-duplicate fingerprint (``retrieve.duplicates.Fingerprint.to_bytes``); None: made
    # at search time instead. The chunk's text is its span of the document's: not stored again.
    fold: bytes | None = None


@dataclass(frozen=True, slots=True)
class NewDocument:
    """A document to store with its chunks; ``rowid``: the one it replaces, or None."""

    rowid: int | None
    document_id: str
    source: str
    path: str
    origin: str
    external_id: str | None
    format: str
    title: str | None
    text: str
    content_hash: str
    fingerprint: str
    metadata: Metadata
    chunks: Sequence[NewChunk]


def chunk_row(row: tuple[Any, ...], document: tuple[Any, ...]) -> ChunkRow:
    """A ``ChunkRow`` from a row of ``CHUNK_COLUMNS`` and its document's ``DOCUMENT_COLUMNS``."""
    rowid, chunk_id, ordinal, start, end, meta, _doc, line, end_line = row
    _id, document_id, external_id, shown, source, text = document
    return ChunkRow(
        rowid,
        chunk_id,
        ordinal,
        start,
        end,
        json.loads(meta),
        text[start:end],
        document_id,
        external_id,
        shown,
        source,
        line,
        end_line,
    )


def hit_rows_of(
    rows: Sequence[tuple[Any, ...]], documents: dict[int, tuple[Any, ...]]
) -> dict[int, HitRow]:
    """``HitRow``s by rowid, from rows of ``HIT_COLUMNS`` (and the fingerprint) and their
    documents' ``DOCUMENT_COLUMNS`` by rowid; a row whose document is gone is left out."""
    found: dict[int, HitRow] = {}
    # One loop, no call per row: a search makes a row for every hit it reads.
    for rowid, chunk_id, start, end, meta, doc, line, end_line, fold in rows:
        document = documents.get(doc)
        if document is None:
            continue
        _id, document_id, external_id, shown, source, text = document
        # tuple.__new__: a NamedTuple's own constructor is a Python function, a third of the
        # cost of a row.
        found[rowid] = _new_tuple(
            HitRow,
            (
                rowid,
                chunk_id,
                start,
                end,
                meta,
                text[start:end],
                document_id,
                external_id,
                shown,
                source,
                line,
                end_line,
                fold,
            ),
        )
    return found


_new_tuple = tuple.__new__

"""The rows a collection's store gives and takes: documents, chunks, hits, ingest state, and the
SQL that reads each (the store runs it; these are only its shapes)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from groundkit.types import Metadata

__all__ = [
    "CHUNK_COLUMNS",
    "HIT_COLUMNS",
    "INDEXED_TEXT",
    "ChunkRow",
    "DocumentRow",
    "HitRow",
    "IngestState",
    "NewChunk",
    "chunk_row",
]

_CHUNK_TEXT = "c.text"  # the chunk's own copy: no document is read to cut it out (migration 7)
# What the lexical index sees of a chunk: its text, preceded by the context a reader of the chunk
# would have: the document's title and the Markdown heading path, when the chunk does not itself
# begin with them. Hits still cite (and show) the chunk text alone.
INDEXED_TEXT = (
    "CASE WHEN c.start > 0 AND d.title IS NOT NULL THEN d.title || char(10) ELSE '' END"
    " || CASE WHEN substr(c.text, 1, 1) <> '#' THEN"
    " coalesce((SELECT group_concat(value, char(10)) FROM json_each(c.metadata, '$.heading_path'))"
    " || char(10), '') ELSE '' END"
    f" || {_CHUNK_TEXT}"
)
CHUNK_COLUMNS = (
    f'c.id, c.chunk_id, c.ordinal, c.start, c."end", c.metadata, {_CHUNK_TEXT},'
    " d.document_id, d.external_id, coalesce(d.path, d.source), d.source, c.line, c.end_line"
)


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


HIT_COLUMNS = (
    'c.id, c.chunk_id, c.start, c."end", c.metadata, c.text, d.document_id, d.external_id,'
    " coalesce(d.path, d.source), d.source, c.line, c.end_line"
)


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


@dataclass(frozen=True, slots=True)
class NewChunk:
    chunk_id: str
    start: int
    end: int
    metadata: Metadata
    line: int
    end_line: int
    # The near-duplicate fingerprint (``retrieve.duplicates.Fingerprint.to_bytes``); None: made
    # at search time instead. The chunk's text is cut from the document's by ``put_document``.
    fold: bytes | None = None


def chunk_row(row: tuple[Any, ...]) -> ChunkRow:
    return ChunkRow(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        json.loads(row[5]),
        row[6],
        row[7],
        row[8],
        row[9],
        row[10],
        row[11],
        row[12],
    )

"""Citation resolution: read a chunk back from the stored text and re-check its source."""

from __future__ import annotations

import os

from groundkit.errors import ErrorCode, NotFoundError
from groundkit.index.store import ChunkRow, DocumentRow, Store
from groundkit.ingest.loaders import Rejected, content_hash
from groundkit.types import Citation, ResolvedCitation, Verification

__all__ = ["citation_of", "find_chunk", "resolve", "verify_source"]


def find_chunk(store: Store, collection: str, chunk_id: str) -> tuple[ChunkRow, DocumentRow]:
    """The chunk and its document, or ``chunk.not_found``."""
    found = store.chunk(chunk_id)
    if found is None:
        raise NotFoundError(
            ErrorCode.CHUNK_NOT_FOUND,
            f"no chunk {chunk_id!r} in collection {collection!r}",
            hint="chunk ids change when their document changes; search again",
        )
    return found


def resolve(store: Store, collection: str, chunk_id: str) -> ResolvedCitation:
    row, document = find_chunk(store, collection, chunk_id)
    text = document.text[row.start : row.end]
    citation = citation_of(row, collection)
    return ResolvedCitation(citation, text, verify_source(document), row.metadata)


def citation_of(row: ChunkRow, collection: str) -> Citation:
    return Citation(
        collection,
        row.document_id,
        row.external_id,
        row.chunk_id,
        row.source,
        row.start,
        row.end,
        row.location,
        row.line,
        row.end_line,
    )


def verify_source(document: DocumentRow) -> Verification:
    """Compare the source as it is now with what was ingested, by content hash."""
    if document.origin.startswith(("http://", "https://")):
        return Verification.NOT_CHECKED
    try:
        with open(document.origin, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return Verification.MISSING
    except OSError:
        exists = os.path.exists(document.origin)
        return Verification.UNREADABLE if exists else Verification.MISSING
    if document.external_id is None:
        return (
            Verification.VERIFIED
            if content_hash(data) == document.content_hash
            else (Verification.DRIFTED)
        )
    return _verify_record(data, document)


def _verify_record(data: bytes, document: DocumentRow) -> Verification:
    from groundkit.ingest.loaders import load

    try:
        found = load(
            data,
            origin=document.origin,
            fmt="records",
            known={document.content_hash: document.source},
        )
    except Rejected:
        return Verification.DRIFTED
    if document.source in found.unchanged:
        return Verification.VERIFIED
    if any(item.source == document.source for item in found.loaded):
        return Verification.DRIFTED
    return Verification.MISSING

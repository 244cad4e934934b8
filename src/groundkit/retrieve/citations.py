"""Citation resolution: read a chunk back from the stored text and re-check its source.

The check is on the cited span, not the whole file: the source is read again with the loader
that ingested it (decode and normalise; the same HTML extraction; the same PDF text extraction;
a JSONL record's own line) and the cited text is looked for where it was, then near there, then
anywhere (``relocate``). A file whose bytes are unchanged is verified without being parsed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from groundkit.config import IngestConfig
from groundkit.errors import ErrorCode, NotFoundError
from groundkit.index.rows import ChunkRow, DocumentRow, HitRow
from groundkit.ingest.formats import Format
from groundkit.ingest.loaders import Empty, Rejected, content_hash, load
from groundkit.retrieve.lines import line_span
from groundkit.retrieve.reading import Rows
from groundkit.retrieve.relocate import relocate
from groundkit.source_files import BoundedReads, Unread, Why, read_source
from groundkit.types import Citation, Relocated, ResolvedCitation, SourceNow, Verification

__all__ = ["DEFAULT_LIMIT", "SourceCheck", "check_span", "citation_of", "find_chunk", "resolve"]


# The most bytes of a source read again, unless the caller says: what an ingest would read.
DEFAULT_LIMIT = IngestConfig().max_file_bytes

# Characters of a drifted source shown on each side of the cited offsets (``SourceNow``).
NOW_CONTEXT = 200


@dataclass(frozen=True, slots=True)
class SourceCheck:
    """How a span of a stored document compares with its source now (``now``: for a drifted
    span, what the source says at its offsets)."""

    verification: Verification
    moved_to: Relocated | None = None
    now: SourceNow | None = None
    reason: str | None = None  # why it was not checked or could not be read


def find_chunk(store: Rows, collection: str, chunk_id: str) -> tuple[ChunkRow, DocumentRow]:
    """The chunk and its document, or ``chunk.not_found``."""
    found = store.chunk(chunk_id)
    if found is None:
        raise NotFoundError(
            ErrorCode.CHUNK_NOT_FOUND,
            f"no chunk {chunk_id!r} in collection {collection!r}",
            hint="chunk ids change when their document changes; search again",
        )
    return found


def resolve(
    store: Rows,
    collection: str,
    chunk_id: str,
    *,
    absent: Verification = Verification.MISSING,
    limit: int = DEFAULT_LIMIT,
) -> ResolvedCitation:
    """The chunk read back from its stored document, its source re-checked (``absent``: the
    verdict when the source file is not there; ``limit``: the most bytes read of it; see
    ``check_span``)."""
    row, document = find_chunk(store, collection, chunk_id)
    text = document.text[row.start : row.end]
    line, end_line = row.line, row.end_line
    if line is None:  # stored before lines were kept
        line, end_line = line_span(document.text, row.start, row.end)
    citation = citation_of(row, collection, (line, end_line))
    check = check_span(document, row.start, row.end, (line, end_line), absent=absent, limit=limit)
    return ResolvedCitation(
        citation, text, check.verification, row.metadata, check.moved_to, check.now, check.reason
    )


def citation_of(
    row: ChunkRow | HitRow, collection: str, lines: tuple[int | None, int | None] | None = None
) -> Citation:
    line, end_line = (row.line, row.end_line) if lines is None else lines
    return Citation(
        collection,
        row.document_id,
        row.external_id,
        row.chunk_id,
        row.source,
        row.start,
        row.end,
        row.location,
        line,
        end_line,
    )


def check_span(
    document: DocumentRow,
    start: int,
    end: int,
    lines: tuple[int | None, int | None],
    *,
    absent: Verification = Verification.MISSING,
    limit: int = DEFAULT_LIMIT,
    reads: BoundedReads | None = None,
) -> SourceCheck:
    """Whether the source of ``document`` still holds ``document.text[start:end]``, and where.

    ``lines`` are the span's lines in the stored text: a span found at the same offset but on
    other lines (a line break added or removed before it) is reported as moved too. ``absent``
    is the verdict when the source file is not there: ``missing`` where the collection was
    ingested on this machine; ``not_checked`` for a collection on a cluster, whose sources may
    have been read on another machine (it could not be checked here).

    The source is read only as a regular file of at most ``limit`` bytes (the ingest's
    ``max_file_bytes``), without blocking and within a time bound (``source_files``): a path
    that became a FIFO, a device, a link to one or a file too large is ``not_checked``, with
    the reason.
    """
    if document.origin.startswith(("http://", "https://")):
        return SourceCheck(Verification.NOT_CHECKED)
    data = read_source(document.origin, limit, reads)
    if isinstance(data, Unread):
        return _unread(data, absent)
    if document.external_id is None and content_hash(data) == document.content_hash:
        return SourceCheck(Verification.VERIFIED)  # the very bytes ingested: nothing to parse
    now = _current_text(data, document)
    if isinstance(now, Verification):  # drifted here: the file is there and holds no text
        return SourceCheck(now, now=_at("", start, end) if now == Verification.DRIFTED else None)
    cited = document.text[start:end]
    at = relocate(cited, now, start)
    if at is None:
        return SourceCheck(Verification.DRIFTED, now=_at(now, start, end))
    line, end_line = line_span(now, at, at + len(cited))
    if (at, line) == (start, lines[0]):
        return SourceCheck(Verification.VERIFIED)
    return SourceCheck(Verification.VERIFIED, Relocated(at, at + len(cited), line, end_line))


def _unread(unread: Unread, absent: Verification) -> SourceCheck:
    if unread.why == Why.MISSING:
        return SourceCheck(absent)
    if unread.why == Why.UNREADABLE:
        return SourceCheck(Verification.UNREADABLE, reason=unread.reason)
    return SourceCheck(Verification.NOT_CHECKED, reason=unread.reason)


def _at(text: str, start: int, end: int) -> SourceNow:
    """``text`` at the cited offsets, with its context."""
    return SourceNow(
        text[max(0, start - NOW_CONTEXT) : start], text[start:end], text[end : end + NOW_CONTEXT]
    )


def _current_text(data: bytes, document: DocumentRow) -> str | Verification:
    """The document's text as its loader reads it now, or the verdict when there is none."""
    if document.external_id is not None:
        return _current_record(data, document)
    try:
        found = load(data, origin=document.origin, fmt=cast(Format, document.format))
    except Empty:
        return Verification.DRIFTED  # the file is there, and the cited text is not
    except Rejected:
        return Verification.UNREADABLE  # no longer readable as its format (or an extra is gone)
    return found.loaded[0].text if found.loaded else Verification.UNREADABLE


def _current_record(data: bytes, document: DocumentRow) -> str | Verification:
    """A record's text, found by its id in the file's lines; the unchanged line is not parsed."""
    try:
        found = load(
            data,
            origin=document.origin,
            fmt="records",
            known={document.content_hash: document.source},
        )
    except Empty:
        return Verification.MISSING  # no records left, so not this one
    except Rejected:
        return Verification.UNREADABLE
    if document.source in found.unchanged:
        return document.text
    for item in found.loaded:
        if item.source == document.source:
            return item.text
    return Verification.MISSING

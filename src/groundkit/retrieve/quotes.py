"""Quote verification: is a quote a verbatim substring of a stored chunk or document, and where.

The quote is normalised the way ingested text is (BOM, newlines, Unicode NFC) and nothing more:
no case folding, no whitespace collapsing, so "verbatim" keeps its meaning. Offsets are into the
stored document text, the same coordinates every citation uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundkit.errors import ErrorCode, NotFoundError, UsageError
from groundkit.index.store import Store
from groundkit.ingest.normalize import normalize_text

__all__ = ["MAX_QUOTE_CHARS", "QuoteCheck", "verify_quote"]

MAX_QUOTE_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    """The verdict. ``start``/``end`` locate the first occurrence in the stored document."""

    verbatim: bool
    document_id: str
    chunk_id: str | None
    start: int | None
    end: int | None
    occurrences: int


def verify_quote(
    store: Store,
    collection: str,
    quote: str,
    *,
    chunk_id: str | None = None,
    document_id: str | None = None,
) -> QuoteCheck:
    """Search ``quote`` inside one chunk (``chunk_id``) or one whole document (``document_id``)."""
    if (chunk_id is None) == (document_id is None):
        raise UsageError(ErrorCode.USAGE, "give exactly one of chunk_id or document_id")
    wanted = normalize_text(quote)
    if not wanted or len(wanted) > MAX_QUOTE_CHARS:
        raise UsageError(ErrorCode.USAGE, f"the quote must have 1 to {MAX_QUOTE_CHARS} characters")
    if chunk_id is not None:
        found = store.chunk(chunk_id)
        if found is None:
            raise NotFoundError(
                ErrorCode.CHUNK_NOT_FOUND,
                f"no chunk {chunk_id!r} in collection {collection!r}",
                hint="chunk ids change when their document changes; search again",
            )
        row, document = found
        lo, hi, doc_id = row.start, row.end, document.document_id
        text = document.text
    else:
        assert document_id is not None
        documents = [d for d in store.find_documents(document_id) if d.document_id == document_id]
        if not documents:
            raise NotFoundError(
                ErrorCode.DOCUMENT_NOT_FOUND,
                f"no document {document_id!r} in collection {collection!r}",
            )
        text, doc_id = documents[0].text, document_id
        lo, hi = 0, len(text)
    first = text.find(wanted, lo, hi)
    count = 0
    at = first
    while at != -1:  # overlapping occurrences count too: "aa" is twice in "aaa"
        count += 1
        at = text.find(wanted, at + 1, hi)
    if first == -1:
        return QuoteCheck(False, doc_id, chunk_id, None, None, 0)
    return QuoteCheck(True, doc_id, chunk_id, first, first + len(wanted), count)

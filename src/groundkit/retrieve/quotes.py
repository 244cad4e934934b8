"""Quote verification: is a quote a verbatim substring of a stored chunk or document, and where.

The quote is normalised the way ingested text is (BOM, newlines, Unicode NFC) and nothing more:
no case folding, no whitespace collapsing, so "verbatim" keeps its meaning. Offsets are into the
stored document text, the same coordinates every citation uses. A quote found there is then
looked for in the source as it is now (``citations.check_span``): ``verification`` says whether
the source still holds it, ``moved_to`` where, when that is elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundkit.errors import ErrorCode, NotFoundError, UsageError
from groundkit.retrieve.citations import DEFAULT_LIMIT, check_span, find_chunk
from groundkit.retrieve.lines import line_span
from groundkit.retrieve.reading import Rows
from groundkit.text import normalize_text
from groundkit.types import Relocated, Verification

__all__ = ["MAX_QUOTE_CHARS", "QuoteCheck", "occurrences", "verify_quote"]

MAX_QUOTE_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    """The verdict. ``start``/``end`` locate the first occurrence in the stored document;
    ``verification`` (None unless verbatim) compares that occurrence with the source now."""

    verbatim: bool
    document_id: str
    chunk_id: str | None
    start: int | None
    end: int | None
    occurrences: int
    verification: Verification | None = None
    moved_to: Relocated | None = None


def verify_quote(
    store: Rows,
    collection: str,
    quote: str,
    *,
    chunk_id: str | None = None,
    document_id: str | None = None,
    absent: Verification = Verification.MISSING,
    limit: int = DEFAULT_LIMIT,
) -> QuoteCheck:
    """Search ``quote`` inside one chunk (``chunk_id``) or one whole document (``document_id``);
    ``absent``: the verdict when the source file is not there (``citations.check_span``)."""
    if (chunk_id is None) == (document_id is None):
        raise UsageError(ErrorCode.USAGE, "give exactly one of chunk_id or document_id")
    wanted = normalize_text(quote)
    if not wanted or len(wanted) > MAX_QUOTE_CHARS:
        raise UsageError(ErrorCode.USAGE, f"the quote must have 1 to {MAX_QUOTE_CHARS} characters")
    if chunk_id is not None:
        row, document = find_chunk(store, collection, chunk_id)
        lo, hi, doc_id = row.start, row.end, document.document_id
    else:
        assert document_id is not None
        documents = [d for d in store.find_documents(document_id) if d.document_id == document_id]
        if not documents:
            raise NotFoundError(
                ErrorCode.DOCUMENT_NOT_FOUND,
                f"no document {document_id!r} in collection {collection!r}",
            )
        document, doc_id = documents[0], document_id
        lo, hi = 0, len(document.text)
    first, count = occurrences(document.text, wanted, lo, hi)
    if first == -1:
        return QuoteCheck(False, doc_id, chunk_id, None, None, 0)
    end = first + len(wanted)
    lines = line_span(document.text, first, end)
    now = check_span(document, first, end, lines, absent=absent, limit=limit)
    return QuoteCheck(True, doc_id, chunk_id, first, end, count, now.verification, now.moved_to)


def occurrences(text: str, quote: str, lo: int, hi: int) -> tuple[int, int]:
    """The first offset of ``quote`` in ``text[lo:hi]`` (-1 if none) and how many times it occurs
    there, overlapping occurrences included ("aa" is twice in "aaa")."""
    first = text.find(quote, lo, hi)
    count, at = 0, first
    while at != -1 and count < _FIND_LIMIT:
        count += 1
        at = text.find(quote, at + 1, hi)
    if at == -1:
        return first, count
    # Each find re-reads up to the whole quote, so a long quote of a repetitive passage would
    # cost occurrences x length (minutes, from one request). The rest is counted in one pass.
    return first, count + _count_from(text, quote, at, hi)


_FIND_LIMIT = 64  # occurrences found with str.find (fast in C) before counting in one pass


def _count_from(text: str, quote: str, start: int, hi: int) -> int:
    """Occurrences of ``quote`` starting at or after ``start`` and ending by ``hi``: one
    Knuth-Morris-Pratt pass, linear in ``hi - start`` whatever the quote."""
    border = [0] * len(quote)  # border[i]: longest proper prefix of quote[:i+1] that ends it
    k = 0
    for i in range(1, len(quote)):
        while k and quote[i] != quote[k]:
            k = border[k - 1]
        if quote[i] == quote[k]:
            k += 1
        border[i] = k
    count = k = 0
    for i in range(start, hi):
        while k and text[i] != quote[k]:
            k = border[k - 1]
        if text[i] == quote[k]:
            k += 1
        if k == len(quote):
            count += 1
            k = border[k - 1]
    return count

"""BM25 search over a collection: plain-text queries, filters applied before top-k."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from groundkit.errors import ErrorCode, UsageError
from groundkit.index.lexical import LexicalIndex
from groundkit.index.store import Store
from groundkit.ingest.normalize import normalize_text
from groundkit.retrieve.snippet import snippet
from groundkit.types import Citation, Hit

__all__ = ["MAX_QUERY_CHARS", "bm25_search"]

MAX_QUERY_CHARS = 10_000


def bm25_search(
    store: Store,
    lexical: LexicalIndex,
    *,
    collection: str,
    query: str,
    top_k: int,
    snippet_chars: int,
    source: str | None = None,
    where: Mapping[str, Any] | None = None,
) -> list[Hit]:
    """Rank chunks for ``query`` (searched as words, never as query syntax).

    ``source`` is a glob over the stored source (``*`` crosses ``/``); ``where`` requires metadata
    equality, looked up on the chunk first, then its document.
    """
    if not isinstance(query, str) or not query.strip():
        raise UsageError(ErrorCode.INVALID_QUERY, "the query is empty")
    if len(query) > MAX_QUERY_CHARS:
        raise UsageError(
            ErrorCode.INVALID_QUERY, f"the query is longer than {MAX_QUERY_CHARS} characters"
        )
    if top_k < 1:
        raise UsageError(ErrorCode.INVALID_QUERY, "top_k must be at least 1")
    allowed = None
    if source is not None or where:
        allowed = store.filter_chunks(source, dict(where or {}))
    terms = lexical.tokens(normalize_text(query))
    ranked = lexical.search(terms, top_k, allowed)
    rows = store.chunks_by_rowid([rowid for rowid, _ in ranked])
    term_set = frozenset(terms)
    hits: list[Hit] = []
    for rowid, score in ranked:
        row = rows.get(rowid)
        if row is None:  # removed from the store; the index catches up at its next sync
            continue
        citation = Citation(
            collection,
            row.document_id,
            row.external_id,
            row.chunk_id,
            row.source,
            row.start,
            row.end,
        )
        excerpt = snippet(row.text, term_set, snippet_chars)
        hits.append(Hit(len(hits) + 1, score, citation, row.text, excerpt, row.metadata))
    return hits

"""Search orchestration: bm25, dense or hybrid arms, fusion, optional rerank, cited hits.

Filters are turned into an allowed-chunk set before any arm runs, so they apply before top-k in
every mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from groundkit.embed.base import Embedder
from groundkit.errors import ErrorCode, UsageError
from groundkit.index.lexical import LexicalIndex
from groundkit.index.store import Store
from groundkit.index.vectors import VectorIndex
from groundkit.retrieve.citations import citation_of
from groundkit.retrieve.fusion import rrf
from groundkit.retrieve.rerank import Reranker
from groundkit.retrieve.snippet import snippet
from groundkit.text import is_text, normalize_text
from groundkit.types import ConcreteMode, Hit, SearchMode

__all__ = ["MAX_QUERY_CHARS", "SearchRequest", "run_search"]

MAX_QUERY_CHARS = 10_000


@dataclass(frozen=True, slots=True)
class SearchRequest:
    query: str
    top_k: int
    mode: ConcreteMode  # "auto" is the collection's to resolve, never the search core's
    source: str | None = None
    where: dict[str, Any] = field(default_factory=dict)
    candidates: int = 100
    rrf_k: int = 60
    min_similarity: float | None = None
    snippet_chars: int = 240
    rerank_top_n: int = 50


def _validate(request: SearchRequest) -> str:
    query = request.query
    if not isinstance(query, str) or not query.strip():
        raise UsageError(ErrorCode.INVALID_QUERY, "the query is empty")
    if not is_text(query) or not all(
        is_text(str(v)) for v in (request.source or "", *request.where, *request.where.values())
    ):
        raise UsageError(
            ErrorCode.INVALID_QUERY,
            "the query holds bytes that are not text (not UTF-8)",
            hint="check the terminal's encoding, or the file the query came from",
        )
    if len(query) > MAX_QUERY_CHARS:
        raise UsageError(
            ErrorCode.INVALID_QUERY, f"the query is longer than {MAX_QUERY_CHARS} characters"
        )
    if request.top_k < 1:
        raise UsageError(ErrorCode.INVALID_QUERY, "top_k must be at least 1")
    if request.mode not in (SearchMode.BM25, SearchMode.DENSE, SearchMode.HYBRID):
        raise UsageError(ErrorCode.USAGE, f"search mode {request.mode!r} is not a way of ranking")
    return normalize_text(query)


def run_search(
    request: SearchRequest,
    *,
    collection: str,
    store: Store,
    lexical: LexicalIndex,
    vectors: VectorIndex,
    embedder: Embedder | None,
    reranker: Reranker | None = None,
) -> list[Hit]:
    query = _validate(request)
    mode = request.mode
    allowed = None
    if request.source is not None or request.where:
        allowed = store.filter_chunks(request.source, request.where)
    depth = request.top_k
    if mode == SearchMode.HYBRID:
        depth = max(depth, request.candidates)
    if reranker is not None:
        depth = max(depth, request.candidates, request.rerank_top_n)
    terms = lexical.tokens(query)
    arms: dict[str, list[tuple[int, float]]] = {}
    if mode in (SearchMode.BM25, SearchMode.HYBRID):
        arms["bm25"] = lexical.search(terms, depth, allowed)
    if mode in (SearchMode.DENSE, SearchMode.HYBRID):
        assert embedder is not None
        import numpy as np  # here, not above: a bm25 search never loads numpy

        vector = np.asarray(embedder.embed([query], "query"), np.float32)[0]
        arms["dense"] = vectors.search(vector, depth, allowed)
        best = arms["dense"][0][1] if arms["dense"] else None
        if request.min_similarity is not None and (best is None or best < request.min_similarity):
            return []  # nothing is close enough: abstain rather than return the least bad
    if mode == SearchMode.HYBRID:
        ranked = rrf(
            {arm: [rowid for rowid, _ in hits] for arm, hits in arms.items()}, request.rrf_k
        )
    else:
        ranked = arms[mode]
    ranks = {arm: {rowid: i for i, (rowid, _) in enumerate(hits, 1)} for arm, hits in arms.items()}
    if mode == SearchMode.HYBRID:
        ranks["fused"] = {rowid: i for i, (rowid, _) in enumerate(ranked, 1)}
    reranked = request.rerank_top_n if reranker is not None else 0
    head = ranked[: max(request.top_k, reranked)]
    rows = store.chunks_by_rowid([rowid for rowid, _ in head])
    # The store is the truth: a posting the derived indexes have not yet dropped is skipped.
    ranked = [(rowid, score) for rowid, score in head if rowid in rows]
    if reranker is not None:
        top, rest = ranked[:reranked], ranked[reranked:]
        scores = reranker.score(query, [rows[rowid].text for rowid, _ in top])
        top = sorted(
            ((rowid, float(s)) for (rowid, _), s in zip(top, scores, strict=True)),
            key=lambda pair: -pair[1],
        )
        ranks["rerank"] = {rowid: i for i, (rowid, _) in enumerate(top, 1)}
        # Past the reranked head, hits keep their order (and their first-stage scores).
        ranked = top + rest
    term_set = frozenset(terms)
    hits: list[Hit] = []
    for rowid, score in ranked[: request.top_k]:
        row = rows[rowid]
        citation = citation_of(row, collection)
        excerpt = snippet(row.text, term_set, request.snippet_chars)
        arm_ranks = {arm: by_id[rowid] for arm, by_id in ranks.items() if rowid in by_id}
        hits.append(Hit(len(hits) + 1, score, citation, row.text, excerpt, row.metadata, arm_ranks))
    return hits

"""Search orchestration: bm25, dense or hybrid arms, fusion, optional rerank, cited hits.

The arms come from a ``SearchEngine``: the embedded one (``retrieve.engine``) over the store and
its derived indexes, or a Qdrant collection's (``backends.qdrant``), which fuses hybrid rankings
on the server. Filters become the engine's restriction before any arm runs, so they apply before
top-k in every mode. Near-duplicates are folded after fusion and rerank, so the best copy is the
one kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, Any, Protocol

from groundkit.embed.base import Embedder
from groundkit.errors import ErrorCode, UsageError
from groundkit.index.rows import DocumentRow, HitRow
from groundkit.retrieve.batch_folding import BATCH_FROM, BatchFolding
from groundkit.retrieve.duplicates import Fingerprint, Folding, fingerprint
from groundkit.retrieve.fusion import rrf
from groundkit.retrieve.hits import Kept, made_hits
from groundkit.retrieve.near import NearSnapshot
from groundkit.retrieve.rerank import Reranker
from groundkit.text import is_text, normalize_text
from groundkit.types import ConcreteMode, Hit, SearchMode

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from groundkit.index.store import Settles

__all__ = [
    "MAX_QUERY_CHARS",
    "Arms",
    "SearchEngine",
    "SearchRequest",
    "concrete_mode",
    "run_search",
    "searchable",
]

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
    collapse: bool = True  # fold near-duplicate hits into the best of them
    # Read every hit's row during the search (a caller that shows them all: one read, no look
    # at which rows are stored first); else only those folding needs, the rest when first read.
    read_rows: bool = False


@dataclass(frozen=True, slots=True)
class Arms:
    """One round's rankings: each arm's ``(chunk id, score)`` best first (``bm25``, ``dense``),
    and, where the engine fused them itself (hybrid on a server), the fused list."""

    lists: dict[str, list[tuple[int, float]]]
    fused: list[tuple[int, float]] | None = None
    # The store's version when every chunk in the lists was known to be stored (the index they
    # come from in step with the store), for ``present`` to tell whether it still is: None, not
    # known.
    stored_at: tuple[int, int] | None = None


class SearchEngine(Protocol):
    """What a search asks of the collection it runs on. Chunk ids here are the backend's integer
    row ids; ``restrict``'s result is the engine's own and goes back to it unread."""

    def tokens(self, text: str) -> list[str]:
        """The query's terms, as the lexical analyzer makes them."""
        ...

    def restrict(self, source: str | None, where: Mapping[str, Any]) -> object:
        """The chunks a filter leaves (source glob, metadata pairs; ``index.filters``)."""
        ...

    def arms(
        self,
        mode: ConcreteMode,
        terms: list[str],
        vector: npt.NDArray[np.float32] | None,
        depth: int,
        restriction: object | None,
        rrf_k: int,
    ) -> Arms:
        """Each arm ``depth`` deep (and, if the engine fuses, the fused ranking)."""
        ...

    def hit_rows(self, rowids: Sequence[int], *, fold: bool = False) -> dict[int, HitRow]:
        """The rows a search shows, by id; ``fold``: with their fingerprints. A row that is no
        longer stored (or no longer current) is left out."""
        ...

    def present(self, rowids: Sequence[int], stored_at: tuple[int, int] | None) -> set[int]:
        """Those of ``rowids`` still stored (and current), their rows left unread; ``stored_at``:
        the ``Arms.stored_at`` of the ranking they come from."""
        ...

    def read_before_close(self, reader: Settles) -> None:
        """Have ``reader`` (hits made unread) read its rows before the engine's store closes."""
        ...

    def find_documents(self, key: str) -> list[DocumentRow]:
        """Documents by id or source (lines of rows stored without them are counted there)."""
        ...

    def near(self) -> NearSnapshot | None:
        """Which chunks may fold (``retrieve.near``), when the engine keeps that, for rankings
        whose shallower rounds are the heads of the deeper ones; None: fold the whole way."""
        ...


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


def searchable(query: str, engine: SearchEngine) -> bool:
    """Whether ``query`` holds a word a search looks for: a query of stop words alone (``the of
    and to is``) or of punctuation finds nothing, in every mode (``run_search``)."""
    return bool(engine.tokens(normalize_text(query)))


def concrete_mode(mode: SearchMode | str, *, has_vectors: bool) -> ConcreteMode:
    """The way of ranking a mode names: ``auto`` is hybrid with vectors, else bm25.

    Raises ``UsageError`` for a mode that is not one."""
    try:
        chosen = SearchMode(mode)
    except ValueError:
        raise UsageError(
            ErrorCode.USAGE,
            f"unknown search mode {mode!r}",
            hint="use one of " + ", ".join(m.value for m in SearchMode),
        ) from None
    if chosen == SearchMode.BM25:
        return SearchMode.BM25
    if chosen == SearchMode.DENSE:
        return SearchMode.DENSE
    if chosen == SearchMode.HYBRID or has_vectors:
        return SearchMode.HYBRID
    return SearchMode.BM25


def run_search(
    request: SearchRequest,
    *,
    collection: str,
    engine: SearchEngine,
    embedder: Embedder | None,
    reranker: Reranker | None = None,
) -> list[Hit]:
    query = _validate(request)
    mode = request.mode
    allowed = None
    if request.source is not None or request.where:
        allowed = engine.restrict(request.source, request.where)
    terms = engine.tokens(query)
    if not terms:
        # Only stop words ("the of and to is") or punctuation: BM25 has nothing to look for, and
        # the embedding of such a query ranks every passage alike, so any top-k is arbitrary.
        return []
    vector = None
    if mode in (SearchMode.DENSE, SearchMode.HYBRID):
        assert embedder is not None
        import numpy as np  # here, not above: a bm25 search never loads numpy

        vector = np.asarray(embedder.embed([query], "query"), np.float32)[0]
    seen = _Seen(engine, fold=request.collapse)
    for depth in _depths(request, reranker, seen.near):
        arms = engine.arms(mode, terms, vector, depth, allowed, request.rrf_k)
        if _abstains(request, arms):
            return []  # nothing is close enough: abstain rather than return the least bad
        hits = _Ranking(seen, collection, query, terms, request, arms, reranker).hits()
        # Whether the arms hold more is asked only when top_k is not filled.
        if len(hits) >= request.top_k or all(len(f) < depth for f in arms.lists.values()):
            break
        # Folding left fewer than top_k and the arms hold more: look deeper.
    return hits


def _depths(
    request: SearchRequest, reranker: Reranker | None, near: NearSnapshot | None
) -> list[int]:
    """How deep each round searches the arms, in turn."""
    depth = request.top_k * (COLLAPSE_DEPTH if request.collapse else 1)
    if request.mode == SearchMode.HYBRID:
        depth = max(depth, request.candidates)
    if reranker is not None:
        depth = max(depth, request.candidates, request.rerank_top_n)
    if not request.collapse:
        return [depth]
    depths = [depth * 4**i for i in range(COLLAPSE_ROUNDS)]
    if near is not None and request.mode == SearchMode.BM25 and reranker is None:
        # Where the engine knows which chunks may fold, folding seldom takes a hit away, so a
        # first round goes only top_k deep, as a search without folding does. A bm25 ranking
        # top_k deep is the head of the deeper ones (ties go by address), so whatever the
        # round that fills top_k, the hits are those the rounds below alone would give.
        depths.insert(0, request.top_k)
    return depths


def _abstains(request: SearchRequest, arms: Arms) -> bool:
    """Whether the best dense match is less similar than ``search.min_similarity``."""
    floor = request.min_similarity
    if floor is None or "dense" not in arms.lists:
        return False
    dense = arms.lists["dense"]
    return not dense or dense[0][1] < floor


# With collapsing on, each arm is searched COLLAPSE_DEPTH times top_k deep, so that top_k is
# still filled after near-duplicates are folded; when it is not, up to COLLAPSE_ROUNDS rounds,
# each four times deeper (so a collection of thousands of copies of one passage stays bounded).
COLLAPSE_DEPTH = 3
COLLAPSE_ROUNDS = 4
_MIN_BATCH = 4  # rows read at least at once while walking the ranking
_Kept = Kept


class _Seen:
    """What one search has read, kept across its rounds: rows, fingerprints, rerank scores."""

    def __init__(self, engine: SearchEngine, *, fold: bool) -> None:
        self.engine = engine
        self.fold = fold
        near = engine.near()
        self.near = near if fold else None
        # An engine that keeps a near index is a local one: asking which rows are stored costs
        # a tenth of reading them, so rows are read only when needed. Elsewhere (a server), one
        # round trip reads them.
        self.lazy = near is not None
        self.rows: dict[int, HitRow] = {}
        self.present: set[int] = set()  # rows known to be stored, not read
        self.fingerprints: dict[int, Fingerprint] = {}
        self.reranked: dict[int, float] = {}

    def fetch(self, rowids: Sequence[int], *, fold: bool | None = None) -> None:
        """Read the rows not read yet; ``fold`` (default: whether the search folds): with
        their fingerprints."""
        wanted = [rowid for rowid in rowids if rowid not in self.rows]
        if wanted:
            self.rows.update(self.engine.hit_rows(wanted, fold=self.fold if fold is None else fold))

    def check(self, rowids: Sequence[int], stored_at: tuple[int, int] | None) -> None:
        """Learn which of ``rowids`` (from a ranking with that ``Arms.stored_at``) are still
        stored, reading none of them."""
        present, rows = self.present, self.rows
        wanted = [rowid for rowid in rowids if rowid not in rows and rowid not in present]
        if wanted:
            present.update(self.engine.present(wanted, stored_at))

    def fingerprint(self, rowid: int) -> Fingerprint:
        found = self.fingerprints.get(rowid)
        if found is None:
            row = self.rows[rowid]
            # Read back as stored at ingest; made here only for rows stored before (schema < 7).
            found = Fingerprint.from_bytes(row.fold) if row.fold else fingerprint(row.text)
            self.fingerprints[rowid] = found
        return found


class _Ranking:
    """One round: the arms' lists fused, the head reranked, then walked best first into hits,
    folding near-duplicates. Chunk rows are read in small batches as the walk needs them."""

    def __init__(
        self,
        seen: _Seen,
        collection: str,
        query: str,
        terms: list[str],
        request: SearchRequest,
        arms: Arms,
        reranker: Reranker | None,
    ) -> None:
        self.seen = seen
        self.collection = collection
        self.request = request
        self.stored_at = arms.stored_at
        self.terms = frozenset(terms)
        mode = request.mode
        if mode == SearchMode.HYBRID:
            ranked = arms.fused
            if ranked is None:
                lists = {arm: [rowid for rowid, _ in hits] for arm, hits in arms.lists.items()}
                ranked = rrf(lists, request.rrf_k)
        else:
            ranked = arms.lists[mode]
        # One arm, as ranked: a hit's rank is its place in the walk, so no map of every
        # candidate's rank is made (it cost as much as a tenth of a top-10 search).
        single = len(arms.lists) == 1 and reranker is None
        self.single = next(iter(arms.lists)) if single else None
        self.ranks: dict[str, dict[int, int]] = {}
        if self.single is None:
            self.ranks = {
                arm: {rowid: i for i, (rowid, _) in enumerate(hits, 1)}
                for arm, hits in arms.lists.items()
            }
        if mode == SearchMode.HYBRID:
            self.ranks["fused"] = {rowid: i for i, (rowid, _) in enumerate(ranked, 1)}
        if reranker is not None:
            ranked = self._reranked(ranked, reranker, query)
        self.ranked = ranked

    def _reranked(
        self, ranked: list[tuple[int, float]], reranker: Reranker, query: str
    ) -> list[tuple[int, float]]:
        seen = self.seen
        head = ranked[: self.request.rerank_top_n]
        seen.fetch([rowid for rowid, _ in head])
        # The store is the truth: a posting the derived indexes have not yet dropped is skipped.
        head = [(rowid, score) for rowid, score in head if rowid in seen.rows]
        new = [rowid for rowid, _ in head if rowid not in seen.reranked]
        if new:  # a deeper round reranks only what the last one did not
            scores = reranker.score(query, [seen.rows[rowid].text for rowid in new])
            seen.reranked.update(zip(new, map(float, scores), strict=True))
        top = sorted(((rowid, seen.reranked[rowid]) for rowid, _ in head), key=lambda p: -p[1])
        self.ranks["rerank"] = {rowid: i for i, (rowid, _) in enumerate(top, 1)}
        # Past the reranked head, hits keep their order (and their first-stage scores).
        return top + ranked[self.request.rerank_top_n :]

    def hits(self) -> list[Hit]:
        near = self.seen.near
        # The highest rowid ranked (pairs compare by rowid first).
        if near is not None and max(self.ranked, default=(0, 0.0))[0] <= near.covered:
            return self._built(*self._walk_flagged(near))
        return self._built(*self._walk())

    def _walk_flagged(self, near: NearSnapshot) -> tuple[list[_Kept], list[list[int]]]:
        """The walk when ``near`` covers every candidate: a hit it does not flag is kept unread
        (nothing it could fold into or take in exists), and the flagged ones fold among
        themselves, so the verdicts are those of ``_walk``."""
        top_k, seen, ranked = self.request.top_k, self.seen, self.ranked
        folding = Folding()
        kept_as: list[int] = []  # for each hit ``folding`` keeps, its place in ``kept``
        kept: list[_Kept] = []
        folded: list[list[int]] = []
        at = 0
        while len(kept) < top_k and at < len(ranked):
            batch = ranked[at : at + max(top_k - len(kept), _MIN_BATCH)]
            first, at = at + 1, at + len(batch)
            rowids = [rowid for rowid, _ in batch]
            flagged = near.among(rowids)
            if self.request.read_rows:
                seen.fetch(rowids, fold=bool(flagged))
            elif not flagged:  # the common case: none may fold, so none is read now
                seen.check(rowids, self.stored_at)
            else:
                # Only the flagged rows are read now (their fingerprints); of the others, only
                # whether they are still stored: their hits read them when first read.
                seen.fetch([rowid for rowid in rowids if rowid in flagged], fold=True)
                seen.check([rowid for rowid in rowids if rowid not in flagged], self.stored_at)
            for place, (rowid, score) in enumerate(batch, first):
                if rowid not in seen.rows and rowid not in seen.present:
                    continue  # gone from the store: the derived index is behind
                if rowid in flagged:
                    into = folding.place(seen.fingerprint(rowid))
                    if into is not None:
                        folded[kept_as[into]].append(rowid)
                        continue
                    kept_as.append(len(kept))
                kept.append((rowid, score, place))
                folded.append([])
                if len(kept) == top_k:
                    break
        return kept, folded

    def _walk(self) -> tuple[list[_Kept], list[list[int]]]:
        """Every candidate set against the hits kept before it."""
        top_k, seen = self.request.top_k, self.seen
        folding: Folding | BatchFolding | None = None
        if self.request.collapse:
            folding = BatchFolding() if top_k >= BATCH_FROM else Folding()
        kept: list[_Kept] = []
        folded: list[list[int]] = []
        at = 0
        while len(kept) < top_k and at < len(self.ranked):
            # Read the rows the walk needs if the rest folds as the walk so far did (at least a
            # few, at most twice what is needed): a batch costs a query, and BatchFolding sets
            # each of its hits against every other and every kept hit.
            need = top_k - len(kept)
            size = min(-(-need * at // len(kept)), 2 * need) if kept else need
            batch = [
                (rowid, score, place)
                for place, (rowid, score) in enumerate(
                    self.ranked[at : at + max(size, _MIN_BATCH)], at + 1
                )
            ]
            at += len(batch)
            if folding is None and not self.request.read_rows and seen.lazy:
                # Nothing to fold: whether each row is still stored is all the walk needs (an
                # engine that keeps no near index reads the rows at once, in one round trip).
                seen.check([rowid for rowid, _, _ in batch], self.stored_at)
            else:
                seen.fetch([rowid for rowid, _, _ in batch])
            # A row gone from the store is skipped: the derived index is behind.
            batch = [hit for hit in batch if hit[0] in seen.rows or hit[0] in seen.present]
            verdicts: Iterable[int | None] = (
                repeat(None)
                if folding is None
                else folding.place_all([seen.fingerprint(rowid) for rowid, _, _ in batch])
            )
            for (rowid, score, place), into in zip(batch, verdicts, strict=False):
                if into is None:
                    kept.append((rowid, score, place))
                    folded.append([])
                else:
                    folded[into].append(rowid)
                if len(kept) == top_k:
                    break
        return kept, folded

    def _built(self, kept: list[_Kept], folded: list[list[int]]) -> list[Hit]:
        single, ranks = self.single, self.ranks
        return made_hits(
            self.seen.engine,
            self.seen.rows,
            kept,
            folded,
            [
                {single: place}
                if single is not None
                else {arm: by_id[rowid] for arm, by_id in ranks.items() if rowid in by_id}
                for rowid, _, place in kept
            ],
            (self.collection, self.terms, self.request.snippet_chars),
        )

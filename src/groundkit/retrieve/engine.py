"""The embedded search engine: the store's rows, the tantivy BM25 index and the vector index of one
collection folder, answering ``retrieve.search``'s questions. Hybrid is fused by the caller."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from groundkit.index.lexical import LexicalIndex
from groundkit.index.rows import DocumentRow, HitRow
from groundkit.index.store import Settles, Store
from groundkit.index.vectors import VectorIndex
from groundkit.retrieve.near import NearIndex, NearSnapshot
from groundkit.retrieve.search import Arms
from groundkit.types import ConcreteMode, SearchMode

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["LocalEngine"]


class LocalEngine:
    """A ``retrieve.search.SearchEngine`` over an embedded collection; a restriction is the list
    of chunk rowids a filter leaves."""

    def __init__(
        self, store: Store, lexical: LexicalIndex, vectors: VectorIndex, near: NearIndex
    ) -> None:
        self.store = store
        self.lexical = lexical
        self.vectors = vectors
        self._near = near
        # The last verdict of _still_stored on a version the searcher was not marked with.
        self._verdict: tuple[tuple[int, int], tuple[int, int], bool] | None = None

    def tokens(self, text: str) -> list[str]:
        return self.lexical.tokens(text)

    def restrict(self, source: str | None, where: Mapping[str, Any]) -> list[int]:
        return self.store.filter_chunks(source, dict(where))

    def arms(
        self,
        mode: ConcreteMode,
        terms: list[str],
        vector: npt.NDArray[np.float32] | None,
        depth: int,
        restriction: object | None,
        rrf_k: int,
    ) -> Arms:
        allowed = cast("list[int] | None", restriction)  # what restrict() made
        # Read before the search: a searcher swapped in meanwhile clears it first.
        stored_at = self.lexical.opened_in_step if mode == SearchMode.BM25 else None
        lists = {}
        if mode in (SearchMode.BM25, SearchMode.HYBRID):
            lists["bm25"] = self.lexical.search(terms, depth, allowed)
        if vector is not None:
            lists["dense"] = self.vectors.search(vector, depth, allowed)
        return Arms(lists, stored_at=stored_at)

    def _still_stored(self, opened: tuple[int, int]) -> bool:
        """Whether the chunks a lexical searcher marked ``opened`` finds are all stored, known
        from the store's version alone (one statement; asking for the chunks cost a sixth of a
        top-10 search): the store has not changed since the searcher opened, or only by this
        connection's writes, the store in step again and the searcher still the one marked
        (this process's index applies them through a writer, which unmarks it)."""
        now = self.store.version()
        if now == opened:
            return True
        verdict = self._verdict
        if verdict is not None and verdict[0] is opened and verdict[1] == now:
            return verdict[2]  # asked once per version
        # Another connection's commit may have deleted chunks this searcher still finds.
        in_step = now[0] == opened[0] and self.store.in_step(self.lexical.name) == now
        stored = in_step and self.lexical.opened_in_step is opened
        self._verdict = (opened, now, stored)
        return stored

    def hit_rows(self, rowids: Sequence[int], *, fold: bool = False) -> dict[int, HitRow]:
        return self.store.hit_rows(rowids, fold=fold)

    def read_before_close(self, reader: Settles) -> None:
        self.store.read_before_close(reader)

    def present(self, rowids: Sequence[int], stored_at: tuple[int, int] | None) -> set[int]:
        if stored_at is not None and self._still_stored(stored_at):
            return set(rowids)
        return self.store.present(rowids)

    def near(self) -> NearSnapshot | None:
        return self._near.snapshot

    def find_documents(self, key: str) -> list[DocumentRow]:
        return self.store.find_documents(key)

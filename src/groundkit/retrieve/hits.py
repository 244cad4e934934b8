"""A search's ranked rows made into ``Hit``s.

A search reads the rows it must (to fold near-duplicates, to rerank); a hit whose row it did not
need is made unread, and the rows of all such hits are read together when a caller first reads
the text, citation, snippet or metadata of one of them. A caller that reads only ranks and
scores (an evaluation, a count) never reads the store for them: at top 100 on SciFact, reading
and cutting the rows was half of a search.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from functools import partial
from typing import TYPE_CHECKING

from groundkit.errors import ErrorCode, NotFoundError
from groundkit.index.rows import HitRow
from groundkit.retrieve.citations import citation_of
from groundkit.retrieve.lines import with_lines
from groundkit.retrieve.snippet import snippet
from groundkit.types import Citation, Hit, Metadata

if TYPE_CHECKING:
    from groundkit.retrieve.search import SearchEngine

__all__ = ["Kept", "made_hits"]

Kept = tuple[int, float, int]  # a kept hit: its rowid, score and place in the ranking


class _Shown:
    """How one search shows a row: its collection, the query's terms, the snippet's width."""

    __slots__ = ("collection", "terms", "width")

    def __init__(self, collection: str, terms: Collection[str], width: int) -> None:
        self.collection, self.terms, self.width = collection, terms, width


class _LateRows:
    """The rows of one search's hits that the search did not read, read all at once when the
    first is asked for."""

    __slots__ = ("__weakref__", "_engine", "_rows", "_shown", "_wanted")

    def __init__(self, engine: SearchEngine, wanted: list[int], shown: _Shown) -> None:
        self._engine, self._wanted, self._shown = engine, wanted, shown
        self._rows: dict[int, HitRow] | None = None
        if wanted:
            engine.read_before_close(self)

    def settle(self) -> dict[int, HitRow]:
        """The rows, read now if they were not."""
        rows = self._rows
        if rows is None:
            read = self._engine.hit_rows(self._wanted)
            if any(row.line is None for row in read.values()):  # stored before lines were kept
                read = {row.rowid: row for row in with_lines(self._engine, list(read.values()))}
            rows = self._rows = read
        return rows

    def fill(self, hit: _LateHit) -> None:
        """Give ``hit`` its text, and its citation, snippet and metadata to make when read."""
        row = self.settle().get(hit._rowid)
        if row is None:
            # Deleted by another process between the search and this read.
            raise NotFoundError(
                ErrorCode.CHUNK_NOT_FOUND,
                "a hit's chunk was deleted after the search found it",
                hint="search again",
            )
        shown = self._shown
        meta = row.metadata_json
        _set_citation(hit, partial(citation_of, row, shown.collection))
        _set_text(hit, row.text)
        _set_snippet(hit, partial(snippet, row.text, shown.terms, shown.width))
        _set_metadata(hit, partial(json.loads, meta) if meta != "{}" else {})
        _set_late(hit, None)


class _LateHit(Hit):
    """A hit whose row is read when its text, citation, snippet or metadata is first read."""

    __slots__ = ("_late", "_rowid")
    _late: _LateRows | None
    _rowid: int

    @property
    def citation(self) -> Citation:
        if self._late is not None:
            self._late.fill(self)
        return super().citation

    @property
    def text(self) -> str:
        if self._late is not None:
            self._late.fill(self)
        return super().text

    @property
    def snippet(self) -> str:
        if self._late is not None:
            self._late.fill(self)
        return super().snippet

    @property
    def metadata(self) -> Metadata:
        if self._late is not None:
            self._late.fill(self)
        return super().metadata


_new_hit = object.__new__
_slot = _LateHit.__dict__
_base = Hit.__dict__
_set_rank, _set_score = _base["rank"].__set__, _base["score"].__set__
_set_ranks, _set_folded = _base["ranks"].__set__, _base["folded"].__set__
_set_citation, _set_text = _base["_citation"].__set__, _base["_text"].__set__
_set_snippet, _set_metadata = _base["_snippet"].__set__, _base["_metadata"].__set__
_set_late, _set_rowid = _slot["_late"].__set__, _slot["_rowid"].__set__


def made_hits(
    engine: SearchEngine,
    read: dict[int, HitRow],
    kept: Sequence[Kept],
    folded: Sequence[list[int]],
    ranks: list[dict[str, int]],
    shown: tuple[str, Collection[str], int],
) -> list[Hit]:
    """The hits ``kept`` (each with the rows ``folded`` into it, read, and its ``ranks``), made
    from the rows ``read`` where the search read them, else read when first asked for.
    ``shown``: the collection, the query's terms and the snippet's width."""
    collection, terms, width = shown
    if read:  # else none was read, and none folded (folding reads its rows)
        every = [read[rowid] for rowid, _, _ in kept if rowid in read]
        every += [read[rowid] for group in folded for rowid in group]
        if any(row.line is None for row in every):  # stored before lines were kept
            read = {**read, **{row.rowid: row for row in with_lines(engine, every)}}
    unread = [rowid for rowid, _, _ in kept if rowid not in read]
    late = _LateRows(engine, unread, _Shown(collection, terms, width))
    hits: list[Hit] = []
    for (rowid, score, _), group, its_ranks in zip(kept, folded, ranks, strict=True):
        row = read.get(rowid)
        if row is None:
            # Made slot by slot: Hit's constructor and four partials cost more than the rest.
            hit = _new_hit(_LateHit)
            _set_rank(hit, len(hits) + 1)
            _set_score(hit, score)
            _set_ranks(hit, its_ranks)
            _set_folded(hit, ())
            _set_late(hit, late)
            _set_rowid(hit, rowid)
            hits.append(hit)
            continue
        meta = row.metadata_json
        hits.append(
            Hit(
                len(hits) + 1,
                score,
                # Made when read: a caller that shows no citation, snippet or metadata (an
                # evaluation, say) does not pay for them.
                partial(citation_of, row, collection),
                row.text,
                partial(snippet, row.text, terms, width),
                partial(json.loads, meta) if meta != "{}" else {},
                its_ranks,
                tuple(citation_of(read[r], collection) for r in group) if group else (),
            )
        )
    return hits

"""Reading a Qdrant collection: chunks and documents back (``retrieve.reading.Rows``), and a
search's arms (``retrieve.search.SearchEngine``).

Every read first reads the committed version (one small request), so it sees what any writer
anywhere has committed, and filters on it (``layout.visible``). A search is one batch: the bm25
arm (our sparse vectors; Qdrant's IDF over the current chunks only, so points waiting to be
collected do not skew it), the dense arm, and for hybrid the server's fusion of the two
(``Prefetch`` + ``RRF`` with the collection's ``k``, each arm as deep as the embedded engine
fetches); the arms' own lists give each hit its rank in each arm, as ``grk search --json``
reports them.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from groundkit.backends.qdrant.filters import glob_matcher, where_conditions
from groundkit.backends.qdrant.layout import (
    DENSE,
    SHOWN,
    SPARSE,
    chunk_point_id,
    shown_field,
    visible,
)
from groundkit.backends.qdrant.meta import Meta, read_meta
from groundkit.backends.qdrant.sparse import SPARSE_BUILD, Encoder
from groundkit.backends.qdrant.transport import Found, Transport, scroll_all
from groundkit.errors import BackendError, ErrorCode
from groundkit.index.rows import ChunkRow, DocumentRow, HitRow
from groundkit.retrieve.search import Arms
from groundkit.types import ConcreteMode, SearchMode

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from groundkit.backends.qdrant import vocab as models
    from groundkit.index.store import Settles

__all__ = ["QdrantEngine", "QdrantReader"]

_HIT_FIELDS = [
    "chunk_id",
    "start",
    "end",
    "metadata",
    "text",
    "document_id",
    SHOWN,
    "external_id",  # the three below: of a chunk written before SHOWN was kept
    "path",
    "source",
    "line",
    "end_line",
]
_DOC_FIELDS = [
    "document_id",
    "source",
    "path",
    "origin",
    "external_id",
    "format",
    "title",
    "text",
    "content_hash",
    "metadata",
    "order",
]
_NOTHING = "nothing"  # a restriction no chunk meets (a source glob that matches no document)


# What may be read from a meta point up to this old: the embedder a collection is bound to and its
# counters (a search asks for both several times); never the committed version, read afresh.
_META_FRESH_S = 1.0


class QdrantReader:
    """Reads of one Qdrant collection; safe to share between threads."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport
        self._recent: tuple[float, Meta] | None = None

    def meta(self) -> Meta:
        found = read_meta(self._t)
        self._recent = (time.monotonic(), found)
        return found

    def forget(self) -> None:
        """Read the meta point afresh next time (this process has just changed it)."""
        self._recent = None

    def recent_meta(self) -> Meta:
        """The meta point as read at most a second ago."""
        recent = self._recent
        if recent is None or time.monotonic() - recent[0] > _META_FRESH_S:
            return self.meta()
        return recent[1]

    def committed(self) -> int:
        return self.meta().committed

    def chunk(self, chunk_id: str) -> tuple[ChunkRow, DocumentRow] | None:
        # The point of a chunk id is known: read it, and check it is a current one.
        committed = self.committed()
        found = self._t.retrieve([chunk_point_id(chunk_id)])
        if not found or not _current(found[0].payload, committed):
            return None
        payload = found[0].payload
        documents = self._t.retrieve([int(payload["doc"])], _DOC_FIELDS)
        if not documents or not _current_doc(documents[0], payload):
            return None
        return _chunk_row(found[0].id, payload), _document_row(documents[0])

    def find_documents(self, key: str) -> list[DocumentRow]:
        committed = self.committed()
        for fields in (("document_id", "source"), ("path", "external_id")):
            found = self._documents(committed, _any_of(fields, key))
            if found:
                return found
        return []

    def _documents(self, committed: int, condition: Any = None) -> list[DocumentRow]:
        where = visible(committed, "doc", *([condition] if condition is not None else []))
        rows = [
            (int(payload.get("order") or 0), _document_row(Found(point, 0.0, payload)))
            for point, payload in scroll_all(self._t, where, _DOC_FIELDS)
        ]
        rows.sort(key=lambda pair: (pair[0], pair[1].rowid))  # ingest order, as embedded lists
        return [row for _, row in rows]

    def all_documents(self) -> list[DocumentRow]:
        return self._documents(self.committed())

    def all_chunks(self) -> Iterator[ChunkRow]:
        committed = self.committed()
        orders = {
            point: int(payload.get("order") or 0)
            for point, payload in scroll_all(self._t, visible(committed, "doc"), ["order"])
        }
        rows = [
            (orders.get(int(payload["doc"]), 0), int(payload["doc"]), _chunk_row(point, payload))
            for point, payload in scroll_all(self._t, visible(committed, "chunk"), _CHUNK_FIELDS)
        ]
        rows.sort(key=lambda r: (r[0], r[1], r[2].ordinal))
        return (row for _, _, row in rows)

    def counts(self) -> tuple[int, int]:
        """``(documents, chunks)``, as the last commit counted them: nothing is scanned."""
        meta = self.recent_meta()
        return meta.documents, meta.chunks

    def vector_count(self) -> int:
        """Chunks with a dense vector, as kept by the writer: nothing is scanned."""
        return self.recent_meta().vectors

    def exact_counts(self, committed: int) -> tuple[int, int, int]:
        """``(documents, chunks, vectors)`` counted now (``grk status``)."""
        from groundkit.backends.qdrant import vocab as models

        vectors = visible(committed, "chunk", models.HasVectorCondition(has_vector=DENSE))
        return (
            self._t.count(visible(committed, "doc")),
            self._t.count(visible(committed, "chunk")),
            self._t.count(vectors),
        )

    def formats(self, committed: int) -> dict[str, int]:
        found: dict[str, int] = {}
        for _, payload in scroll_all(self._t, visible(committed, "doc"), ["format"]):
            found[payload["format"]] = found.get(payload["format"], 0) + 1
        return dict(sorted(found.items()))


_CHUNK_FIELDS = [*_HIT_FIELDS, "doc", "ordinal"]


def _current(payload: Mapping[str, Any], committed: int) -> bool:
    return payload.get("kind") == "chunk" and int(
        payload.get("born", committed + 1)
    ) <= committed < int(payload.get("died", 0))


def _current_doc(found: Found, chunk: Mapping[str, Any]) -> bool:
    return found.payload.get("document_id") == chunk.get("document_id")


def _any_of(fields: Sequence[str], value: str) -> models.Filter:
    from groundkit.backends.qdrant import vocab as models

    return models.Filter(
        should=[models.FieldCondition(key=f, match=models.MatchValue(value=value)) for f in fields]
    )


def _chunk_row(point: int, p: Mapping[str, Any]) -> ChunkRow:
    return ChunkRow(
        point,
        p["chunk_id"],
        int(p.get("ordinal", 0)),
        int(p["start"]),
        int(p["end"]),
        json.loads(p.get("metadata") or "{}"),
        p["text"],
        p["document_id"],
        shown_field(p, "external_id"),
        shown_field(p, "path"),
        shown_field(p, "source"),
        p.get("line"),
        p.get("end_line"),
    )


def _document_row(found: Found) -> DocumentRow:
    p = found.payload
    return DocumentRow(
        found.id,
        p["document_id"],
        p["source"],
        p.get("path") or p["source"],
        p["origin"],
        p.get("external_id"),
        p["format"],
        p.get("title"),
        p["text"],
        p["content_hash"],
        dict(p.get("metadata") or {}),
    )


def _hit_row(point: int, p: Mapping[str, Any], fold: bool) -> HitRow:
    stored = p.get("fold") if fold else None
    return HitRow(
        point,
        p["chunk_id"],
        int(p["start"]),
        int(p["end"]),
        p.get("metadata") or "{}",
        p["text"],
        p["document_id"],
        shown_field(p, "external_id"),
        shown_field(p, "path"),
        shown_field(p, "source"),
        p.get("line"),
        p.get("end_line"),
        base64.b64decode(stored) if stored else None,
    )


class QdrantEngine:
    """A ``retrieve.search.SearchEngine`` over a Qdrant collection; a restriction is a list of
    conditions on chunk points (or ``"nothing"``)."""

    def __init__(self, transport: Transport, reader: QdrantReader) -> None:
        self._t = transport
        self._reader = reader
        self._encoder = Encoder()

    def tokens(self, text: str) -> list[str]:
        return self._encoder.tokens(text)

    def restrict(self, source: str | None, where: Mapping[str, Any]) -> object:
        from groundkit.backends.qdrant import vocab as models

        conditions: list[Any] = where_conditions(where)
        if source is not None:
            regex = glob_matcher(source)
            committed = self._reader.committed()
            documents = [
                payload["document_id"]
                for _, payload in scroll_all(
                    self._t, visible(committed, "doc"), ["document_id", "path", "source"]
                )
                if regex.fullmatch(payload.get("path") or "") or regex.fullmatch(payload["source"])
            ]
            if not documents:
                return _NOTHING
            # By document id, which a new version of a document keeps.
            conditions.append(
                models.FieldCondition(key="document_id", match=models.MatchAny(any=documents))
            )
        return conditions

    def arms(
        self,
        mode: ConcreteMode,
        terms: list[str],
        vector: npt.NDArray[np.float32] | None,
        depth: int,
        restriction: object | None,
        rrf_k: int,
    ) -> Arms:
        from groundkit.backends.qdrant import vocab as models

        if restriction == _NOTHING:
            return Arms(
                {name: [] for name in _arms(mode)}, [] if mode == SearchMode.HYBRID else None
            )
        meta = self._reader.meta()
        if meta.analyzer != SPARSE_BUILD and mode != SearchMode.DENSE:
            raise BackendError(
                ErrorCode.BACKEND_SCHEMA,
                f"the Qdrant collection {self._t.name!r} was indexed by another analyzer",
                hint="run `grk reindex` to make its BM25 vectors anew",
            )
        extra = list(restriction) if isinstance(restriction, list) else []
        chunks = visible(meta.committed, "chunk", *extra)
        # IDF over the current chunks, filter or no filter, as the embedded index counts them.
        idf = models.SearchParams(
            idf=models.IdfCorpusParams(corpus=visible(meta.committed, "chunk"))
        )
        ids, values = self._encoder.query(terms)
        sparse = (
            models.Prefetch(
                query=models.SparseVector(indices=ids, values=values),
                using=SPARSE,
                limit=depth,
                filter=chunks,
                params=idf,
            )
            if ids and mode != SearchMode.DENSE
            else None
        )
        dense = (
            models.Prefetch(query=vector.tolist(), using=DENSE, limit=depth, filter=chunks)
            if vector is not None
            else None
        )
        requests = [_request(arm) for arm in (sparse, dense) if arm is not None]
        if mode == SearchMode.HYBRID and requests:
            fused = [arm for arm in (sparse, dense) if arm is not None]
            requests.append(
                models.QueryRequest(
                    prefetch=fused,
                    # Qdrant adds 1 / (k + position), counting from 0; ours 1 / (k + rank)
                    # from 1: k + 1 there is k here, so fused scores and order are the same.
                    query=models.RrfQuery(rrf=models.Rrf(k=rrf_k + 1)),
                    limit=depth,
                    with_payload=False,
                )
            )
        answers = self._t.query_batch(requests) if requests else []
        lists: dict[str, list[tuple[int, float]]] = {}
        at = 0
        for name, arm in (("bm25", sparse), ("dense", dense)):
            if name in _arms(mode):
                found = answers[at] if arm is not None else []
                at += arm is not None
                lists[name] = [(p.id, p.score) for p in found]
        fused_list = None
        if mode == SearchMode.HYBRID:
            fused_list = [(p.id, p.score) for p in answers[at]] if requests else []
        return Arms(lists, fused_list)

    def hit_rows(self, rowids: Sequence[int], *, fold: bool = False) -> dict[int, HitRow]:
        fields = [*_HIT_FIELDS, "fold"] if fold else _HIT_FIELDS
        return {f.id: _hit_row(f.id, f.payload, fold) for f in self._t.retrieve(rowids, fields)}

    def read_before_close(self, reader: Settles) -> None:
        pass  # never asked, as present() is not

    def present(self, rowids: Sequence[int], stored_at: tuple[int, int] | None) -> set[int]:
        # Never asked: a search asks only an engine whose near() answers (the rows unread).
        return set(self.hit_rows(rowids))

    def near(self) -> None:
        return None  # no index of the chunks that may fold: every search folds the whole way

    def find_documents(self, key: str) -> list[DocumentRow]:
        return self._reader.find_documents(key)


def _arms(mode: ConcreteMode) -> tuple[str, ...]:
    if mode == SearchMode.BM25:
        return ("bm25",)
    if mode == SearchMode.DENSE:
        return ("dense",)
    return ("bm25", "dense")


def _request(arm: models.Prefetch) -> models.QueryRequest:
    from groundkit.backends.qdrant import vocab as models

    return models.QueryRequest(
        query=arm.query,
        using=arm.using,
        limit=arm.limit,
        filter=arm.filter,
        params=arm.params,
        with_payload=False,
    )

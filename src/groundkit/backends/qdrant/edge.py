"""``EdgeTransport``: the Qdrant backend's requests run by Qdrant's own engine inside this process
(qdrant-edge: one shard in a folder, the Rust code a cluster's shard runs).

The requests arrive in ``vocab``'s values and are translated here; qdrant-client is never
imported. The shard is one process's: a second process cannot open the
folder while this one has it.

Closing a shard flushes it (every mapped file synced, the segment's version file rewritten) and
drops its files from the page cache; at load 3 that was about 0.2 s of a 1 s ``grk search``, and
the next command read the files from disk again. So in a process that ends with its command
(``groundkit.lifetime``), a shard this process only read is not closed: it is left open to the
exit, which releases the folder's lock, as a ``kill -9`` would, with nothing of this process's to
save (what loading it wrote, its config file, is written whole before the load returns). Another
opening of the same folder in the process takes the left shard back instead of loading it again.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from groundkit.backends.qdrant.room import ensure_room
from groundkit.backends.qdrant.snapshot import read_copy, remove_copy
from groundkit.backends.qdrant.transport import Found, Spec, backend_failure
from groundkit.errors import ErrorCode, IndexLockedError, NotFoundError, StoreError, missing_extra
from groundkit.lifetime import ends_with_command
from groundkit.storage.faults import classify_os_error

if TYPE_CHECKING:
    import qdrant_edge as edge

    from groundkit.backends.qdrant import vocab as models

__all__ = ["EdgeTransport"]

T = TypeVar("T")


_WRITES = frozenset({"create", "write"})

# Shards this process read and never wrote, left open for its exit (folder -> shard).
_left: dict[Path, edge.EdgeShard] = {}
_left_lock = threading.Lock()


def _leave(folder: Path, shard: edge.EdgeShard) -> None:
    import ctypes

    # Python frees every object it can reach as it exits, and freeing a shard flushes it: the
    # close this skips. A reference never given back keeps the shard until the process is gone.
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(shard))
    with _left_lock:
        _left[folder] = shard


def _take_left(folder: Path) -> edge.EdgeShard | None:
    with _left_lock:
        return _left.pop(folder, None)


def _failure(exc: Exception, folder: Path, name: str, doing: str) -> StoreError | NotFoundError:
    """What a failure of the engine means: another process holding the folder, a full disk
    (the engine says "No space left on device (os error 28)"), or a failure of its own."""
    if "WouldBlock" in str(exc):  # the log's file lock: one process has the folder at a time
        return IndexLockedError(
            f"another process has collection {name!r} open (Qdrant's engine in a folder"
            " serves one process at a time)",
            hint="wait for the other command to finish, then run this one again",
        )
    full = classify_os_error(exc, folder, f"cannot {doing} collection {name!r} (Qdrant's engine)")
    return full or backend_failure(exc, name, doing)


def _edge() -> Any:
    try:
        import qdrant_edge
    except ImportError:
        raise missing_extra("qdrant_edge", "qdrant") from None
    return qdrant_edge


class EdgeTransport:
    """A ``transport.Transport`` over an ``EdgeShard`` in ``folder``."""

    def __init__(self, name: str, folder: str | Path) -> None:
        self.name = name
        self.where = "qdrant-edge"
        self.folder = Path(folder)
        self._e = _edge()
        self._lock = threading.Lock()
        self._shard: edge.EdgeShard | None = None
        self._copy: Path | None = None  # the shard is read from this copy (snapshot.py)
        self._wrote = False  # whether this process may have changed the open shard

    def _key(self) -> Path:
        return self.folder.resolve()

    def _open(self) -> edge.EdgeShard:
        if self._shard is None:
            self._shard = _take_left(self._key())
            self._wrote = False  # a shard left open was only read
        if self._shard is None:
            if not self.exists():
                raise NotFoundError(
                    ErrorCode.COLLECTION_NOT_FOUND,
                    f"collection {self.name!r} has no Qdrant shard in its folder yet",
                    hint="ingest into it to make it",
                )
            where = self.folder
            try:
                ensure_room(self.folder, self.name, writing=False)
            except StoreError:
                # Too full to open in place: read a copy on a disk with room, if there is one.
                self._copy = read_copy(self.folder, self.name)
                if self._copy is None:
                    raise
                where = self._copy
            self._shard = self._e.EdgeShard.load(str(where))
        return self._shard

    def _run(self, doing: str, call: Callable[[edge.EdgeShard], T]) -> T:
        with self._lock:
            try:
                shard = self._open()
                if doing in _WRITES:
                    self._wrote = True
                    ensure_room(self.folder, self.name, writing=True)
                    if self._copy is not None:  # room came back: write to the folder itself
                        self._close()
                        shard = self._open()
                return call(shard)
            except (StoreError, NotFoundError):
                raise
            except Exception as exc:
                raise _failure(exc, self.folder, self.name, doing) from None

    def _update(self, doing: str, operation: Any) -> None:
        self._run(doing, lambda shard: shard.update(operation))

    def exists(self) -> bool:
        return (self.folder / "edge_config.json").is_file()

    def create(self, spec: Spec, indexes: dict[str, str]) -> None:
        e = self._e
        vectors = None
        if spec.dense:
            vectors = {"dense": e.EdgeVectorParams(size=spec.dense, distance=e.Distance.Dot)}
        config = e.EdgeConfig(
            vectors=vectors,
            sparse_vectors={"bm25": e.EdgeSparseVectorParams(modifier=e.Modifier.Idf)},
        )
        with self._lock:
            try:
                ensure_room(self.folder, self.name, writing=True)
                self._wrote = True
                self._shard = e.EdgeShard.create(str(self.folder), config)
            except StoreError:
                raise
            except Exception as exc:
                raise _failure(exc, self.folder, self.name, "create") from None
        kinds = {
            "keyword": e.PayloadSchemaType.Keyword,
            "range": e.IntegerIndexParams(lookup=False, range=True),
            "lookup": e.IntegerIndexParams(lookup=True, range=False),
        }
        for field, kind in indexes.items():
            self._update("create", e.UpdateOperation.create_field_index(field, kinds[kind]))

    def add_dense(self, size: int, spec: Spec) -> None:
        operation = self._e.UpdateOperation.create_dense_vector("dense", size, self._e.Distance.Dot)
        self._run("create", lambda shard: shard.update(operation))

    def drop(self) -> None:
        with self._lock:
            self._open_left()  # closed for good below, with the folder
            self._close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def upsert(self, points: Sequence[models.PointStruct], *, insert_only: bool = False) -> None:
        e = self._e
        converted = [e.Point(int(p.id), self._vectors(p.vector), p.payload or {}) for p in points]
        mode = e.UpdateMode.InsertOnly if insert_only else None
        operation = e.UpdateOperation.upsert_points(converted, update_mode=mode)
        self._run("write", lambda shard: shard.update(operation))

    def update_vectors(self, points: Sequence[models.PointVectors]) -> None:
        e = self._e
        converted = [e.PointVectors(int(p.id), self._vectors(p.vector)) for p in points]
        operation = e.UpdateOperation.update_vectors(converted)
        self._run("write", lambda shard: shard.update(operation))

    def set_payload(
        self,
        payload: dict[str, Any],
        *,
        ids: Sequence[int] | None = None,
        where: models.Filter | None = None,
        key: str | None = None,
    ) -> None:
        e = self._e
        if ids is not None and where is None:
            operation = e.UpdateOperation.set_payload(list(ids), payload, key)
        else:
            operation = e.UpdateOperation.set_payload_by_filter(
                self._selection(ids, where), payload, key
            )
        self._run("write", lambda shard: shard.update(operation))

    def delete(
        self, *, ids: Sequence[int] | None = None, where: models.Filter | None = None
    ) -> None:
        e = self._e
        if ids is not None and where is None:
            operation = e.UpdateOperation.delete_points(list(ids))
        else:
            operation = e.UpdateOperation.delete_points_by_filter(self._selection(ids, where))
        self._run("write", lambda shard: shard.update(operation))

    def retrieve(self, ids: Sequence[int], fields: Sequence[str] | None = None) -> list[Found]:
        if not ids:
            return []
        wanted = True if fields is None else list(fields)
        records = self._run("read", lambda shard: shard.retrieve(list(ids), wanted, False))
        return [Found(int(r.id), 0.0, dict(r.payload or {})) for r in records]

    def scroll(
        self,
        where: models.Filter,
        *,
        fields: Sequence[str] | None = None,
        limit: int = 1000,
        after: int | None = None,
    ) -> tuple[list[Found], int | None]:
        request = self._e.ScrollRequest(
            offset=after,
            limit=limit,
            filter=self.filter(where),
            with_payload=True if fields is None else list(fields),
            with_vector=False,
        )
        records, following = self._run("read", lambda shard: shard.scroll(request))
        found = [Found(int(r.id), 0.0, dict(r.payload or {})) for r in records]
        return found, None if following is None else int(following)

    def count(self, where: models.Filter) -> int:
        request = self._e.CountRequest(exact=True, filter=self.filter(where))
        return int(self._run("read", lambda shard: shard.count(request)))

    def query_batch(self, requests: Sequence[models.QueryRequest]) -> list[list[Found]]:
        batch = self._e.QueryBatchRequest([self._query(r) for r in requests])
        answers = self._run("search", lambda shard: shard.query_batch(batch))
        return [
            [Found(int(p.id), float(p.score), dict(p.payload or {})) for p in answer]
            for answer in answers
        ]

    def flush(self) -> None:
        self._run("write", lambda shard: shard.flush())

    def close(self) -> None:
        with self._lock:
            shard = self._shard
            if shard is not None and not self._wrote and self._copy is None and ends_with_command():
                self._shard = None
                _leave(self._key(), shard)
                return
            self._close()

    def _open_left(self) -> None:
        if self._shard is None:
            self._shard = _take_left(self._key())

    def _close(self) -> None:
        try:
            if self._shard is not None:
                self._shard.close()
        finally:
            self._shard = None
            if self._copy is not None:
                remove_copy(self._copy)
                self._copy = None

    # -- translation ------------------------------------------------------------------------------
    def _vectors(self, vector: Any) -> dict[str, Any]:
        from groundkit.backends.qdrant import vocab as models

        out: dict[str, Any] = {}
        for name, value in (vector or {}).items():
            if isinstance(value, models.SparseVector):
                out[name] = self._e.SparseVector(list(value.indices), list(value.values))
            else:
                out[name] = [float(x) for x in value]
        return out

    def _selection(self, ids: Sequence[int] | None, where: models.Filter | None) -> Any:
        from groundkit.backends.qdrant import vocab as models

        if ids is None:
            assert where is not None
            return self.filter(where)
        conditions: list[Any] = [models.HasIdCondition(has_id=list(ids))]
        if where is not None:
            conditions.append(where)
        return self.filter(models.Filter(must=conditions))

    def filter(self, where: models.Filter | None) -> Any:
        if where is None:
            return None
        e = self._e

        def many(items: Any) -> list[Any] | None:
            if items is None:
                return None
            listed = items if isinstance(items, list) else [items]
            return [self._condition(c) for c in listed]

        return e.Filter(
            must=many(where.must), should=many(where.should), must_not=many(where.must_not)
        )

    def _condition(self, condition: Any) -> Any:
        from groundkit.backends.qdrant import vocab as models

        e = self._e
        if isinstance(condition, models.Filter):
            return self.filter(condition)
        if isinstance(condition, models.HasIdCondition):
            return e.HasIdCondition({int(i) for i in condition.has_id})
        if isinstance(condition, models.HasVectorCondition):
            return e.HasVectorCondition(condition.has_vector)
        if isinstance(condition, models.IsEmptyCondition):
            return e.IsEmptyCondition(condition.is_empty.key)
        if isinstance(condition, models.FieldCondition):
            if condition.range is not None:
                r = condition.range
                return e.FieldCondition(
                    key=condition.key,
                    range=e.RangeFloat(gte=r.gte, gt=r.gt, lte=r.lte, lt=r.lt),
                )
            match = condition.match
            if isinstance(match, models.MatchValue):
                return e.FieldCondition(key=condition.key, match=e.MatchValue(match.value))
            if isinstance(match, models.MatchAny):
                return e.FieldCondition(key=condition.key, match=e.MatchAny(list(match.any)))
        raise TypeError(f"no qdrant-edge form for {type(condition).__name__}")

    def _nearest(self, query: Any, using: str | None) -> Any:
        from groundkit.backends.qdrant import vocab as models

        e = self._e
        if isinstance(query, models.RrfQuery):
            return e.Fusion.Rrf(k=int(query.rrf.k or 2))
        if isinstance(query, models.SparseVector):
            vector: Any = e.SparseVector(list(query.indices), list(query.values))
        else:
            vector = [float(x) for x in query]
        return e.Query.Nearest(vector, using=using)

    def _params(self, params: models.SearchParams | None) -> Any:
        from groundkit.backends.qdrant import vocab as models

        if params is None:
            return None
        idf = None
        if isinstance(params.idf, models.IdfCorpusParams):
            idf = self._e.IdfParams(corpus=self.filter(params.idf.corpus))
        return self._e.SearchParams(exact=bool(params.exact), idf=idf)

    def _query(self, request: models.QueryRequest) -> Any:
        e = self._e
        prefetches = request.prefetch or []
        if not isinstance(prefetches, list):
            prefetches = [prefetches]
        return e.QueryRequest(
            limit=int(request.limit or 10),
            query=self._nearest(request.query, request.using),
            prefetches=[
                e.Prefetch(
                    limit=int(p.limit or 10),
                    query=self._nearest(p.query, p.using),
                    filter=self.filter(p.filter),
                    params=self._params(p.params),
                )
                for p in prefetches
            ]
            or None,
            filter=self.filter(request.filter),
            params=self._params(request.params),
            with_payload=request.with_payload if request.with_payload is not None else True,
            with_vector=False,
        )

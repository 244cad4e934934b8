"""The persisted dense index over chunk vectors, derived from the store's ``chunk_vectors``.

A folder (``vectors``) of flat, memory-mappable files of one *generation*: ``matrix.G.f32`` (rows x
dims), ``ids.G.i64`` (chunk rowid per row), ``docs.G.i64`` (document rowid per row) and
``dead.G.i64`` (rows deleted since). Updates append rows and tombstones; ``state.json``, replaced
atomically after the appends are on disk, says how many rows and tombstones are valid, so bytes
written past them by an interrupted sync are ignored, and the sync is replayed from the store's
change log. When a quarter of the rows are dead, the live rows are copied into the next
generation; a rebuild writes the next generation from scratch. Either way readers see the old
generation until the state file names the new one.

Search is exact (one matrix-vector product over the memory map) until the live vectors reach
``ann_threshold``; from there an HNSW index (``ann.py``) kept in step with each sync answers
unfiltered queries, and exact search still answers filtered ones.

Opening reads only ``state.json``: numpy and the matrix load on the first search or write, so a
bm25 search never pays for them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from groundkit.embed.blas import one_blas_thread
from groundkit.errors import ErrorCode, StoreError
from groundkit.index.disk import disk_usage
from groundkit.index.store import Store
from groundkit.storage.faults import classify_os_error

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from groundkit.index.ann import AnnIndex

__all__ = ["VectorIndex"]

one_blas_thread()  # before numpy is imported (lazily, below): see groundkit.embed.blas

_COMPACT_FRACTION = 0.25
_EMPTY = {"generation": 0, "dims": 0, "rows": 0, "dead": 0}


class VectorIndex:
    """One collection's dense index, in the folder ``vectors`` under the collection's ``root``."""

    name = "vector"
    build = "vectors_v1"

    def __init__(self, root: Path, *, ann_threshold: int | None = None) -> None:
        self.root = root
        self.path = root / "vectors"
        self.ann_threshold = ann_threshold
        self._loaded = False
        try:
            self._apply(self._state())
            self.opened = True
        except StoreError:  # unreadable state: the collection rebuilds it
            self._apply(_EMPTY)
            self.opened = False

    def refresh(self) -> None:
        """See what another process committed."""
        try:
            state = self._state()
        except StoreError:
            return
        if (state["generation"], state["rows"], state["dead"]) != self._ann_state:
            self._apply(state)
            self._loaded = False
        self.opened = True

    # -- reading
    def _apply(self, state: dict[str, Any]) -> None:
        self.generation: int = state["generation"]
        self.dims: int = state["dims"]
        self.rows: int = state["rows"]
        self._dead_count: int = state["dead"]

    def _load(self) -> None:
        """The arrays of the current state, memory-mapped where they can be."""
        import numpy as np

        from groundkit.index.ann import AnnIndex  # numpy: loaded with vectors, not bm25

        if self.rows and self.dims:
            self._matrix: npt.NDArray[np.float32] = np.memmap(
                self._file("matrix", "f32"), np.float32, "r", shape=(self.rows, self.dims)
            )
        else:
            self._matrix = np.zeros((0, max(self.dims, 1)), np.float32)
        self._ids = self._read("ids", self.rows)
        self._docs = self._read("docs", self.rows)
        self._alive = np.ones(self.rows, bool)
        self._dead = self._read("dead", self._dead_count)
        self._alive[self._dead] = False
        self._ann: AnnIndex | None = (
            AnnIndex.open(self.path, self._ann_state) if self._wants_ann() else None
        )
        self._loaded = True

    def _read(self, name: str, count: int) -> npt.NDArray[np.int64]:
        import numpy as np

        if not count:
            return np.zeros(0, np.int64)
        return np.fromfile(self._file(name, "i64"), np.int64, count)

    def _ensure_loaded(self) -> None:
        if not self._loaded:
            self._load()

    @property
    def _ann_state(self) -> tuple[int, int, int]:
        return (self.generation, self.rows, self._dead_count)

    def _wants_ann(self) -> bool:
        return self.ann_threshold is not None and self.count >= self.ann_threshold

    def _state(self) -> dict[str, Any]:
        try:
            state: dict[str, Any] = json.loads((self.path / "state.json").read_text())
        except FileNotFoundError:
            return dict(_EMPTY)
        except (OSError, ValueError) as exc:
            raise StoreError(
                ErrorCode.INDEX_FAILED,
                "cannot read the vector index state",
                hint="run `grk reindex` to rebuild it from the store",
            ) from exc
        return state

    def _file(self, name: str, ext: str, generation: int | None = None) -> Path:
        gen = self.generation if generation is None else generation
        return self.path / f"{name}.{gen}.{ext}"

    @property
    def count(self) -> int:
        """Live vectors."""
        return self.rows - self._dead_count

    def entries(self) -> int:
        return self.count

    def expected(self, store: Store) -> int:
        return store.vector_count()

    def source_rows(
        self, store: Store, documents: Sequence[int] | None
    ) -> Iterator[tuple[int, int, bytes]]:
        return store.vectors(documents)

    def size_bytes(self) -> int:
        return disk_usage(self.path)

    def search(
        self, query: npt.NDArray[np.float32], limit: int, allowed: Sequence[int] | None = None
    ) -> list[tuple[int, float]]:
        """``(chunk rowid, similarity)`` best first; ``allowed`` restricts to those chunks."""
        import numpy as np

        if not self.rows or limit <= 0:
            return []
        self._ensure_loaded()
        if query.shape != (self.dims,):
            raise StoreError(
                ErrorCode.INDEX_FAILED,
                f"query vector has {query.shape[-1]} dimensions, the index {self.dims}",
            )
        if self._ann is not None and allowed is None:
            found = self._ann.search(query, min(limit, self.count))
            return [(int(self._ids[row]), score) for row, score in found if self._alive[row]]
        mask = self._alive if allowed is None else self._alive & np.isin(self._ids, allowed)
        scores = self._matrix @ query
        scores = np.where(mask, scores, -np.inf)
        candidates = int(mask.sum())
        if not candidates:
            return []
        k = min(limit, candidates)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(self._ids[i]), float(scores[i])) for i in top]

    # -- writing (the caller holds the collection's write lock) -----------------------------------
    def sync(self, delete_docs: Iterable[int], add: Iterable[tuple[int, int, bytes]]) -> None:
        """Drop the rows of some documents, append vectors, and commit. Idempotent.

        ``add`` yields ``(chunk rowid, document rowid, float32 bytes)``.
        """
        self._guarded(lambda: self._sync(delete_docs, add, clear=False))

    def rebuild(self, add: Iterable[tuple[int, int, bytes]]) -> None:
        """Every row anew, in the next generation."""
        self._guarded(lambda: self._sync((), add, clear=True))

    def _guarded(self, write: Callable[[], None]) -> None:
        try:
            write()
        except OSError as exc:
            found = classify_os_error(exc, self.root, "the vector index could not be written")
            if found is None:
                raise
            raise found from exc

    def _sync(
        self, delete_docs: Iterable[int], add: Iterable[tuple[int, int, bytes]], *, clear: bool
    ) -> None:
        import numpy as np

        self.path.mkdir(parents=True, exist_ok=True)
        if clear or not self.opened:
            self._write_generation(self.generation + 1, b"", [], [], self.dims)
            self.opened = True
        self._ensure_loaded()
        doomed = np.fromiter(delete_docs, np.int64)
        kill: npt.NDArray[np.intp] = (
            np.nonzero(self._alive & np.isin(self._docs, doomed))[0]
            if doomed.size
            else np.zeros(0, np.intp)
        )
        chunks: list[int] = []
        docs: list[int] = []
        blobs: list[bytes] = []
        for chunk, doc, blob in add:
            chunks.append(chunk)
            docs.append(doc)
            blobs.append(blob)
        dims = self.dims or (len(blobs[0]) // 4 if blobs else 0)
        if any(len(b) != dims * 4 for b in blobs):
            raise StoreError(ErrorCode.INDEX_FAILED, "vectors of different sizes in one index")
        dead = self._dead_count + len(kill)
        rows = self.rows + len(chunks)
        if rows and dead > _COMPACT_FRACTION * rows:
            self._compact(kill, chunks, docs, blobs, dims)
            return
        self._append("matrix", "f32", self.rows * dims * 4, b"".join(blobs))
        self._append("ids", "i64", self.rows * 8, np.asarray(chunks, np.int64).tobytes())
        self._append("docs", "i64", self.rows * 8, np.asarray(docs, np.int64).tobytes())
        self._append("dead", "i64", self._dead_count * 8, np.asarray(kill, np.int64).tobytes())
        self._commit(self.generation, dims, rows, dead)

    def _append(self, name: str, ext: str, offset: int, data: bytes) -> None:
        with open(self._file(name, ext), "ab") as fh:
            fh.truncate(offset)  # drop whatever an interrupted sync left past the valid part
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())

    def _compact(
        self, kill: Any, chunks: list[int], docs: list[int], blobs: list[bytes], dims: int
    ) -> None:
        import numpy as np

        alive = self._alive.copy()
        alive[kill] = False
        keep = np.nonzero(alive)[0]
        matrix = b"".join([np.ascontiguousarray(self._matrix[keep]).tobytes(), *blobs])
        ids = [*self._ids[keep].tolist(), *chunks]
        owners = [*self._docs[keep].tolist(), *docs]
        self._write_generation(self.generation + 1, matrix, ids, owners, dims)

    def _write_generation(
        self, generation: int, matrix: bytes, ids: list[int], docs: list[int], dims: int
    ) -> None:
        import numpy as np

        for name, ext, payload in (
            ("matrix", "f32", matrix),
            ("ids", "i64", np.asarray(ids, np.int64).tobytes()),
            ("docs", "i64", np.asarray(docs, np.int64).tobytes()),
            ("dead", "i64", b""),
        ):
            with open(self._file(name, ext, generation), "wb") as fh:
                fh.write(payload)
                fh.flush()
                os.fsync(fh.fileno())
        old = self.generation
        self._commit(generation, dims, len(ids), 0)
        if old != generation:
            for name, ext in (("matrix", "f32"), ("ids", "i64"), ("docs", "i64"), ("dead", "i64")):
                self._file(name, ext, old).unlink(missing_ok=True)

    def _commit(self, generation: int, dims: int, rows: int, dead: int) -> None:
        from groundkit.index.ann import AnnIndex, ann_available

        previous = (
            self._ann.state
            if self._loaded and self._ann is not None
            else AnnIndex.saved_state(self.path)
        )
        state = {"generation": generation, "dims": dims, "rows": rows, "dead": dead}
        tmp = self.path / "state.json.tmp"
        tmp.write_text(json.dumps(state))
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, self.path / "state.json")
        self._apply(state)
        self._load()
        if self._wants_ann() and self._ann is None and ann_available():
            self._ann = AnnIndex.update(
                self.path, previous, self._ann_state, self._matrix, self._alive, self._dead
            )

"""An approximate (HNSW) index over a vector index's live rows, for collections past a size where
exact search gets slow. A cache: derived from the vector index, named after the exact state it
mirrors, and simply not used while it does not match (exact search answers instead)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["AnnIndex", "ann_available"]

# Measured by benchmarks/vectors.py --sweep: recall@10 0.98 at 100k vectors in 3.9 ms.
_EXPANSION_SEARCH = 256  # candidates explored per query: recall over speed
_CONNECTIVITY = 32


def ann_available() -> bool:
    try:
        import usearch.index  # noqa: F401
    except ImportError:
        return False
    return True


class AnnIndex:
    """usearch HNSW keyed by vector-index row number, valid for one (generation, rows, dead)."""

    def __init__(self, folder: Path, index: Any, state: tuple[int, int, int]) -> None:
        self._folder = folder
        self._index = index
        self._index.expansion_search = _EXPANSION_SEARCH  # not saved with the index
        self.state = state

    @staticmethod
    def _file(folder: Path, state: tuple[int, int, int]) -> Path:
        return folder / "ann.{}.{}.{}.usearch".format(*state)

    @classmethod
    def saved_state(cls, folder: Path) -> tuple[int, int, int] | None:
        """The state the saved index mirrors, when there is one on disk."""
        try:
            generation, rows, dead = json.loads((folder / "ann.json").read_text())["state"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        state = (int(generation), int(rows), int(dead))
        return state if cls._file(folder, state).is_file() else None

    @classmethod
    def open(cls, folder: Path, state: tuple[int, int, int]) -> AnnIndex | None:
        """The saved index if it mirrors ``state`` exactly, else None."""
        if cls.saved_state(folder) != state or not ann_available():
            return None
        from usearch.index import Index

        index: Any = Index.restore(str(cls._file(folder, state)), view=True)
        return None if index is None else cls(folder, index, state)

    @classmethod
    def update(
        cls,
        folder: Path,
        previous: tuple[int, int, int] | None,
        state: tuple[int, int, int],
        matrix: npt.NDArray[np.float32],
        alive: npt.NDArray[np.bool_],
        dead_rows: npt.NDArray[np.int64],
    ) -> AnnIndex:
        """Bring the saved index from ``previous`` to ``state`` (rows appended, rows killed), or
        build it afresh when there is no usable previous one (first time, or a new generation)."""
        from usearch.index import Index

        generation, rows, dead = state
        index: Any = None
        if previous is not None and previous[0] == generation:
            index = Index.restore(str(cls._file(folder, previous)), view=False)
        if index is None:
            index = Index(
                ndim=matrix.shape[1], metric="cos", dtype="f32", connectivity=_CONNECTIVITY
            )
            first_row, first_dead = 0, 0
        else:
            first_row, first_dead = previous[1], previous[2]  # type: ignore[index]
            stale = dead_rows[first_dead:dead]
            stale = stale[stale < first_row]  # rows the index holds that have died since
            if stale.size:
                index.remove(stale.astype(np.uint64))
        new = np.arange(first_row, rows)
        new = new[alive[first_row:rows]]
        if new.size:
            index.add(new.astype(np.uint64), np.ascontiguousarray(matrix[new]), threads=0)
        target = cls._file(folder, state)
        index.save(str(target) + ".tmp")
        os.replace(str(target) + ".tmp", target)
        marker = folder / "ann.json.tmp"
        marker.write_text(json.dumps({"state": list(state)}))
        os.replace(marker, folder / "ann.json")
        for old in folder.glob("ann.*.usearch"):
            if old != target:
                old.unlink(missing_ok=True)
        return cls(folder, index, state)

    def search(self, query: npt.NDArray[np.float32], limit: int) -> list[tuple[int, float]]:
        """``(row, cosine similarity)`` best first."""
        matches = self._index.search(query, limit)
        return [
            (int(k), 1.0 - float(d)) for k, d in zip(matches.keys, matches.distances, strict=True)
        ]

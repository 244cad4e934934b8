"""The dense vector index: appends, tombstones, compaction, and the HNSW index past a threshold."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import groundkit
from groundkit.config import SearchConfig, Settings
from groundkit.index.vectors import VectorIndex
from groundkit.testing import FakeEmbedder

DIMS = 16


def _vectors(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(n, DIMS)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _rows(m: np.ndarray, first_chunk: int = 1, per_doc: int = 4) -> list[tuple[int, int, bytes]]:
    return [
        (first_chunk + i, 1 + (first_chunk + i) // per_doc, m[i].tobytes()) for i in range(len(m))
    ]


def _exact(m: np.ndarray, ids: list[int], q: np.ndarray, k: int) -> list[int]:
    order = np.argsort(-(m @ q), kind="stable")[:k]
    return [ids[i] for i in order]


def test_search_is_exact_and_survives_reopening(tmp_path: Path) -> None:
    m = _vectors(50)
    index = VectorIndex(tmp_path / "v")
    index.sync([], _rows(m))
    reopened = VectorIndex(tmp_path / "v")
    got = [chunk for chunk, _ in reopened.search(m[7], 5)]
    assert got == _exact(m, list(range(1, 51)), m[7], 5)
    assert got[0] == 8


def test_a_deleted_documents_vectors_are_never_returned_and_compaction_keeps_the_rest(
    tmp_path: Path,
) -> None:
    m = _vectors(40)
    index = VectorIndex(tmp_path / "v")
    index.sync([], _rows(m))
    doomed_docs = list(range(1, 5))  # chunks 1..15 live in documents 1..4
    index.sync(doomed_docs, [])
    assert index.generation == 1  # over a quarter dead: compacted into a new generation
    alive = [c for c in range(1, 41) if 1 + c // 4 not in doomed_docs]
    assert index.count == len(alive)
    got = [chunk for chunk, _ in index.search(m[0], 40)]
    assert sorted(got) == alive


def test_bytes_past_the_committed_state_are_ignored(tmp_path: Path) -> None:
    m = _vectors(10)
    index = VectorIndex(tmp_path / "v")
    index.sync([], _rows(m))
    with open(tmp_path / "v" / "matrix.0.f32", "ab") as fh:  # an interrupted append
        fh.write(b"\x00" * 64 * 3)
    assert VectorIndex(tmp_path / "v").rows == 10
    index = VectorIndex(tmp_path / "v")
    index.sync([], _rows(_vectors(2, seed=1), first_chunk=100))
    assert index.rows == 12
    assert index.search(_vectors(2, seed=1)[1], 1)[0][0] == 101


def test_past_the_threshold_an_hnsw_index_answers_and_stays_in_step(tmp_path: Path) -> None:
    pytest.importorskip("usearch")
    m = _vectors(300)
    ids = list(range(1, 301))
    index = VectorIndex(tmp_path / "v", ann_threshold=100)
    index.sync([], _rows(m))
    assert index._ann is not None
    recall = np.mean(
        [len({c for c, _ in index.search(q, 10)} & set(_exact(m, ids, q, 10))) / 10 for q in m[:50]]
    )
    assert recall >= 0.95

    index.sync([2, 3], _rows(_vectors(5, seed=2), first_chunk=1000))  # kills chunks 4..11
    assert json.loads((tmp_path / "v" / "vectors" / "ann.json").read_text())["state"] == [0, 305, 8]
    reopened = VectorIndex(tmp_path / "v", ann_threshold=100)
    found = [c for c, _ in reopened.search(m[5], 10)]
    assert reopened._ann is not None  # loaded with the arrays, at the first search
    assert not set(found) & set(range(4, 12))
    assert reopened.search(_vectors(5, seed=2)[3], 1)[0][0] == 1003


def test_a_stale_hnsw_index_is_not_used(tmp_path: Path) -> None:
    pytest.importorskip("usearch")
    m = _vectors(120)
    VectorIndex(tmp_path / "v", ann_threshold=100).sync([], _rows(m))
    (tmp_path / "v" / "vectors" / "ann.json").write_text(json.dumps({"state": [0, 99, 0]}))
    index = VectorIndex(tmp_path / "v", ann_threshold=100)
    assert [c for c, _ in index.search(m[3], 3)] == _exact(m, list(range(1, 121)), m[3], 3)
    assert index._ann is None


def test_a_collection_past_its_ann_threshold_searches_through_the_hnsw_index(
    tmp_path: Path,
) -> None:
    pytest.importorskip("usearch")
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(12):
        (docs / f"n{i}.md").write_text(f"# Note {i}\n\nStone number {i} is basalt{i}.\n")
    settings = Settings(search=SearchConfig(ann_threshold=5))
    with groundkit.open_collection(
        "a", index_dir=tmp_path / "index", settings=settings, embedder=FakeEmbedder()
    ) as coll:
        coll.ingest([str(docs)], dense=True)
        assert (tmp_path / "index" / "a" / "vectors" / "ann.json").is_file()
        top = coll.search("basalt7 stone", mode="dense", top_k=1)[0]
        assert Path(top.citation.source).name == "n7.md"


def test_the_hnsw_library_and_the_onnx_runtime_load_together_in_either_order() -> None:
    # usearch 2.26.6 crashed the process when onnxruntime was imported after it; the pin in
    # pyproject.toml avoids it, and this keeps a future upgrade honest.
    pytest.importorskip("usearch")
    pytest.importorskip("onnxruntime")
    for order in ("import usearch.index, onnxruntime", "import onnxruntime, usearch.index"):
        done = subprocess.run([sys.executable, "-c", order], check=False, capture_output=True)
        assert done.returncode == 0, order

"""The derived indexes' lifecycle seen from outside: rebuilt beside the old, caught up after a
change, ranking as a clean build does, and safe when two processes meet."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import groundkit

_WORDS = (
    "granite basalt marble quartz slate shale gneiss schist obsidian pumice feldspar mica"
    " river delta canyon glacier moraine fjord valley ridge summit plateau basin crater"
    " falcon heron osprey kestrel plover curlew sparrow wren finch thrush robin swift"
).split()


def _document(rng: random.Random, length: int) -> str:
    # Zipf-like: a few words are common, most are rare, as in real text.
    weights = [1 / (rank + 1) for rank in range(len(_WORDS))]
    return " ".join(rng.choices(_WORDS, weights, k=length)) + ".\n"


def _write_corpus(folder: Path, seed: int, count: int = 120) -> None:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"d{i:03}.txt").write_text(_document(rng, rng.randint(8, 60)))


def _top(coll: groundkit.Collection, query: str, k: int = 10) -> list[tuple[str, float]]:
    return [(Path(h.citation.source).name, h.score) for h in coll.search(query, top_k=k)]


def _ranks_alike(updated: list[tuple[str, float]], clean: list[tuple[str, float]]) -> bool:
    """The same top 10, up to the order of tied documents, with scores within 0.5%."""
    score_of = dict(clean)
    for (doc, score), (_, clean_score) in zip(updated, clean, strict=False):
        if abs(score - clean_score) > 0.005 * clean_score:
            return False
        # A document at another rank is fine only where the scores tie (tantivy orders ties by
        # where a posting sits in its segments, which differs between two builds).
        if doc not in score_of or abs(score_of[doc] - clean_score) > 0.001 * clean_score:
            return False
    return len(updated) == min(len(clean), 10)


_QUERIES = [
    " ".join(random.Random(q).sample(_WORDS, random.Random(q).randint(1, 3))) for q in range(40)
]


def test_an_incrementally_updated_collection_ranks_as_a_clean_ingest_of_the_same_content(
    tmp_path: Path,
) -> None:
    updated_docs, clean_docs = tmp_path / "updated", tmp_path / "clean"
    _write_corpus(updated_docs, seed=1)
    with groundkit.open_collection("u", index_dir=tmp_path / "index") as updated:
        updated.ingest([str(updated_docs)])
        # Rewrite two documents in three: their old postings are deleted, not yet merged away.
        rng = random.Random(2)
        for i in range(120):
            if i % 3:
                (updated_docs / f"d{i:03}.txt").write_text(_document(rng, rng.randint(8, 60)))
        assert updated.ingest([str(updated_docs)]).changed == 80
        assert updated._lexical.stale_postings > 0  # the case this test is about
        # Searched, then changed again: what the searches learnt of the first state (each
        # term's correction for deleted postings) must not outlive it.
        for q in _QUERIES:
            _top(updated, q)
        for i in range(0, 120, 2):
            (updated_docs / f"d{i:03}.txt").write_text(_document(rng, rng.randint(8, 60)))
        assert updated.ingest([str(updated_docs)]).changed == 60
        _write_corpus(clean_docs, seed=1)
        for path in updated_docs.iterdir():
            (clean_docs / path.name).write_text(path.read_text())
        with groundkit.open_collection("c", index_dir=tmp_path / "index") as clean:
            clean.ingest([str(clean_docs)])
            assert clean._lexical.stale_postings == 0
            alike = [_ranks_alike(_top(updated, q), _top(clean, q, 20)) for q in _QUERIES]
    # The tolerance (docs/decisions/0007-derived-indexes.md): idf is made exact; the average
    # document length still counts deleted postings, which moves scores by well under 0.5%.
    assert all(alike)


def test_reindex_swaps_in_a_new_generation_and_removes_the_old(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _write_corpus(docs, seed=3, count=20)
    with groundkit.open_collection("r", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        before = coll._lexical.folder
        reader = groundkit.open_collection("r", index_dir=tmp_path / "index")
        expected = _top(reader, "granite")
        assert coll.reindex() == coll.status().chunks
        assert coll._lexical.folder != before
        assert not (tmp_path / "index" / "r" / str(before)).exists()
        assert _top(reader, "granite") == expected  # a reader opened before still answers
        reader._lexical.refresh()
        assert reader._lexical.folder == coll._lexical.folder
        assert _top(reader, "granite") == expected
        reader.close()


_REINDEX_LOOP = """
import sys, groundkit
coll = groundkit.open_collection("r", index_dir=sys.argv[1], create=False)
for _ in range(int(sys.argv[2])):
    coll.reindex()
"""


def test_a_search_during_a_reindex_sees_the_old_or_the_new_index_never_an_empty_one(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    _write_corpus(docs, seed=4, count=60)
    index_dir = tmp_path / "index"
    with groundkit.open_collection("r", index_dir=index_dir) as coll:
        coll.ingest([str(docs)])
        expected = len(coll.search("granite basalt", top_k=5))
    assert expected == 5
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    loop = subprocess.Popen([sys.executable, "-c", _REINDEX_LOOP, str(index_dir), "25"], env=env)
    found: list[int] = []
    try:
        while loop.poll() is None:  # as `grk search` does: open, search, close
            with groundkit.open_collection("r", index_dir=index_dir, create=False) as coll:
                found.append(len(coll.search("granite basalt", top_k=5)))
    finally:
        loop.wait()
    assert loop.returncode == 0
    assert len(found) > 5
    assert set(found) == {expected}


_CREATE = """
import sys, groundkit
groundkit.open_collection("c", index_dir=sys.argv[1]).close()
"""


@pytest.mark.parametrize("trial", range(6))
def test_two_processes_making_the_same_new_collection_at_once_both_succeed(
    tmp_path: Path, trial: int
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    run = [sys.executable, "-c", _CREATE, str(tmp_path / "index")]
    both = [subprocess.Popen(run, env=env, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    errors = [p.communicate()[1] for p in both]
    assert [p.returncode for p in both] == [0, 0], errors
    with groundkit.open_collection("c", index_dir=tmp_path / "index", create=False) as coll:
        assert coll.status().health == "ok"


def test_a_collection_made_by_the_earlier_release_opens_migrates_and_searches(
    tmp_path: Path,
) -> None:
    import shutil

    from groundkit.index.migrations import SCHEMA_VERSION
    from groundkit.testing import FakeEmbedder

    fixture = Path(__file__).parents[1] / "fixtures" / "schema3" / "legacy"
    shutil.copytree(fixture, tmp_path / "index" / "legacy")
    with groundkit.open_collection(
        "legacy", index_dir=tmp_path / "index", create=False, embedder=FakeEmbedder()
    ) as coll:
        status = coll.status()
        assert (status.schema_version, status.health) == (SCHEMA_VERSION, "ok")
        assert (status.documents, status.chunks, status.vectors) == (2, 2, 2)
        assert [Path(h.citation.source).name for h in coll.search("lyrebird", mode="bm25")] == [
            "lyrebird.md"
        ]
        dense = coll.search("bowerbird blue objects", mode="dense", top_k=1)
        assert Path(dense[0].citation.source).name == "bowerbird.txt"
        assert coll.show(dense[0].citation.chunk_id).text == dense[0].text
        # Chunks stored before their own text was (schema 7) got it cut from their document.
        assert dense[0].text == "The bowerbird decorates its bower with blue objects."
    assert not (tmp_path / "index" / "legacy" / "lexical").exists()  # rebuilt as a generation


def test_a_collection_that_kept_chunk_texts_opens_migrates_and_searches_with_the_same_hits(
    tmp_path: Path,
) -> None:
    """Schema 8 stored each chunk's text beside its document's; schema 9 keeps it once."""
    import shutil
    import sqlite3

    from groundkit.index.migrations import SCHEMA_VERSION
    from groundkit.testing import FakeEmbedder

    fixture = Path(__file__).parents[1] / "fixtures" / "schema8" / "schema8"
    shutil.copytree(fixture, tmp_path / "index" / "schema8")
    with sqlite3.connect(tmp_path / "index" / "schema8" / "store.sqlite") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 8
        before = dict(conn.execute("SELECT chunk_id, text FROM chunks"))
    with groundkit.open_collection(
        "schema8", index_dir=tmp_path / "index", create=False, embedder=FakeEmbedder()
    ) as coll:
        status = coll.status()
        assert (status.schema_version, status.health) == (SCHEMA_VERSION, "ok")
        assert (status.documents, status.chunks, status.vectors) == (4, 6, 6)
        hits = coll.search("kiwi worms night", mode="bm25", top_k=5)
        assert [h.citation.chunk_id for h in hits][:2] == ["c31caf04156a22de7", "c91646eb42a211e98"]
        assert all(h.text == before[h.citation.chunk_id] for h in hits)
        assert {c.chunk_id: c.text for c in coll.chunks()} == before
        shown = coll.show("c45c94a0dff5922f5")
        assert shown.text == "Kakapo\nThe kakapo is a nocturnal parrot that cannot fly."
        # Titles still reach the lexical index and the embedder with the chunk: the index is
        # rebuilt from the spans, and a record found by its title's word.
        assert coll.reindex() == 6
        assert [h.citation.external_id for h in coll.search("kakapo", mode="bm25")] == ["r1"]
        assert coll.search("bird burrow eighty days", mode="dense", top_k=1)
    with sqlite3.connect(tmp_path / "index" / "schema8" / "store.sqlite") as conn:
        assert "text" not in [row[1] for row in conn.execute("PRAGMA table_info(chunks)")]


def _crash_state_between_the_delete_file_and_meta_json(index_dir: Path, tree: Path) -> None:
    """Leave the collection as a kill -9 between tantivy writing a ``<segment>.N.del`` file and
    writing ``meta.json`` does: the store committed with its changes logged, and the lexical
    folder holding the new files beside the old ``meta.json``."""
    import sqlite3

    from groundkit.checkpoints import set_hook

    folder = index_dir / "default"
    saved: dict[str, bytes] = {}

    def at(point: str) -> None:
        if point == "after-store-commit":
            current = json.loads((folder / "lexical.json").read_text())["folder"]
            saved["meta"] = (folder / current / "meta.json").read_bytes()
            saved["folder"] = current.encode()
            source, copy = (
                sqlite3.connect(folder / "store.sqlite"),
                sqlite3.connect(index_dir.parent / "store.copy"),
            )
            source.backup(copy)
            source.close()
            copy.close()

    for i in range(3):  # changed files: their old postings are deleted, new ones added
        (tree / f"d{i:03}.txt").write_text(f"changed document {i} mentions porphyry.\n")
    set_hook(at)
    try:
        with groundkit.open_collection("default", index_dir=index_dir) as coll:
            coll.ingest([str(tree)])
    finally:
        set_hook(None)
    lexical = folder / saved["folder"].decode()
    assert list(lexical.glob("*.del")), "the delete wrote a .del file"
    (lexical / "meta.json").write_bytes(saved["meta"])  # the commit never happened
    for suffix in ("", "-wal", "-shm"):
        (folder / f"store.sqlite{suffix}").unlink(missing_ok=True)
    (index_dir.parent / "store.copy").rename(folder / "store.sqlite")


def test_a_replay_after_a_kill_between_the_delete_file_and_meta_json_completes(
    tmp_path: Path,
) -> None:
    tree, index_dir = tmp_path / "tree", tmp_path / "index"
    _write_corpus(tree, seed=5, count=20)
    with groundkit.open_collection("default", index_dir=index_dir) as coll:
        coll.ingest([str(tree)])
    _crash_state_between_the_delete_file_and_meta_json(index_dir, tree)
    with groundkit.open_collection("default", index_dir=index_dir, create=False) as coll:
        status = coll.status()
        assert (status.pending, status.lexical_chunks) == (0, status.chunks)
        assert len(coll.search("porphyry", top_k=10)) == 3


@pytest.mark.parametrize(
    "damage",
    ["orphan .del file", "meta.json gone", "meta.json garbage", "segment gone", "pointer garbage"],
)
def test_reindex_rebuilds_from_the_store_whatever_state_the_lexical_folder_is_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    from grk_runner import Grk

    tree, index_dir = tmp_path / "tree", tmp_path / "index"
    _write_corpus(tree, seed=6, count=20)
    grk = Grk(index_dir, capsys)
    assert grk("-c", "default", "ingest", "-q", str(tree)) == 0
    folder = index_dir / "default"
    if damage == "orphan .del file":
        _crash_state_between_the_delete_file_and_meta_json(index_dir, tree)
    current = folder / json.loads((folder / "lexical.json").read_text())["folder"]
    if damage == "meta.json gone":
        (current / "meta.json").unlink()
    elif damage == "meta.json garbage":
        (current / "meta.json").write_text("{not json")
    elif damage == "segment gone":
        next(current.glob("*.idx")).unlink()
    elif damage == "pointer garbage":
        (folder / "lexical.json").write_text("[]")
    assert grk("-c", "default", "reindex", "--json") == 0, grk.out
    assert json.loads(grk.out) == {"chunks_indexed": 20}
    assert grk("-c", "default", "search", "porphyry granite", "--json") == 0


class _Unreplayable:
    """A derived index whose files refuse every change (as tantivy's did a replayed delete)
    until it is rebuilt."""

    name = "lexical"
    build = "test"

    def __init__(self) -> None:
        self.rows: list[object] = []
        self.rebuilt = 0

    @property
    def opened(self) -> bool:
        return True

    def entries(self) -> int:
        return len(self.rows)

    def expected(self, store: object) -> int:
        return len(self.rows)

    def source_rows(self, store: Any, documents: Any) -> Any:
        return store.indexed_texts(documents)

    def sync(self, delete_docs: object, add: object) -> None:
        from groundkit.errors import ErrorCode, StoreError

        raise StoreError(ErrorCode.INDEX_FAILED, "the search index could not be written")

    def rebuild(self, add: Any) -> None:
        self.rows = list(add)
        self.rebuilt += 1

    def refresh(self) -> None:
        pass

    def size_bytes(self) -> int:
        return 0


def test_a_replay_the_index_cannot_take_becomes_a_rebuild_from_the_store(tmp_path: Path) -> None:
    from groundkit.index.derived import RECOVERY, health
    from groundkit.index.store import Store

    tree, index_dir = tmp_path / "tree", tmp_path / "index"
    _write_corpus(tree, seed=7, count=5)
    with groundkit.open_collection("default", index_dir=index_dir) as coll:
        coll.ingest([str(tree)])
    store = Store(index_dir / "default" / "store.sqlite")
    with store.transaction():
        store.set_manifest("derived.lexical.build", "test")
        store.mark_changed([1, 2])  # two documents whose change is still to replay
    index = _Unreplayable()
    for _step, act in RECOVERY:
        act(store, index, health(store, index))
    assert index.rebuilt == 1
    assert len(index.rows) == 5
    assert health(store, index).ok
    store.close()

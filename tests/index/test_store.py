from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

import groundkit
from groundkit import ErrorCode, GroundkitError
from groundkit.index.lexical import LexicalIndex
from groundkit.index.migrations import SCHEMA_VERSION


def _collection_with_docs(tmp_path: Path) -> groundkit.Collection:
    (tmp_path / "a.md").write_text("# Alpha\n\nThe alpha document talks about granite.\n")
    (tmp_path / "b.txt").write_text("The beta document talks about marble.\n")
    coll = groundkit.open_collection("c", index_dir=tmp_path / "index")
    coll.ingest([str(tmp_path / "a.md"), str(tmp_path / "b.txt")])
    return coll


def _lexical_folder(collection: Path) -> Path:
    return collection / json.loads((collection / "lexical.json").read_text())["folder"]


def test_a_new_store_records_its_schema_version_in_the_manifest(tmp_path: Path) -> None:
    with _collection_with_docs(tmp_path) as coll:
        status = coll.status()
    assert status.schema_version == SCHEMA_VERSION
    with sqlite3.connect(tmp_path / "index" / "c" / "store.sqlite") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_store_is_made_with_16_kb_pages_and_an_older_one_keeps_its_own(
    tmp_path: Path,
) -> None:
    _collection_with_docs(tmp_path).close()
    with sqlite3.connect(tmp_path / "index" / "c" / "store.sqlite") as conn:
        assert conn.execute("PRAGMA page_size").fetchone()[0] == 16384
    # A store made before: SQLite's 4 KB pages, kept as they are.
    older = tmp_path / "older" / "index"
    (older / "c").mkdir(parents=True)
    with sqlite3.connect(older / "c" / "store.sqlite") as conn:
        conn.execute("PRAGMA page_size = 4096")
        conn.execute("PRAGMA journal_mode = WAL")
    (tmp_path / "more.md").write_text("The gamma document talks about basalt.\n")
    with groundkit.open_collection("c", index_dir=older) as coll:
        coll.ingest([str(tmp_path / "more.md")])
        assert [h.text for h in coll.search("basalt")] == ["The gamma document talks about basalt."]
    with sqlite3.connect(older / "c" / "store.sqlite") as conn:
        assert conn.execute("PRAGMA page_size").fetchone()[0] == 4096


def test_a_store_from_a_newer_groundkit_is_refused(tmp_path: Path) -> None:
    _collection_with_docs(tmp_path).close()
    with sqlite3.connect(tmp_path / "index" / "c" / "store.sqlite") as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(GroundkitError) as err:
        groundkit.open_collection("c", index_dir=tmp_path / "index", create=False)
    assert err.value.code == ErrorCode.STORE_TOO_NEW


def test_reindex_rebuilds_the_lexical_index_from_the_store(tmp_path: Path) -> None:
    _collection_with_docs(tmp_path).close()
    with groundkit.open_collection("c", index_dir=tmp_path / "index", create=False) as coll:
        assert coll.reindex() == 2
        assert [h.text for h in coll.search("granite")] == [
            "# Alpha\n\nThe alpha document talks about granite."
        ]


def test_a_new_analyzer_rebuilds_the_lexical_index_on_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _collection_with_docs(tmp_path).close()
    # What a release with a changed analyzer looks like to an existing collection: the build
    # recorded in the manifest no longer matches.
    monkeypatch.setattr(LexicalIndex, "build", "grk_en_vtest")
    with groundkit.open_collection("c", index_dir=tmp_path / "index", create=False) as coll:
        assert len(coll.search("marble")) == 1
        assert coll.status().analyzer == "grk_en_vtest"


def test_a_lost_lexical_index_is_rebuilt_on_open_rather_than_finding_nothing(
    tmp_path: Path,
) -> None:
    _collection_with_docs(tmp_path).close()
    shutil.rmtree(_lexical_folder(tmp_path / "index" / "c"))
    with groundkit.open_collection("c", index_dir=tmp_path / "index", create=False) as coll:
        assert len(coll.search("marble")) == 1


def test_a_damaged_lexical_index_is_rebuilt_on_open(tmp_path: Path) -> None:
    _collection_with_docs(tmp_path).close()
    (_lexical_folder(tmp_path / "index" / "c") / "meta.json").write_text("{not json")
    with groundkit.open_collection("c", index_dir=tmp_path / "index", create=False) as coll:
        assert len(coll.search("granite")) == 1
    assert groundkit.open_collection("c", index_dir=tmp_path / "index").reindex() == 2


def test_a_second_writer_is_refused_while_one_holds_the_collection(tmp_path: Path) -> None:
    import fcntl
    import os

    coll = _collection_with_docs(tmp_path)
    fd = os.open(tmp_path / "index" / "c" / "write.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(GroundkitError) as err:
            coll.ingest([str(tmp_path / "a.md")])
        assert err.value.code == ErrorCode.INDEX_LOCKED
        assert len(coll.search("granite")) == 1  # readers are not blocked
    finally:
        os.close(fd)
        coll.close()


def test_an_ingest_waits_out_a_reader_that_holds_the_lock_for_a_moment(tmp_path: Path) -> None:
    # A reader opening just behind another process's write takes the lock to catch its
    # indexes up; an ingest that starts then used to fail with index.locked at once.
    import fcntl
    import os
    import threading

    coll = _collection_with_docs(tmp_path)
    held = threading.Event()

    def catch_up() -> None:
        fd = os.open(tmp_path / "index" / "c" / "write.lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            held.set()
            time.sleep(0.3)
        finally:
            os.close(fd)

    reader = threading.Thread(target=catch_up)
    reader.start()
    held.wait(5)
    try:
        (tmp_path / "a.md").write_text("# A\n\nBasalt columns cool slowly.\n", encoding="utf-8")
        assert coll.ingest([str(tmp_path / "a.md")]).changed == 1
    finally:
        reader.join()
        coll.close()


def test_deleting_a_document_removes_it_from_search(tmp_path: Path) -> None:
    with _collection_with_docs(tmp_path) as coll:
        hit = coll.search("granite")[0]
        assert coll.delete_document(hit.citation.document_id) == hit.citation.document_id
        assert coll.search("granite") == []
        with pytest.raises(GroundkitError) as err:
            coll.show(hit.citation.chunk_id)
        assert err.value.code == ErrorCode.CHUNK_NOT_FOUND
        assert coll.status().lexical_chunks == coll.status().chunks == 1


def test_each_text_is_stored_once_and_a_batch_of_hits_reads_each_document_once(
    tmp_path: Path,
) -> None:
    """Chunks are spans of their document's text (migration 9): no chunk holds a copy, and a
    batch of hits cuts them out of one read of each of their documents."""
    from groundkit.index.store import Store

    sections = "".join(f"## Part {i}\n\n" + f"granite layer {i} " * 60 + "\n\n" for i in range(4))
    (tmp_path / "long.md").write_text("# Quarry\n\n" + sections)
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(tmp_path / "long.md")])
        document = coll.documents()[0]
    path = tmp_path / "index" / "c" / "store.sqlite"
    with sqlite3.connect(path) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(chunks)")]
    assert "text" not in columns
    store = Store(path)
    sql: list[str] = []
    store._conn.set_trace_callback(sql.append)
    rowids = [r[0] for r in store._conn.execute("SELECT id FROM chunks")]
    rows = store.hit_rows(rowids, fold=True)
    store._conn.set_trace_callback(None)
    store.close()
    assert len(rows) == len(rowids) > 2
    assert sum(" documents d " in s for s in sql) == 1
    assert all(row.text == document.text[row.start : row.end] for row in rows.values())


def test_a_batch_of_hits_looks_its_rows_up_without_sorting_the_ids_into_a_temporary_index(
    tmp_path: Path,
) -> None:
    """``IN (SELECT value FROM json_each(?))`` copied the ids into a temporary index before the
    lookups, which cost as much as the lookups themselves on every search."""
    from groundkit.index.store import Store

    _collection_with_docs(tmp_path).close()
    store = Store(tmp_path / "index" / "c" / "store.sqlite")
    rowids = [r[0] for r in store._conn.execute("SELECT id FROM chunks")]
    sql: list[str] = []
    store._conn.set_trace_callback(sql.append)
    store.hit_rows(rowids)
    store._conn.set_trace_callback(None)
    plans = [
        [step[3] for step in store._conn.execute(f"EXPLAIN QUERY PLAN {s}")]
        for s in sql
        if s.startswith("SELECT")
    ]
    store.close()
    assert len(plans) == 2  # the chunks, then their documents
    assert not [step for plan in plans for step in plan if "SUBQUERY" in step or "TEMP" in step]


def test_a_batch_of_hits_gives_each_stored_chunk_once_and_leaves_out_ids_not_stored(
    tmp_path: Path,
) -> None:
    from groundkit.index.store import Store

    _collection_with_docs(tmp_path).close()
    store = Store(tmp_path / "index" / "c" / "store.sqlite")
    first, second = [r[0] for r in store._conn.execute("SELECT id FROM chunks ORDER BY id")][:2]
    once = store.hit_rows([first, second])
    again = store.hit_rows([second, 10**9, first, second])
    store.close()
    assert again == once
    assert sorted(again) == [first, second]


def test_only_an_ingest_takes_the_large_page_cache_and_it_gives_it_back(tmp_path: Path) -> None:
    """256 MB of cache is for an ingest's one transaction; a reader (``grk serve``, a search)
    keeps SQLite's default, and so does a writer once its ingest is over."""
    from groundkit.index.store import Store

    def cache_kib(store: Store) -> int:
        return int(store._conn.execute("PRAGMA cache_size").fetchone()[0])

    _collection_with_docs(tmp_path).close()
    store = Store(tmp_path / "index" / "c" / "store.sqlite")
    try:
        default = cache_kib(store)
        with sqlite3.connect(":memory:") as plain:
            assert default == plain.execute("PRAGMA cache_size").fetchone()[0]
        with store.large_cache():
            assert cache_kib(store) == -256 * 1024
        assert cache_kib(store) == default
    finally:
        store.close()


def test_the_kept_counts_match_the_rows_through_inserts_replacements_and_deletions(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    for i in range(6):
        (tree / f"n{i}.md").write_text(
            f"# Note {i}\n\n" + f"word{i} and more text. " * (40 * i + 1)
        )
    records = "\n".join(json.dumps({"_id": f"r{i}", "text": f"record {i}"}) for i in range(5))
    (tree / "r.jsonl").write_text(records + "\n")
    path = tmp_path / "index" / "c" / "store.sqlite"

    def counted() -> tuple[tuple[int, int], tuple[int, int]]:
        with sqlite3.connect(path) as conn:
            rows = conn.execute(
                "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks)"
            ).fetchone()
        return (coll.status().documents, coll.status().chunks), (rows[0], rows[1])

    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(tree)])
        kept, real = counted()
        assert kept == real
        assert real[0] == 11
        (tree / "n5.md").write_text("# Note 5\n\nShort now.\n")  # replaced: fewer chunks
        (tree / "n0.md").unlink()
        (tree / "r.jsonl").write_text(records.replace("record 4", "record four") + "\n")
        coll.ingest([str(tree)])
        kept, real = counted()
        assert kept == real
        assert real[0] == 10

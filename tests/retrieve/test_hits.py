from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import groundkit
from groundkit import ErrorCode, GroundkitError
from groundkit.index.store import Store


@pytest.fixture
def collection(tmp_path: Path) -> groundkit.Collection:
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(12):
        (docs / f"note{n}.md").write_text(
            f"# Note {n}\n\nThe torque gauge number {n} lives in cabinet {n * 7}.\n"
        )
    coll = groundkit.open_collection("t", index_dir=tmp_path / "index")
    coll.ingest([str(docs)])
    return coll


def _statements(collection: groundkit.Collection) -> list[str]:
    seen: list[str] = []
    collection._store._conn.set_trace_callback(seen.append)
    return seen


def test_a_bm25_search_of_a_store_in_step_with_its_index_asks_only_whether_it_changed(
    collection: groundkit.Collection, tmp_path: Path
) -> None:
    with groundkit.open_collection("t", index_dir=tmp_path / "index") as reopened:
        seen = _statements(reopened)
        hits = reopened.search("torque gauge", top_k=10, mode="bm25")
        assert len(hits) == 10
        assert seen == ["PRAGMA data_version"]  # no chunk asked for
        seen.clear()
        assert "torque gauge" in hits[0].text
        assert all(h.citation.source.startswith("note") for h in hits)
        assert len(seen) == 2  # every hit's row and its document: read together, once


def test_after_its_own_ingest_a_process_confirms_once_that_the_store_is_in_step(
    collection: groundkit.Collection,
) -> None:
    seen = _statements(collection)
    first = collection.search("torque gauge", top_k=10, mode="bm25")
    assert not any("json_each" in statement for statement in seen)
    seen.clear()
    second = collection.search("torque gauge", top_k=10, mode="bm25")
    assert seen == ["PRAGMA data_version"]
    assert second == first


def test_a_search_without_folding_reads_no_row_either(collection: groundkit.Collection) -> None:
    collection.search("torque gauge", mode="bm25")
    seen = _statements(collection)
    hits = collection.search("torque gauge", top_k=10, mode="bm25", collapse=False)
    assert len(hits) == 10
    assert seen == ["PRAGMA data_version"]
    assert [h.to_dict() for h in hits] == [
        h.to_dict() for h in collection.searched("torque gauge", top_k=10, collapse=False).hits
    ]


def _delete_from_the_store_only(store: Store, document_id: str) -> None:
    """What a crash between the store's commit and its index's leaves: the document's rows
    gone, its postings still in the index."""
    with store.transaction():
        store.delete_documents([store.find_documents(document_id)[0].rowid])


def test_a_bm25_search_skips_chunks_another_process_deleted_from_the_store_only(
    collection: groundkit.Collection, tmp_path: Path
) -> None:
    with groundkit.open_collection("t", index_dir=tmp_path / "index") as reader:
        before = reader.search("torque gauge", top_k=12, mode="bm25")
        other = Store(tmp_path / "index" / "t" / "store.sqlite")
        _delete_from_the_store_only(other, before[0].citation.document_id)
        other.close()
        after = reader.search("torque gauge", top_k=12, mode="bm25")
    assert [h.citation.chunk_id for h in after] == [h.citation.chunk_id for h in before[1:]]


def test_a_bm25_search_skips_chunks_its_own_process_deleted_from_the_store_only(
    collection: groundkit.Collection,
) -> None:
    before = collection.search("torque gauge", top_k=12, mode="bm25")
    _delete_from_the_store_only(collection._store, before[0].citation.document_id)
    after = collection.search("torque gauge", top_k=12, mode="bm25")
    assert [h.citation.chunk_id for h in after] == [h.citation.chunk_id for h in before[1:]]


def test_hits_read_late_equal_hits_read_at_once(collection: groundkit.Collection) -> None:
    late = collection.search("torque cabinet", top_k=10)
    at_once = collection.search("torque cabinet", top_k=10)
    for hit in at_once:
        hit.to_dict()
    assert [h.to_dict() for h in reversed(late)][::-1] == [h.to_dict() for h in at_once]
    assert late == at_once
    assert pickle.loads(pickle.dumps(late)) == at_once


def test_hits_can_be_read_after_the_collection_is_closed(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("The torque gauge lives in the blue cabinet.\n")
    with groundkit.open_collection("t", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        hits = coll.search("torque")
    assert hits[0].text == "The torque gauge lives in the blue cabinet."
    assert hits[0].citation.source == "a.md"
    assert "torque" in hits[0].snippet


def test_a_hit_whose_chunk_was_deleted_after_the_search_says_so_when_read(
    collection: groundkit.Collection, tmp_path: Path
) -> None:
    hits = collection.search("torque gauge", top_k=12, mode="bm25")
    with groundkit.open_collection("t", index_dir=tmp_path / "index") as other:
        for hit in other.search("torque gauge", top_k=12, mode="bm25"):
            other.delete_document(hit.citation.document_id)
    with pytest.raises(GroundkitError) as raised:
        _ = hits[0].text
    assert raised.value.code == ErrorCode.CHUNK_NOT_FOUND


def test_searched_says_in_one_call_what_the_three_questions_said(
    collection: groundkit.Collection,
) -> None:
    for query, mode in (("torque gauge", "bm25"), ("torque gauge", None), ("the of and", None)):
        seen = _statements(collection)
        found = collection.searched(query, mode=mode)
        statements = len(seen)
        collection._store._conn.set_trace_callback(None)
        assert [h.to_dict() for h in found.hits] == [
            h.to_dict() for h in collection.search(query, mode=mode)
        ]
        assert found.mode == collection.resolve_mode(mode or "auto")
        assert found.has_vectors is False
        assert found.missing_vectors == collection.missing_vectors(mode) == 0
        assert found.no_searchable_words == (not collection.searchable(query))
        assert found.pending == collection.pending_documents() == 0
        # The hits' rows and their documents (read at once: a surface shows them all), the
        # binding (auto, or asked after a bm25 search by name) and whether any change is
        # unapplied: no count per index.
        assert statements <= 4

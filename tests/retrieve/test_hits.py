from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import groundkit
from groundkit import ErrorCode, GroundkitError


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


def test_a_bm25_search_asks_the_store_only_whether_its_hits_are_still_stored(
    collection: groundkit.Collection,
) -> None:
    seen = _statements(collection)
    hits = collection.search("torque gauge", top_k=10, mode="bm25")
    assert len(hits) == 10
    assert len(seen) == 1
    assert "count(*)" in seen[0]
    seen.clear()
    assert "torque gauge" in hits[0].text
    assert all(h.citation.source.startswith("note") for h in hits)
    assert len(seen) == 2  # every hit's row and its document: read together, once


def test_a_search_without_folding_reads_no_row_either(collection: groundkit.Collection) -> None:
    seen = _statements(collection)
    hits = collection.search("torque gauge", top_k=10, mode="bm25", collapse=False)
    assert len(hits) == 10
    assert len(seen) == 1
    assert [h.to_dict() for h in hits] == [
        h.to_dict() for h in collection.searched("torque gauge", top_k=10, collapse=False).hits
    ]


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

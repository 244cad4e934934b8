from __future__ import annotations

from pathlib import Path

import groundkit
from groundkit.types import SearchMode


def test_a_ranking_from_a_searcher_since_replaced_is_checked_against_the_store(
    tmp_path: Path,
) -> None:
    """A search in one thread may rank with the searcher another thread's write then replaces:
    the ranking's chunks are taken as stored only while the store is as it was when that
    searcher opened, not as it was when the new one did."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(4):
        (docs / f"note{n}.md").write_text(f"The torque gauge number {n}.\n")
    with groundkit.open_collection("t", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
    with groundkit.open_collection("t", index_dir=tmp_path / "index") as coll:
        engine = coll._backend.engine  # type: ignore[attr-defined]
        arms = engine.arms(SearchMode.BM25, engine.tokens("torque gauge"), None, 10, None, 60)
        ranked = [rowid for rowid, _ in arms.lists["bm25"]]
        assert arms.stored_at is not None
        assert len(ranked) == 4
        gone = coll.search("torque gauge", top_k=1, mode="bm25")[0].citation.document_id
        coll.delete_document(gone)
        engine.lexical.refresh()  # a searcher in step with the store after the delete
        assert engine.lexical.opened_in_step is not None
        assert len(engine.present(ranked, arms.stored_at)) == 3

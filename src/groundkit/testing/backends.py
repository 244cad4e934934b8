"""The suite every collection backend passes: ``BackendContract``, to inherit (as the code map's
``MapGraphContract`` is)::

    class TestMyBackend(BackendContract):
        @pytest.fixture
        def make_collection(self, tmp_path) -> MakeCollection:
            return lambda name: open_my_collection(name, embedder=FakeEmbedder())

Each test writes a few real files (``corpus``), ingests them through the public ``Collection``
with the fake embedder, and checks what a user sees: the report of each ingest, the hits of each
search mode with every field ``grk search --json`` prints, filters in every mode, near-duplicate
folding, ``show`` and quote checks, the evidence an answer is built from, counts and status, and
deletes. The expected answers are written out, so backends that pass agree with each other too.
``absent``: what ``show`` says of a source file that is gone (``missing`` for a backend whose
sources are on this machine; ``not_checked`` for one on a cluster).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from groundkit.collection import Collection
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.types import SearchMode, Verification

__all__ = ["BackendContract", "MakeCollection", "corpus"]

MakeCollection = Callable[[str], Collection]

_NOTES = {
    "alpha.md": "# Alpha\n\nThe amber falcon nests on basalt cliffs above the quarry.\n",
    "beta.md": "# Beta\n\nA cobalt lantern hangs in the dune sparrow's workshop.\n",
    # Two sections long enough to be a chunk each.
    "gamma.md": (
        "# Gamma\n\n" + "Ember orchards ripen late in the valley. " * 15 + "\n\n"
        "## Harvest\n\n" + "Pickers count quince and medlar by the crate. " * 14 + "\n"
    ),
    # The same passage twice, as Markdown and as text: one hit with a near-duplicate.
    "twin/copy.md": "Tidal clocks measure the moon's pull on harbour water.\n",
    "twin/copy.txt": "Tidal clocks measure the moon's pull on harbour water.\n",
}
_RECORDS = [
    {"_id": "r1", "title": "Granite survey", "text": "Granite domes weather into tors.",
     "metadata": {"year": 2020, "reviewed": True, "team": "geo"}},
    {"_id": "r2", "title": "Slate survey", "text": "Slate splits into thin roofing tiles.",
     "metadata": {"year": 2021, "reviewed": False, "team": "geo"}},
    {"_id": "r3", "title": "Chalk survey", "text": "Chalk cliffs hold flint nodules.",
     "metadata": {"year": 2020, "reviewed": False, "team": "coast"}},
]  # fmt: skip


def corpus(root: Path) -> Path:
    """Write the suite's files under ``root/docs`` and return that folder."""
    docs = root / "docs"
    for name, text in _NOTES.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")
    lines = "".join(json.dumps(r) + "\n" for r in _RECORDS)
    (docs / "surveys.jsonl").write_text(lines, encoding="utf-8")
    return docs


class BackendContract:
    """Inherit, and give a ``make_collection`` fixture (a new, empty collection per name, with
    ``groundkit.testing.FakeEmbedder``) and, when it is not ``missing``, an ``absent`` one."""

    @pytest.fixture
    def absent(self) -> Verification:
        return Verification.MISSING

    @pytest.fixture
    def docs(self, tmp_path: Path) -> Path:
        return corpus(tmp_path)

    @pytest.fixture
    def col(self, make_collection: MakeCollection, docs: Path) -> Collection:
        collection = make_collection("contract")
        collection.ingest([docs], dense=True)
        return collection

    # -- ingest -----------------------------------------------------------------------------------
    def test_an_ingest_stores_every_document_with_chunks_that_slice_its_text(
        self, make_collection: MakeCollection, docs: Path
    ) -> None:
        collection = make_collection("fresh")
        report = collection.ingest([docs], dense=True)
        assert (report.new, report.changed, report.unchanged, report.removed) == (8, 0, 0, 0)
        assert report.chunks_written == report.chunks_embedded == 9
        documents = {d.document_id: d for d in collection.documents()}
        assert sorted(d.source for d in documents.values()) == [
            "alpha.md",
            "beta.md",
            "gamma.md",
            "surveys.jsonl#r1",
            "surveys.jsonl#r2",
            "surveys.jsonl#r3",
            "twin/copy.md",
            "twin/copy.txt",
        ]
        chunks = collection.chunks()
        assert len(chunks) == 9
        for chunk in chunks:
            assert documents[chunk.document_id].text[chunk.start : chunk.end] == chunk.text
        status = collection.status()
        assert (status.documents, status.chunks, status.vectors) == (8, 9, 9)
        assert (status.missing_vectors, status.health) == (0, "ok")
        assert status.formats == {"markdown": 4, "record": 3, "text": 1}

    def test_a_re_ingest_of_unchanged_files_writes_nothing(
        self, col: Collection, docs: Path
    ) -> None:
        report = col.ingest([docs])
        assert (report.new, report.changed, report.removed, report.chunks_written) == (0, 0, 0, 0)
        assert report.unchanged == 8
        assert col.status().chunks == 9

    def test_a_changed_file_replaces_its_document_whole(self, col: Collection, docs: Path) -> None:
        (docs / "alpha.md").write_text("# Alpha\n\nA heron now nests where the falcon did.\n")
        report = col.ingest([docs])
        assert (report.new, report.changed, report.unchanged) == (0, 1, 7)
        assert [h.citation.source for h in col.search("heron", mode="bm25")] == ["alpha.md"]
        assert col.search("amber", mode="bm25") == []
        assert [d.source for d in col.documents()].count("alpha.md") == 1
        assert col.status().chunks == 9

    def test_a_removed_file_deletes_its_document(self, col: Collection, docs: Path) -> None:
        (docs / "beta.md").unlink()
        report = col.ingest([docs])
        assert report.removed == 1
        assert col.search("cobalt lantern", mode="bm25") == []
        assert "beta.md" not in [d.source for d in col.documents()]
        assert (col.status().documents, col.status().chunks) == (7, 8)

    def test_a_record_removed_from_its_file_deletes_that_document_only(
        self, col: Collection, docs: Path
    ) -> None:
        kept = [r for r in _RECORDS if r["_id"] != "r2"]
        (docs / "surveys.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept))
        report = col.ingest([docs])
        assert (report.removed, report.unchanged) == (1, 7)
        assert col.search("slate roofing", mode="bm25") == []
        assert col.search("granite domes", mode="bm25")[0].citation.external_id == "r1"

    def test_delete_by_source_and_by_document_id(self, col: Collection) -> None:
        deleted = col.delete_document("gamma.md")
        assert col.search("quince medlar", mode="bm25") == []
        beta = next(d for d in col.documents() if d.source == "beta.md")
        assert col.delete_document(beta.document_id) == beta.document_id
        assert deleted not in [d.document_id for d in col.documents()]
        assert (col.status().documents, col.status().chunks) == (6, 6)
        with pytest.raises(GroundkitError) as caught:
            col.delete_document("gamma.md")
        assert caught.value.code == ErrorCode.DOCUMENT_NOT_FOUND

    def test_files_of_one_name_never_show_one_source_and_are_renamed_when_met_together(
        self, make_collection: MakeCollection, tmp_path: Path
    ) -> None:
        alpha, beta = tmp_path / "alpha", tmp_path / "beta"
        for folder, animal in ((alpha, "wombat"), (beta, "quokka")):
            folder.mkdir()
            (folder / "README.md").write_text(f"The {animal} readme.\n", encoding="utf-8")
        collection = make_collection("names")

        def shown() -> list[str]:
            hits = collection.search("wombat quokka readme", mode="bm25")
            return sorted(h.citation.source for h in hits)

        collection.ingest([alpha])
        collection.ingest([beta])
        assert shown() == ["README.md", "beta/README.md"]
        report = collection.ingest([alpha, beta])  # named from their parent now
        assert (report.new, report.changed, report.unchanged) == (0, 0, 2)
        assert shown() == ["alpha/README.md", "beta/README.md"]
        assert sorted(d.source for d in collection.documents()) == shown()

    def test_a_collection_bound_to_an_embedder_refuses_another(
        self, col: Collection, docs: Path
    ) -> None:
        from groundkit.testing.embedder import FakeEmbedder

        col._embedder = FakeEmbedder(32)  # as if the configuration changed
        with pytest.raises(GroundkitError) as caught:
            col.search("amber falcon", mode="dense")
        assert caught.value.code == ErrorCode.EMBEDDER_MISMATCH

    # -- search -----------------------------------------------------------------------------------
    def test_bm25_ranks_the_passage_holding_the_rare_words_first(self, col: Collection) -> None:
        hits = col.search("amber falcon quarry", mode="bm25")
        assert hits[0].citation.source == "alpha.md"
        assert hits[0].ranks == {"bm25": 1}
        assert hits[0].score > 0
        assert [h.rank for h in hits] == list(range(1, len(hits) + 1))

    def test_each_mode_ranks_and_says_where_each_arm_put_the_hit(self, col: Collection) -> None:
        dense = col.search("cobalt lantern workshop", mode="dense")
        assert dense[0].citation.source == "beta.md"
        assert set(dense[0].ranks) == {"dense"}
        hybrid = col.search("cobalt lantern workshop", mode="hybrid")
        assert hybrid[0].citation.source == "beta.md"
        assert hybrid[0].ranks == {"bm25": 1, "dense": 1, "fused": 1}
        assert hybrid[0].score == pytest.approx(2 / 61)
        assert col.resolve_mode("auto") == SearchMode.HYBRID

    def test_filters_apply_before_top_k_in_every_mode(self, col: Collection) -> None:
        for mode in ("bm25", "dense", "hybrid"):
            found = col.search("survey granite slate chalk", mode=mode, where={"team": "geo"})
            assert sorted(h.citation.external_id or "" for h in found) == ["r1", "r2"], mode
            found = col.search("survey", mode=mode, where={"year": "2020", "reviewed": "true"})
            assert [h.citation.external_id for h in found] == ["r1"], mode
            found = col.search("nests lantern orchards", mode=mode, source="[ab]*.md")
            assert sorted(h.citation.source for h in found) == ["alpha.md", "beta.md"], mode
            assert col.search("amber", mode=mode, source="nothing/*") == [], mode

    def test_a_where_key_is_read_from_the_chunk_then_from_its_document(
        self, col: Collection
    ) -> None:
        harvest = col.search("pickers", mode="bm25", where={"format": "md"})
        assert [h.citation.source for h in harvest] == ["gamma.md"]
        assert col.search("pickers", mode="bm25", where={"format": "pdf"}) == []

    def test_near_duplicates_fold_into_the_best_hit_unless_collapse_is_off(
        self, col: Collection
    ) -> None:
        folded = col.search("tidal clocks harbour", mode="bm25")
        assert len(folded) == 1
        assert len(folded[0].folded) == 1
        assert {folded[0].citation.source, folded[0].folded[0].source} == {
            "twin/copy.md",
            "twin/copy.txt",
        }
        assert len(col.search("tidal clocks harbour", mode="bm25", collapse=False)) == 2

    def test_every_hit_field_is_what_grk_search_json_prints(self, col: Collection) -> None:
        hit = col.search("quince medlar", mode="hybrid", top_k=1)[0].to_dict()
        assert set(hit) == {
            "rank", "score", "collection", "document_id", "external_id", "chunk_id", "source",
            "location", "start", "end", "line", "end_line", "snippet", "text", "metadata",
            "ranks", "folded", "folded_hits",
        }  # fmt: skip
        assert (hit["collection"], hit["source"], hit["rank"]) == ("contract", "gamma.md", 1)
        assert hit["location"].endswith("docs/gamma.md")
        assert hit["text"].startswith("## Harvest")
        assert (hit["line"], hit["end_line"]) == (5, 7)
        assert hit["metadata"]["heading_path"] == ["Gamma", "Harvest"]
        assert "medlar" in hit["snippet"]
        assert (hit["folded"], hit["folded_hits"]) == (0, [])
        assert hit["external_id"] is None

    def test_a_query_of_stop_words_finds_nothing_by_bm25(self, col: Collection) -> None:
        assert col.search("the of and", mode="bm25") == []

    def test_a_query_of_stop_words_finds_nothing_in_any_mode_and_says_why(
        self, col: Collection
    ) -> None:
        for mode in (SearchMode.DENSE, SearchMode.HYBRID):
            assert col.search("the of and", mode=mode) == []
        assert (col.searchable("the of and"), col.searchable("amber falcon")) == (False, True)

    def test_an_empty_query_is_refused(self, col: Collection) -> None:
        with pytest.raises(GroundkitError) as caught:
            col.search("   ")
        assert caught.value.code == ErrorCode.INVALID_QUERY

    # -- show, verify, answer evidence ------------------------------------------------------------
    def test_show_reads_a_chunk_back_and_rechecks_its_source(
        self, col: Collection, docs: Path, absent: Verification
    ) -> None:
        hit = col.search("ember orchards", mode="bm25")[0]
        shown = col.show(hit.citation.chunk_id)
        assert shown.text == hit.text
        assert shown.verification == Verification.VERIFIED
        (docs / "gamma.md").write_text("# Gamma\n\nEverything here was rewritten.\n")
        assert col.show(hit.citation.chunk_id).verification == Verification.DRIFTED
        (docs / "gamma.md").unlink()
        assert col.show(hit.citation.chunk_id).verification == absent
        with pytest.raises(GroundkitError) as caught:
            col.show("c0000000000000000")
        assert caught.value.code == ErrorCode.CHUNK_NOT_FOUND

    def test_a_quote_is_verified_with_its_offsets_in_the_stored_text(self, col: Collection) -> None:
        hit = col.search("cobalt lantern", mode="bm25")[0]
        check = col.verify_quote("cobalt lantern hangs", chunk_id=hit.citation.chunk_id)
        assert (check.verbatim, check.occurrences) == (True, 1)
        document = col.document(hit.citation.document_id)
        assert check.start is not None
        assert check.end is not None
        assert document.text[check.start : check.end] == "cobalt lantern hangs"
        assert check.verification == Verification.VERIFIED
        assert not col.verify_quote("lantern of cobalt", document_id=document.document_id).verbatim

    def test_an_answer_cites_text_cut_from_the_stored_document(self, col: Collection) -> None:
        from groundkit.answer.bundle import BundleItem
        from groundkit.answer.service import answer_question
        from groundkit.testing.chat import ScriptedChat

        quote = "Granite domes weather into tors"
        reply = json.dumps(
            {"items": [{"text": "Tors.", "citations": [{"source": 1, "quote": quote}]}]}
        )
        report = answer_question(col, "granite domes tors", ScriptedChat([reply]), mode="hybrid")
        assert report.answer is not None, report.ai.error
        cited = report.answer.citations[0]
        assert cited.cited_text == quote
        first = report.bundle.items[0]
        assert isinstance(first, BundleItem)
        assert first.source == "surveys.jsonl#r1"
        document = col.document(first.document_id)
        assert document.text[cited.start : cited.end] == quote

    def test_counts_and_vectors_missing_after_an_ingest_without_embedding(
        self, make_collection: MakeCollection, docs: Path
    ) -> None:
        collection = make_collection("plain")
        collection.ingest([docs])
        status = collection.status()
        assert (status.documents, status.chunks, status.vectors, status.embedder) == (
            8,
            9,
            0,
            None,
        )
        assert collection.resolve_mode("auto") == SearchMode.BM25
        with pytest.raises(GroundkitError) as caught:
            collection.search("amber", mode="dense")
        assert caught.value.code == ErrorCode.NO_VECTORS
        collection.ingest([docs], dense=True)  # dense turned on later: every chunk embedded
        assert collection.status().vectors == 9
        assert collection.missing_vectors("hybrid") == 0

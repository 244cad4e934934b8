"""Dense and hybrid retrieval through the library, with the deterministic fake embedder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import groundkit
from groundkit import ErrorCode, GroundkitError
from groundkit.config import IngestConfig, RerankConfig, SearchConfig, Settings
from groundkit.testing import FakeEmbedder

DOCS = {
    "granite.md": "# Granite\n\nGranite is an igneous rock rich in quartz and feldspar.\n",
    "marble.md": "# Marble\n\nMarble is a metamorphic rock formed from limestone.\n",
    "basalt.txt": "Basalt is a fine grained volcanic rock, dark and dense.\n",
    "notes/quartz.md": "# Quartz\n\nQuartz crystals grow in granite pegmatites.\n",
}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    for name, text in DOCS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _open(tmp_path: Path, embedder: FakeEmbedder | None = None, **settings: object):
    return groundkit.open_collection(
        "d",
        index_dir=tmp_path / "index",
        settings=Settings(**settings),  # type: ignore[arg-type]
        embedder=embedder or FakeEmbedder(),
    )


def test_a_dense_ingest_embeds_every_chunk_and_records_the_embedder(
    tmp_path: Path, docs: Path
) -> None:
    fake = FakeEmbedder()
    with _open(tmp_path, fake) as coll:
        report = coll.ingest([str(docs)], dense=True)
        status = coll.status()
    assert report.chunks_embedded == 4 == fake.calls["document"]
    assert status.embedder == fake.identity.key()
    assert status.vectors == status.dense_index_vectors == status.chunks == 4


def test_dense_and_hybrid_hits_cite_the_stored_text_and_report_their_ranks(
    tmp_path: Path, docs: Path
) -> None:
    with _open(tmp_path) as coll:
        coll.ingest([str(docs)], dense=True)
        dense = coll.search("quartz granite", mode="dense")
        hybrid = coll.search("quartz granite", mode="hybrid")
        for hit in [*dense, *hybrid]:
            assert coll.show(hit.citation.chunk_id).text == hit.text
    assert set(dense[0].ranks) == {"dense"}
    assert set(hybrid[0].ranks) == {"bm25", "dense", "fused"}
    assert [h.ranks["fused"] for h in hybrid] == [h.rank for h in hybrid]


def test_auto_mode_is_hybrid_with_vectors_and_bm25_without(tmp_path: Path, docs: Path) -> None:
    with _open(tmp_path) as coll:
        coll.ingest([str(docs)])
        assert set(coll.search("granite")[0].ranks) == {"bm25"}
        coll.ingest([str(docs)], dense=True)
        assert "fused" in coll.search("granite")[0].ranks


def test_turning_dense_on_embeds_existing_chunks_and_nothing_is_embedded_twice(
    tmp_path: Path, docs: Path
) -> None:
    fake = FakeEmbedder()
    with _open(tmp_path, fake) as coll:
        coll.ingest([str(docs)])
        assert fake.calls["document"] == 0
        assert coll.ingest([str(docs)], dense=True).chunks_embedded == 4
        assert coll.ingest([str(docs)]).chunks_embedded == 0  # dense stays on, nothing new
        (docs / "basalt.txt").write_text("Basalt columns cool into hexagons.\n")
        report = coll.ingest([str(docs)])
    assert (report.changed, report.chunks_embedded) == (1, 1)
    assert fake.calls["document"] == 5


def test_another_embedder_is_refused_naming_both_identities(tmp_path: Path, docs: Path) -> None:
    with _open(tmp_path, FakeEmbedder(64)) as coll:
        coll.ingest([str(docs)], dense=True)
    other = FakeEmbedder(32, model="other")
    with _open(tmp_path, other) as coll:
        for attempt in (lambda: coll.ingest([str(docs)]), lambda: coll.search("x", mode="dense")):
            with pytest.raises(GroundkitError) as err:
                attempt()
            assert err.value.code == ErrorCode.EMBEDDER_MISMATCH
            assert "fake:fake-bow@1/64/norm" in err.value.message
            assert "fake:other@1/32/norm" in err.value.message
        assert coll.search("granite", mode="bm25")  # lexical search is unaffected


def test_dense_search_on_a_collection_without_vectors_is_a_typed_error(
    tmp_path: Path, docs: Path
) -> None:
    with _open(tmp_path) as coll:
        coll.ingest([str(docs)])
        for mode in ("dense", "hybrid"):
            with pytest.raises(GroundkitError) as err:
                coll.search("granite", mode=mode)  # type: ignore[arg-type]
            assert err.value.code == ErrorCode.NO_VECTORS


def test_rerank_without_a_model_is_a_typed_error_never_a_no_op(tmp_path: Path, docs: Path) -> None:
    with _open(tmp_path) as coll:
        coll.ingest([str(docs)])
        with pytest.raises(GroundkitError) as err:
            coll.search("granite", rerank=True)
    assert err.value.code == ErrorCode.RERANK_NOT_CONFIGURED
    assert RerankConfig().model is None


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_filters_apply_before_top_k_in_every_mode(tmp_path: Path, docs: Path, mode: str) -> None:
    with _open(tmp_path) as coll:
        coll.ingest([str(docs)], dense=True)
        hits = coll.search("granite quartz", mode=mode, top_k=1, source="*/notes/*")  # type: ignore[arg-type]
    assert [Path(h.citation.source).name for h in hits] == ["quartz.md"]


def test_a_relevance_floor_abstains_when_nothing_is_close(tmp_path: Path, docs: Path) -> None:
    floor = Settings(search=SearchConfig(min_similarity=0.5))
    with _open(tmp_path, search=floor.search) as coll:
        coll.ingest([str(docs)], dense=True)
        assert coll.search("zeppelin airship helium", mode="hybrid") == []
        assert coll.search("zeppelin airship helium", mode="bm25") == []
        assert coll.search("granite rock quartz feldspar igneous", mode="dense")


def test_deleting_a_document_removes_its_vectors(tmp_path: Path, docs: Path) -> None:
    with _open(tmp_path) as coll:
        coll.ingest([str(docs)], dense=True)
        coll.delete_document(str(docs / "marble.md"))
        status = coll.status()
        assert status.vectors == status.dense_index_vectors == 3
        assert all("marble" not in h.citation.source for h in coll.search("marble", mode="dense"))


def test_a_lost_dense_index_is_rebuilt_from_the_store(tmp_path: Path, docs: Path) -> None:
    with _open(tmp_path) as coll:
        coll.ingest([str(docs)], dense=True)
        before = [h.citation.chunk_id for h in coll.search("granite", mode="dense")]
    shutil.rmtree(tmp_path / "index" / "d" / "vectors")
    with _open(tmp_path) as coll:
        assert [h.citation.chunk_id for h in coll.search("granite", mode="dense")] == before
        assert coll.reindex() == 4
        assert coll.status().dense_index_vectors == 4


def test_dense_on_through_settings(tmp_path: Path, docs: Path) -> None:
    with _open(tmp_path, ingest=IngestConfig(dense=True)) as coll:
        assert coll.ingest([str(docs)]).chunks_embedded == 4


def _manifest_reads(coll: groundkit.Collection, **search: object) -> int:
    sql: list[str] = []
    conn = coll._backend.store._conn  # type: ignore[attr-defined]
    conn.set_trace_callback(sql.append)
    try:
        assert coll.search("granite rock", **search)  # type: ignore[arg-type]
    finally:
        conn.set_trace_callback(None)
    # The binding's key (a bm25 search after this process's ingest also reads, once, whether
    # the lexical index has applied every change: see retrieve.engine).
    return sum("FROM manifest WHERE key = 'embedder'" in s for s in sql)


def test_a_search_reads_the_collections_embedder_binding_once_and_bm25_by_name_not_at_all(
    tmp_path: Path, docs: Path
) -> None:
    """Each read is a statement of its own, a few percent of a top-10 search: a hybrid search
    read the binding three times."""
    with _open(tmp_path) as coll:
        coll.ingest([str(docs)])
        assert _manifest_reads(coll) == 1  # auto: bm25, as nothing is embedded
        assert _manifest_reads(coll, mode="bm25") == 0
        coll.ingest([str(docs)], dense=True)
        assert _manifest_reads(coll) == 1  # auto: hybrid now
        assert _manifest_reads(coll, mode="hybrid") == 1
        assert _manifest_reads(coll, mode="dense") == 1
        assert _manifest_reads(coll, mode="bm25") == 0

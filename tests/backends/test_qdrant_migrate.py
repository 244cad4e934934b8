"""`grk migrate NAME --to qdrant` copies an embedded collection (nothing embedded again), checks
the copy, and resumes when run again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import groundkit
from grk_runner import Grk
from groundkit.config import Settings, parse_settings
from groundkit.ops.migrate import to_qdrant
from groundkit.testing import FakeEmbedder
from groundkit.testing.backends import corpus
from groundkit.testing.qdrant_server import FakeQdrantServer


@pytest.fixture
def server() -> Iterator[FakeQdrantServer]:
    with FakeQdrantServer() as running:
        yield running


@pytest.fixture
def settings(tmp_path: Path, server: FakeQdrantServer) -> Settings:
    return parse_settings(
        {
            "index_dir": str(tmp_path / "index"),
            "collections": {"notes": {"backend": "qdrant", "url": server.url}},
        }
    )


@pytest.fixture
def embedder(tmp_path: Path) -> FakeEmbedder:
    fake = FakeEmbedder()
    with groundkit.open_collection("notes", index_dir=tmp_path / "index", embedder=fake) as notes:
        notes.ingest([corpus(tmp_path)], dense=True)
    return fake


def test_a_migration_copies_everything_without_embedding_and_checks_the_copy(
    tmp_path: Path, settings: Settings, embedder: FakeEmbedder
) -> None:
    embedded_before = embedder.calls["document"]
    done = to_qdrant(settings, "notes")
    assert done.ok
    assert (done.documents, done.chunks, done.vectors, done.passed_over) == (8, 9, 9, 0)
    assert done.counts == {"documents": (8, 8), "chunks": (9, 9), "vectors": (9, 9)}
    assert (done.sampled, done.verified) == (9, 9)
    assert embedder.calls["document"] == embedded_before  # nothing embedded again

    fresh = FakeEmbedder()
    embedded = groundkit.open_collection("notes", index_dir=tmp_path / "index", embedder=fresh)
    moved = groundkit.open_collection("notes", settings=settings, create=False, embedder=fresh)
    with embedded, moved:
        assert moved.backend == "qdrant"
        for query in ("amber falcon", "cobalt lantern", "granite survey", "quince medlar"):
            for mode in ("bm25", "dense", "hybrid"):
                mine = embedded.search(query, mode=mode)
                theirs = moved.search(query, mode=mode)
                # The first is the same; below, ties (equal scores) may fall either way.
                assert theirs[0].citation.chunk_id == mine[0].citation.chunk_id, (query, mode)
                if mode != "hybrid":  # fused scores follow the tied ranks
                    scores = [h.score for h in mine]
                    assert [h.score for h in theirs] == pytest.approx(scores, rel=1e-4)
        hit = moved.search("ember orchards", mode="bm25")[0]
        assert moved.show(hit.citation.chunk_id).verification == "verified"
    assert fresh.calls["document"] == 0


def test_a_migration_run_again_passes_over_what_is_there(
    settings: Settings, embedder: FakeEmbedder
) -> None:
    to_qdrant(settings, "notes")
    again = to_qdrant(settings, "notes")
    assert again.ok
    assert (again.documents, again.vectors, again.passed_over) == (0, 0, 8)


def test_grk_migrate_needs_the_collection_placed_on_qdrant_in_grk_toml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], server: FakeQdrantServer
) -> None:
    grk = Grk(tmp_path / "index", capsys)
    docs = corpus(tmp_path)
    assert grk("-c", "notes", "ingest", "--quiet", str(docs)) == 0
    assert grk.error("migrate", "notes", "--to", "qdrant") == (2, "config.invalid_value")
    (tmp_path / "grk.toml").write_text(
        f'[collections.notes]\nbackend = "qdrant"\nurl = "{server.url}"\n'
    )
    done = grk.json("migrate", "notes", "--to", "qdrant")
    assert (done["ok"], done["documents"], done["counts"]["chunks"]) == (
        True,
        8,
        {"embedded": 9, "qdrant": 9},
    )
    assert grk.error("migrate", "missing", "--to", "qdrant") == (2, "config.invalid_value")
    found = grk.json("-c", "notes", "search", "amber falcon", "--mode", "bm25")
    assert found["hits"][0]["source"] == "alpha.md"
    assert grk.json("-c", "notes", "status")["backend"] == "qdrant"
    assert "notes" in grk.json("collections")["collections"]
    assert grk.json("-c", "notes", "delete", "--all", "--yes") == {"deleted_collection": "notes"}
    assert not server.client.collection_exists("notes")
    assert grk.error("-c", "notes", "search", "amber") == (2, "collection.not_found")

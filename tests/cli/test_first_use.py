"""What a new user meets first: a chunk id shown without naming its collection, a mistyped
collection, an ingest of a folder with nothing in it, the status and the old copy of a
collection grk.toml places on Qdrant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grk_runner import Grk
from groundkit.errors import ExitStatus


@pytest.fixture
def grk(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(index_dir, capsys)


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "wombat.md").write_text("# Wombats\n\nThe wombat digs long burrows.\n")
    return folder


def chunk_of(grk: Grk, collection: str, query: str) -> str:
    chunk_id: str = grk.json("-c", collection, "search", query)["hits"][0]["chunk_id"]
    return chunk_id


def test_show_without_a_collection_finds_the_one_holding_the_chunk(grk: Grk, notes: Path) -> None:
    assert grk("-c", "reqs", "ingest", str(notes), "-q") == 0
    chunk_id = chunk_of(grk, "reqs", "wombat burrows")

    assert grk("show", chunk_id) == 0  # no collection named "default" exists

    assert "The wombat digs long burrows." in grk.out
    assert "(in collection 'reqs')" in grk.err
    assert grk.json("show", chunk_id)["collection"] == "reqs"


def test_show_of_a_chunk_two_collections_hold_asks_which(grk: Grk, notes: Path) -> None:
    for name in ("alpha", "beta"):
        assert grk("-c", name, "ingest", str(notes), "-q") == 0
    chunk_id = chunk_of(grk, "alpha", "wombat")

    status, code = grk.error("show", chunk_id)

    assert (status, code) == (ExitStatus.USAGE, "usage")
    assert "alpha, beta" in json.loads(grk.out)["error"]["message"]


def test_show_in_a_named_collection_looks_nowhere_else(grk: Grk, notes: Path) -> None:
    assert grk("-c", "reqs", "ingest", str(notes), "-q") == 0
    chunk_id = chunk_of(grk, "reqs", "wombat")

    assert grk.error("-c", "other", "show", chunk_id) == (
        ExitStatus.USAGE,
        "collection.not_found",
    )


def test_show_of_a_chunk_no_collection_holds_says_how_many_were_searched(
    grk: Grk, notes: Path
) -> None:
    assert grk("-c", "reqs", "ingest", str(notes), "-q") == 0

    status, code = grk.error("show", "c0000000000000000")

    assert (status, code) == (ExitStatus.USAGE, "chunk.not_found")
    assert "none of the 1 collections here" in json.loads(grk.out)["error"]["message"]


def test_an_unknown_collection_names_the_existing_ones(grk: Grk, notes: Path) -> None:
    for name in ("notes", "papers"):
        assert grk("-c", name, "ingest", str(notes), "-q") == 0

    assert grk.error("-c", "reqs", "status") == (ExitStatus.USAGE, "collection.not_found")

    assert "notes, papers" in json.loads(grk.out)["error"]["hint"]


def test_an_unknown_collection_in_an_empty_index_dir_says_there_is_none(grk: Grk) -> None:
    assert grk.error("-c", "reqs", "search", "x") == (ExitStatus.USAGE, "collection.not_found")

    assert "no collection here yet" in json.loads(grk.out)["error"]["hint"]


def test_ingest_of_an_empty_folder_is_a_usage_error_and_makes_no_collection(
    grk: Grk, tmp_path: Path
) -> None:
    (tmp_path / "empty").mkdir()

    assert grk.error("ingest", str(tmp_path / "empty")) == (ExitStatus.USAGE, "usage")

    assert "no collection was made" in json.loads(grk.out)["error"]["hint"]
    assert grk.json("collections") == {"collections": []}


def test_ingest_of_only_unread_types_names_one_passed_over(grk: Grk, tmp_path: Path) -> None:
    folder = tmp_path / "binaries"
    folder.mkdir()
    (folder / "photo.jpg").write_bytes(b"\xff\xd8\xff")

    assert grk.error("ingest", str(folder)) == (ExitStatus.USAGE, "usage")

    assert "1 passed over, such as photo.jpg" in json.loads(grk.out)["error"]["hint"]


def test_an_ingest_that_removes_documents_is_not_nothing(grk: Grk, notes: Path) -> None:
    assert grk("-c", "reqs", "ingest", str(notes), "-q") == 0
    (notes / "wombat.md").unlink()

    assert grk.json("-c", "reqs", "ingest", str(notes))["removed"] == 1  # exit 0
    assert grk.error("-c", "reqs", "ingest", str(notes)) == (ExitStatus.USAGE, "usage")
    assert "the collection is as it was" in json.loads(grk.out)["error"]["hint"]


@pytest.fixture
def on_qdrant(tmp_path: Path) -> Path:
    """grk.toml placing ``reqs`` on Qdrant's engine in the process (a ``path`` collection)."""
    config = tmp_path / "placing" / "grk.toml"  # not ./grk.toml, which every command reads
    config.parent.mkdir()
    config.write_text(f'[collections.reqs]\nbackend = "qdrant"\npath = "{tmp_path / "q"}"\n')
    return config


def test_status_of_a_qdrant_path_collection_gives_its_folder_not_a_cluster(
    grk: Grk, notes: Path, on_qdrant: Path
) -> None:
    assert grk("--config", str(on_qdrant), "-c", "reqs", "ingest", str(notes), "-q") == 0

    assert grk("--config", str(on_qdrant), "-c", "reqs", "status") == 0

    size = next(line for line in grk.out.splitlines() if line.startswith("size"))
    assert "cluster" not in size
    assert "qdrant-edge, here" in size


def test_the_embedded_copy_migrate_leaves_is_reachable_with_embedded(
    grk: Grk, notes: Path, on_qdrant: Path
) -> None:
    assert grk("-c", "reqs", "ingest", str(notes), "-q") == 0  # before grk.toml places it
    assert grk("--config", str(on_qdrant), "migrate", "reqs", "--to", "qdrant", "-q") == 0
    assert "grk --embedded -c reqs" in grk.out

    placed = grk.json("--config", str(on_qdrant), "-c", "reqs", "status")
    copy = grk.json("--config", str(on_qdrant), "--embedded", "-c", "reqs", "status")
    assert (placed["backend"], copy["backend"]) == ("qdrant", "embedded")
    assert copy["documents"] == placed["documents"] == 1

    assert grk("--config", str(on_qdrant), "-c", "reqs", "delete", "--all", "--embedded", "-y") == 0
    assert grk.json("--config", str(on_qdrant), "-c", "reqs", "status")["documents"] == 1
    assert grk.error("--config", str(on_qdrant), "--embedded", "-c", "reqs", "status") == (
        ExitStatus.USAGE,
        "collection.not_found",
    )

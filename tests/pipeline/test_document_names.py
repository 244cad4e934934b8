"""The names documents are shown by: two files never show the same source, and naming never
changes what a document is (docs/decisions/0014-document-names.md)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from grk_runner import Grk
from groundkit.errors import ErrorCode


@pytest.fixture
def grk(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(index_dir, capsys)


@pytest.fixture
def two_readmes(tmp_path: Path) -> tuple[Path, Path]:
    """Two folders, each holding a README.md (a project's docs beside its site, say)."""
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    for folder, animal in ((alpha, "wombat"), (beta, "quokka")):
        (folder / "guides").mkdir(parents=True)
        (folder / "README.md").write_text(f"# {folder.name}\n\nThe {animal} readme.\n")
        (folder / "guides" / "index.md").write_text(f"The {animal} guide index.\n")
    return alpha, beta


def sources(grk: Grk, *args: str) -> list[str]:
    return sorted(hit["source"] for hit in grk.json("search", "readme guide index", *args)["hits"])


def test_files_of_one_name_in_two_folders_ingested_together_show_apart(
    grk: Grk, two_readmes: tuple[Path, Path]
) -> None:
    alpha, beta = two_readmes
    assert grk("ingest", str(alpha), str(beta)) == 0, grk.err

    assert sources(grk) == [
        "alpha/README.md",
        "alpha/guides/index.md",
        "beta/README.md",
        "beta/guides/index.md",
    ]
    assert sources(grk, "--source", "beta/*") == ["beta/README.md", "beta/guides/index.md"]
    assert grk("delete", "alpha/README.md") == 0, grk.err
    assert "alpha/README.md" not in sources(grk)


def test_one_folder_ingested_alone_names_files_as_inside_it(
    grk: Grk, two_readmes: tuple[Path, Path]
) -> None:
    alpha, _ = two_readmes
    assert grk("ingest", str(alpha)) == 0, grk.err

    assert sources(grk) == ["README.md", "guides/index.md"]
    assert sources(grk, "--source", "guides/*") == ["guides/index.md"]


def test_folders_ingested_one_after_the_other_never_show_the_same_source(
    grk: Grk, two_readmes: tuple[Path, Path]
) -> None:
    alpha, beta = two_readmes
    assert grk("ingest", str(alpha)) == 0, grk.err
    assert grk("ingest", str(beta)) == 0, grk.err

    shown = sources(grk)
    assert len(set(shown)) == 4, shown
    assert shown == ["README.md", "beta/README.md", "beta/guides/index.md", "guides/index.md"]
    again = grk.json("ingest", str(beta))
    assert (again["new"], again["unchanged"]) == (0, 2)
    assert sources(grk) == shown


def test_a_collection_named_before_names_were_unique_is_renamed_in_place_on_reingest(
    grk: Grk, two_readmes: tuple[Path, Path], index_dir: Path
) -> None:
    alpha, beta = two_readmes
    assert grk("ingest", str(alpha), str(beta)) == 0, grk.err
    before = grk.json("search", "readme guide index")["hits"]
    # As ingests named documents before: each relative to its own folder, so two alike.
    with sqlite3.connect(index_dir / "default" / "store.sqlite") as db:
        db.execute("UPDATE documents SET path = substr(path, instr(path, '/') + 1)")
    db.close()
    assert sources(grk) == ["README.md", "README.md", "guides/index.md", "guides/index.md"]
    status, code = grk.error("delete", "README.md")
    assert (status, code) == (2, ErrorCode.AMBIGUOUS_DOCUMENT)
    assert "2 documents are shown as 'README.md'" in grk.out  # a source, not an external id

    report = grk.json("ingest", str(alpha), str(beta))

    assert (report["new"], report["changed"], report["unchanged"]) == (0, 0, 4)
    after = grk.json("search", "readme guide index")["hits"]
    assert sorted(h["source"] for h in after) == sorted(h["source"] for h in before)
    identity = sorted((h["document_id"], h["chunk_id"], h["location"]) for h in before)
    assert sorted((h["document_id"], h["chunk_id"], h["location"]) for h in after) == identity


def test_a_renamed_document_still_tells_an_edit_of_its_cited_text(
    grk: Grk, two_readmes: tuple[Path, Path]
) -> None:
    alpha, beta = two_readmes
    assert grk("ingest", str(alpha)) == 0
    chunk = grk.json("search", "wombat readme", "--source", "README.md")["hits"][0]["chunk_id"]
    assert grk("ingest", str(alpha), str(beta)) == 0  # renamed to alpha/README.md

    (alpha / "README.md").write_text("# alpha\n\nThe wombat has left.\n")

    shown = grk.json("show", chunk)
    assert (shown["source"], shown["verification"]) == ("alpha/README.md", "drifted")

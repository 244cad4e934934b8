"""`grk ingest` on a real-looking folder: exit statuses a script can trust, what is passed over
and why, what is walked, and sources named as the user sees them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grk_runner import Grk


@pytest.fixture
def grk(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(index_dir, capsys)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "guides").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "guides" / "setup.md").write_text("# Setup\n\nInstall the quoll package.\n")
    (root / "notes.txt").write_text("line one\nline two\nthe quoll sleeps by day\n")
    (root / "drafts" / "idea.md").write_text("# Idea\n\nA half-baked quoll idea.\n")
    (root / "archive.tar.gz").write_bytes(b"\x1f\x8b\x08\x00 not text")
    (root / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0")
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# Elsewhere\n\nOutside the tree.\n")
    (root / "link.md").symlink_to(outside)
    return root


def test_a_real_folder_with_unknown_types_and_an_escaping_link_exits_0(
    grk: Grk, folder: Path
) -> None:
    report = grk.json("ingest", str(folder))
    assert report["skipped"] == []
    assert sorted((p["source"], p["reason"]) for p in report["passed_over"]) == [
        ("archive.tar.gz", "not a type groundkit reads"),
        ("link.md", "symlink leaves the ingested tree"),
        ("photo.jpg", "not a type groundkit reads"),
    ]
    assert grk("ingest", str(folder)) == 0
    assert "passed over (not a type groundkit reads: 2; symlink leaves" in grk.out
    assert grk("ingest", "--verbose", str(folder)) == 0
    assert "  passed over link.md: symlink leaves the ingested tree" in grk.out


def test_a_file_meant_to_be_ingested_that_cannot_be_exits_3(grk: Grk, folder: Path) -> None:
    (folder / "broken.txt").write_bytes(b"\x00\x01 binary in a text file")
    assert grk("ingest", str(folder)) == 3
    assert "skipped broken.txt: binary file" in grk.out


def test_a_path_that_does_not_exist_is_a_usage_error_and_makes_no_collection(
    grk: Grk, folder: Path, index_dir: Path
) -> None:
    assert grk.error("ingest", str(folder), str(folder / "nope")) == (2, "usage")
    assert "nope" in grk.out  # the CLI names the user's own path
    assert grk.json("collections") == {"collections": []}
    assert not (index_dir / "default").exists()


def test_include_exclude_and_grkignore_decide_what_is_walked(grk: Grk, folder: Path) -> None:
    def sources(*args: str) -> set[str]:
        grk.json("delete", "--all", "--yes") if (grk.index_dir / "default").exists() else None
        grk.json("ingest", *args, str(folder))
        return {h["source"] for h in grk.json("search", "quoll", "-k", "50")["hits"]}

    assert sources() == {"guides/setup.md", "notes.txt", "drafts/idea.md"}
    assert sources("--include", "*.md") == {"guides/setup.md", "drafts/idea.md"}
    assert sources("--exclude", "drafts/") == {"guides/setup.md", "notes.txt"}
    (folder / ".grkignore").write_text("*.txt\n")
    assert sources() == {"guides/setup.md", "drafts/idea.md"}


def test_sources_are_relative_globs_work_as_typed_and_format_is_a_filter(
    grk: Grk, folder: Path
) -> None:
    grk.json("ingest", str(folder))
    guides = grk.json("search", "quoll", "--source", "guides/*")["hits"]
    assert [h["source"] for h in guides] == ["guides/setup.md"]
    assert guides[0]["location"] == str(folder / "guides" / "setup.md")
    texts = grk.json("search", "quoll", "--where", "format=txt")["hits"]
    assert [(h["source"], h["metadata"].get("format")) for h in texts] == [("notes.txt", None)]
    notes = grk.json("show", texts[0]["chunk_id"])
    assert (notes["line"], notes["end_line"]) == (1, 3)


def test_the_json_summary_lists_what_was_passed_over(grk: Grk, folder: Path) -> None:
    assert grk("ingest", "--json", str(folder)) == 0
    summary = json.loads(grk.out)
    assert summary["ignored"] == len(summary["passed_over"]) == 3


def _sentence_rows(index_dir: Path) -> int:
    import sqlite3

    with sqlite3.connect(index_dir / "default" / "store.sqlite") as db:
        return int(db.execute("select count(*) from chunk_sentences").fetchone()[0])


@pytest.mark.parametrize(("flags", "stored"), [((), False), (("--sentences",), True)])
def test_an_answers_sentences_are_embedded_at_ingest_only_when_asked(
    grk: Grk,
    folder: Path,
    index_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    flags: tuple[str, ...],
    stored: bool,
) -> None:
    # Embedding sentences costs an ingest most of its embedding time again, so `--dense` alone
    # keeps to the chunks (the embedding floor) and `--sentences` buys the faster answer.
    import groundkit.collection as collection_module
    from groundkit.testing import FakeEmbedder

    monkeypatch.setattr(collection_module, "create_embedder", lambda config: FakeEmbedder())
    assert grk("ingest", "--dense", *flags, "--quiet", str(folder)) == 0
    assert (_sentence_rows(index_dir) > 0) is stored


def test_a_run_that_embeds_what_an_earlier_one_stored_says_so_not_0_chunks_written(
    grk: Grk, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import groundkit.collection as collection_module
    from groundkit.testing import FakeEmbedder

    monkeypatch.setattr(collection_module, "create_embedder", lambda config: FakeEmbedder())
    assert grk("ingest", "--quiet", str(folder)) == 0  # the text first, as a stopped run leaves it
    assert grk("ingest", "--dense", "--sentences", "--quiet", str(folder)) == 0
    assert "(no new chunks, 3 chunks embedded, sentences of 3 chunks stored)" in grk.out


def test_a_run_that_only_stores_the_sentences_of_chunks_embedded_before_says_how_many(
    grk: Grk, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import groundkit.collection as collection_module
    from groundkit.testing import FakeEmbedder

    monkeypatch.setattr(collection_module, "create_embedder", lambda config: FakeEmbedder())
    assert grk("ingest", "--dense", "--quiet", str(folder)) == 0
    assert grk("ingest", "--sentences", "--quiet", str(folder)) == 0
    assert "(no new chunks, sentences of 3 chunks stored)" in grk.out
    assert grk.json("ingest", "--sentences", str(folder))["chunks_split"] == 0  # all stored

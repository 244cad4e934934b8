from __future__ import annotations

from pathlib import Path

import pytest

import groundkit
from groundkit.index import lexical
from groundkit.index.rows import file_words, named_text

_FILLER = "Plain words about nothing in particular fill this sentence. " * 2


def _docs(root: Path) -> Path:
    root.mkdir()
    # The page a reader wants: its name says what it is about, its long text says "test" once.
    (root / "testclient.md").write_text(
        "The client makes requests against your app in process, to test it.\n\n"
        f"{_FILLER}\n\nIt is used with pytest to test an app: `TestClient(app)`.\n"
    )
    # A short page whose text holds the words more often, about something else.
    (root / "routing.md").write_text(
        "# Routing\n\nA route maps a path to an endpoint of your app, which tests each path.\n"
    )
    for name in ("templates", "responses", "middleware", "lifespan", "schemas", "config"):
        (root / f"{name}.md").write_text(f"# {name.title()}\n\nHow {name} work in an app.\n")
    return root


def test_a_page_named_for_the_question_ranks_above_one_whose_text_only_repeats_its_words(
    tmp_path: Path,
) -> None:
    with groundkit.open_collection("x", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(_docs(tmp_path / "docs"))])
        top = coll.search("how do I test my app", mode="bm25")[0]
    assert top.citation.source == "testclient.md"


def test_what_names_a_chunk_is_its_title_its_file_name_in_words_and_its_headings() -> None:
    assert file_words("docs/TestClient.md", "") == "Test Client"
    assert file_words("src/test_client.py", "") == "test client"
    assert file_words("docs/testclient.md", "from x import TestClient") == "Test Client"
    assert file_words("docs/testclient.md", "no identifier spells it") == "testclient"
    assert file_words(None, "a record") is None
    assert (
        named_text("Zeolites", "test client", "Guide\nUsage")
        == "Zeolites\ntest client\nGuide\nUsage"
    )
    assert named_text(None, None, None) == ""


def test_a_query_that_names_no_chunk_ranks_exactly_as_without_the_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with groundkit.open_collection("x", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(_docs(tmp_path / "docs"))])
        with_field = [(h.text, h.score) for h in coll.search("endpoint request", mode="bm25")]
        monkeypatch.setattr(lexical, "NAMED_WEIGHT", 0.0)
        without = [(h.text, h.score) for h in coll.search("endpoint request", mode="bm25")]
    assert with_field == without
    assert len(with_field) == 2

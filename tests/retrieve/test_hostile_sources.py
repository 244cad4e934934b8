"""A cited source whose path now names something else than a regular file: a FIFO, a link to a
device, a file over the size cap. Re-reading it never hangs or fills memory: it is not checked,
and says why (each case hung, grew without bound or was judged on the whole file before)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import groundkit
from groundkit import Verification
from groundkit.cli.main import main
from groundkit.source_files import NOT_REGULAR

TEXT = "# Otters\n\nThe otter cracks shellfish on a stone it keeps.\n"


@pytest.fixture
def coll(tmp_path: Path) -> Iterator[groundkit.Collection]:
    settings = groundkit.Settings().replace(
        ingest=groundkit.Settings().ingest.replace(max_file_bytes=200)
    )
    with groundkit.open_collection("h", index_dir=tmp_path / "index", settings=settings) as c:
        yield c


def _cited(coll: groundkit.Collection, tmp_path: Path) -> tuple[Path, str]:
    source = tmp_path / "docs" / "otters.md"
    source.parent.mkdir()
    source.write_text(TEXT)
    coll.ingest([str(source.parent)])
    return source, coll.search("otter shellfish", top_k=1)[0].citation.chunk_id


def test_a_source_that_became_a_fifo_is_not_checked_and_says_why(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    source, chunk_id = _cited(coll, tmp_path)
    source.unlink()
    os.mkfifo(source)  # an open() for reading waits for a writer for ever

    shown = coll.show(chunk_id)

    assert shown.verification == Verification.NOT_CHECKED
    assert shown.reason == NOT_REGULAR
    assert shown.text.startswith("# Otters")  # the stored text is still shown


def test_a_source_that_became_a_link_to_a_device_is_not_checked(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    source, chunk_id = _cited(coll, tmp_path)
    source.unlink()
    source.symlink_to("/dev/zero")  # read() of it never ends

    shown = coll.show(chunk_id)

    assert (shown.verification, shown.reason) == (Verification.NOT_CHECKED, NOT_REGULAR)


def test_a_source_grown_past_the_ingest_cap_is_not_checked_as_oversized(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    source, chunk_id = _cited(coll, tmp_path)
    with source.open("a") as fh:
        fh.write("x" * 300)  # ingest.max_file_bytes is 200 here

    shown = coll.show(chunk_id)

    assert shown.verification == Verification.NOT_CHECKED
    assert (shown.reason or "").startswith("oversized (")


def test_a_quote_in_a_source_that_became_a_fifo_is_not_checked(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    source, chunk_id = _cited(coll, tmp_path)
    source.unlink()
    os.mkfifo(source)

    check = coll.verify_quote("cracks shellfish", chunk_id=chunk_id)

    assert check.verbatim
    assert check.verification == Verification.NOT_CHECKED


def test_grk_show_of_a_fifo_source_prints_the_reason_and_exits_1_under_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "d"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nalpha text\n")
    index = str(tmp_path / "idx")
    assert main(["--index-dir", index, "ingest", str(docs), "-q"]) == 0
    capsys.readouterr()
    assert main(["--index-dir", index, "search", "alpha", "--json"]) == 0

    chunk_id = json.loads(capsys.readouterr().out)["hits"][0]["chunk_id"]
    (docs / "a.md").unlink()
    os.mkfifo(docs / "a.md")

    assert main(["--index-dir", index, "show", "--check", chunk_id]) == 1
    out = capsys.readouterr().out
    assert f"verification: not_checked ({NOT_REGULAR})" in out
    assert main(["--index-dir", index, "show", chunk_id, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["verification"], shown["reason"]) == ("not_checked", NOT_REGULAR)


def test_a_reingest_removes_the_document_of_a_file_that_became_a_fifo(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    source, _ = _cited(coll, tmp_path)
    source.unlink()
    os.mkfifo(source)

    report = coll.ingest([str(source.parent)])

    assert report.removed == 1
    assert coll.search("otter shellfish", top_k=1) == []

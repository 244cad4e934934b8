"""Helper processes read and chunk files for the writer: the store ends up exactly as an ingest
in one process leaves it, whatever the helpers do, a helper's death included."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

import groundkit
from groundkit.chunk import ChunkSettings
from groundkit.ingest.walk import FileInput
from groundkit.pipeline import helpers as helpers_module
from groundkit.pipeline.documents import prepare, read_file
from groundkit.pipeline.helpers import AUTO, Helpers, helper_count, in_order

_TOPICS = ["granite quarry", "tidal estuary", "alpine meadow", "coral atoll", "salt pan"]


def _folder(root: Path) -> Path:
    docs = root / "docs"
    docs.mkdir()
    for i in range(18):
        topic = _TOPICS[i % len(_TOPICS)]
        body = " ".join(f"Paragraph {j} of note {i} is about the {topic}." for j in range(60))
        (docs / f"note{i:02}.md").write_text(f"# Note {i}\n\n## {topic}\n\n{body}\n")
    records = [
        {"_id": f"r{i}", "title": f"Record {i}", "text": f"The {t} record {i}."}
        for i, t in enumerate(_TOPICS * 4)
    ]
    (docs / "records.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    (docs / "page.html").write_text(
        "<html><head><title>Page</title></head><body><h1>Estuary</h1><p>"
        + "The tidal estuary floods twice a day. " * 40
        + "</p></body></html>"
    )
    (docs / "latin1.txt").write_bytes("caf\xe9 au lait".encode("latin-1"))  # not UTF-8: skipped
    (docs / "empty.md").write_text("")  # passed over
    return docs


def _tables(index_dir: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(index_dir / "c" / "store.sqlite") as conn:
        documents = conn.execute(
            "SELECT id, document_id, source, path, origin, external_id, format, title, text,"
            " content_hash, fingerprint, metadata FROM documents ORDER BY id"
        ).fetchall()
        chunks = conn.execute(
            'SELECT id, chunk_id, doc, ordinal, start, "end", metadata, line, end_line, text,'
            " fold FROM chunks ORDER BY id"
        ).fetchall()
    return [*documents, *chunks]


def _ingest(index_dir: Path, docs: Path, helpers: int) -> groundkit.IngestReport:
    settings = groundkit.Settings()
    settings = settings.replace(ingest=settings.ingest.replace(helpers=helpers))
    with groundkit.open_collection("c", index_dir=index_dir, settings=settings) as coll:
        return coll.ingest([str(docs)])


def test_helpers_store_exactly_what_one_process_stores(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    alone = _ingest(tmp_path / "alone", docs, 0)
    helped = _ingest(tmp_path / "helped", docs, 2)
    assert helped == alone
    assert (alone.new, len(alone.skipped), len(alone.passed_over)) == (39, 1, 1)
    assert _tables(tmp_path / "helped") == _tables(tmp_path / "alone")

    # Changed, removed and new files and records: what is stored decides what a helper skips.
    (docs / "note03.md").write_text("# Note 3\n\nRewritten about a basalt plateau.\n")
    (docs / "note04.md").unlink()
    (docs / "new.md").write_text("# New\n\nA note about a mangrove swamp.\n")
    lines = (docs / "records.jsonl").read_text().splitlines()
    lines[2] = json.dumps({"_id": "r2", "title": "Record 2", "text": "Now about a fjord."})
    (docs / "records.jsonl").write_text("\n".join(lines) + "\n")
    alone = _ingest(tmp_path / "alone", docs, 0)
    helped = _ingest(tmp_path / "helped", docs, 2)
    assert helped == alone
    assert (alone.new, alone.changed, alone.removed) == (1, 2, 1)
    assert _tables(tmp_path / "helped") == _tables(tmp_path / "alone")


def test_a_helper_that_dies_leaves_its_files_to_the_writer(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    settings, chunking = groundkit.Settings(), ChunkSettings(1000, 200)
    files = [
        FileInput(str(docs / f"note{i:02}.md"), "markdown", f"note{i:02}.md") for i in range(4)
    ]
    expected = [prepare(lambda f=f: read_file(f, settings), f.path, {}, chunking) for f in files]
    with Helpers(1) as helpers:
        first = helpers.submit(files[0], settings, {}, chunking)
        assert first() == expected[0]
        second = helpers.submit(files[1], settings, {}, chunking)
        helpers._helpers[0].process.kill()  # as a parser that crashes its process would
        helpers._helpers[0].process.wait()
        later = [helpers.submit(f, settings, {}, chunking) for f in files[2:]]
        assert [second(), *(made() for made in later)] == expected[1:]


def test_small_runs_and_single_cores_do_without_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3})
    big = (helpers_module.FROM_FILES, helpers_module.FROM_BYTES)
    assert helper_count(AUTO, *big) == 4
    assert helper_count(AUTO, big[0] - 1, big[1]) == 0
    assert helper_count(AUTO, big[0], big[1] - 1) == 0
    assert helper_count(0, *big) == 0
    assert helper_count(3, 1, 1) == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0})
    assert helper_count(AUTO, *big) == 0


def test_files_are_handed_out_in_order_started_ahead_within_a_budget() -> None:
    started: list[int] = []
    handed: list[tuple[int, list[int]]] = []
    for item, made in in_order(
        range(6), lambda i: started.append(i) or i * 10, ahead=3, weight=lambda i: 5, budget=10
    ):
        handed.append((item, list(started)))
        assert made == item * 10
    # Two items of weight 5 fit the budget of 10: item n+2 starts only once item n is out.
    assert handed == [
        (0, [0, 1]),
        (1, [0, 1, 2]),
        (2, [0, 1, 2, 3]),
        (3, [0, 1, 2, 3, 4]),
        (4, [0, 1, 2, 3, 4, 5]),
        (5, [0, 1, 2, 3, 4, 5]),
    ]


def test_ctrl_c_with_helpers_at_work_keeps_the_collection_as_it_was(
    tmp_path: Path, helper_processes: Callable[[], list[int]]
) -> None:
    docs = _folder(tmp_path)
    _ingest(tmp_path / "index", docs, 0)
    before = _tables(tmp_path / "index")
    for i in range(18):
        (docs / f"note{i:02}.md").write_text(f"# Note {i}\n\nRewritten: a limestone cave.\n")

    def interrupt(phase: str, done: int, total: int | None, item: str | None = None) -> None:
        if phase == "reading" and done == 5:
            raise KeyboardInterrupt

    settings = groundkit.Settings()
    settings = settings.replace(ingest=settings.ingest.replace(helpers=2))
    with groundkit.open_collection("c", index_dir=tmp_path / "index", settings=settings) as coll:
        with pytest.raises(KeyboardInterrupt):
            coll.ingest([str(docs)], progress=interrupt)
        assert not helper_processes()
    assert _tables(tmp_path / "index") == before

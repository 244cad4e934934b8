"""Helper processes read and chunk files for the writer: the store ends up exactly as an ingest
in one process leaves it, whatever the helpers do, a helper's death included."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import groundkit
from groundkit.chunk import ChunkSettings
from groundkit.ingest.walk import FileInput
from groundkit.pipeline import helpers as helpers_module
from groundkit.pipeline.documents import prepare, read_file
from groundkit.pipeline.helpers import AUTO, Helpers, Making, Reading, helper_count

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
            'SELECT id, chunk_id, doc, ordinal, start, "end", metadata, line, end_line,'
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


def test_on_two_cores_helpers_start_only_when_making_files_is_most_of_the_writers_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    big = (helpers_module.FROM_FILES, helpers_module.FROM_BYTES)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    # Making files two thirds of the writer's time (JSONL records): helpers cost more
    # CPU and wall time than they take off it, the index's thread having the other core.
    assert helper_count(AUTO, *big, share=0.65) == 0
    assert helper_count(AUTO, *big, share=0.9) == 2  # HTML and PDF: loading is nearly all
    assert helper_count(AUTO, *big) == 2  # nothing measured yet
    assert helper_count(2, *big, share=0.1) == 2  # a number set is a number kept
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3})
    assert helper_count(AUTO, *big, share=0.65) == 4


class _FakeHelpers:
    """Helpers that make nothing: ``submit`` records what was handed to them."""

    def __init__(self, count: int) -> None:
        self.given: list[object] = []

    def __enter__(self) -> _FakeHelpers:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def submit(self, file: object, *rest: object) -> Callable[[], object]:
        self.given.append(file)
        return lambda: file


def _hand_out(
    monkeypatch: pytest.MonkeyPatch, items: list[int], setting: int, size: int = 5
) -> list[tuple[int, list[str]]]:
    """Each item as handed out, with how every item had been started by then."""
    monkeypatch.setattr(helpers_module, "Helpers", _FakeHelpers)
    monkeypatch.setattr(helpers_module, "AHEAD_FILES", 3)
    monkeypatch.setattr(helpers_module, "AHEAD_BYTES", 10)
    started: list[str] = []

    def start(item: int, submit: object) -> int:
        started.append("helper" if submit else "here")
        return item * 10

    handed = []
    with Reading(items, start, lambda _item: size, setting) as reading:
        for item, made in reading:
            assert made == item * 10
            handed.append((item, list(started)))
    return handed


def test_helpers_are_given_files_ahead_of_the_writer_within_a_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handed = _hand_out(monkeypatch, list(range(6)), setting=2)
    # Two items of 5 bytes fit the budget of 10: item n + 2 starts once item n is handed out.
    assert [(item, len(started)) for item, started in handed] == [
        (0, 2),
        (1, 3),
        (2, 4),
        (3, 5),
        (4, 6),
        (5, 6),
    ]
    assert handed[-1][1] == ["helper"] * 6
    # Alone, the writer starts each file only when it gets to it.
    handed = _hand_out(monkeypatch, list(range(4)), setting=0)
    assert [(item, len(started)) for item, started in handed] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert handed[-1][1] == ["here"] * 4


def test_helpers_start_only_once_reading_has_taken_a_while_with_much_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    monkeypatch.setattr(helpers_module, "FROM_FILES", 3)
    monkeypatch.setattr(helpers_module, "FROM_BYTES", 15)
    monkeypatch.setattr(helpers_module, "HELP_AFTER_S", 3600.0)
    assert _hand_out(monkeypatch, list(range(6)), setting=AUTO)[-1][1] == ["here"] * 6
    monkeypatch.setattr(helpers_module, "HELP_AFTER_S", 0.0)
    assert _hand_out(monkeypatch, list(range(6)), setting=AUTO)[-1][1] == ["helper"] * 6
    # Too little left to read when the time comes: the writer goes on alone.
    assert _hand_out(monkeypatch, list(range(2)), setting=AUTO)[-1][1] == ["here"] * 2


def _burn(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


@pytest.mark.parametrize(("making", "helped"), [(0.97, True), (0.3, False)])
def test_the_share_of_the_writers_thread_spent_making_files_after_the_first_decides(
    monkeypatch: pytest.MonkeyPatch, making: float, helped: bool
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    monkeypatch.setattr(helpers_module, "Helpers", _FakeHelpers)
    monkeypatch.setattr(helpers_module, "FROM_FILES", 3)
    monkeypatch.setattr(helpers_module, "FROM_BYTES", 15)
    monkeypatch.setattr(helpers_module, "HELP_AFTER_S", 0.0)
    made = Making()
    started: list[str] = []

    def start(item: int, submit: object) -> Callable[[], int]:
        started.append("helper" if submit else "here")
        # Made here: ``making`` of the writer's time goes to making it, the rest to writing;
        # the first file also pays for imports, which do not count.
        first = 0.15 if item == 0 else 0.0
        return made.timed(lambda: _burn(first + 0.03 * making) or item)

    with Reading(list(range(12)), start, lambda _item: 5, AUTO, made) as reading:
        for item, make in reading:
            assert make() == item
            _burn(0.03 * (1 - making))
    assert ("helper" in started) is helped
    # Decided once a file after the first was made, whatever the clock says.
    assert started[:3] == ["here", "here", "here"]
    assert made.seconds > 0


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

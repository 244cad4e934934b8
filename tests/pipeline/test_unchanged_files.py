"""Re-ingesting an unchanged folder reads nothing: size and time pass a file over, and the
content hash decides whenever they differ."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import groundkit
import groundkit.pipeline.documents as documents_module


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = documents_module.read_file

    def counting(file, settings):  # type: ignore[no-untyped-def]
        seen.append(Path(file.path).name)
        return real(file, settings)

    monkeypatch.setattr(documents_module, "read_file", counting)
    return seen


def _age(path: Path, seconds: float = 3600) -> None:
    past = time.time() - seconds
    os.utime(path, (past, past))


def test_an_unchanged_file_is_not_read_again_and_a_touched_one_is_hashed(
    tmp_path: Path, reads: list[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("a.md", "b.md"):
        (docs / name).write_text(f"# {name}\n\nThe dunnart hunts at night.\n")
        _age(docs / name)
    with groundkit.open_collection("d", index_dir=tmp_path / "index") as coll:
        assert coll.ingest([str(docs)]).new == 2
        assert sorted(reads) == ["a.md", "b.md"]
        reads.clear()

        again = coll.ingest([str(docs)])
        assert (again.unchanged, again.changed, reads) == (2, 0, [])

        os.utime(docs / "a.md")  # touched, not changed: read, hashed, still unchanged
        _age(docs / "a.md", 10)
        touched = coll.ingest([str(docs)])
        assert (touched.unchanged, touched.changed, reads) == (2, 0, ["a.md"])


def test_a_file_changed_in_the_same_second_it_was_read_is_still_read_again(
    tmp_path: Path, reads: list[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    note = docs / "a.md"
    note.write_text("# A\n\nThe first words.\n")
    with groundkit.open_collection("d", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        stat = note.stat()
        note.write_text("# A\n\nThe other words\n")  # same size
        os.utime(note, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same time
        report = coll.ingest([str(docs)])
        assert report.changed == 1
        assert coll.search("other")

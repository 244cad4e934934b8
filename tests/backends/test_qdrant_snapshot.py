"""A Qdrant ``path`` collection read from a copy when its own disk is too full to open it: the
copy keeps the files' holes, and is never taken while another process has the folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import groundkit
from groundkit.backends.qdrant.snapshot import read_copy, remove_copy
from groundkit.config import parse_settings
from groundkit.errors import ErrorCode, IndexLockedError


def _settings(tmp_path: Path) -> object:
    return parse_settings(
        {
            "index_dir": str(tmp_path / "index"),
            "collections": {"notes": {"backend": "qdrant", "path": str(tmp_path / "qpath")}},
        }
    )


def _sizes(folder: Path) -> tuple[int, int]:
    files = [Path(p, f) for p, _, fs in os.walk(folder) for f in fs]
    return sum(f.stat().st_size for f in files), sum(f.stat().st_blocks * 512 for f in files)


def test_the_copy_holds_the_same_files_with_their_holes(tmp_path: Path) -> None:
    pytest.importorskip("qdrant_edge")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nGranite tors weather slowly.\n")
    settings = _settings(tmp_path)
    with groundkit.open_collection("notes", settings=settings, create=True) as made:  # type: ignore[arg-type]
        made.ingest([str(docs)])
    copy = read_copy(tmp_path / "qpath", "notes")
    assert copy is not None
    try:
        apparent, allocated = _sizes(copy)
        assert apparent == _sizes(tmp_path / "qpath")[0]
        assert allocated < apparent // 10  # a plain copy would write every hole as zeros
    finally:
        remove_copy(copy)
    assert not copy.parent.exists()


def test_a_folder_another_process_has_open_is_never_copied(tmp_path: Path) -> None:
    pytest.importorskip("qdrant_edge")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nGranite tors weather slowly.\n")
    settings = _settings(tmp_path)
    with groundkit.open_collection("notes", settings=settings, create=True) as held:  # type: ignore[arg-type]
        held.ingest([str(docs)])  # holds the engine's folder until closed
        with pytest.raises(IndexLockedError) as caught:
            read_copy(tmp_path / "qpath", "notes")
    assert caught.value.code == ErrorCode.INDEX_LOCKED

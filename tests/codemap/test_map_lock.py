"""A second writer of a code map is refused at once, in the words of a map: the message names
the code map, not a collection or an ingest (it said "wait for the other ingest to finish")."""

from __future__ import annotations

from pathlib import Path

import pytest

from grk_runner import Grk
from groundkit.storage.locks import write_lock


@pytest.fixture
def grk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(tmp_path / "index", capsys)


def test_a_second_map_writer_is_told_another_process_is_writing_the_code_map(
    grk: Grk, tmp_path: Path
) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "app.py").write_text("def f():\n    return g()\n\n\ndef g():\n    return 1\n")
    assert grk("map", str(root), "--quiet") == 0, grk.err
    folder = tmp_path / "index" / "_maps" / "app"
    with write_lock(folder):
        assert grk("map", str(root), "--quiet") == 1
    assert "another process is writing to this code map" in grk.err
    assert "ingest" not in grk.err
    assert "collection" not in grk.err

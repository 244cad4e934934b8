"""A Qdrant ``path`` collection is one process's at a time: a second command on it while the
first holds it is ``index.locked`` (it said "the Qdrant cluster ... failed ... report it")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import groundkit
from groundkit.cli.main import main
from groundkit.config import parse_settings
from groundkit.errors import ErrorCode, IndexLockedError


def test_a_second_ingest_into_a_held_qdrant_path_collection_is_index_locked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("qdrant_edge")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nGranite tors weather slowly.\n")
    shard = tmp_path / "qpath"
    config = tmp_path / "grk.toml"
    config.write_text(f'[collections.notes]\nbackend = "qdrant"\npath = "{shard}"\n')
    settings = parse_settings(
        {
            "index_dir": str(tmp_path / "index"),
            "collections": {"notes": {"backend": "qdrant", "path": str(shard)}},
        }
    )
    with groundkit.open_collection("notes", settings=settings, create=True) as first:
        first.ingest([str(docs)])  # holds the engine's folder until closed
        where = ["--config", str(config), "--index-dir", str(tmp_path / "index"), "-c", "notes"]
        code = main([*where, "ingest", str(docs), "--json"])
        error = json.loads(capsys.readouterr().out)["error"]
        assert (code, error["code"]) == (1, "index.locked")
        assert "another process has collection 'notes' open" in error["message"]
        with (
            pytest.raises(IndexLockedError) as caught,
            groundkit.open_collection("notes", settings=settings) as second,
        ):
            second.search("granite")
        assert caught.value.code == ErrorCode.INDEX_LOCKED

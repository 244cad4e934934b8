"""A `grk` command that only reads a Qdrant ``path`` collection leaves its shard to the process's
exit instead of closing it: closing flushed every store of the segment and rewrote its version
file (segment.json), a fifth of a cold `grk search`, and dropped the files from the page cache.
The exit still releases the folder to the next process, which sees the same collection; a
process that lives on (the library, a server, these tests) closes as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import groundkit
from groundkit import lifetime
from groundkit.config import Settings, parse_settings


def _made(tmp_path: Path) -> tuple[Path, Path, Settings]:
    """A `path` collection ``notes`` holding one note; its grk.toml and its settings."""
    pytest.importorskip("qdrant_edge")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nGranite tors weather slowly.\n")
    shard = tmp_path / "qpath"
    config = tmp_path / "grk.toml"
    config.write_text(
        f'index_dir = "{tmp_path / "index"}"\n'
        f'[collections.notes]\nbackend = "qdrant"\npath = "{shard}"\n'
    )
    settings = parse_settings(
        {
            "index_dir": str(tmp_path / "index"),
            "collections": {"notes": {"backend": "qdrant", "path": str(shard)}},
        }
    )
    with groundkit.open_collection("notes", settings=settings, create=True) as notes:
        notes.ingest([str(docs)])
    return shard, config, settings


def _grk(config: Path, *args: str) -> str:
    """`grk` as a shell runs it: a process of its own that ends with the command."""
    run = [sys.executable, "-m", "groundkit.cli.main", "--config", str(config), "-c", "notes"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    done = subprocess.run([*run, *args], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _add_a_note(tmp_path: Path) -> None:
    (tmp_path / "docs" / "b.md").write_text("# B\n\nGranite domes crack in frost.\n")


def _sources_found(config: Path) -> list[str]:
    """The sources of the hits of a `grk search` for "granite", in a process of its own."""
    found = json.loads(_grk(config, "search", "granite", "--json"))
    return sorted(hit["source"] for hit in found["hits"])


def _version_files(shard: Path) -> dict[str, tuple[int, int]]:
    """Each segment's version file (rewritten, whole, by every flush): its inode and last change."""
    found = {}
    for path in sorted((shard / "segments").glob("*/segment.json")):
        info = path.stat()
        found[str(path.relative_to(shard))] = (info.st_ino, info.st_mtime_ns)
    return found


def test_a_grk_search_on_a_qdrant_path_collection_does_not_flush_its_segments(
    tmp_path: Path,
) -> None:
    shard, config, _ = _made(tmp_path)
    # The first load after a write settles what that write left (and flushes that itself).
    assert "a.md" in _grk(config, "search", "granite")
    before = _version_files(shard)
    assert before
    for _ in range(2):
        assert "a.md" in _grk(config, "search", "granite")
    assert _version_files(shard) == before


def test_after_grk_searches_another_process_writes_to_the_qdrant_path_collection_and_finds_it(
    tmp_path: Path,
) -> None:
    _, config, _ = _made(tmp_path)
    for _ in range(2):
        assert "a.md" in _grk(config, "search", "granite")
    _add_a_note(tmp_path)
    _grk(config, "ingest", str(tmp_path / "docs"), "--quiet")
    assert _sources_found(config) == ["a.md", "b.md"]


def _read_in_a_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path, Settings, list[dict[str, Any]]]:
    """``_made``'s collection searched once in a process that ends with its command (this one,
    pretending): the shard is left open. Returns ``_made``'s values and the hits."""
    shard, config, settings = _made(tmp_path)
    monkeypatch.setattr(lifetime, "_state", {"ends_with_command": True})
    with groundkit.open_collection("notes", settings=settings) as notes:
        hits = [h.to_dict() for h in notes.search("granite")]
    assert [hit["source"] for hit in hits] == ["a.md"]
    return shard, config, settings, hits


def test_a_qdrant_path_shard_a_command_only_read_is_taken_back_by_its_next_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shard, config, settings, first = _read_in_a_command(tmp_path, monkeypatch)
    before = _version_files(shard)
    # Left open, not closed: the folder is still this process's, and opening it again here
    # takes the same shard back (loading it anew would find the folder locked).
    with groundkit.open_collection("notes", settings=settings) as notes:
        assert [h.to_dict() for h in notes.search("granite")] == first
    assert _version_files(shard) == before
    _add_a_note(tmp_path)
    with groundkit.open_collection("notes", settings=settings) as notes:
        notes.ingest([str(tmp_path / "docs")])  # a write: this one is closed for good
    assert _sources_found(config) == ["a.md", "b.md"]


def test_a_qdrant_path_collection_a_command_only_read_can_be_deleted_and_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shard, _, settings, _ = _read_in_a_command(tmp_path, monkeypatch)
    groundkit.delete_collection("notes", settings=settings)  # closes the left shard for good
    assert not shard.exists()
    with groundkit.open_collection("notes", settings=settings, create=True) as notes:
        notes.ingest([str(tmp_path / "docs")])
        assert [h.citation.source for h in notes.search("granite")] == ["a.md"]


def test_a_server_started_by_the_grk_script_closes_what_it_only_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `grk serve` runs through the script's entry point, which says the process ends with its
    # command; the runtime it starts lives on, and must not keep shards it read for an exit.
    from groundkit.serve.runtime import Runtime

    _, _, settings = _made(tmp_path)
    monkeypatch.setattr(lifetime, "_state", {"ends_with_command": True})
    Runtime(settings).close()
    assert not lifetime.ends_with_command()

"""Qdrant's engine in the process answers a search without qdrant-client: importing that
package (its ~600 pydantic models) took 1-2 s of every `grk search` on a `path` collection.
Nor does it import the embedded backend (its index, ingest and engine modules, ~0.1 s), nor the
Qdrant writer and the ingest pipeline (32 modules, 0.02 s of CPU of a 0.35 s search)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

_SEARCH = """
import sys
from groundkit.cli.main import main
code = main(sys.argv[2:])
print("exit", code, *(name in sys.modules for name in sys.argv[1].split(",")))
"""


def _path_collection(tmp_path: Path) -> Callable[..., str]:
    """`grk` on a `path` collection of two notes, run in a fresh process that prints, after
    its output, its exit code and whether each of ``modules`` was imported."""
    pytest.importorskip("qdrant_edge")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Granite\n\nGranite tors weather slowly on the moor.\n")
    (docs / "b.md").write_text("# Basalt\n\nBasalt columns cool into hexagons.\n")
    config = tmp_path / "grk.toml"
    config.write_text(f'[collections.notes]\nbackend = "qdrant"\npath = "{tmp_path / "q"}"\n')
    where = ["--config", str(config), "--index-dir", str(tmp_path / "index"), "-c", "notes"]

    def grk(*args: str, modules: str = "qdrant_client") -> str:
        run = [sys.executable, "-c", _SEARCH, modules, *where, *args]
        done = subprocess.run(run, capture_output=True, text=True, check=True, timeout=120)
        return done.stdout

    grk("ingest", str(docs), "--quiet")
    return grk


def test_a_search_on_a_qdrant_path_collection_never_imports_qdrant_client(
    tmp_path: Path,
) -> None:
    grk = _path_collection(tmp_path)
    out = grk("search", "granite tors", modules="qdrant_client,qdrant_edge")
    assert "a.md" in out
    assert out.strip().endswith("exit 0 False True")


def test_a_search_on_a_qdrant_path_collection_never_imports_the_embedded_backend(
    tmp_path: Path,
) -> None:
    grk = _path_collection(tmp_path)
    out = grk("search", "granite tors", modules="groundkit.backends.embedded")
    assert "a.md" in out
    assert out.strip().endswith("exit 0 False")


def test_a_search_on_a_qdrant_path_collection_never_imports_the_writer_or_the_pipeline(
    tmp_path: Path,
) -> None:
    grk = _path_collection(tmp_path)
    modules = (
        "groundkit.backends.qdrant.writer,groundkit.backends.qdrant.lease,groundkit.pipeline.run"
    )
    out = grk("search", "granite tors", modules=modules)
    assert "a.md" in out
    assert out.strip().endswith("exit 0 False False False")

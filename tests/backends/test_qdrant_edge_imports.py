"""Qdrant's engine in the process answers a search without qdrant-client: importing that
package (its ~600 pydantic models) took 1-2 s of every `grk search` on a `path` collection."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

_SEARCH = """
import sys
from groundkit.cli.main import main
code = main(sys.argv[1:])
print("exit", code, "qdrant_client" in sys.modules, "qdrant_edge" in sys.modules)
"""


def test_a_search_on_a_qdrant_path_collection_never_imports_qdrant_client(
    tmp_path: Path,
) -> None:
    pytest.importorskip("qdrant_edge")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Granite\n\nGranite tors weather slowly on the moor.\n")
    (docs / "b.md").write_text("# Basalt\n\nBasalt columns cool into hexagons.\n")
    config = tmp_path / "grk.toml"
    config.write_text(f'[collections.notes]\nbackend = "qdrant"\npath = "{tmp_path / "q"}"\n')
    where = ["--config", str(config), "--index-dir", str(tmp_path / "index"), "-c", "notes"]

    def grk(*args: str) -> str:
        run = [sys.executable, "-c", _SEARCH, *where, *args]
        done = subprocess.run(run, capture_output=True, text=True, check=True, timeout=120)
        return done.stdout

    grk("ingest", str(docs), "--quiet")
    out = grk("search", "granite tors")
    assert "a.md" in out
    assert out.strip().endswith("exit 0 False True")

"""Starting is light: `import groundkit` and `grk --help` load none of the heavy packages (a
command loads what it needs when it runs). Each is checked in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import groundkit

# msgspec is not here: it parses the configuration every command reads.
HEAVY = ("numpy", "tantivy", "onnxruntime", "pydantic", "fastapi", "rich")

_PROBE = """
import json, sys
{body}
print(json.dumps(sorted(m.split(".")[0] for m in sys.modules)))
"""
_HELP = """
from groundkit.cli.main import main
import contextlib, io
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["--help"])
assert status == 0, status
"""


def _loaded(body: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(body=body)],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    ("what", "body"),
    [("import groundkit", "import groundkit"), ("grk --help", _HELP)],
)
def test_starting_loads_none_of_the_heavy_packages(what: str, body: str) -> None:
    assert sorted(_loaded(body) & set(HEAVY)) == [], what


def test_opening_a_collection_for_a_bm25_search_loads_no_numpy_or_onnxruntime() -> None:
    loaded = _loaded("import groundkit.collection, groundkit.cli.search")
    assert sorted(loaded & {"numpy", "onnxruntime"}) == []


# Modules a BM25 search never runs: each is compiled again by every process that imports it
# when no bytecode is saved (PYTHONDONTWRITEBYTECODE), which made `grk search` cost more than
# `import bm25s`.
NOT_FOR_A_SEARCH = (
    "groundkit.answer.patterns",
    "groundkit.chunk",
    "groundkit.cli.codemap",
    "groundkit.cli.eval",
    "groundkit.cli.ingest",
    "groundkit.codemap",
    "groundkit.ingest.walk",
    "groundkit.net",
    "groundkit.pipeline.run",
)

_SEARCH = """
import contextlib, io, json, sys
from groundkit.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["--index-dir", {index!r}, "search", "tern migration", "--json"])
assert status == 0, status
print(json.dumps(sorted(sys.modules)))
"""


def test_a_bm25_search_process_imports_none_of_the_ingest_code_map_or_answer_modules(
    tmp_path: Path,
) -> None:
    (tmp_path / "notes.md").write_text("# Terns\n\nThe arctic tern migration is the longest.\n")
    groundkit.open_collection("default", index_dir=tmp_path / "idx").ingest([tmp_path / "notes.md"])
    done = subprocess.run(
        [sys.executable, "-c", _SEARCH.format(index=str(tmp_path / "idx"))],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert [m for m in loaded if m.startswith(NOT_FOR_A_SEARCH)] == []

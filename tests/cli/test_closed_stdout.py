"""A reader that goes away (`grk show --check ID | true`) does not change a command's verdict:
real processes, real pipes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GRK = [sys.executable, "-m", "groundkit.cli.main"]


def run_into_closed_pipe(index_dir: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """`grk ARGS | true`: standard output is a pipe whose reader has already gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [*GRK, "--index-dir", str(index_dir), *args],
            stdout=write,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)


@pytest.fixture
def cited(tmp_path: Path, index_dir: Path) -> tuple[Path, str]:
    """A note ingested, and the chunk id that cites it."""
    note = tmp_path / "notes" / "wombat.md"
    note.parent.mkdir()
    note.write_text("# Wombats\n\nThe wombat digs long burrows.\n")
    subprocess.run([*GRK, "--index-dir", str(index_dir), "ingest", str(note.parent)], check=True)
    found = subprocess.run(
        [*GRK, "--index-dir", str(index_dir), "search", "wombat", "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    chunk_id = found.stdout.split('"chunk_id": "')[1].split('"')[0]
    return note, chunk_id


def test_a_verified_citation_checks_out_though_nobody_reads_the_output(
    cited: tuple[Path, str], index_dir: Path
) -> None:
    _, chunk_id = cited
    done = run_into_closed_pipe(index_dir, "show", "--check", chunk_id)
    assert (done.returncode, done.stderr) == (0, b"")


def test_a_drifted_citation_still_fails_its_check_though_nobody_reads_the_output(
    cited: tuple[Path, str], index_dir: Path
) -> None:
    note, chunk_id = cited
    note.write_text("# Wombats\n\nThe wombat has moved out.\n")
    assert run_into_closed_pipe(index_dir, "show", "--check", chunk_id).returncode == 1


def test_a_search_whose_reader_left_still_succeeds_quietly(
    cited: tuple[Path, str], index_dir: Path
) -> None:
    for args in (("search", "wombat"), ("search", "wombat", "--json"), ("status",)):
        done = run_into_closed_pipe(index_dir, *args)
        assert (done.returncode, done.stderr) == (0, b""), args

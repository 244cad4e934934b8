"""`grk delete --all` asks on a terminal, and refuses without --yes where nobody can answer."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from grk_runner import Grk

GRK = [sys.executable, "-m", "groundkit.cli.main"]


@pytest.fixture
def grk(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(index_dir, capsys)


@pytest.fixture
def ingested(grk: Grk, tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Wombats\n\nThe wombat digs long burrows.\n", encoding="utf-8")
    assert grk("ingest", "--quiet", str(docs)) == 0, grk.err
    assert (grk.index_dir / "default").is_dir()
    return grk.index_dir / "default"


def delete_all_on_a_terminal(index_dir: Path, answer: bytes) -> subprocess.CompletedProcess[str]:
    """Run `grk delete --all` with a pseudo-terminal as stdin, typing ``answer`` into it."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [*GRK, "--index-dir", str(index_dir), "delete", "--all"],
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.close(follower)
        os.write(leader, answer)  # held by the terminal until the prompt reads it
        out, err = process.communicate(timeout=120)
    finally:
        os.close(leader)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_delete_all_on_a_terminal_asks_and_deletes_on_yes(ingested: Path, index_dir: Path) -> None:
    done = delete_all_on_a_terminal(index_dir, b"y\n")

    assert done.returncode == 0, done.stderr
    assert "Delete the collection 'default'" in done.stderr
    assert done.stdout.strip().endswith("deleted default")
    assert not ingested.exists()


def test_delete_all_on_a_terminal_keeps_everything_when_the_answer_is_no(
    ingested: Path, index_dir: Path
) -> None:
    done = delete_all_on_a_terminal(index_dir, b"n\n")

    assert done.returncode == 1
    assert "nothing was deleted" in done.stderr
    assert (ingested / "store.sqlite").is_file()


def test_delete_all_without_a_terminal_refuses_without_yes(grk: Grk, ingested: Path) -> None:
    # In process, stdin is pytest's, which is not a terminal.
    assert grk.error("delete", "--all") == (2, "usage")
    assert (ingested / "store.sqlite").is_file()
    assert grk("delete", "--all") == 2
    assert "--yes" in grk.err

    assert grk.json("delete", "--all", "--yes") == {"deleted_collection": "default"}
    assert not ingested.exists()


def test_a_yes_piped_into_stdin_does_not_count_as_confirmation(
    ingested: Path, index_dir: Path
) -> None:
    done = subprocess.run(
        [*GRK, "--index-dir", str(index_dir), "delete", "--all"],
        input="y\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )

    assert done.returncode == 2, done.stderr
    assert (ingested / "store.sqlite").is_file()

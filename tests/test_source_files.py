"""Reading a source again: a regular file only, never blocking, capped, bounded in time and in
reads at once (groundkit.source_files)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from groundkit.config import Settings
from groundkit.ingest.loaders import Rejected
from groundkit.ingest.walk import FileInput
from groundkit.pipeline.documents import read_file
from groundkit.source_files import BoundedReads, Unread, Why, read_regular


def why(found: bytes | Unread) -> Why | None:
    return found.why if isinstance(found, Unread) else None


def test_a_regular_file_under_the_cap_is_read_whole(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"hello")
    assert read_regular(str(tmp_path / "a.txt"), 5) == b"hello"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "p")
    found = read_regular(str(tmp_path / "p"), 100)
    assert why(found) == Why.NOT_REGULAR


def test_a_file_over_the_cap_is_refused_with_its_size(tmp_path: Path) -> None:
    with (tmp_path / "big").open("wb") as fh:
        fh.truncate(3 << 30)  # sparse: 3 GB that take no space
    found = read_regular(str(tmp_path / "big"), 1000)
    assert why(found) == Why.OVERSIZED
    assert isinstance(found, Unread)
    assert found.size == 3 << 30


def test_a_missing_file_and_a_folder_are_told_apart(tmp_path: Path) -> None:
    gone, folder = read_regular(str(tmp_path / "nope"), 9), read_regular(str(tmp_path), 9)
    assert why(gone) == Why.MISSING
    assert why(folder) == Why.UNREADABLE


def test_an_ingest_read_of_a_file_swapped_for_a_fifo_is_skipped_not_hung(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "a.md")  # walked as a file, then replaced before it was read
    with pytest.raises(Rejected, match="not a regular file"):
        read_file(FileInput(str(tmp_path / "a.md"), "markdown", "a.md"), Settings())


def test_a_read_that_hangs_costs_its_caller_the_bound_and_then_a_slot_until_it_returns() -> None:
    release = threading.Event()
    reads = BoundedReads(slots=1, timeout=0.01)

    def stuck() -> bytes:
        release.wait()
        return b"late"

    slow = reads.run(stuck)
    busy = reads.run(lambda: b"never started")
    assert why(slow) == Why.SLOW
    assert why(busy) == Why.BUSY
    release.set()  # the stuck read returns and gives its slot back
    reads.timeout = 60.0
    assert reads.run(lambda: b"next") == b"next"


def test_a_read_that_raises_is_reported_as_unreadable() -> None:
    def broken() -> bytes:
        raise RuntimeError("boom")

    found = BoundedReads().run(broken)
    assert why(found) == Why.UNREADABLE

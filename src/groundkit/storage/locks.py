"""The one-writer lock of a folder groundkit writes: ``write.lock``, held with ``flock``.

A collection and a code map each have one writer at a time. A second one fails after
``wait_s`` (``index.locked``) instead of queueing behind a long ingest or mapping. The lock is
advisory and the kernel drops it with the process, so a kill -9 never leaves it held.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from groundkit.errors import IndexLockedError
from groundkit.storage.faults import os_fault

__all__ = ["LOCK_FILE", "write_lock"]

LOCK_FILE = "write.lock"
_POLL_S = 0.05


@contextmanager
def write_lock(folder: Path, wait_s: float = 0.0, *, what: str = "collection") -> Iterator[None]:
    """Hold ``folder``'s write lock for the block; ``IndexLockedError`` when another process
    still holds it after ``wait_s`` seconds. ``what``: the collection or code map, for errors."""
    try:
        fd = os.open(folder / LOCK_FILE, os.O_CREAT | os.O_RDWR, 0o644)
    except OSError as exc:
        raise os_fault(exc, folder, f"cannot change the {what}") from exc
    try:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise _locked(what) from None
                time.sleep(_POLL_S)
        yield
    finally:
        os.close(fd)


def _locked(what: str) -> IndexLockedError:
    if what == "collection":
        return IndexLockedError()
    # A map's writer is a `grk map` run, not an ingest: say so, as the collection's error does.
    return IndexLockedError(
        f"another process is writing to this {what}",
        hint="wait for the other run to finish, then run the command again",
    )

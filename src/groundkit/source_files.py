"""Reading a source file again, safely: a regular file only, never blocking, never past a cap,
never for longer than a bound.

A cited source is read again long after it was ingested, and by then its path may name anything:
a FIFO (an ``open`` that waits for a writer for ever), a link to ``/dev/zero`` (a ``read`` that
fills memory), a sparse file of gigabytes, or a file on a network mount that stopped answering.
Every re-read goes through ``read_source``: the path must stat as a regular file, it is opened
with ``O_NONBLOCK`` (a FIFO put there between the stat and the open still cannot block) and
checked again with ``fstat`` on the open descriptor, at most ``limit`` bytes are read, and the
read runs on a daemon thread that the caller waits for at most ``timeout`` seconds, with at most
``SLOTS`` reads in flight in the process. What cannot be read so is an ``Unread`` with a reason a
person can act on; a caller turns it into a verdict (``not_checked``), never into a hang.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "MANIFEST_BYTES",
    "NOT_REGULAR",
    "SLOTS",
    "TIMEOUT_S",
    "BoundedReads",
    "Unread",
    "Why",
    "read_manifest",
    "read_regular",
    "read_source",
]

NOT_REGULAR = "not a regular file (a pipe, socket or device)"
TIMEOUT_S = 10.0  # a 50 MB file (ingest.max_file_bytes) from a slow disk is read well within it
SLOTS = 8  # reads in flight at once: a stuck mount holds at most this many threads
MANIFEST_BYTES = 1 << 20  # a pyproject.toml or package.json is a few KB


class Why(StrEnum):
    MISSING = "missing"  # nothing is there (the file is gone, or a loop of links)
    UNREADABLE = "unreadable"  # a regular file (or a folder) the system refused to read
    NOT_REGULAR = "not_regular"  # a pipe, socket or device, or a link to one
    OVERSIZED = "oversized"  # over the caller's cap
    SLOW = "slow"  # the read took longer than the bound
    BUSY = "busy"  # every read slot is held by reads still in progress


@dataclass(frozen=True, slots=True)
class Unread:
    """Why a source was not read, and in words a person can act on."""

    why: Why
    reason: str
    size: int | None = None  # for OVERSIZED: the size found


def read_regular(path: str, limit: int) -> bytes | Unread:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else why not.
    Never blocks on a FIFO or device and never reads more than ``limit + 1`` bytes."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            return Unread(Why.UNREADABLE, "unreadable: is a directory")
        if not stat.S_ISREG(mode):
            return _NOT_REGULAR  # not even opened: opening a device can have effects
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        return _failed(exc)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped for a FIFO since the stat above
            return _NOT_REGULAR
        if info.st_size > limit:
            return _oversized(info.st_size, limit)
        data = _read_at_most(fd, limit + 1)
    except OSError as exc:
        return _failed(exc)
    finally:
        os.close(fd)
    return _oversized(len(data), limit) if len(data) > limit else data


def _read_at_most(fd: int, wanted: int) -> bytes:
    pieces, got = [], 0
    while got < wanted:
        piece = os.read(fd, min(wanted - got, 1 << 20))
        if not piece:
            break
        pieces.append(piece)
        got += len(piece)
    return b"".join(pieces)


_NOT_REGULAR = Unread(Why.NOT_REGULAR, NOT_REGULAR)


def _oversized(size: int, limit: int) -> Unread:
    return Unread(Why.OVERSIZED, f"oversized ({size:,} bytes; the cap is {limit:,})", size)


def _failed(exc: OSError) -> Unread:
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return Unread(Why.MISSING, "the file is gone")
    if exc.errno == errno.ELOOP:
        return Unread(Why.MISSING, "a loop of symlinks")
    words = (exc.strerror or type(exc).__name__).lower()
    return Unread(Why.UNREADABLE, f"unreadable: {words}")


class BoundedReads:
    """Runs reads on daemon threads, at most ``slots`` at once, waiting at most ``timeout``
    seconds for each: a read that hangs (a dead network mount) costs its caller ``timeout`` and
    a slot until it returns, never the caller's thread, and never keeps the process from exiting.
    """

    def __init__(self, slots: int = SLOTS, timeout: float = TIMEOUT_S) -> None:
        self.timeout = timeout
        self._slots = threading.BoundedSemaphore(slots)

    def run(self, read: Callable[[], bytes | Unread]) -> bytes | Unread:
        if not self._slots.acquire(timeout=self.timeout):
            return Unread(Why.BUSY, "not read: too many source reads are still in progress")
        box: list[bytes | Unread] = []
        done = threading.Event()

        def work() -> None:
            try:
                box.append(read())
            except Exception as exc:  # reported to the waiting caller, never lost on a thread
                box.append(Unread(Why.UNREADABLE, f"unreadable: {type(exc).__name__}"))
            finally:
                self._slots.release()
                done.set()

        threading.Thread(target=work, name="grk-source-read", daemon=True).start()
        if not done.wait(self.timeout):
            return Unread(Why.SLOW, f"not read: it took longer than {self.timeout:g} s to read")
        return box[0]


_READS = BoundedReads()


def read_source(path: str, limit: int, reads: BoundedReads | None = None) -> bytes | Unread:
    """``read_regular`` bounded in time and in reads at once (``reads``: default, the
    process's own ``SLOTS`` reads of ``TIMEOUT_S`` each)."""
    return (reads or _READS).run(lambda: read_regular(path, limit))


def read_manifest(path: str | os.PathLike[str]) -> str | None:
    """The text of a small file read by its name (a ``pyproject.toml``, a ``package.json``), or
    None when it is not a regular UTF-8 file of at most ``MANIFEST_BYTES``."""
    data = read_regular(os.fspath(path), MANIFEST_BYTES)
    if isinstance(data, Unread):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None

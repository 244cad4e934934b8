"""Reading a Qdrant ``path`` collection when its own disk is too full to open it: from a copy on a
disk with room.

Loading a shard writes into its files (``room.py``: the holes of its log and pages become real),
which a full disk cannot back: the process would die of SIGBUS. A read does not need the folder
itself, only its contents as they were: so the folder is copied, holes kept as holes, to the
temporary directory when that is on a disk with room for the copy and for what loading it
makes real, and the engine reads the copy. The copy is taken holding the engine's own lock (an
exclusive ``flock`` on the folder's ``wal``), so it is never a half-written state, and a folder
another process has open is ``index.locked`` as it would be when opened in place. Writes never
go to a copy (``edge.py``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from groundkit.backends.qdrant.room import READ_MARGIN, holes
from groundkit.errors import IndexLockedError

__all__ = ["read_copy", "remove_copy"]

_PREFIX = "grk-qdrant-read-"


def read_copy(folder: Path, name: str) -> Path | None:
    """A copy of ``folder`` in the temporary directory, or None when that has no room for it
    either. Raises ``index.locked`` when another process has the folder open."""
    with _held(folder, name):
        # On the same disk the copy can never fit where the folder itself did not.
        needed = _allocated(folder) + holes(folder) + READ_MARGIN
        try:
            if shutil.disk_usage(tempfile.gettempdir()).free < needed:
                return None
        except OSError:
            return None
        copy = Path(tempfile.mkdtemp(prefix=_PREFIX))
        try:
            _copy_tree(folder, copy / "shard")
        except OSError:
            shutil.rmtree(copy, ignore_errors=True)
            return None
    return copy / "shard"


def remove_copy(shard: Path) -> None:
    shutil.rmtree(shard.parent, ignore_errors=True)


@contextlib.contextmanager
def _held(folder: Path, name: str) -> Iterator[None]:
    wal = folder / "wal"
    if not wal.is_dir():
        yield
        return
    fd = os.open(wal, os.O_RDONLY | os.O_CLOEXEC)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            raise IndexLockedError(
                f"another process has collection {name!r} open (Qdrant's engine in a folder"
                " serves one process at a time)",
                hint="wait for the other command to finish, then run this one again",
            ) from None
        yield
    finally:
        os.close(fd)  # releases the lock


def _allocated(folder: Path) -> int:
    total = 0
    for parent, _dirs, files in os.walk(folder):
        for file in files:
            with contextlib.suppress(FileNotFoundError):
                total += os.stat(os.path.join(parent, file), follow_symlinks=False).st_blocks * 512
    return total


def _copy_tree(source: Path, target: Path) -> None:
    for parent, _dirs, files in os.walk(source):
        here = target / os.path.relpath(parent, source)
        here.mkdir(parents=True, exist_ok=True)
        for file in files:
            _copy_sparse(os.path.join(parent, file), here / file)


def _copy_sparse(source: str, target: Path) -> None:
    """Copies the data of ``source`` and leaves its holes as holes (a plain copy would write
    hundreds of MB of zeros for a collection of a few KB)."""
    with open(source, "rb") as src, open(target, "wb") as dst:
        fd = src.fileno()
        size = os.fstat(fd).st_size
        at = 0
        while at < size:
            try:
                start = os.lseek(fd, at, os.SEEK_DATA)
            except OSError as exc:
                if exc.errno == errno.ENXIO:  # only a hole from here on
                    break
                raise
            end = os.lseek(fd, start, os.SEEK_HOLE)
            os.lseek(fd, start, os.SEEK_SET)
            dst.seek(start)
            left = end - start
            while left > 0:
                piece = os.read(fd, min(left, 1 << 20))
                if not piece:
                    break
                dst.write(piece)
                left -= len(piece)
            at = end
        dst.truncate(size)

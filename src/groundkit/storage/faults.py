"""What a failed write or open of groundkit's files means, said so a person can act on it.

SQLite, tantivy and plain file writes fail in their own words; a user needs one of a few
answers: the disk is full (and how much is free), the files are read-only, another process is
busy, or the file really is damaged. Only the last may ever suggest rebuilding anything, and
nothing here ever suggests deleting a collection that may be intact.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import sqlite3
from pathlib import Path

from groundkit.errors import ErrorCode, StoreError

__all__ = [
    "classify_os_error",
    "classify_sqlite_error",
    "disk_full",
    "nearly_full",
    "os_fault",
    "read_only",
]

_ERRNO = re.compile(r"(?:Os \{ code: |\(os error |\[Errno )(\d+)")


def disk_full(where: Path, what: str, needed: int | None = None) -> StoreError:
    """``store.disk_full``; ``needed``: the bytes a step needs free to be safe, when the disk is
    not quite full but too full for it."""
    room = (
        f"{_free(where)} free" if needed is None else f"{_free(where)} free, {_size(needed)} needed"
    )
    full = "full" if needed is None else "too full"
    return StoreError(
        ErrorCode.STORE_FULL,
        f"{what}: the disk is {full} ({room})",
        hint="free some space, then run the command again; what was stored before is intact",
    )


def read_only(where: Path, what: str) -> StoreError:
    return StoreError(
        ErrorCode.STORE_READ_ONLY,
        f"{what}: the collection's files are read-only ({_why_read_only(where)})",
        hint="run it where the index dir is writable, or make it writable; nothing was changed",
    )


_DAMAGED_HINT = "restore store.sqlite from a backup, or ingest the sources into a new collection"


def classify_sqlite_error(
    exc: sqlite3.Error, where: Path, what: str, *, damaged_hint: str = _DAMAGED_HINT
) -> StoreError:
    """A ``StoreError`` for a failed SQLite call on a file in folder ``where``.

    ``damaged_hint``: what to do when the file really is damaged (restore a collection's store;
    map a repository again)."""
    name = getattr(exc, "sqlite_errorname", "")
    # A full disk also shows as an I/O error: SQLite cannot grow its -shm file (SHMSIZE) or the
    # WAL (WRITE, TRUNCATE...) once no byte is free.
    if name == "SQLITE_FULL" or (name.startswith("SQLITE_IOERR") and nearly_full(where)):
        return disk_full(where, what)
    if name.startswith("SQLITE_READONLY") or (
        name.startswith("SQLITE_CANTOPEN") and not _writable(where)
    ):
        return read_only(where, what)
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return StoreError(
            ErrorCode.STORE_FAILED,
            f"{what}: the store file is damaged ({name or type(exc).__name__})",
            hint=damaged_hint,
        )
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return StoreError(
            ErrorCode.STORE_FAILED,
            f"{what}: another process kept the store busy for too long",
            hint="wait for the other process to finish, then run the command again",
        )
    return StoreError(
        ErrorCode.STORE_FAILED,
        f"{what} ({name or type(exc).__name__})",
        hint="check the disk and the permissions of the index dir, then run it again",
    )


def classify_os_error(exc: BaseException, where: Path, what: str) -> StoreError | None:
    """The ``StoreError`` for a full or read-only disk behind ``exc`` (an ``OSError``, or a
    library's error that carries the OS error in its message), else None."""
    code = exc.errno if isinstance(exc, OSError) else _errno_in(str(exc))
    if code in (errno.ENOSPC, errno.EDQUOT):
        return disk_full(where, what)
    if code == errno.EROFS or (code in (errno.EACCES, errno.EPERM) and not _writable(where)):
        return read_only(where, what)
    return None


def os_fault(exc: OSError, where: Path, what: str) -> StoreError:
    """The ``StoreError`` for a failed file operation in ``where``: a full or read-only disk as
    such, anything else as ``store.failed`` with the system's words."""
    return classify_os_error(exc, where, what) or StoreError(
        ErrorCode.STORE_FAILED,
        f"{what} ({(exc.strerror or type(exc).__name__).lower()})",
        hint="check the permissions of the index dir",
    )


def _errno_in(message: str) -> int | None:
    # tantivy reports I/O failures as "Os { code: 28, kind: StorageFull, ... }" or "(os error
    # 28)"; Python's own as "[Errno 28] ...".
    found = _ERRNO.search(message)
    return int(found.group(1)) if found else None


def _writable(where: Path) -> bool:
    probe = where if where.exists() else where.parent
    return os.access(probe, os.W_OK) and not _on_read_only_mount(probe)


def _on_read_only_mount(where: Path) -> bool:
    try:
        return bool(os.statvfs(where).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _why_read_only(where: Path) -> str:
    probe = where if where.exists() else where.parent
    return "a read-only file system" if _on_read_only_mount(probe) else "no write permission"


def nearly_full(where: Path, margin: int = 1 << 20) -> bool:
    """Whether the file system holding ``where`` has less than ``margin`` bytes free."""
    try:
        return shutil.disk_usage(where).free < margin
    except OSError:
        return False


def _free(where: Path) -> str:
    probe = where
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        free = shutil.disk_usage(probe).free
    except OSError:
        return "unknown space"
    return _size(free)


def _size(count: int) -> str:
    for size, unit in ((1 << 30, "GB"), (1 << 20, "MB"), (1 << 10, "KB")):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} bytes"

"""What opening a collection does to its derived indexes: bring each in line with the store.

The steps (``index.derived.RECOVERY``: replay, then rebuild what is lost or foreign) need the
collection's write lock. When another process holds it, that process is finishing a write, and
searching meanwhile is safe, merely behind, unless an index cannot be read or was built by other
code: then opening waits (up to ``lock_wait_s``) for it to finish. A full or read-only disk
leaves the last good indexes to read from.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from groundkit.errors import ErrorCode, IndexLockedError, StoreError
from groundkit.index.derived import RECOVERY, DerivedIndex, health
from groundkit.index.store import Store
from groundkit.storage.locks import write_lock

__all__ = ["recover"]


def recover(
    store: Store, derived: Sequence[DerivedIndex[Any]], folder: Path, lock_wait_s: float
) -> None:
    """Run the recovery steps on every index of ``derived``, under ``folder``'s write lock."""
    found = [health(store, index) for index in derived]
    if all(h.ok for h in found) or store.read_only:
        return
    searchable = all(h.opened and h.current for h in found)
    try:
        with write_lock(folder, 0.0 if searchable else lock_wait_s):
            for index in derived:
                index.refresh()  # the process that held the lock may have fixed it
            for index in derived:
                for _step, act in RECOVERY:
                    act(store, index, health(store, index))
    except IndexLockedError:
        if not searchable:  # behind is safe to search; unreadable or foreign is not
            raise
    except StoreError as exc:
        # A full or read-only disk: reads go on from the last good indexes.
        if exc.code not in (ErrorCode.STORE_FULL, ErrorCode.STORE_READ_ONLY):
            raise

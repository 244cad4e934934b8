"""A folder listed again without walking it: the last listing, while no folder it met changed.

A folder's modification time moves when an entry is added to it, removed or renamed, and only
then: an edit to a file moves the file's time, not its folder's. So while every folder the last
walk met (walked into or passed over) has the stamp it had, and every ignore file too, a walk
would meet the same entries and decide the same; only the listed files' sizes and times are
read again (django: 2,450 folders and 1,000 files asked with ``stat``, where the walk took
0.1 s of an edit's 0.5). Walked every time instead: a tree holding a symbolic link (its target
may change anywhere), one with a folder that could not be listed, and one with a folder changed
in the last two seconds (a second change in the same clock tick would not move its time).
"""

from __future__ import annotations

import os
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from groundkit.ingest.walk import IGNORE_FILES

if TYPE_CHECKING:
    from groundkit.codemap.sources import Listing

__all__ = ["ListingMemo", "Stamp", "Walk", "stamp"]

# A folder changed this recently may change again within the same tick of its clock.
_SETTLE_NS = 2_000_000_000

Stamp = tuple[int, int, int]  # (inode, modification ns, change ns)


def stamp(path: str) -> Stamp | None:
    """What moves when ``path`` (a folder, or a file) changes; None when it cannot be asked."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_ino, found.st_mtime_ns, found.st_ctime_ns)


@dataclass(slots=True)
class Walk:
    """What one walk met, to be asked again: each folder's stamp (None: it could not be
    asked, and the walk is not kept) and each ignore file's."""

    key: Hashable
    root: str
    started_ns: int = field(default_factory=time.time_ns)
    stamps: dict[str, Stamp | None] = field(default_factory=dict)
    settled: bool = True  # no folder met had changed in the last two seconds

    def met(self, folder: str) -> None:
        """A folder the walk looks at (before it lists it): it, and its ignore files."""
        found = self.stamps[folder] = stamp(folder)
        if found is not None and found[1] > self.started_ns - _SETTLE_NS:
            self.settled = False
        for name in IGNORE_FILES:
            ignore = os.path.join(folder, name)
            if os.path.lexists(ignore):
                self.stamps[ignore] = stamp(ignore)


class ListingMemo:
    """The last listing of one open map, taken again while nothing it met changed."""

    def __init__(self) -> None:
        self._walk: Walk | None = None
        self._listing: Listing | None = None

    def again(self, key: Hashable, root: str) -> Listing | None:
        """The last listing with each file's size and time read now; None when it is not
        for ``key`` and ``root`` or something it met changed (then it is forgotten)."""
        walk, listing = self._walk, self._listing
        if walk is None or listing is None or walk.key != key or walk.root != root:
            return None
        self._walk = self._listing = None  # kept again only if all holds
        if any(stamp(path) != was for path, was in walk.stamps.items()):
            return None
        files = []
        for rel, _size, _mtime in listing.files:
            try:
                found = os.stat(os.path.join(root, rel))
            except OSError:
                return None  # (gone, though its folder did not move: walk to say why)
            files.append((rel, found.st_size, found.st_mtime_ns))
        self._walk, self._listing = walk, listing
        return type(listing)(files, list(listing.skipped), list(listing.passed_over))

    def keep(self, walk: Walk, listing: Listing, whole: bool) -> None:
        """``whole``: the walk met no link and listed every folder it went into."""
        kept = whole and walk.settled and None not in walk.stamps.values()
        copied = type(listing)(
            list(listing.files), list(listing.skipped), list(listing.passed_over)
        )
        self._walk, self._listing = (walk, copied) if kept else (None, None)

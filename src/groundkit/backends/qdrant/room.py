"""Room on disk for Qdrant's engine in a folder (a ``path`` collection), checked before it
maps anything.

qdrant-edge keeps its write-ahead log in 32 MB segments and each segment's storage in 32 MB
pages, made as sparse files and mapped into memory. A write into a hole of such a file on a disk
with no block free is not an error Python can catch: the kernel kills the process with SIGBUS
(exit 135). Measured on a tmpfs: at 0 bytes free, ``grk status`` and ``grk search`` died too
(loading the shard writes into its log), and so did every ingest; with 4 MB free as well; a load
that did get through made 54 MB of holes real. So, before the shard is opened and before every
write, the free space must cover every hole in the folder's files (all that touching them could
ever take) plus a margin for files a step may add (a log segment and a page when writing).
Otherwise the step is ``store.disk_full``, before anything is touched.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from groundkit.storage.faults import disk_full

__all__ = ["READ_MARGIN", "WRITE_MARGIN", "ensure_room", "holes"]

_SEGMENT = 32 << 20  # a log segment, and a storage page, as qdrant-edge makes them
READ_MARGIN = 8 << 20
WRITE_MARGIN = 2 * _SEGMENT


def holes(folder: Path) -> int:
    """Bytes of the files under ``folder`` that are not yet on disk (their sparse parts)."""
    total = 0
    for parent, _dirs, files in os.walk(folder):
        for name in files:
            try:
                info = os.stat(os.path.join(parent, name), follow_symlinks=False)
            except FileNotFoundError:
                continue  # the engine removed it meanwhile (a merged segment)
            total += max(0, info.st_size - info.st_blocks * 512)
    return total


def ensure_room(folder: Path, name: str, *, writing: bool) -> None:
    """``store.disk_full`` unless the disk holding ``folder`` has room for what the engine may
    touch of it (``writing``: and for what a write adds)."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        free = shutil.disk_usage(probe).free
    except OSError:
        return  # nothing to measure: the engine's own error will say what is wrong
    needed = holes(folder) + (WRITE_MARGIN if writing else READ_MARGIN)
    if free < needed:
        doing = "cannot write" if writing else "cannot open"
        raise disk_full(probe, f"{doing} collection {name!r} (Qdrant's engine)", needed)

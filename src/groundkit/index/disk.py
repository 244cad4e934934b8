"""Sizes on disk of folders that other processes change while they are measured."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["disk_usage"]


def disk_usage(folder: Path) -> int:
    """Bytes under ``folder``. Another process may delete files meanwhile (an index merging its
    segments, a rebuild removing the old generation): those simply no longer count."""
    total = 0
    for parent, _dirs, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(FileNotFoundError):
                total += os.stat(os.path.join(parent, name), follow_symlinks=False).st_size
    return total

"""Making the folder a collection or a code map lives in, with its failures said by who can fix
them: a file where a folder is wanted (``--index-dir /dev/null``) is the set-up's (exit 2); a
full or read-only disk as such (``faults``)."""

from __future__ import annotations

from pathlib import Path

from groundkit.errors import ConfigError, ErrorCode
from groundkit.storage.faults import os_fault

__all__ = ["make_folder"]


def make_folder(path: Path, what: str) -> None:
    """Make ``path`` and its parents (``what``: the collection or code map, for errors)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (NotADirectoryError, FileExistsError):
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            f"cannot create the {what}: the index dir (or a folder in it) is a file, not a folder",
            hint="point --index-dir (or index_dir in grk.toml) at a folder",
        ) from None
    except OSError as exc:
        raise os_fault(exc, path, f"cannot create the {what}") from exc

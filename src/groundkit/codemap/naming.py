"""The name a map gets when none is given: the project's, not the folder's.

``click-8.5.1/src`` is the project ``click``: its name comes from the nearest ``pyproject.toml``
or ``package.json`` at or above the folder, else from the git top-level folder, else from the
folder itself. A folder below the project is named apart (``click-tests``), so that mapping a
part of a project never writes over the map of the whole; only a conventional source folder
(``src``, ``lib``) stands for the project. Without git, one folder up is looked at, not more:
a stray ``package.json`` in a home folder must not name every map below it.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from groundkit.source_files import read_manifest

__all__ = ["project_name", "safe_name"]

_SOURCE_DIRS = frozenset({"src", "lib"})
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_DOTS = re.compile(r"\.{2,}")
_MAX = 64


def project_name(folder: Path) -> str:
    """A valid map name for ``folder`` (an absolute path)."""
    for above in _upwards(folder):
        name = _manifest_name(above)
        if name is None and (above / ".git").exists():
            name = above.name
        if name is None:
            continue
        rel = folder.relative_to(above).parts
        if rel and not (len(rel) == 1 and rel[0] in _SOURCE_DIRS):
            name = "-".join((name, *rel))
        if safe := safe_name(name):
            return safe
        break
    return safe_name(folder.name) or "map"


def _upwards(folder: Path) -> list[Path]:
    """The folder and those above it up to its git top-level; without git, one up."""
    chain = [folder, *folder.parents]
    for i, here in enumerate(chain):
        if (here / ".git").exists():
            return chain[: i + 1]
    return chain[:2]


def _manifest_name(folder: Path) -> str | None:
    # Read by name, never listed: a FIFO or a device there must not be waited on.
    try:
        data = tomllib.loads(read_manifest(folder / "pyproject.toml") or "")
        for table in (data.get("project"), data.get("tool", {}).get("poetry")):
            if isinstance(table, dict) and isinstance(table.get("name"), str):
                return str(table["name"])
    except (tomllib.TOMLDecodeError, AttributeError):
        pass
    try:
        name = json.loads(read_manifest(folder / "package.json") or "{}").get("name")
        return name if isinstance(name, str) else None
    except (ValueError, AttributeError):
        return None


def safe_name(name: str) -> str:
    """``@scope/pkg`` -> ``scope-pkg``: what a map name may hold, within its length."""
    return _DOTS.sub(".", _UNSAFE.sub("-", name)).strip("-._")[:_MAX].rstrip("-._")

"""Where maps live and which folder each is of: a map's name, its folder on disk
(``<index_dir>/_maps/<name>/``), and the folder it was made from, which it remembers.

A map is of one folder. Mapping another folder into a map's name is refused (``name_taken``)
unless asked for; a default name another folder's map holds takes the folders above in
(``default_name``); the current folder's map is the one made from it or from above it
(``map_of_folder``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from groundkit.codemap.naming import project_name, safe_name
from groundkit.codemap.store import MapStore
from groundkit.errors import ErrorCode, UsageError

__all__ = [
    "check_name",
    "default_name",
    "list_codemaps",
    "map_dir",
    "map_of_folder",
    "map_root",
    "name_taken",
    "same_folder",
    "shown_path",
]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_MAPS = "_maps"
_FILE = "map.sqlite"


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name) or ".." in name:
        raise UsageError(
            ErrorCode.INVALID_NAME,
            f"invalid map name {name!r}",
            hint="use letters, digits, '.', '_' or '-', starting with a letter or digit"
            " (or give --name)",
        )
    return name


def map_dir(index_dir: str | os.PathLike[str], name: str) -> Path:
    return Path(index_dir) / _MAPS / check_name(name)


def list_codemaps(index_dir: str | os.PathLike[str] = ".groundkit") -> list[str]:
    root = Path(index_dir) / _MAPS
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / _FILE).is_file())


def same_folder(a: Path, b: Path) -> bool:
    """Whether two paths name one folder (through symlinks too)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def shown_path(path: Path) -> str:
    """A folder as a message may name it: relative to the current folder, never absolute."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows): its name alone
        return path.name


def name_taken(name: str, root: Path, other: Path) -> UsageError:
    return UsageError(
        ErrorCode.CODEMAP_NAME_TAKEN,
        f"map {name!r} is the map of {shown_path(root)!r}, not of {shown_path(other)!r}",
        hint=f"give another name (--name), or --replace to make {name!r} the map of"
        f" {shown_path(other)!r}",
    )


def map_root(index_dir: str | os.PathLike[str], name: str) -> Path | None:
    """The folder the map ``name`` was made from; None when there is no such map (or it was
    never made from a folder)."""
    path = map_dir(index_dir, name) / _FILE
    if not path.is_file():
        return None
    store = MapStore(path)
    try:
        root = store.manifest().get("root")
    finally:
        store.close()
    return Path(root) if root else None


_PARENTS = 3  # folders above a project's that a default name may take in


def default_name(index_dir: str | os.PathLike[str], root: Path) -> str:
    """The project's name (``project_name``); when a map of another folder holds it, the name
    with the folders above put in front (``req-docs`` beside ``star-docs``), so that two
    projects of one name never write over each other. Raises ``codemap.name_taken`` when
    even those are held."""
    base = project_name(root)
    candidates = [base]
    for above in root.parents[:_PARENTS]:
        if above.name:
            candidates.append(f"{safe_name(above.name)}-{candidates[-1]}"[:64].strip("-._"))
    for candidate in candidates:
        held = map_root(index_dir, candidate)
        if held is None or same_folder(held, root):
            return candidate
    held = map_root(index_dir, base)
    assert held is not None
    raise name_taken(base, held, root)


def map_of_folder(index_dir: str | os.PathLike[str], folder: Path) -> str | None:
    """The map made from ``folder`` or from the nearest folder above it, if any."""
    best: tuple[int, str] | None = None
    for name in list_codemaps(index_dir):
        root = map_root(index_dir, name)
        if root is None:
            continue
        if same_folder(root, folder) or folder.resolve().is_relative_to(root.resolve()):
            depth = len(root.resolve().parts)
            if best is None or depth > best[0]:
                best = (depth, name)
    return best[1] if best else None

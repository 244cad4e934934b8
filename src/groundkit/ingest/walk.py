"""Expand the paths a user gave into the files to ingest.

Hidden files and directories and anything a ``.gitignore`` inside the tree excludes are passed
over. A symlink is followed only while it stays inside the tree it was found in; one that leaves it
is refused and reported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from groundkit.ingest.formats import Format, format_for
from groundkit.types import Skipped

__all__ = ["Discovery", "FileInput", "discover", "walk_tree"]


@dataclass(frozen=True, slots=True)
class FileInput:
    path: str  # absolute, symlinks not resolved: the name the user sees
    format: Format


@dataclass(slots=True)
class Discovery:
    files: list[FileInput] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    ignored: int = 0
    # Directories walked in full: documents under them whose files are gone get removed...
    walked_roots: list[str] = field(default_factory=list)
    # ...except under these, which could not be listed.
    unreadable_dirs: list[str] = field(default_factory=list)


def discover(paths: Sequence[str], *, exclude: Sequence[str] = ()) -> Discovery:
    """``exclude``: folders never walked into, such as groundkit's own index dir."""
    found = Discovery()
    excluded = frozenset(os.path.realpath(p) for p in exclude)
    for raw in paths:
        path = Path(os.path.abspath(raw))
        if path.is_dir():
            found.walked_roots.append(str(path))
            _walk(path, found, excluded)
        elif path.is_file():
            fmt = format_for(path, explicit=True)
            assert fmt is not None
            found.files.append(FileInput(str(path), fmt))
        elif path.is_symlink() and not path.exists():
            found.skipped.append(Skipped(str(path), "unreadable: broken symlink"))
        elif path.exists():
            found.skipped.append(Skipped(str(path), _NOT_REGULAR))
        else:
            found.skipped.append(Skipped(str(path), "not found"))
    # A file named twice (itself and inside a folder given too) is read once.
    unique = {f.path: f for f in found.files}
    found.files = list(unique.values())
    return found


_NOT_REGULAR = "not a regular file (a pipe, socket or device)"


def _walk(root: Path, found: Discovery, excluded: frozenset[str]) -> None:
    for entry in walk_tree(root, found, excluded):
        fmt = format_for(entry, explicit=False)
        if fmt is None:
            found.ignored += 1
        else:
            found.files.append(FileInput(str(entry), fmt))


def walk_tree(
    root: Path,
    found: Discovery,
    excluded: frozenset[str] = frozenset(),
    prune: Callable[[Path], bool] | None = None,
) -> Iterator[Path]:
    """Every regular file under ``root`` that the rules admit, in a stable order; refusals go to
    ``found.skipped``. ``prune(folder)`` true: that folder is not walked into (the code map's
    vendored and generated trees)."""
    real_root = root.resolve()
    # _entries already passed over hidden and ignored names, at every level.
    for entry, _specs in _entries(root, [], excluded, found, prune):
        if entry.is_symlink():
            target = entry.resolve()
            if not target.is_relative_to(real_root):
                found.skipped.append(Skipped(str(entry), "symlink leaves the ingested tree"))
                continue
            if not target.exists():
                found.skipped.append(Skipped(str(entry), "unreadable: broken symlink"))
                continue
            if target.is_dir():
                continue  # its target is walked in its own place; following it could loop
        if not entry.is_file():  # a pipe would block the reader forever
            found.skipped.append(Skipped(str(entry), _NOT_REGULAR))
            continue
        yield entry


_Specs = list[tuple[Path, pathspec.GitIgnoreSpec]]


def _entries(
    directory: Path,
    specs: _Specs,
    excluded: frozenset[str],
    found: Discovery,
    prune: Callable[[Path], bool] | None = None,
) -> Iterator[tuple[Path, _Specs]]:
    """Files and symlinks under ``directory`` in a stable order, with the gitignores above each.

    A directory that cannot be listed (or whose ``.gitignore`` cannot be read) is reported, and
    what is stored from under it is left alone rather than taken for deleted.
    """
    gitignore = directory / ".gitignore"
    try:
        if gitignore.is_file():
            lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
            specs = [*specs, (directory, pathspec.GitIgnoreSpec.from_lines(lines))]
        children = sorted(directory.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        found.skipped.append(Skipped(str(directory), f"unreadable directory: {reason}"))
        found.unreadable_dirs.append(str(directory))
        return
    for child in children:
        if child.name.startswith(".") or _ignored(child, specs):
            continue
        if child.is_dir() and not child.is_symlink():
            if os.path.realpath(child) not in excluded and not (prune and prune(child)):
                yield from _entries(child, specs, excluded, found, prune)
        else:
            yield child, specs


def _ignored(path: Path, specs: _Specs) -> bool:
    """As git decides: the deepest ``.gitignore`` with a matching rule (or negation) wins."""
    if not specs:
        return False
    is_dir = path.is_dir() and not path.is_symlink()
    for base, spec in reversed(specs):
        rel = path.relative_to(base).as_posix() + ("/" if is_dir else "")
        verdict = spec.check_file(rel).include
        if verdict is not None:
            return bool(verdict)
    return False

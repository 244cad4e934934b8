"""Expand the paths a user gave into the files to ingest, and say what was passed over and why.

Hidden files and folders, anything a ``.gitignore`` or ``.grkignore`` in the tree excludes, and
anything ``--exclude`` names (or ``--include`` does not) are not walked. A symlink is followed
only while it stays inside the tree it was found in.

What a walk meets falls in one of three groups, and only one of them is a failure:

* files to ingest (``files``);
* things passed over on purpose (``passed_over``: a type groundkit does not read, a symlink that
  leaves the tree or leads nowhere, a pipe): listed with ``--verbose``, never a failure;
* things meant to be ingested that could not even be looked at (``skipped``: a folder that cannot
  be listed): these make the run partial (exit 3), as a file that cannot be read or parsed does.

A path the user named that does not exist is refused before anything is walked
(``missing``): that is a usage error, not a partial run.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from groundkit.ingest.formats import Format, format_for
from groundkit.types import Skipped

__all__ = [
    "IGNORE_FILES",
    "NOT_UTF8",
    "Discovery",
    "FileInput",
    "Filters",
    "discover",
    "is_utf8",
    "missing_inputs",
    "name_base",
    "printable",
    "walk_tree",
    "would_walk",
]

IGNORE_FILES = (".gitignore", ".grkignore")


@dataclass(frozen=True, slots=True)
class FileInput:
    path: str  # absolute, symlinks not resolved
    format: Format
    shown: str  # as a person names it: relative to the ingest's ``name_base``


@dataclass(frozen=True, slots=True)
class Filters:
    """``--include`` / ``--exclude`` globs (gitignore syntax, relative to each folder given)."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def specs(self) -> tuple[pathspec.GitIgnoreSpec | None, pathspec.GitIgnoreSpec | None]:
        include = pathspec.GitIgnoreSpec.from_lines(self.include) if self.include else None
        exclude = pathspec.GitIgnoreSpec.from_lines(self.exclude) if self.exclude else None
        return include, exclude


@dataclass(slots=True)
class Discovery:
    files: list[FileInput] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    passed_over: list[Skipped] = field(default_factory=list)
    # Absolute paths of what was met but not ingested: a document stored from one of them
    # (a file now a broken link, say) is kept, not taken for deleted.
    present: list[str] = field(default_factory=list)
    # Directories walked in full: documents under them whose files are gone get removed...
    walked_roots: list[str] = field(default_factory=list)
    # ...except under these, which could not be listed.
    unreadable_dirs: list[str] = field(default_factory=list)
    # Hidden or ignored (.gitignore) entries, a folder once (with "/"): not walked, and not
    # worth a line in an ingest, but the code map lists every file under its root.
    not_walked: list[Skipped] = field(default_factory=list)
    links: int = 0  # symbolic links met (a walk that met none depends on its folders alone)


def missing_inputs(paths: Sequence[str]) -> list[str]:
    """The named paths that lead to nothing, each as ``'PATH' (why)``: not found, a broken
    symlink, or a loop of symlinks."""
    return [f"{raw!r} ({_dangling(Path(raw))})" for raw in paths if not os.path.exists(raw)]


def name_base(paths: Sequence[str]) -> str:
    """The folder an ingest of ``paths`` names its files from: the common parent of the
    folders named and of the folders holding the files named. One folder: that folder, so
    its files are named as inside it; ``a`` and ``b``: their parent, so ``a/README.md`` and
    ``b/README.md`` stay apart (docs/decisions/0014-document-names.md)."""
    folders = []
    for raw in paths:
        path = os.path.abspath(raw)
        folders.append(path if os.path.isdir(path) else os.path.dirname(path))
    return os.path.commonpath(folders) if folders else os.getcwd()


def discover(
    paths: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    filters: Filters = Filters(),
    base: str | None = None,
) -> Discovery:
    """``exclude``: folders never walked into, such as groundkit's own index dir. ``base``:
    the folder files are named from (default: ``name_base(paths)``)."""
    found = Discovery()
    excluded = frozenset(os.path.realpath(p) for p in exclude)
    top = Path(base if base is not None else name_base(paths))
    for raw in paths:
        path = Path(os.path.abspath(raw))
        if path.is_dir():
            if is_utf8(str(path)):  # else nothing under it can have been stored
                found.walked_roots.append(str(path))
            _walk(path, found, excluded, filters, _named_from(path, top))
        elif path.is_file():
            fmt = format_for(path, explicit=True)
            assert fmt is not None
            if is_utf8(str(path)):
                found.files.append(FileInput(str(path), fmt, _named_from(path, top)))
            else:
                found.skipped.append(Skipped(printable(raw), NOT_UTF8))
        elif path.exists():  # named, so meant to be read: a failure, not a choice
            found.skipped.append(Skipped(raw, _NOT_REGULAR))
        else:
            found.skipped.append(Skipped(raw, _dangling(path)))
    # A file named twice (itself and inside a folder given too) is read once.
    unique = {f.path: f for f in found.files}
    found.files = list(unique.values())
    return found


_NOT_REGULAR = "not a regular file (a pipe, socket or device)"


def _dangling(link: Path) -> str:
    """Why a path leads to no file: a loop of links, a link to nothing, or nothing at all."""
    try:
        os.stat(link)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop"
        if os.path.lexists(link):
            return "broken symlink"
    return "not found"


def _named_from(path: Path, base: Path) -> str:
    """``path`` as named from ``base`` (``""`` for the base itself); a path outside it (a
    ``base`` the caller chose) keeps its whole name."""
    if path == base:
        return ""
    return path.relative_to(base).as_posix() if path.is_relative_to(base) else str(path)


def _walk(
    root: Path, found: Discovery, excluded: frozenset[str], filters: Filters, prefix: str
) -> None:
    """Walk ``root``, naming each file ``prefix`` (the root as named from the ingest's base)
    followed by its place under the root."""
    met = Discovery()  # what the walk itself reports, named relative to the root
    for entry in walk_tree(root, met, excluded, filters=filters):
        shown = _joined(prefix, entry.relative_to(root).as_posix())
        fmt = format_for(entry, explicit=False)
        if fmt is None:
            found.passed_over.append(Skipped(printable(shown), "not a type groundkit reads"))
        elif not is_utf8(str(entry)):
            found.skipped.append(Skipped(printable(shown), NOT_UTF8))
        else:
            found.files.append(FileInput(str(entry), fmt, shown))
    found.skipped.extend(Skipped(_joined(prefix, s.source), s.reason) for s in met.skipped)
    found.passed_over.extend(Skipped(_joined(prefix, s.source), s.reason) for s in met.passed_over)
    found.present.extend(met.present)
    found.unreadable_dirs.extend(met.unreadable_dirs)


def _joined(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return prefix if name == "." else f"{prefix}/{name}"


# A collection stores and shows every source as text; a name that is not UTF-8 (a file from an
# old Latin-1 system, say) has no faithful text form, and one made up could not be read again.
NOT_UTF8 = "its path is not valid UTF-8 (rename it so that groundkit can read it)"


def is_utf8(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(name: str) -> str:
    """A name as a person can read it: bytes that are not UTF-8 shown as ``\\xNN``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def walk_tree(
    root: Path,
    found: Discovery,
    excluded: frozenset[str] = frozenset(),
    prune: Callable[[Path], bool] | None = None,
    filters: Filters = Filters(),
) -> Iterator[Path]:
    """Every regular file under ``root`` the rules admit, in a stable order (symlinks inside the
    tree included); what is passed over or cannot be listed goes to ``found``, named relative to
    ``root``. ``prune(folder)`` true: that folder is not walked into (the code map's vendored
    and generated trees)."""
    real_root = root.resolve()
    include, exclude = filters.specs()
    walked = _entries(root, str(real_root), [], excluded, found, exclude, root, prune)
    for entry, info in walked:
        # (named only when it is to be matched or reported: a walk of django's 3,600 files
        # spent a tenth of its time naming every one)
        if include is not None and not include.match_file(entry.relative_to(root).as_posix()):
            continue  # not asked for: no more worth a line than a hidden file
        if info.is_symlink():
            found.links += 1
            shown = entry.relative_to(root).as_posix()
            try:
                target = entry.resolve()
            except (RuntimeError, OSError):  # a loop of links: 3.11 raises RuntimeError
                found.passed_over.append(Skipped(shown, _dangling(entry)))
                found.present.append(str(entry))
                continue
            if not target.is_relative_to(real_root):
                found.passed_over.append(Skipped(shown, "symlink leaves the ingested tree"))
                continue
            if not target.exists():
                found.passed_over.append(Skipped(shown, _dangling(entry)))
                found.present.append(str(entry))
                continue
            if target.is_dir():
                continue  # its target is walked in its own place; following it could loop
        if not _is_file(info):  # a pipe would block the reader forever
            # Not "present": a document stored from a file that is now a pipe or a device is
            # removed, as if the file were gone (a link to /dev/zero holds no document).
            found.passed_over.append(Skipped(entry.relative_to(root).as_posix(), _NOT_REGULAR))
            continue
        yield entry


_Specs = list[tuple[Path, pathspec.GitIgnoreSpec]]


def _entries(
    directory: Path,
    real: str,
    specs: _Specs,
    excluded: frozenset[str],
    found: Discovery,
    exclude: pathspec.GitIgnoreSpec | None,
    root: Path,
    prune: Callable[[Path], bool] | None = None,
) -> Iterator[tuple[Path, os.DirEntry[str]]]:
    """Files and symlinks under ``directory`` in a stable order, each with its directory entry
    (whose kind the listing already told, so nothing is asked of the disk twice). ``real``: the
    directory's real path (a folder walked into is never a symlink, so a child's is its own
    name under it).

    A directory that cannot be listed (or whose ignore file cannot be read) is reported, and what
    is stored from under it is left alone rather than taken for deleted.
    """
    try:
        with os.scandir(directory) as listing:
            children = sorted(listing, key=lambda e: e.name)
        specs = _with_ignore_files(directory, specs, children)
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        found.skipped.append(
            Skipped(directory.relative_to(root).as_posix(), f"unreadable directory: {reason}")
        )
        found.unreadable_dirs.append(str(directory))
        return
    for child in children:
        hidden = child.name.startswith(".")
        if hidden and child.name == ".git":
            continue  # the repository itself, not a file under the root
        path = directory / child.name
        is_dir = _is_dir(child)
        if hidden or _ignored(path, specs, is_dir):
            shown = path.relative_to(root).as_posix() + ("/" if is_dir else "")
            found.not_walked.append(Skipped(shown, _HIDDEN if hidden else _IGNORED))
            continue
        if exclude is not None:
            shown = path.relative_to(root).as_posix() + ("/" if is_dir else "")
            if exclude.match_file(shown):
                continue
        if is_dir:
            inner = os.path.join(real, child.name)
            if inner not in excluded and not (prune and prune(path)):
                yield from _entries(path, inner, specs, excluded, found, exclude, root, prune)
        else:
            yield path, child


_HIDDEN = "hidden (not walked, as by grk ingest)"
_IGNORED = "ignored (.gitignore)"


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """A folder to walk into (a symlink to one is not)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _with_ignore_files(
    directory: Path, specs: _Specs, children: list[os.DirEntry[str]] | None = None
) -> _Specs:
    names = {c.name: c for c in children if c.name in IGNORE_FILES} if children else {}
    for name in IGNORE_FILES:
        ignore = directory / name
        if children is not None:
            # (by name first: a folder's children are asked once for every ignore file)
            present = name in names and _is_file(names[name])
        else:
            present = ignore.is_file()
        if present:
            lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
            specs = [*specs, (directory, pathspec.GitIgnoreSpec.from_lines(lines))]
    return specs


def would_walk(
    path: str | os.PathLike[str], root: str | os.PathLike[str], filters: Filters
) -> bool:
    """Whether a change at ``path`` can matter to a walk of the folder ``root``: a file the walk
    would read, by the same rules (hidden names, ignore files, ``filters``, a type groundkit
    reads), or an ignore file, which changes the rules. A path that is gone (deleted, moved away)
    is judged by its name alone, and may have been a folder: only the type is not checked.
    """
    top, where = Path(os.path.abspath(root)), Path(os.path.abspath(path))
    if where == top or not where.is_relative_to(top):
        return False
    parts = where.relative_to(top).parts
    if any(part.startswith(".") for part in parts[:-1]):
        return False
    if parts[-1] in IGNORE_FILES:
        return True
    if parts[-1].startswith("."):
        return False
    include, exclude = filters.specs()
    specs: _Specs = []
    directory = top
    try:
        for depth, part in enumerate(parts):
            specs = _with_ignore_files(directory, specs)
            child = directory / part
            folder = depth < len(parts) - 1 or (child.is_dir() and not child.is_symlink())
            shown = child.relative_to(top).as_posix()
            if _ignored(child, specs):
                return False
            if exclude is not None and exclude.match_file(shown + ("/" if folder else "")):
                return False
            directory = child
    except OSError:
        return True  # an ignore file that cannot be read: let the walk itself say so
    if where.is_dir() and not where.is_symlink():
        return True  # a folder made or moved in: what is inside it is walked
    if include is not None and not include.match_file(where.relative_to(top).as_posix()):
        return False
    return not where.is_file() or format_for(where, explicit=False) is not None


def _ignored(path: Path, specs: _Specs, is_dir: bool | None = None) -> bool:
    """As git decides: the deepest ignore file with a matching rule (or negation) wins."""
    if not specs:
        return False
    if is_dir is None:
        is_dir = path.is_dir() and not path.is_symlink()
    for base, spec in reversed(specs):
        rel = path.relative_to(base).as_posix() + ("/" if is_dir else "")
        verdict = spec.check_file(rel).include
        if verdict is not None:
            return bool(verdict)
    return False

"""Where a map's files come from: a folder on disk, or a git revision read from git's objects.

Both apply the same selection: hidden files and folders are passed over; vendored and generated
trees (``node_modules``, virtualenvs, ``site-packages``, ``dist``, ``build``, ``__pycache__``,
minified ``*.min.js``) are skipped unless an ``--include`` glob names them; ``--exclude`` globs
skip more. A folder on disk also follows ``.gitignore`` and refuses symlinks that leave it (the
same walker as ``grk ingest``). Reading a revision never touches the work tree.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pathspec

from groundkit.errors import ErrorCode, UsageError
from groundkit.ingest.walk import NOT_UTF8, Discovery, is_utf8, printable, walk_tree
from groundkit.types import Skipped

__all__ = ["GitRevision", "Listing", "Selection", "Source", "WorkTree"]

_VENDORED_DIRS = frozenset({"node_modules", "site-packages", "dist", "build", "__pycache__"})
_VENDORED_FILES = ("*.min.js",)


class Selection:
    """``include``/``exclude``: gitignore-style globs on repository-relative paths."""

    def __init__(
        self,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        claims: Callable[[str], bool] | None = None,
    ) -> None:
        """``claims``: whether some extractor reads a path; other files are not even listed."""
        self.claims = claims
        self.include = tuple(include)
        self.exclude = tuple(exclude)
        self._inc = pathspec.GitIgnoreSpec.from_lines(self.include)
        self._exc = pathspec.GitIgnoreSpec.from_lines(self.exclude)
        self._vendored = pathspec.GitIgnoreSpec.from_lines(_VENDORED_FILES)

    def wants_file(self, rel: str) -> bool:
        if self.claims is not None and not self.claims(rel):
            return False
        included = self._inc.match_file(rel)
        if self.include and not included:
            return False
        if self._exc.match_file(rel):
            return False
        if included:
            return True
        parts = rel.split("/")
        if any(p in _VENDORED_DIRS for p in parts[:-1]):
            return False
        return not self._vendored.match_file(rel)

    def prunes_dir(self, rel: str, is_virtualenv: bool) -> bool:
        """Whether a folder is skipped whole (unless an include glob reaches inside it)."""
        if self._exc.match_file(rel + "/"):
            return True
        vendored = rel.rsplit("/", 1)[-1] in _VENDORED_DIRS or is_virtualenv
        return vendored and not any(glob.lstrip("/").startswith(rel) for glob in self.include)


@dataclass(slots=True)
class Listing:
    # (relative path, size, modification time in ns or 0 when unknown), sorted
    files: list[tuple[str, int, int]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


class Source(Protocol):
    def list(self) -> Listing: ...

    def read(self, paths: Sequence[str]) -> Iterator[tuple[str, bytes | OSError]]:
        """Each path's bytes, or the error reading it, in the order given."""
        ...

    def top_name(self) -> str: ...


class WorkTree:
    """A folder on disk (usually a git work tree)."""

    def __init__(self, root: Path, selection: Selection, *, exclude_dirs: Sequence[str] = ()):
        self.root = Path(os.path.abspath(root))
        if not is_utf8(str(self.root)):
            raise UsageError(
                ErrorCode.USAGE,
                f"cannot map {printable(str(self.root))}: {NOT_UTF8}",
            )
        self.selection = selection
        self._excluded = frozenset(os.path.realpath(p) for p in exclude_dirs)

    def top_name(self) -> str:
        return self.root.name

    def list(self) -> Listing:
        found = Discovery()
        listing = Listing()

        cut = len(str(self.root)) + 1

        def prune(folder: Path) -> bool:
            rel = str(folder)[cut:]
            return self.selection.prunes_dir(rel, os.path.isfile(folder / "pyvenv.cfg"))

        for path in walk_tree(self.root, found, self._excluded, prune):
            rel = str(path)[cut:]
            if not self.selection.wants_file(rel):
                continue
            if not is_utf8(rel):
                listing.skipped.append(Skipped(printable(rel), NOT_UTF8))
                continue
            try:
                stat = path.stat()
                size, mtime = stat.st_size, stat.st_mtime_ns
            except OSError:
                size, mtime = 0, 0  # reported when it is read
            listing.files.append((rel, size, mtime))
        listing.files.sort()
        # Named relative to the root already. What the walk passes over on purpose (a link out
        # of the tree, a pipe) is no failure here either, as in `grk ingest`.
        listing.skipped.extend(found.skipped)
        return listing

    def read(self, paths: Sequence[str]) -> Iterator[tuple[str, bytes | OSError]]:
        for rel in paths:
            try:
                with open(self.root / rel, "rb") as fh:
                    yield rel, fh.read()
            except OSError as exc:
                yield rel, exc


# What git prints for one commit (SHA-1 or SHA-256), and the notations that name several.
_OBJECT_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_RANGE = re.compile(r"\.\.|^\^|\^[@!-]")


class GitRevision:
    """One revision of a git repository, read with ``git ls-tree`` and ``git cat-file``."""

    def __init__(self, root: Path, revision: str, selection: Selection) -> None:
        self.root = Path(os.path.abspath(root))
        self.revision = revision
        self.selection = selection
        self._blobs: dict[str, str] = {}
        if revision.startswith("-"):
            raise UsageError(ErrorCode.USAGE, f"{revision!r} is not a revision")
        found = self._git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
        # A range (A..B, ^A, A^@...) names several commits; git may even print each of them.
        if _RANGE.search(revision) or "\n" in found:
            raise UsageError(
                ErrorCode.USAGE,
                f"{revision!r} is a range of revisions, not one",
                hint="give one commit, branch or tag on each side: grk diff BEFORE AFTER",
            )
        self.commit = found
        if not _OBJECT_ID.fullmatch(self.commit):
            raise UsageError(
                ErrorCode.CODEMAP_REVISION,
                f"{revision!r} is not a commit of this repository",
                hint="give a branch, a tag or a commit id (git log --oneline lists them)",
            )

    def top_name(self) -> str:
        return self.root.name

    def _git(self, *args: str) -> str:
        try:
            done = subprocess.run(
                ["git", "-C", str(self.root), *args], capture_output=True, check=False
            )
        except OSError as exc:
            raise UsageError(
                ErrorCode.CODEMAP_GIT, "git cannot be run", hint="install git"
            ) from exc
        if done.returncode not in (0, 1):
            raise UsageError(
                ErrorCode.CODEMAP_GIT,
                "git could not read this folder as a repository",
                hint="run grk diff inside a git work tree",
            )
        return done.stdout.decode("utf-8", "replace").strip()

    def list(self) -> Listing:
        listing = Listing()
        out = subprocess.run(
            ["git", "-C", str(self.root), "ls-tree", "-r", "-z", "--long", self.commit],
            capture_output=True,
            check=True,
        ).stdout
        for entry in out.split(b"\0"):
            if not entry:
                continue
            meta, _, raw_path = entry.partition(b"\t")
            mode, kind, blob, size = meta.split()
            rel = raw_path.decode("utf-8", "surrogateescape")
            if kind != b"blob" or mode == b"120000":  # a symlink's blob is its target's name
                continue
            parts = rel.split("/")
            if any(p.startswith(".") for p in parts):
                continue
            if any(
                self.selection.prunes_dir("/".join(parts[: i + 1]), False)
                for i in range(len(parts) - 1)
            ):
                continue
            if self.selection.wants_file(rel):
                self._blobs[rel] = blob.decode()
                listing.files.append((rel, int(size), 0))
        listing.files.sort()
        return listing

    def read(self, paths: Sequence[str]) -> Iterator[tuple[str, bytes | OSError]]:
        if not paths:
            return
        # A path outside the listing (a tsconfig an extractor consults) by its name in the tree.
        names = (self._blobs.get(p) or f"{self.commit}:{p}" for p in paths)
        request = b"".join(name.encode() + b"\n" for name in names)
        with subprocess.Popen(
            ["git", "-C", str(self.root), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        ) as proc:
            assert proc.stdin is not None
            assert proc.stdout is not None
            stdin = proc.stdin

            def feed() -> None:  # in its own thread: git's output must be read as it comes
                stdin.write(request)
                stdin.close()

            writer = threading.Thread(target=feed, daemon=True)
            writer.start()
            for rel in paths:
                header = proc.stdout.readline().split()
                if len(header) < 3:
                    yield rel, OSError("missing from the git object store")
                    continue
                data = proc.stdout.read(int(header[2]))
                proc.stdout.read(1)  # the newline after each object
                yield rel, data
            writer.join()

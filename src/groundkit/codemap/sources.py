"""Where a map's files come from: a folder on disk, or a git revision read from git's objects.

Both apply the same selection: hidden files and folders are not walked; vendored and generated
trees (``node_modules``, ``vendor``, ``third_party``, virtualenvs, ``site-packages``, ``dist``,
``build``, ``__pycache__``, minified ``*.min.js``) are passed over unless an ``--include`` glob
names them; ``--exclude`` globs pass over more. A folder on disk also follows ``.gitignore``
and refuses symlinks that leave it (the same walker as ``grk ingest``). Reading a revision never
touches the work tree.

Every other file under the root is either listed to be mapped or *passed over* with its reason
(a file no extractor reads, such as a ``.sql`` file or a config; a vendored folder, once, as a
folder): a choice, never a failure. Of those, what the run reads for data anyway (a
``schema.prisma``, ORM settings, SQL an app runs) is counted read (``data_files``). What was
meant to be mapped and could not be (unreadable, oversized, not parsable) is *skipped*, and
makes the run partial.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Protocol

import pathspec

from groundkit.codemap.relisting import ListingMemo, Walk
from groundkit.config import CodemapConfig
from groundkit.errors import ErrorCode, UsageError
from groundkit.ingest.walk import NOT_UTF8, Discovery, is_utf8, printable, walk_tree
from groundkit.source_files import Unread, read_regular
from groundkit.types import Skipped

__all__ = ["GitRevision", "Listing", "Selection", "Source", "WorkTree", "language_of"]

# Folders of code a project carries but did not write (GitHub linguist's vendor rules: its
# ``vendor/``, ``third_party/``; pip's ``_vendor``) or that a build made.
_VENDORED_DIRS = frozenset(
    {
        "node_modules",
        "bower_components",
        "site-packages",
        "vendor",
        "vendors",
        "_vendor",
        "third_party",
        "third-party",
        "dist",
        "build",
        "__pycache__",
    }
)
_VENDORED_FILES = ("*.min.js",)

# What a file holds, by its suffix, as a person calls it: an extractor may read several (the
# TypeScript one reads JavaScript, and the tsconfig/package.json files imports resolve through).
_LANGUAGES = {
    ".py": "python",
    ".pyi": "python",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".vue": "vue",  # a single-file component: its script blocks are TypeScript or JavaScript
    ".json": "json",
}
# Why a file no extractor reads is passed over, by suffix; anything else is "not code the map
# reads" with its suffix.
_KINDS = {
    "documentation": (".md", ".rst", ".txt", ".adoc"),
    "markup or a template": (".html", ".htm", ".jinja", ".j2", ".hbs", ".ejs", ".pug", ".xml"),
    "configuration": (".toml", ".ini", ".cfg", ".yaml", ".yml", ".env", ".conf", ".lock"),
    "data": (".json", ".csv", ".tsv", ".jsonl", ".parquet", ".sqlite", ".db"),
    "a database schema or query": (".sql", ".prisma"),
    "a style sheet": (".css", ".scss", ".sass", ".less"),
    "an image or font": (".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".webp", ".woff2"),
}


@lru_cache(maxsize=4096)  # asked for each node a map stores (express: ~3,300 over 141 paths)
def language_of(path: str, language: str) -> str:
    """The language a file is written in (``.js`` is JavaScript even when the TypeScript
    extractor reads it); ``language`` (the extractor's) for a suffix not in the table."""
    return _LANGUAGES.get(PurePosixPath(path).suffix.lower(), language)


def _not_read(rel: str) -> str:
    """Why a file no extractor claims is passed over, in words."""
    return _not_read_suffix(_suffix(rel).lower())


def _suffix(rel: str) -> str:
    """``PurePosixPath(rel).suffix`` of a relative path as a walk names it, by string (a map
    lists every file on each run: django's 2,700 files it passes over, 0.03 s of pathlib)."""
    name = rel.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


@lru_cache(maxsize=256)
def _not_read_suffix(suffix: str) -> str:
    kind = next((k for k, suffixes in _KINDS.items() if suffix in suffixes), "other")
    return f"not code the map reads: {kind} ({suffix or 'no suffix'})"


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
        return self.passes_over(rel) is None

    def passes_over(self, rel: str) -> str | None:
        """Why a file is not mapped (None: it is to be mapped)."""
        if self.claims is not None and not self.claims(rel):
            return _not_read(rel)
        # (an empty spec matches nothing, and ``*.min.js`` nothing without that in the path:
        # not asked, since every file is asked on every run)
        included = bool(self.include) and self._inc.match_file(rel)
        if self.include and not included:
            return "not included (--include)"
        if self.exclude and self._exc.match_file(rel):
            return "excluded (--exclude)"
        if included:
            return None
        parts = rel.split("/")
        if any(p in _VENDORED_DIRS for p in parts[:-1]):
            return "vendored or built"
        if ".min.js" in rel and self._vendored.match_file(rel):
            return "vendored: minified (*.min.js)"
        return None

    def prunes_dir(self, rel: str, is_virtualenv: bool) -> bool:
        """Whether a folder is skipped whole (unless an include glob reaches inside it)."""
        return self.prunes_because(rel, is_virtualenv) is not None

    def prunes_because(self, rel: str, is_virtualenv: bool) -> str | None:
        """Why a folder is passed over whole (None: it is walked)."""
        if self.exclude and self._exc.match_file(rel + "/"):
            return "excluded (--exclude)"
        name = rel.rsplit("/", 1)[-1]
        if not (name in _VENDORED_DIRS or is_virtualenv):
            return None
        if any(glob.lstrip("/").startswith(rel) for glob in self.include):
            return None
        return "vendored: a virtualenv" if is_virtualenv else f"vendored or built ({name})"


@dataclass(slots=True)
class Listing:
    # (relative path, size, modification time in ns or 0 when unknown), sorted
    files: list[tuple[str, int, int]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)  # meant to be mapped, and could not be
    # Not to be mapped, with why: files no extractor reads, vendored folders (once, with a
    # trailing "/"), excluded ones, links out of the tree. Never a failure.
    passed_over: list[Skipped] = field(default_factory=list)


class Source(Protocol):
    def list(self) -> Listing: ...

    def read(self, paths: Sequence[str]) -> Iterator[tuple[str, bytes | OSError | Unread]]:
        """Each path's bytes, or why it was not read, in the order given."""
        ...

    def top_name(self) -> str: ...


class WorkTree:
    """A folder on disk (usually a git work tree)."""

    def __init__(
        self,
        root: Path,
        selection: Selection,
        *,
        exclude_dirs: Sequence[str] = (),
        limit: int = CodemapConfig().max_file_bytes,
        memo: ListingMemo | None = None,
        memo_key: Hashable = None,
    ):
        """``memo``: the last listing of the same map, taken again while no folder changed
        (``relisting``), for the same ``memo_key`` (what else decides the listing: the
        selection's globs, the extractors)."""
        self.root = Path(os.path.abspath(root))
        self.memo = memo
        self.memo_key = (memo_key, tuple(exclude_dirs))
        self.limit = limit
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
        root = str(self.root)
        if self.memo is not None:
            again = self.memo.again(self.memo_key, root)
            if again is not None:
                return again
        walk = Walk(self.memo_key, root)
        walk.met(root)
        found = Discovery()
        listing = Listing()

        cut = len(root) + 1

        def prune(folder: Path) -> bool:
            where = str(folder)
            walk.met(where)
            venv = os.path.isfile(os.path.join(where, "pyvenv.cfg"))
            why = self.selection.prunes_because(where[cut:], venv)
            if why is not None:
                listing.passed_over.append(Skipped(printable(where[cut:]) + "/", why))
            return why is not None

        for path in walk_tree(self.root, found, self._excluded, prune):
            rel = str(path)[cut:]
            why = self.selection.passes_over(rel)
            if why is not None:
                listing.passed_over.append(Skipped(printable(rel), why))
                continue
            if not is_utf8(rel):
                listing.skipped.append(Skipped(printable(rel), NOT_UTF8))
                continue
            try:
                stat = os.stat(path)
                size, mtime = stat.st_size, stat.st_mtime_ns
            except OSError:
                size, mtime = 0, 0  # reported when it is read
            listing.files.append((rel, size, mtime))
        listing.files.sort()
        # Named relative to the root already. What the walk passes over on purpose (a link out
        # of the tree, a pipe) is no failure here either, as in `grk ingest`.
        listing.skipped.extend(found.skipped)
        listing.passed_over.extend(found.passed_over)
        listing.passed_over.extend(found.not_walked)
        listing.passed_over.sort(key=lambda s: s.source)
        if self.memo is not None:
            self.memo.keep(walk, listing, whole=not found.links and not found.unreadable_dirs)
        return listing

    def read(self, paths: Sequence[str]) -> Iterator[tuple[str, bytes | OSError | Unread]]:
        # A file listed may be a FIFO by now, and a manifest read by name was never listed:
        # only a regular file is opened, never blocking, never past the cap.
        for rel in paths:
            yield rel, read_regular(str(self.root / rel), self.limit)


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
        pruned: set[str] = set()
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
            if self._pruned(parts, pruned, listing):
                continue
            why = self.selection.passes_over(rel)
            if why is None:
                self._blobs[rel] = blob.decode()
                listing.files.append((rel, int(size), 0))
            else:
                listing.passed_over.append(Skipped(printable(rel), why))
        listing.files.sort()
        listing.passed_over.sort(key=lambda s: s.source)
        return listing

    def _pruned(self, parts: Sequence[str], pruned: set[str], listing: Listing) -> bool:
        """Whether a file lies in a folder passed over whole (listed once, as the folder)."""
        for i in range(len(parts) - 1):
            folder = "/".join(parts[: i + 1])
            if folder in pruned:
                return True
            why = self.selection.prunes_because(folder, False)
            if why is not None:
                pruned.add(folder)
                listing.passed_over.append(Skipped(printable(folder) + "/", why))
                return True
        return False

    def read(self, paths: Sequence[str]) -> Iterator[tuple[str, bytes | OSError | Unread]]:
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

"""The code map's library face: ``open_codemap(name)`` and what a map answers.

A map is a folder under the index dir, ``<index_dir>/_maps/<name>/``: ``map.sqlite`` (the map)
and ``write.lock`` (held by the one process updating it). The leading underscore keeps it apart
from collections, whose names cannot start with one.
"""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from groundkit.codemap.build import MapReport, Progress, build_map
from groundkit.codemap.extract.base import Extractor
from groundkit.codemap.extract.python import PythonExtractor
from groundkit.codemap.model import Edge, Node
from groundkit.codemap.sources import Selection, WorkTree
from groundkit.codemap.store import MapStore
from groundkit.config import Settings
from groundkit.errors import ErrorCode, IndexLockedError, NotFoundError, UsageError

__all__ = ["CodeMap", "default_extractors", "list_codemaps", "map_dir", "open_codemap"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_MAPS = "_maps"
_FILE = "map.sqlite"


def default_extractors() -> list[Extractor]:
    """Every language the map reads: Python always; others when their extractor is present."""
    found: list[Extractor] = [PythonExtractor()]
    try:
        from groundkit.codemap.extract.typescript import TypeScriptExtractor  # type: ignore
    except ImportError:
        pass
    else:
        found.append(TypeScriptExtractor())
    return found


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


def open_codemap(
    name: str,
    *,
    index_dir: str | os.PathLike[str] | None = None,
    settings: Settings | None = None,
    create: bool = False,
) -> CodeMap:
    """Open the map called ``name`` (with ``create``, an empty one when there is none)."""
    settings = settings or Settings()
    folder = map_dir(index_dir if index_dir is not None else settings.index_dir, name)
    if not (folder / _FILE).is_file():
        if not create:
            raise NotFoundError(
                ErrorCode.CODEMAP_NOT_FOUND,
                f"no code map named {name!r}",
                hint="map a repository first: grk map PATH",
            )
        folder.mkdir(parents=True, exist_ok=True)
    return CodeMap(name, folder, settings)


@contextmanager
def _write_lock(folder: Path) -> Iterator[None]:
    """Exclusive and non-blocking, as a collection's: a second writer fails at once."""
    fd = os.open(folder / "write.lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IndexLockedError() from None
        yield
    finally:
        os.close(fd)


class CodeMap:
    """One mapped repository: update it, and ask it questions."""

    def __init__(self, name: str, folder: Path, settings: Settings) -> None:
        self.name = name
        self.folder = folder
        self.settings = settings
        self.store = MapStore(folder / _FILE)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> CodeMap:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def root(self) -> Path | None:
        """The folder the map was made from, when it was made from one."""
        root = self.store.manifest().get("root")
        return Path(root) if root else None

    def update(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        progress: Progress | None = None,
        extractors: Sequence[Extractor] | None = None,
        workers: int | None = None,
    ) -> MapReport:
        """Map ``root`` (default: the folder mapped last time), parsing only what changed."""
        folder = Path(root) if root is not None else self.root
        if folder is None:
            raise UsageError(ErrorCode.USAGE, f"map {self.name!r} has no folder yet: give PATH")
        if not folder.is_dir():
            raise UsageError(
                ErrorCode.USAGE, f"{folder.name or str(folder)!r} is not a folder to map"
            )
        chosen = list(extractors) if extractors is not None else default_extractors()
        selection = Selection(include, exclude, lambda p: any(e.claims(p) for e in chosen))
        source = WorkTree(folder, selection, exclude_dirs=[str(Path(self.settings.index_dir))])
        with _write_lock(self.folder):
            report = build_map(
                self.store,
                source,
                chosen,
                max_file_bytes=self.settings.codemap.max_file_bytes,
                progress=progress,
                workers=workers,
            )
            with self.store.transaction():
                self.store.set_manifest("root", str(source.root))
        return report

    # -- reads ------------------------------------------------------------------------------------
    def nodes(self) -> list[Node]:
        return self.store.nodes()

    def edges(self, kinds: Sequence[str] | None = None) -> list[Edge]:
        return self.store.edges(kinds)

    def counts(self) -> dict[str, Any]:
        return self.store.counts()

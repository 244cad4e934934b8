"""The one library entry point that the CLI (and later REST and MCP) call.

A collection is a folder under the index dir: ``store.sqlite`` (the source of truth),
``lexical/`` (derived, rebuildable) and ``write.lock`` (held by the one process writing).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from groundkit.config import Settings
from groundkit.errors import (
    ErrorCode,
    GroundkitError,
    IndexLockedError,
    NotFoundError,
    UsageError,
)
from groundkit.index.lexical import ANALYZER, LexicalIndex
from groundkit.index.store import Store
from groundkit.pipeline import Progress, run_ingest, sync_lexical
from groundkit.retrieve.citations import resolve
from groundkit.retrieve.search import bm25_search
from groundkit.types import Hit, IngestReport, ResolvedCitation

__all__ = ["Collection", "delete_collection", "list_collections", "open_collection"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_STORE = "store.sqlite"


def _check_name(name: str) -> str:
    if not _NAME.fullmatch(name) or ".." in name:
        raise UsageError(
            ErrorCode.INVALID_NAME,
            f"invalid collection name {name!r}",
            hint="use letters, digits, '.', '_' or '-', starting with a letter or digit",
        )
    return name


def list_collections(index_dir: str | os.PathLike[str] = ".groundkit") -> list[str]:
    root = Path(index_dir)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / _STORE).is_file())


def delete_collection(name: str, index_dir: str | os.PathLike[str] = ".groundkit") -> None:
    """Remove a collection and every file it owns."""
    path = Path(index_dir) / _check_name(name)
    if not (path / _STORE).is_file():
        raise _not_found(name)
    with _write_lock(path):
        shutil.rmtree(path)


def open_collection(
    name: str | None = None,
    *,
    index_dir: str | os.PathLike[str] | None = None,
    settings: Settings | None = None,
    create: bool = True,
) -> Collection:
    """Open (or, with ``create``, make) a collection. ``settings`` default to the built-ins."""
    settings = settings or Settings()
    name = _check_name(settings.collection if name is None else name)
    path = Path(index_dir if index_dir is not None else settings.index_dir) / name
    if not (path / _STORE).is_file():
        if not create:
            raise _not_found(name)
        path.mkdir(parents=True, exist_ok=True)
    return Collection(name, path, settings)


def _not_found(name: str) -> NotFoundError:
    return NotFoundError(
        ErrorCode.COLLECTION_NOT_FOUND,
        f"no collection named {name!r}",
        hint="ingest something into it first, or check --index-dir",
    )


@contextmanager
def _write_lock(path: Path) -> Iterator[None]:
    """Exclusive, non-blocking: a second writer fails at once instead of waiting."""
    fd = os.open(path / "write.lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IndexLockedError() from None
        yield
    finally:
        os.close(fd)


class Collection:
    """A named collection: ingest into it, search it, resolve its citations."""

    def __init__(self, name: str, path: Path, settings: Settings) -> None:
        self.name = name
        self.path = path
        self.settings = settings
        self._store = Store(path / _STORE)
        self._lexical = self._open_lexical()
        self._recover()

    def _open_lexical(self) -> LexicalIndex:
        """Open the lexical index, or rebuild it from the store when it was built with another
        analyzer or cannot be opened. Rebuilding needs the write lock."""
        if self._store.manifest().get("analyzer") == ANALYZER:
            try:
                return LexicalIndex(self.path / "lexical")
            except GroundkitError:
                pass  # damaged: rebuilt below
        with _write_lock(self.path):
            self._lexical = LexicalIndex.fresh(self.path / "lexical")
            self._rebuild_lexical()
            return self._lexical

    def _recover(self) -> None:
        """Finish what a crashed writer left (a pending journal), or rebuild an index that does
        not match the store (a lost or truncated folder)."""
        if self._store.pending():
            try:
                with _write_lock(self.path):
                    sync_lexical(self._store, self._lexical)
            except IndexLockedError:
                pass  # a live writer is finishing it; searching meanwhile is safe, merely behind
            return
        if self._lexical.num_chunks != self._store.counts()[1]:
            self._lexical.refresh()  # another process may have committed since we opened it
            if self._lexical.num_chunks != self._store.counts()[1]:
                with contextlib.suppress(IndexLockedError), _write_lock(self.path):
                    self._rebuild_lexical()

    def _rebuild_lexical(self) -> int:
        self._lexical.sync((), self._store.indexed_texts(), clear=True)
        with self._store.transaction():
            self._store.set_manifest("analyzer", ANALYZER)
            pending = self._store.pending()
        self._store.clear_pending(pending)
        return self._lexical.num_chunks

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Collection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ingest(
        self, inputs: Sequence[str | os.PathLike[str]], *, progress: Progress | None = None
    ) -> IngestReport:
        """Ingest files, directories, JSONL record files and http(s) URLs, incrementally."""
        with _write_lock(self.path):
            paths = [os.fspath(i) for i in inputs]
            return run_ingest(
                self._store,
                self._lexical,
                paths,
                self.settings,
                progress,
                exclude=[str(self.path.parent)],  # never index our own index
            )

    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        source: str | None = None,
        where: Mapping[str, Any] | None = None,
    ) -> list[Hit]:
        """BM25 hits for ``query``, searched as plain words (never as query syntax)."""
        return bm25_search(
            self._store,
            self._lexical,
            collection=self.name,
            query=query,
            top_k=self.settings.search.top_k if top_k is None else top_k,
            snippet_chars=self.settings.search.snippet_chars,
            source=source,
            where=where,
        )

    def show(self, chunk_id: str) -> ResolvedCitation:
        """A chunk's text read back from the stored document, with its source re-checked."""
        return resolve(self._store, self.name, chunk_id)

    def delete_document(self, key: str) -> str:
        """Delete a document by document id, source or external id; returns its document id."""
        with _write_lock(self.path):
            found = self._store.find_documents(key) or self._store.find_documents(
                os.path.abspath(key)
            )
            if not found:
                raise NotFoundError(
                    ErrorCode.DOCUMENT_NOT_FOUND, f"no document {key!r} in {self.name!r}"
                )
            if len(found) > 1:
                raise UsageError(
                    ErrorCode.AMBIGUOUS_DOCUMENT,
                    f"{len(found)} documents have the external id {key!r}",
                    hint="delete by document id or source instead",
                )
            document = found[0]
            with self._store.transaction():
                self._store.delete_documents([document.rowid])
            sync_lexical(self._store, self._lexical)
            return document.document_id

    def reindex(self) -> int:
        """Rebuild the lexical index from the store; returns the number of chunks indexed."""
        with _write_lock(self.path):
            self._lexical = LexicalIndex.fresh(self.path / "lexical")
            return self._rebuild_lexical()

    def status(self) -> dict[str, Any]:
        documents, chunks = self._store.counts()
        manifest = self._store.manifest()
        return {
            "collection": self.name,
            "documents": documents,
            "chunks": chunks,
            "lexical_chunks": self._lexical.num_chunks,
            "pending": len(self._store.pending()),
            "formats": self._store.formats(),
            "schema_version": int(manifest.get("schema_version", 0)),
            "analyzer": manifest.get("analyzer"),
            "size_bytes": sum(f.stat().st_size for f in self.path.rglob("*") if f.is_file()),
        }

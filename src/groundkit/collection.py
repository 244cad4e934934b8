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
from groundkit.embed.base import Embedder, EmbedderIdentity
from groundkit.errors import (
    ErrorCode,
    GroundkitError,
    IndexLockedError,
    ModelError,
    NotFoundError,
    UsageError,
)
from groundkit.index.lexical import ANALYZER, LexicalIndex
from groundkit.index.store import Store
from groundkit.index.vectors import VectorIndex
from groundkit.pipeline import Progress, run_ingest, sync_derived
from groundkit.retrieve.citations import resolve
from groundkit.retrieve.quotes import QuoteCheck, verify_quote
from groundkit.retrieve.rerank import Reranker
from groundkit.retrieve.search import Mode, SearchRequest, run_search
from groundkit.types import Chunk, Document, Hit, IngestReport, ResolvedCitation

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
    embedder: Embedder | None = None,
) -> Collection:
    """Open (or, with ``create``, make) a collection. ``settings`` default to the built-ins.

    ``embedder`` overrides the one ``settings.embed`` describes (it is built only when needed).
    """
    settings = settings or Settings()
    name = _check_name(settings.collection if name is None else name)
    path = Path(index_dir if index_dir is not None else settings.index_dir) / name
    if not (path / _STORE).is_file():
        if not create:
            raise _not_found(name)
        path.mkdir(parents=True, exist_ok=True)
    return Collection(name, path, settings, embedder)


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

    def __init__(
        self, name: str, path: Path, settings: Settings, embedder: Embedder | None = None
    ) -> None:
        self.name = name
        self.path = path
        self.settings = settings
        self._embedder = embedder
        self._reranker: Reranker | None = None
        self._ann_threshold = settings.search.ann_threshold
        self._store = Store(path / _STORE)
        self._vectors = self._open_vectors()
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
            self._rebuild()
            return self._lexical

    def _open_vectors(self) -> VectorIndex:
        """Open the dense index; one that cannot be read is rebuilt from the store by _recover."""
        try:
            return VectorIndex(self.path / "vectors", ann_threshold=self._ann_threshold)
        except GroundkitError:
            return VectorIndex.fresh(self.path / "vectors", ann_threshold=self._ann_threshold)

    def _recover(self) -> None:
        """Finish what a crashed writer left (a pending journal), or rebuild indexes that do
        not match the store (a lost or truncated folder)."""
        if self._store.pending("lexical") or self._store.pending("vector"):
            try:
                with _write_lock(self.path):
                    sync_derived(self._store, self._lexical, self._vectors)
            except IndexLockedError:
                pass  # a live writer is finishing it; searching meanwhile is safe, merely behind
            return
        if not self._in_step():
            self._lexical.refresh()  # another process may have committed since we opened them
            self._vectors = VectorIndex(self.path / "vectors", ann_threshold=self._ann_threshold)
            if not self._in_step():
                with contextlib.suppress(IndexLockedError), _write_lock(self.path):
                    self._rebuild()

    def _in_step(self) -> bool:
        chunks = self._store.counts()[1]
        vectors = self._store.vector_count()
        return self._lexical.num_chunks == chunks and self._vectors.count == vectors

    def _rebuild(self) -> int:
        self._lexical.sync((), self._store.indexed_texts(), clear=True)
        self._vectors.sync((), self._store.vectors(), clear=True)
        with self._store.transaction():
            self._store.set_manifest("analyzer", ANALYZER)
            pending = {index: self._store.pending(index) for index in ("lexical", "vector")}
        self._store.clear_pending(pending["lexical"], "lexical")
        self._store.clear_pending(pending["vector"], "vector")
        return self._lexical.num_chunks

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Collection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the embedder this collection is bound to
    @property
    def embedder_identity(self) -> EmbedderIdentity | None:
        """The identity its vectors were made with, or None when it has none."""
        key = self._store.manifest().get("embedder")
        return EmbedderIdentity.parse(key) if key else None

    def _bound_embedder(self) -> Embedder:
        """The configured embedder, refused unless it is the one the vectors were made with."""
        if self._embedder is None:
            from groundkit.embed.factory import create_embedder

            self._embedder = create_embedder(self.settings.embed)
        bound = self.embedder_identity
        mine = self._embedder.identity
        if bound is not None and bound != mine:
            raise ModelError(
                ErrorCode.EMBEDDER_MISMATCH,
                f"collection {self.name!r} was embedded with {bound.key()};"
                f" the configured embedder is {mine.key()}",
                hint="configure the collection's embedder, or ingest into a new collection",
            )
        return self._embedder

    # -- operations
    def ingest(
        self,
        inputs: Sequence[str | os.PathLike[str]],
        *,
        progress: Progress | None = None,
        dense: bool | None = None,
    ) -> IngestReport:
        """Ingest files, directories, JSONL record files and http(s) URLs, incrementally.

        With ``dense`` (default: ``ingest.dense``), or once the collection has vectors, every chunk
        without a vector gets one, existing chunks included.
        """
        with _write_lock(self.path):
            want_dense = self.settings.ingest.dense if dense is None else dense
            embedder = None
            if want_dense or self.embedder_identity is not None:
                embedder = self._bound_embedder()
                if self.embedder_identity is None:
                    with self._store.transaction():
                        self._store.set_manifest("embedder", embedder.identity.key())
            return run_ingest(
                self._store,
                self._lexical,
                [os.fspath(i) for i in inputs],
                self.settings,
                progress,
                vectors=self._vectors,
                embedder=embedder,
                exclude=[str(self.path.parent)],  # never index our own index
            )

    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        mode: Mode | None = None,
        source: str | None = None,
        where: Mapping[str, Any] | None = None,
        rerank: bool | None = None,
    ) -> list[Hit]:
        """Ranked hits for ``query``, searched as plain words (never as query syntax).

        ``mode``: bm25, dense or hybrid (reciprocal-rank fusion of both); default ``search.mode``,
        whose ``auto`` means hybrid when the collection has vectors, else bm25.
        """
        cfg = self.settings.search
        chosen = mode or cfg.mode
        if chosen == "auto":
            chosen = "hybrid" if self.embedder_identity is not None else "bm25"
        embedder = None
        if chosen != "bm25":
            if self.embedder_identity is None:
                raise UsageError(
                    ErrorCode.NO_VECTORS,
                    f"collection {self.name!r} has no vectors for {chosen} search",
                    hint="ingest with --dense first, or search with --mode bm25",
                )
            embedder = self._bound_embedder()
        reranker = None
        if rerank if rerank is not None else cfg.rerank:
            if self._reranker is None:
                from groundkit.retrieve.rerank import load_reranker

                self._reranker = load_reranker(self.settings.rerank)
            reranker = self._reranker
        request = SearchRequest(
            query=query,
            top_k=cfg.top_k if top_k is None else top_k,
            mode=chosen,
            source=source,
            where=dict(where or {}),
            candidates=cfg.candidates,
            rrf_k=cfg.rrf_k,
            min_similarity=cfg.min_similarity,
            snippet_chars=cfg.snippet_chars,
            rerank_top_n=self.settings.rerank.top_n,
        )
        return run_search(
            request,
            collection=self.name,
            store=self._store,
            lexical=self._lexical,
            vectors=self._vectors,
            embedder=embedder,
            reranker=reranker,
        )

    def show(self, chunk_id: str) -> ResolvedCitation:
        """A chunk's text read back from the stored document, with its source re-checked."""
        return resolve(self._store, self.name, chunk_id)

    def documents(self) -> list[Document]:
        """Every stored document, whole, in ingest order."""
        return [
            Document(d.document_id, d.source, d.text, d.format, d.external_id, d.title, d.metadata)
            for d in self._store.all_documents()
        ]

    def chunks(self) -> list[Chunk]:
        """Every chunk, in document order, each read back from its document's stored text."""
        return [
            Chunk(c.chunk_id, c.document_id, c.ordinal, c.start, c.end, c.text, c.metadata)
            for c in self._store.all_chunks()
        ]

    def verify_quote(
        self, quote: str, *, chunk_id: str | None = None, document_id: str | None = None
    ) -> QuoteCheck:
        """Whether ``quote`` is verbatim in a chunk or a document, with its stored offsets."""
        return verify_quote(
            self._store, self.name, quote, chunk_id=chunk_id, document_id=document_id
        )

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
            sync_derived(self._store, self._lexical, self._vectors)
            return document.document_id

    def reindex(self) -> int:
        """Rebuild the derived indexes from the store; returns the number of chunks indexed."""
        with _write_lock(self.path):
            self._lexical = LexicalIndex.fresh(self.path / "lexical")
            self._vectors = VectorIndex.fresh(
                self.path / "vectors", ann_threshold=self._ann_threshold
            )
            return self._rebuild()

    def status(self) -> dict[str, Any]:
        documents, chunks = self._store.counts()
        manifest = self._store.manifest()
        identity = self.embedder_identity
        return {
            "collection": self.name,
            "documents": documents,
            "chunks": chunks,
            "lexical_chunks": self._lexical.num_chunks,
            "embedder": identity.key() if identity else None,
            "vectors": self._store.vector_count(),
            "dense_index_vectors": self._vectors.count,
            "pending": len(self._store.pending("lexical")) + len(self._store.pending("vector")),
            "formats": self._store.formats(),
            "schema_version": int(manifest.get("schema_version", 0)),
            "analyzer": manifest.get("analyzer"),
            "size_bytes": sum(f.stat().st_size for f in self.path.rglob("*") if f.is_file()),
        }

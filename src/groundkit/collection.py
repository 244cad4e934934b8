"""The one library entry point that the CLI, REST and MCP call.

A collection lives where its backend keeps it (``backends``): by default embedded, a folder
under the index dir (``backends.embedded`` knows its layout); or, when ``[collections.NAME]`` in
grk.toml says ``backend = "qdrant"``, in a Qdrant collection (``backends.qdrant``). What every
backend shares (the embedder a collection is bound to, the search request, citation and quote
checks) is here; what a backend stores and answers goes through ``backends.base.Backend``.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from groundkit.backends.base import STORE_FILE, Backend
from groundkit.config import Settings
from groundkit.embed.base import Embedder, EmbedderIdentity
from groundkit.embed.factory import create_embedder
from groundkit.embed.recall import RecallsQueries
from groundkit.errors import (
    ErrorCode,
    ModelError,
    NotFoundError,
    UsageError,
)
from groundkit.retrieve.citations import resolve
from groundkit.retrieve.quotes import QuoteCheck, verify_quote
from groundkit.retrieve.rerank import Reranker, load_reranker
from groundkit.retrieve.search import SearchRequest, concrete_mode, run_search, searchable
from groundkit.storage.faults import os_fault
from groundkit.storage.folders import make_folder
from groundkit.storage.locks import write_lock
from groundkit.text import is_text
from groundkit.types import (
    Chunk,
    CollectionStatus,
    ConcreteMode,
    Document,
    Hit,
    IngestReport,
    ResolvedCitation,
    SearchMode,
    Verification,
)

if TYPE_CHECKING:
    from groundkit.backends.embedded import EmbeddedBackend  # imported when one is opened
    from groundkit.index.lexical import LexicalIndex
    from groundkit.index.rows import DocumentRow
    from groundkit.index.sentences import ChunkSentences
    from groundkit.index.store import Store
    from groundkit.index.vectors import VectorIndex
    from groundkit.pipeline import Progress
    from groundkit.pipeline.sentences import Splitter

__all__ = [
    "STORE_FILE",
    "Collection",
    "Searched",
    "collection_path",
    "delete_collection",
    "known_collections",
    "list_collections",
    "open_collection",
]

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# How long a writer waits for the lock: a reader that opens a collection just behind another
# process's write takes the lock for the moment it needs to catch its indexes up, and an ingest
# starting then must not fail for that. A real second writer (a long ingest) still fails soon.
WRITER_WAIT_S = 2.0


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name) or ".." in name:
        raise UsageError(
            ErrorCode.INVALID_NAME,
            f"invalid collection name {name!r}",
            hint="use letters, digits, '.', '_' or '-', starting with a letter or digit",
        )
    return name


def collection_path(index_dir: str | os.PathLike[str], name: str) -> Path:
    """The folder of collection ``name`` (checked) under ``index_dir``."""
    return Path(index_dir) / check_name(name)


def list_collections(index_dir: str | os.PathLike[str] = ".groundkit") -> list[str]:
    """The embedded collections under ``index_dir``."""
    root = Path(index_dir)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / STORE_FILE).is_file())


def known_collections(settings: Settings) -> list[str]:
    """Every collection there is: the embedded ones under ``settings.index_dir`` and those
    grk.toml places elsewhere (``[collections.NAME]``, listed whether or not they hold
    anything yet)."""
    elsewhere = [n for n, c in settings.collections.items() if c.backend != "embedded"]
    embedded = [n for n in list_collections(settings.index_dir) if n not in elsewhere]
    return sorted({*embedded, *elsewhere})


def delete_collection(
    name: str,
    index_dir: str | os.PathLike[str] = ".groundkit",
    *,
    settings: Settings | None = None,
) -> None:
    """Remove a collection and everything it owns (``settings``: where it lives, when grk.toml
    places it on a Qdrant cluster)."""
    config = (settings or Settings()).collection_config(check_name(name))
    if config.backend == "qdrant":
        from groundkit.backends.qdrant import drop_collection

        drop_collection(name, config)
        return
    path = collection_path(index_dir, name)
    if not (path / STORE_FILE).is_file():
        raise _not_found(name, list_collections(index_dir))
    with _write_lock(path):
        try:
            shutil.rmtree(path)
        except OSError as exc:
            raise os_fault(exc, path, "the collection could not be deleted") from exc


def open_collection(
    name: str | None = None,
    *,
    index_dir: str | os.PathLike[str] | None = None,
    settings: Settings | None = None,
    create: bool = True,
    embedder: Embedder | None = None,
    reranker: Reranker | None = None,
    lock_wait_s: float = 10.0,
) -> Collection:
    """Open (or, with ``create``, make) a collection. ``settings`` default to the built-ins;
    they also say where the collection lives (``[collections.NAME]``).

    ``embedder`` and ``reranker`` override the ones the settings describe (each is built only
    when needed); a server passes the ones it shares across every collection it opens.
    ``lock_wait_s``: how long to wait for another process that holds the write lock when an
    index must be rebuilt before anything can be searched (a new collection, a lost index).
    """
    settings = settings or Settings()
    name = settings.collection if name is None else name
    path = collection_path(index_dir if index_dir is not None else settings.index_dir, name)
    config = settings.collection_config(name)
    if config.backend == "qdrant":
        from groundkit.backends.qdrant import open_qdrant

        backend: Backend = open_qdrant(name, config, create=create)
        return Collection(name, path, settings, embedder, reranker, backend=backend)
    if not (path / STORE_FILE).is_file():
        if not create:
            raise _not_found(name, list_collections(path.parent), settings)
        make_folder(path, "collection")
    return Collection(name, path, settings, embedder, reranker, lock_wait_s=lock_wait_s)


def _not_found(name: str, embedded: list[str], settings: Settings | None = None) -> NotFoundError:
    """Naming the collections there are: a mistyped name is then one look away."""
    elsewhere = [
        n for n, c in (settings.collections if settings else {}).items() if c.backend != "embedded"
    ]
    there = sorted({*embedded, *elsewhere})
    if not there:
        hint = "there is no collection here yet: ingest something first, or check --index-dir"
    else:
        shown = ", ".join(there[:20]) + (f" and {len(there) - 20} more" if len(there) > 20 else "")
        hint = f"the collections here are: {shown} (or ingest into {name!r} first)"
    return NotFoundError(ErrorCode.COLLECTION_NOT_FOUND, f"no collection named {name!r}", hint=hint)


def _write_lock(path: Path, wait_s: float = WRITER_WAIT_S) -> AbstractContextManager[None]:
    """Exclusive. A second writer fails after ``wait_s`` instead of queueing behind a long
    ingest; opening waits up to its own ``wait_s`` for a process that is rebuilding an index."""
    return write_lock(path, wait_s)


_UNREAD = object()


@dataclass(frozen=True, slots=True)
class Searched:
    """A search's hits and what a surface says beside them: ``mode``, how it ranked;
    ``has_vectors``, whether the collection has any; ``missing_vectors``, chunks it could not rank
    by meaning (an interrupted embedding); ``no_searchable_words``, the query was stop words alone
    or punctuation; ``pending``, documents stored that it may have missed."""

    hits: list[Hit]
    mode: ConcreteMode
    has_vectors: bool
    missing_vectors: int
    no_searchable_words: bool
    pending: int


class Collection:
    """A named collection: ingest into it, search it, resolve its citations."""

    def __init__(
        self,
        name: str,
        path: Path,
        settings: Settings,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        *,
        lock_wait_s: float = 10.0,
        backend: Backend | None = None,
    ) -> None:
        self.name = name
        self.path = path  # the embedded folder; for another backend, the name its opt-ins use
        self.settings = settings
        self._embedder = embedder
        self._reranker = reranker
        if backend is None:
            from groundkit.backends.embedded import EmbeddedBackend

            backend = EmbeddedBackend(path, settings, lock_wait_s=lock_wait_s)
        self._backend: Backend = backend

    @property
    def backend(self) -> str:
        """Where it lives: ``embedded`` or ``qdrant``."""
        return self._backend.kind

    # The embedded backend's parts, for tests that reach into them.
    @property
    def _embedded(self) -> EmbeddedBackend:
        from groundkit.backends.embedded import EmbeddedBackend

        if not isinstance(self._backend, EmbeddedBackend):
            raise AttributeError(f"collection {self.name!r} is not embedded")
        return self._backend

    @property
    def _store(self) -> Store:
        return self._embedded.store

    @property
    def _lexical(self) -> LexicalIndex:
        return self._embedded.lexical

    @property
    def _vectors(self) -> VectorIndex:
        return self._embedded.vectors

    def close(self) -> None:
        self._backend.close()

    def __enter__(self) -> Collection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the models this collection is bound to
    @property
    def embedder_identity(self) -> EmbedderIdentity | None:
        """The identity its vectors were made with, or None when it has none."""
        key = self._backend.embedder_key()
        return EmbedderIdentity.parse(key) if key else None

    def embedder(self) -> Embedder | None:
        """The embedder its vectors were made with (loaded on first use), or None when it has
        no vectors. Raises ``ModelError`` when the configured one is another."""
        return self._bound_embedder() if self.embedder_identity is not None else None

    def _bound_embedder(self) -> Embedder:
        """The configured embedder, refused unless it is the one the vectors were made with."""
        return self._embedder_bound_to(self.embedder_identity)

    def _embedder_bound_to(self, bound: EmbedderIdentity | None) -> Embedder:
        if self._embedder is None:
            # The question a search embeds is kept: `grk answer` weighs sentences against it.
            self._embedder = RecallsQueries(create_embedder(self.settings.embed))
        mine = self._embedder.identity
        if bound is not None and bound != mine:
            raise ModelError(
                ErrorCode.EMBEDDER_MISMATCH,
                f"collection {self.name!r} was embedded with {bound.key()};"
                f" the configured embedder is {mine.key()}",
                hint="configure the collection's embedder, or ingest into a new collection",
            )
        return self._embedder

    def _loaded_reranker(self) -> Reranker:
        if self._reranker is None:
            self._reranker = load_reranker(self.settings.rerank)
        return self._reranker

    # -- operations
    def ingest(
        self,
        inputs: Sequence[str | os.PathLike[str]],
        *,
        progress: Progress | None = None,
        dense: bool | None = None,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        names_from: str | os.PathLike[str] | None = None,
        sentences: Splitter | None = None,
    ) -> IngestReport:
        """Ingest files, directories, JSONL record files and http(s) URLs, incrementally.

        With ``dense`` (default: ``ingest.dense``), or once the collection has vectors, every chunk
        without a vector gets one, existing chunks included; the vectors are committed in
        batches, so Ctrl-C (``pipeline.Interrupted``) keeps them and the next run resumes.
        ``include``/``exclude``: globs (gitignore syntax) of what a folder's walk takes or leaves.
        Files are shown by their path from ``names_from`` (default: the common parent of the
        inputs, so one folder's files are named as inside it); no two documents show the same.

        With ``sentences`` (a splitter: the extractive answer's ``answer.shown.ShownSentences``)
        and vectors, each chunk without stored sentences is split and its sentences embedded
        (``pipeline.sentences``), so an answer need not embed them while its reader waits.

        Raises ``UsageError`` before anything is written when a named path does not exist.
        """
        # (Imported here: a process that only searches never compiles the ingest modules.)
        from groundkit.ingest.fetch import split_inputs
        from groundkit.ingest.walk import Filters, missing_inputs

        paths = split_inputs([os.fspath(i) for i in inputs]).paths
        if missing_inputs(paths):
            # Which ones by position: a server's caller may name machine paths, never echoed.
            gone = [str(n) for n, p in enumerate(paths, start=1) if missing_inputs([p])]
            raise UsageError(
                ErrorCode.USAGE,
                f"nothing to ingest at path {', '.join(gone[:5])} of {len(paths)}"
                " (not found, a broken symlink or a loop of symlinks)",
                hint="check the paths; nothing was ingested",
            )
        with self._backend.write_lock(WRITER_WAIT_S):
            want_dense = self.settings.ingest.dense if dense is None else dense
            embedder = None
            if want_dense or self.embedder_identity is not None:
                embedder = self._bound_embedder()
                if self.embedder_identity is None:
                    self._backend.bind_embedder(embedder.identity)
            report = self._backend.ingest(
                [os.fspath(i) for i in inputs],
                self.settings,
                progress,
                embedder=embedder,
                exclude=[str(self.path.parent)],  # never index our own index
                filters=Filters(tuple(include), tuple(exclude)),
                names_from=None if names_from is None else os.path.abspath(names_from),
            )
            if sentences is not None and embedder is not None:
                batch = self.settings.embed.batch_size
                stored = self._backend.store_sentences(embedder, sentences, batch, progress)
                report = dataclasses.replace(report, chunks_split=stored.chunks)
            return report

    def rebuild_sentences(self, sentences: Splitter) -> int:
        """Split and embed every chunk's sentences anew from the store (as ``ingest`` with
        ``sentences`` does for chunks that have none); returns how many were embedded."""
        with self._backend.write_lock(WRITER_WAIT_S):
            if self.embedder_identity is None:
                return 0
            embedder = self._bound_embedder()
            self._backend.clear_sentences()
            batch = self.settings.embed.batch_size
            return self._backend.store_sentences(embedder, sentences, batch, None).sentences

    def sentences_of(self, chunk_ids: Sequence[str]) -> dict[str, ChunkSentences]:
        """The stored sentences (offsets in the chunk's text, vectors by the collection's
        embedder) of those of ``chunk_ids`` that have them; none without vectors."""
        identity = self.embedder_identity
        if identity is None or not chunk_ids:
            return {}
        return self._backend.sentences_of(chunk_ids, identity.dimensions)

    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        mode: SearchMode | str | None = None,
        source: str | None = None,
        where: Mapping[str, Any] | None = None,
        rerank: bool | None = None,
        collapse: bool | None = None,
    ) -> list[Hit]:
        """Ranked hits for ``query``, searched as plain words (never as query syntax).

        ``mode``: bm25, dense, hybrid (reciprocal-rank fusion of both) or auto; default
        ``search.mode``, whose ``auto`` means hybrid when the collection has vectors, else bm25.
        ``collapse`` (default ``search.collapse``): fold near-duplicate hits into the best one.
        Dense and hybrid rank only chunks that have vectors: see ``missing_vectors``.
        """
        return self._search(query, top_k, mode, source, where, rerank, collapse, read=False)[0]

    def searched(
        self,
        query: str,
        *,
        top_k: int | None = None,
        mode: SearchMode | str | None = None,
        source: str | None = None,
        where: Mapping[str, Any] | None = None,
        rerank: bool | None = None,
        collapse: bool | None = None,
    ) -> Searched:
        """``search``, with what a surface says beside its hits (``Searched``), each read once:
        asked one by one (``resolve_mode``, ``missing_vectors``, ``searchable``), the mode was
        resolved, the binding read and the query normalised again for each. Every hit's row
        is read during the search, as a surface shows them all."""
        # Read at once: the surfaces that ask show every hit's citation and snippet.
        hits, chosen, bound = self._search(
            query, top_k, mode, source, where, rerank, collapse, read=True
        )
        if bound is _UNREAD:
            bound = self.embedder_identity
        missing = 0
        if chosen != SearchMode.BM25 and bound is not None:
            missing = max(0, self._backend.counts()[1] - self._backend.vector_count())
        return Searched(
            hits,
            chosen,
            bound is not None,
            missing,
            not hits and not self.searchable(query),
            self._backend.pending_documents(),
        )

    def _search(
        self,
        query: str,
        top_k: int | None,
        mode: SearchMode | str | None,
        source: str | None,
        where: Mapping[str, Any] | None,
        rerank: bool | None,
        collapse: bool | None,
        *,
        read: bool,
    ) -> tuple[list[Hit], ConcreteMode, EmbedderIdentity | object | None]:
        """The hits, the mode they were ranked in, and the embedder binding (``_UNREAD``: a bm25
        search by name does not read it)."""
        cfg = self.settings.search
        requested = mode or cfg.mode
        # The binding read once, and not for bm25 by name: each read is a statement of its own,
        # a few percent of a top-10 search (a hybrid one read it three times).
        by_name = requested == SearchMode.BM25
        bound = None if by_name else self.embedder_identity
        # bm25 by name is bm25: the enum's lookup is skipped on the yardstick's path.
        chosen = (
            SearchMode.BM25 if by_name else concrete_mode(requested, has_vectors=bound is not None)
        )
        embedder = None
        if chosen != SearchMode.BM25:
            if bound is None:
                raise UsageError(
                    ErrorCode.NO_VECTORS,
                    f"collection {self.name!r} has no vectors for {chosen} search",
                    hint="ingest with --dense first, or search with --mode bm25",
                )
            embedder = self._embedder_bound_to(bound)
        reranker = self._loaded_reranker() if (cfg.rerank if rerank is None else rerank) else None
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
            collapse=cfg.collapse if collapse is None else collapse,
            read_rows=read,
        )
        hits = run_search(
            request,
            collection=self.name,
            engine=self._backend.engine,
            embedder=embedder,
            reranker=reranker,
        )
        return hits, chosen, _UNREAD if by_name else bound

    def searchable(self, query: str) -> bool:
        """Whether ``query`` holds a word a search looks for; one of stop words alone (``the
        of and to is``) finds nothing in any mode."""
        return searchable(query, self._backend.engine)

    def resolve_mode(self, mode: SearchMode | str) -> ConcreteMode:
        """The way of ranking a mode names here: ``auto`` is hybrid with vectors, else bm25."""
        return concrete_mode(mode, has_vectors=self.embedder_identity is not None)

    def missing_vectors(self, mode: SearchMode | str | None = None) -> int:
        """How many chunks a search in ``mode`` (default ``search.mode``) cannot rank by meaning:
        those without a vector yet (an interrupted ``ingest --dense``), when the mode uses
        vectors; 0 for bm25. Two counters kept by the store: no table is scanned."""
        chosen = self.resolve_mode(mode or self.settings.search.mode)
        if chosen == SearchMode.BM25 or self.embedder_identity is None:
            return 0
        return max(0, self._backend.counts()[1] - self._backend.vector_count())

    def pending_documents(self) -> int:
        """Documents stored but not yet found by every search (their search indexes are
        catching up: a run stopped by a full disk after the store committed). ``grk ingest``
        or any command that can write brings them in."""
        return self._backend.pending_documents()

    def show(self, chunk_id: str) -> ResolvedCitation:
        """A chunk's text read back from the stored document, with its source re-checked (on a
        cluster, a source file not on this machine is ``not_checked``: not checked here)."""
        return resolve(
            self._backend,
            self.name,
            _text(chunk_id, "chunk id"),
            absent=self._absent,
            limit=self.settings.ingest.max_file_bytes,
        )

    @property
    def _absent(self) -> Verification:
        return Verification.MISSING if self._backend.local_sources else Verification.NOT_CHECKED

    def documents(self) -> list[Document]:
        """Every stored document, whole, in ingest order."""
        return [_document(d) for d in self._backend.all_documents()]

    def document(self, document_id: str) -> Document:
        """One stored document, whole, by its document id (``document.not_found`` otherwise)."""
        key = _text(document_id, "document")
        for d in self._backend.find_documents(key):
            if d.document_id == key:  # find_documents also matches sources: only the id here
                return _document(d)
        raise NotFoundError(ErrorCode.DOCUMENT_NOT_FOUND, f"no document {key!r} in {self.name!r}")

    def chunks(self) -> list[Chunk]:
        """Every chunk, in document order, each read back from its document's stored text."""
        return [
            Chunk(c.chunk_id, c.document_id, c.ordinal, c.start, c.end, c.text, c.metadata)
            for c in self._backend.all_chunks()
        ]

    def verify_quote(
        self, quote: str, *, chunk_id: str | None = None, document_id: str | None = None
    ) -> QuoteCheck:
        """Whether ``quote`` is verbatim in a chunk or a document, with its stored offsets."""
        for value, what in ((quote, "quote"), (chunk_id, "chunk id"), (document_id, "document")):
            if value is not None:
                _text(value, what)
        return verify_quote(
            self._backend,
            self.name,
            quote,
            chunk_id=chunk_id,
            document_id=document_id,
            absent=self._absent,
            limit=self.settings.ingest.max_file_bytes,
        )

    def delete_document(self, key: str) -> str:
        """Delete a document by document id, source (as shown, or its absolute path) or external
        id; returns its document id."""
        key = _text(key, "document")
        with self._backend.write_lock(WRITER_WAIT_S):
            backend = self._backend
            found = backend.find_documents(key) or backend.find_documents(os.path.abspath(key))
            if not found:
                raise NotFoundError(
                    ErrorCode.DOCUMENT_NOT_FOUND, f"no document {key!r} in {self.name!r}"
                )
            if len(found) > 1:
                shown = all(d.path == key for d in found)
                raise UsageError(
                    ErrorCode.AMBIGUOUS_DOCUMENT,
                    f"{len(found)} documents are shown as {key!r}"
                    if shown
                    else f"{len(found)} documents match {key!r} (by source or external id)",
                    hint="delete by document id instead (`grk search --json` shows it)",
                )
            document = found[0]
            backend.delete_documents([document.rowid])
            return document.document_id

    def reindex(self) -> int:
        """Make what the backend derives from the stored text anew (embedded: the indexes, each
        beside the old one, so a search meanwhile sees the old or the new). Returns the number of
        chunks indexed."""
        with self._backend.write_lock(WRITER_WAIT_S):
            return self._backend.reindex()

    def status(self) -> CollectionStatus:
        return self._backend.status(self.name)


def _document(d: DocumentRow) -> Document:
    return Document(
        d.document_id, d.path, d.text, d.format, d.external_id, d.title, d.metadata, d.source
    )


def _text(value: str, what: str) -> str:
    if not is_text(value):
        raise UsageError(
            ErrorCode.USAGE,
            f"the {what} holds bytes that are not text (not UTF-8)",
            hint="check the terminal's encoding, or copy the id from grk's own output",
        )
    return value

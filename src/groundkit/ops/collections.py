"""The operations on collections: search, show, verify, status, list, ingest, delete, reindex.

Every surface reaches a collection through a ``Collections``: where collections are opened, and
how long they stay open. ``LocalCollections`` opens each one on first use and closes it at the
end (a CLI command); the server's ``Runtime`` shares open ones across requests and notices
writes made elsewhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from groundkit.collection import (
    Collection,
    delete_collection,
    known_collections,
    open_collection,
)
from groundkit.config import Settings
from groundkit.errors import ErrorCode, NotFoundError, UsageError
from groundkit.pipeline import Progress
from groundkit.retrieve.quotes import QuoteCheck
from groundkit.types import (
    CollectionStatus,
    ConcreteMode,
    Document,
    Hit,
    IngestReport,
    ResolvedCitation,
    SearchMode,
)

__all__ = [
    "Collections",
    "Found",
    "IngestOrder",
    "LocalCollections",
    "SearchQuery",
    "Shown",
    "VerifyQuery",
    "collection_names",
    "delete_document",
    "drop_collection",
    "folder_of",
    "ingest",
    "reindex",
    "search",
    "show",
    "show_anywhere",
    "show_in_document",
    "status",
    "unranked",
    "verify",
]


class Collections(Protocol):
    """Where the operations find collections, by name."""

    @property
    def settings(self) -> Settings: ...

    def list(self) -> list[str]:
        """The collections there are."""
        ...

    def reading(self, name: str) -> AbstractContextManager[Collection]:
        """Collection ``name`` to read, for the block (``collection.not_found`` if none)."""
        ...

    def writing(self, name: str, *, create: bool = False) -> AbstractContextManager[Collection]:
        """Collection ``name`` to change, for the block (with ``create``, made if need be)."""
        ...

    def admit(self, inputs: Sequence[str]) -> None:
        """Refuse inputs this source may not ingest (a server's ``serve.ingest_roots``)."""
        ...

    def forget(self, name: str) -> None:
        """Collection ``name`` was deleted: let go of anything held open for it."""
        ...


class LocalCollections:
    """Collections opened on first use with ``settings`` and closed by ``close()`` (a context
    manager): what one CLI command needs. A ``Collections``."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._open: dict[str, Collection] = {}

    @property
    def settings(self) -> Settings:
        return self._settings

    def list(self) -> list[str]:
        return known_collections(self._settings)

    @contextmanager
    def reading(self, name: str) -> Iterator[Collection]:
        yield self._opened(name, create=False)

    @contextmanager
    def writing(self, name: str, *, create: bool = False) -> Iterator[Collection]:
        yield self._opened(name, create=create)

    def admit(self, inputs: Sequence[str]) -> None:
        pass  # the user's own machine: any path they can read

    def forget(self, name: str) -> None:
        found = self._open.pop(name, None)
        if found is not None:
            found.close()

    def close(self) -> None:
        for name in list(self._open):
            self.forget(name)

    def __enter__(self) -> LocalCollections:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _opened(self, name: str, *, create: bool) -> Collection:
        if name not in self._open:
            self._open[name] = open_collection(name, settings=self._settings, create=create)
        return self._open[name]


def _name(collections: Collections, requested: str | None) -> str:
    """The collection a request names, or the configured one, as `grk` defaults it."""
    return requested if requested is not None else collections.settings.collection


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """A search as every surface asks it; None: the collection's settings decide."""

    query: str
    collection: str | None = None
    top_k: int | None = None
    mode: SearchMode | str | None = None
    source: str | None = None
    where: Mapping[str, Any] | None = None
    rerank: bool | None = None
    collapse: bool | None = None


@dataclass(frozen=True, slots=True)
class Found:
    """What a search found. ``missing_vectors``: chunks it could not rank by meaning (an
    interrupted embedding); ``mode``: how it ranked; ``has_vectors``: whether the collection has
    any (a page offers dense and hybrid then); ``no_searchable_words``: the query was stop words
    alone (``the of and to is``) or punctuation, so it found nothing, in any mode;
    ``pending``: documents stored that this search may have missed (its indexes are catching up
    after a run the disk stopped), said so a missing document is never a silent loss."""

    collection: str
    hits: list[Hit]
    missing_vectors: int
    mode: ConcreteMode
    has_vectors: bool
    no_searchable_words: bool = False
    pending: int = 0


def search(collections: Collections, request: SearchQuery) -> Found:
    name = _name(collections, request.collection)
    with collections.reading(name) as collection:
        found = collection.searched(
            request.query,
            top_k=request.top_k,
            mode=request.mode,
            source=request.source,
            where=request.where,
            rerank=request.rerank,
            collapse=request.collapse,
        )
        return Found(
            name,
            found.hits,
            found.missing_vectors,
            found.mode,
            found.has_vectors,
            found.no_searchable_words,
            found.pending,
        )


def unranked(
    collections: Collections, collection: str | None = None, mode: SearchMode | str | None = None
) -> int:
    """How many chunks a search in ``mode`` (default: the settings') cannot rank by meaning:
    those without a vector yet; 0 for bm25."""
    with collections.reading(_name(collections, collection)) as opened:
        return opened.missing_vectors(mode)


def show(
    collections: Collections, chunk_id: str, collection: str | None = None
) -> ResolvedCitation:
    """A chunk read back from its stored document, its source re-checked (and, when the source
    changed there, what it says now: ``ResolvedCitation.now``)."""
    with collections.reading(_name(collections, collection)) as opened:
        return opened.show(chunk_id)


def show_anywhere(collections: Collections, chunk_id: str) -> ResolvedCitation:
    """``show`` for a reader who named no collection: in the configured one, else in the one
    collection that holds the chunk (a chunk id quoted from a search names no collection).

    Raises the configured collection's not-found error when no other holds the chunk either, a
    usage error naming them when several do."""
    first = collections.settings.collection
    try:
        return show(collections, chunk_id, first)
    except NotFoundError as exc:
        if exc.code not in (ErrorCode.COLLECTION_NOT_FOUND, ErrorCode.CHUNK_NOT_FOUND):
            raise
        missed = exc
    holding: list[ResolvedCitation] = []
    others = [name for name in collections.list() if name != first]
    for name in others:
        try:
            holding.append(show(collections, chunk_id, name))
        except NotFoundError as exc:
            if exc.code != ErrorCode.CHUNK_NOT_FOUND:
                raise
    if len(holding) == 1:
        return holding[0]
    if holding:
        names = ", ".join(found.citation.collection for found in holding)
        raise UsageError(
            ErrorCode.USAGE,
            f"chunk {chunk_id!r} is in {len(holding)} collections: {names}",
            hint="name one with --collection",
        )
    if not others:
        raise missed
    searched = len(others) + (missed.code == ErrorCode.CHUNK_NOT_FOUND)
    raise NotFoundError(
        ErrorCode.CHUNK_NOT_FOUND,
        f"none of the {searched} collections here holds chunk {chunk_id!r}",
        hint=missed.hint,  # which collections there are, or that chunk ids change with edits
    )


@dataclass(frozen=True, slots=True)
class Shown:
    """A chunk resolved, and the whole document it cites."""

    resolved: ResolvedCitation
    document: Document


def show_in_document(collections: Collections, collection: str, chunk_id: str) -> Shown:
    with collections.reading(collection) as opened:
        resolved = opened.show(chunk_id)
        return Shown(resolved, opened.document(resolved.citation.document_id))


@dataclass(frozen=True, slots=True)
class VerifyQuery:
    """Whether ``quote`` is verbatim in a chunk, or (with ``document_id``) a whole document."""

    quote: str
    collection: str | None = None
    chunk_id: str | None = None
    document_id: str | None = None


def verify(collections: Collections, request: VerifyQuery) -> QuoteCheck:
    with collections.reading(_name(collections, request.collection)) as collection:
        return collection.verify_quote(
            request.quote, chunk_id=request.chunk_id, document_id=request.document_id
        )


def folder_of(collections: Collections, collection: str | None = None) -> Path:
    """The folder of an existing collection (its opt-in for AI is keyed by it)."""
    with collections.reading(_name(collections, collection)) as opened:
        return opened.path


def status(collections: Collections, collection: str | None = None) -> CollectionStatus:
    """Counts, sizes and index health."""
    with collections.reading(_name(collections, collection)) as opened:
        return opened.status()


def collection_names(collections: Collections) -> list[str]:
    return collections.list()


@dataclass(frozen=True, slots=True)
class IngestOrder:
    """What to ingest where. ``dense`` None: ``ingest.dense`` decides; ``include``/``exclude``:
    globs of what a folder's walk takes or leaves; ``names_from``: the folder files are named
    from (None: the inputs' common parent); ``progress``: told of each phase."""

    collection: str
    inputs: Sequence[str]
    dense: bool | None = None
    include: Sequence[str] = ()
    exclude: Sequence[str] = ()
    names_from: str | None = None
    progress: Progress | None = field(default=None, compare=False)


def ingest(collections: Collections, order: IngestOrder) -> IngestReport:
    """Ingest ``order.inputs`` (files, folders, JSONL record files, URLs), only what changed.
    Raises before anything is read when the source refuses an input."""
    # Imported here: the extract's splitter is the answer's, and a search needs none of it.
    from groundkit.answer.shown import ShownSentences

    collections.admit(order.inputs)
    with collections.writing(order.collection, create=True) as collection:
        return collection.ingest(
            [os.fspath(i) for i in order.inputs],
            progress=order.progress,
            dense=order.dense,
            include=order.include,
            exclude=order.exclude,
            names_from=order.names_from,
            sentences=(
                ShownSentences(collection.settings.answer.min_quote_chars)
                if collection.settings.ingest.sentences
                else None
            ),
        )


def delete_document(collections: Collections, collection: str, key: str) -> str:
    """Delete a document by document id, source or external id; returns its document id."""
    with collections.writing(collection) as opened:
        return opened.delete_document(key)


def drop_collection(collections: Collections, collection: str) -> None:
    """Delete a whole collection and every file it owns."""
    settings = collections.settings
    delete_collection(collection, settings.index_dir, settings=settings)
    collections.forget(collection)


def reindex(collections: Collections, collection: str | None = None) -> int:
    """Rebuild the derived indexes from the store; returns the number of chunks indexed."""
    with collections.writing(_name(collections, collection)) as opened:
        return opened.reindex()

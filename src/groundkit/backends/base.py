"""The backend seam: everything a collection stores or derives goes through one ``Backend``.

A backend holds documents with their normalised text (every citation cuts its text from it),
chunks with exact offsets and metadata, the lexical and dense vectors of each chunk, and the
identity of the embedder that made the vectors. It replaces and deletes by document, answers a
search's questions (``retrieve.search.SearchEngine``), reads chunks and documents back
(``retrieve.reading.Rows``), counts, and says how it stands. ``collection.Collection`` is the one
caller: it keeps what every backend shares (the embedder binding, the search request, citation
checks) and hands the rest here.

Writes happen under ``write_lock``: one writer per collection, wherever the writers run.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Literal, Protocol

from groundkit.embed.base import EmbedderIdentity
from groundkit.index.rows import ChunkRow, DocumentRow
from groundkit.types import CollectionStatus, IngestReport

if TYPE_CHECKING:
    from groundkit.config import Settings
    from groundkit.embed.base import Embedder
    from groundkit.index.sentences import ChunkSentences
    from groundkit.ingest.walk import Filters
    from groundkit.pipeline import Progress
    from groundkit.pipeline.sentences import Splitter, Stored
    from groundkit.retrieve.search import SearchEngine

__all__ = ["STORE_FILE", "Backend", "BackendKind"]

BackendKind = Literal["embedded", "qdrant"]
# The embedded backend's store in a collection folder. Named here, not in ``embedded``, so that
# finding collections does not import the embedded engine (a Qdrant search never needs it).
STORE_FILE = "store.sqlite"


class Backend(Protocol):
    @property
    def kind(self) -> BackendKind: ...

    @property
    def local_sources(self) -> bool:
        """Whether the sources were read on this machine: a source file not there is then
        ``missing``; on a cluster fed from other machines it could not be checked here."""
        ...

    def close(self) -> None: ...

    # -- identity ---------------------------------------------------------------------------------
    def embedder_key(self) -> str | None:
        """The identity (``EmbedderIdentity.key()``) its vectors were made with, or None."""
        ...

    def bind_embedder(self, identity: EmbedderIdentity) -> None:
        """Record the embedder of its vectors (once; the caller holds the write lock)."""
        ...

    # -- writing (under write_lock) ---------------------------------------------------------------
    def write_lock(self, wait_s: float) -> AbstractContextManager[None]:
        """The collection's one writer, for the block; ``index.locked`` after ``wait_s``."""
        ...

    def ingest(
        self,
        inputs: Sequence[str],
        settings: Settings,
        progress: Progress | None,
        *,
        embedder: Embedder | None,
        exclude: Sequence[str],
        filters: Filters,
        names_from: str | None = None,
    ) -> IngestReport:
        """An incremental ingest run (``pipeline.run_ingest``) into this backend."""
        ...

    def delete_documents(self, rowids: Sequence[int]) -> None:
        """Delete documents (row ids from ``find_documents``) with their chunks and vectors."""
        ...

    def reindex(self) -> int:
        """Make what it derives from the stored text anew; returns the chunks indexed."""
        ...

    def store_sentences(
        self, embedder: Embedder, split: Splitter, batch_size: int, progress: Progress | None
    ) -> Stored:
        """Split and embed the sentences of every chunk that has a vector and none stored
        (``pipeline.sentences``); says how many were stored (none where none are kept)."""
        ...

    def clear_sentences(self) -> int:
        """Drop every stored sentence, to be made again by ``store_sentences``."""
        ...

    def sentences_of(self, chunk_ids: Sequence[str], dims: int) -> dict[str, ChunkSentences]:
        """The stored sentences of those of ``chunk_ids`` that have them."""
        ...

    # -- reading ----------------------------------------------------------------------------------
    @property
    def engine(self) -> SearchEngine: ...

    def chunk(self, chunk_id: str) -> tuple[ChunkRow, DocumentRow] | None: ...

    def find_documents(self, key: str) -> list[DocumentRow]: ...

    def all_documents(self) -> list[DocumentRow]: ...

    def all_chunks(self) -> Iterator[ChunkRow]: ...

    def counts(self) -> tuple[int, int]:
        """``(documents, chunks)``."""
        ...

    def vector_count(self) -> int:
        """Chunks that have a dense vector."""
        ...

    def pending_documents(self) -> int:
        """Documents committed to the store that a search may not find yet: changed since the
        search indexes last caught up (a run the disk filled after the store committed)."""
        ...

    def status(self, name: str) -> CollectionStatus: ...

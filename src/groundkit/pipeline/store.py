"""What an ingest run writes through: ``DocumentStore``.

The embedded collection's SQLite ``index.store.Store`` is one; a Qdrant collection's writer
(``backends.qdrant.writer``) is another. Both keep the same promises: ``transaction()`` makes
what is written inside it visible all at once or not at all; ``savepoint()`` undoes one file's
writes alone when its block raises; a document is replaced whole (its chunks with it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from groundkit.index.rows import IngestState, NewChunk
from groundkit.types import Metadata

__all__ = ["DocumentStore"]


class DocumentStore(Protocol):
    def transaction(self) -> AbstractContextManager[None]: ...

    def savepoint(self) -> AbstractContextManager[None]: ...

    # -- what is stored of each source, for an incremental ingest
    def ingest_state(self, origin: str) -> dict[str, IngestState]: ...

    def file_unchanged(
        self, origin: str, size: int, mtime_ns: int, settings: str
    ) -> int | None: ...

    def record_file(self, origin: str, size: int, mtime_ns: int, settings: str) -> None: ...

    def forget_file(self, origin: str) -> None: ...

    def origins_under(self, directory: str) -> list[str]: ...

    def documents_from(self, origin: str) -> list[int]: ...

    # -- the names documents are shown by (``pipeline.names``)
    def name_origin(self, origin: str, name: str) -> None: ...

    def name_taken(self, name: str, origin: str) -> bool: ...

    # -- documents, whole, with their chunks
    def put_document(
        self,
        *,
        rowid: int | None,
        document_id: str,
        source: str,
        path: str,
        origin: str,
        external_id: str | None,
        format: str,
        title: str | None,
        text: str,
        content_hash: str,
        fingerprint: str,
        metadata: Metadata,
        chunks: Sequence[NewChunk],
    ) -> int: ...

    def delete_documents(self, rowids: Iterable[int]) -> int: ...

    # -- what later phases fill in: near-duplicate fingerprints, dense vectors
    def unfolded_count(self) -> int: ...

    def chunks_without_fold(self, after: int, limit: int) -> list[tuple[int, str]]: ...

    def put_folds(self, rows: Iterable[tuple[bytes, int]]) -> None: ...

    def chunks_without_vectors(self) -> list[tuple[int, str]]: ...

    def put_vectors(self, rows: Sequence[tuple[int, bytes]]) -> None: ...

    def counts(self) -> tuple[int, int]: ...

    def vector_count(self) -> int: ...

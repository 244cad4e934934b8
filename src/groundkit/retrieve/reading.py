"""What retrieval reads of a collection's stored rows, whichever backend holds them: a chunk with
its document, and documents by id or source. The embedded ``index.store.Store`` is one; a Qdrant
collection's reader (``backends.qdrant``) another."""

from __future__ import annotations

from typing import Protocol

from groundkit.index.rows import ChunkRow, DocumentRow

__all__ = ["Documents", "Rows"]


class Documents(Protocol):
    def find_documents(self, key: str) -> list[DocumentRow]:
        """Documents whose id or source is ``key``; failing that, those shown as ``key`` or with
        that external id."""
        ...


class Rows(Documents, Protocol):
    def chunk(self, chunk_id: str) -> tuple[ChunkRow, DocumentRow] | None:
        """The chunk with this id and its document, or None."""
        ...

"""The embedded backend: one folder under the index dir holding ``store.sqlite`` (the source of
truth), the derived indexes (``lexical.N/`` named by ``lexical.json``, and ``vectors/``;
rebuildable from the store) and ``write.lock`` (held by the one process writing). What
``collection.py`` did itself before backends were a seam, unchanged."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from groundkit import pipeline
from groundkit.backends.base import STORE_FILE
from groundkit.config import Settings
from groundkit.embed.base import Embedder, EmbedderIdentity
from groundkit.index.derived import DerivedIndex, health, rebuild
from groundkit.index.disk import disk_usage
from groundkit.index.lexical import LexicalIndex
from groundkit.index.recovery import recover
from groundkit.index.rows import ChunkRow, DocumentRow
from groundkit.index.store import Store
from groundkit.index.vectors import VectorIndex
from groundkit.retrieve.engine import LocalEngine
from groundkit.retrieve.near import NearIndex
from groundkit.storage.locks import write_lock
from groundkit.types import CollectionStatus, IngestReport

if TYPE_CHECKING:
    from groundkit.index.sentences import ChunkSentences
    from groundkit.ingest.walk import Filters
    from groundkit.pipeline import Progress
    from groundkit.pipeline.sentences import Splitter, Stored

__all__ = ["STORE_FILE", "EmbeddedBackend"]


class EmbeddedBackend:
    """A ``backends.base.Backend`` in the collection folder ``path``."""

    kind: Literal["embedded"] = "embedded"
    local_sources = True

    def __init__(self, path: Path, settings: Settings, *, lock_wait_s: float = 10.0) -> None:
        self.path = path
        self.store = Store(path / STORE_FILE)
        self.lexical = LexicalIndex(path, in_step=partial(self.store.in_step, LexicalIndex.name))
        self.vectors = VectorIndex(path, ann_threshold=settings.search.ann_threshold)
        self.near = NearIndex(path)
        self._engine = LocalEngine(self.store, self.lexical, self.vectors, self.near)
        recover(self.store, self.derived, path, lock_wait_s)

    @property
    def derived(self) -> tuple[DerivedIndex[Any], ...]:
        return (self.lexical, self.vectors, self.near)

    def close(self) -> None:
        self.store.close()

    # -- identity
    def embedder_key(self) -> str | None:
        return self.store.manifest_value("embedder")

    def bind_embedder(self, identity: EmbedderIdentity) -> None:
        with self.store.transaction():
            self.store.set_manifest("embedder", identity.key())

    # -- writing
    def write_lock(self, wait_s: float) -> AbstractContextManager[None]:
        return write_lock(self.path, wait_s)

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
        # (Imported here: a process that only searches never compiles the ingest pipeline.)
        from groundkit.index.feed import LexicalFeed

        # The lexical index is written as files are stored and committed after the store
        # (see index.feed); whatever it leaves undone, sync_derived catches up as before.
        feed = LexicalFeed(self.lexical, self.store)

        def sync(progress: Progress | None) -> None:
            if progress:
                progress("indexing", 0, None)
            # While tantivy commits, the other indexes catch up (the near-duplicate join).
            others = (self.vectors, self.near)
            feed.finish(meanwhile=partial(pipeline.sync_derived, self.store, others))
            pipeline.sync_derived(self.store, self.derived, progress)

        try:
            with self.store.followed_by(feed):
                return pipeline.run_ingest(
                    self.store,
                    sync,
                    inputs,
                    settings,
                    progress,
                    embedder=embedder,
                    exclude=exclude,
                    filters=filters,
                    names_from=names_from,
                )
        finally:
            feed.abandon()  # nothing, once finished; else the store's transaction was undone

    def delete_documents(self, rowids: Sequence[int]) -> None:
        with self.store.transaction():
            self.store.delete_documents(rowids)
        pipeline.sync_derived(self.store, self.derived)

    def reindex(self) -> int:
        """Rebuild the derived indexes from the store, each beside the old one: a search
        meanwhile sees the old index or the new."""
        for index in self.derived:
            rebuild(self.store, index)
        return self.lexical.num_chunks

    def store_sentences(
        self, embedder: Embedder, split: Splitter, batch_size: int, progress: Progress | None
    ) -> Stored:
        from groundkit.pipeline.sentences import embed_sentences

        return embed_sentences(
            self.store, embedder, split, batch_size=batch_size, progress=progress
        )

    def clear_sentences(self) -> int:
        return self.store.clear_sentences()

    def sentences_of(self, chunk_ids: Sequence[str], dims: int) -> dict[str, ChunkSentences]:
        return self.store.sentences_of(chunk_ids, dims)

    # -- reading
    @property
    def engine(self) -> LocalEngine:
        return self._engine

    def chunk(self, chunk_id: str) -> tuple[ChunkRow, DocumentRow] | None:
        return self.store.chunk(chunk_id)

    def find_documents(self, key: str) -> list[DocumentRow]:
        return self.store.find_documents(key)

    def all_documents(self) -> list[DocumentRow]:
        return self.store.all_documents()

    def all_chunks(self) -> Iterator[ChunkRow]:
        return self.store.all_chunks()

    def counts(self) -> tuple[int, int]:
        return self.store.counts()

    def vector_count(self) -> int:
        return self.store.vector_count()

    def pending_documents(self) -> int:
        if not self.store.changes_logged():  # what every index has applied is forgotten
            return 0
        return max((self.store.unsearched(index.name) for index in self.derived), default=0)

    def status(self, name: str) -> CollectionStatus:
        documents, chunks = self.store.counts()
        manifest = self.store.manifest()
        return CollectionStatus(
            collection=name,
            documents=documents,
            chunks=chunks,
            lexical_chunks=self.lexical.num_chunks,
            embedder=manifest.get("embedder"),
            vectors=self.store.vector_count(),
            dense_index_vectors=self.vectors.count,
            pending=sum(health(self.store, index).pending for index in self.derived),
            formats=self.store.formats(),
            schema_version=int(manifest.get("schema_version", 0)),
            analyzer=manifest.get(f"derived.{LexicalIndex.name}.build"),
            size_bytes=disk_usage(self.path),
        )

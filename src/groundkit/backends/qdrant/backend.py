"""``QdrantBackend``: a groundkit collection kept in a Qdrant collection (``layout``).

It holds nothing of its own between calls: every read asks the cluster for the committed
version first, so any number of processes (``grk serve`` replicas, a writer elsewhere) can share
one collection, and what one of them commits the others see on their next request.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal

from groundkit.backends.qdrant.layout import (
    META_ID,
    PAYLOAD_INDEXES,
    SCHEMA,
    SPARSE,
    born_at,
    visible,
)
from groundkit.backends.qdrant.meta import new_meta, read_meta
from groundkit.backends.qdrant.reader import QdrantEngine, QdrantReader
from groundkit.backends.qdrant.sparse import SPARSE_BUILD, Encoder, mean_length, weights
from groundkit.backends.qdrant.transport import Spec, Transport, scroll_all
from groundkit.embed.base import EmbedderIdentity
from groundkit.errors import ErrorCode, NotFoundError
from groundkit.index.rows import ChunkRow, DocumentRow
from groundkit.types import CollectionStatus, IngestReport

# The writer, the lease and the pipeline are imported where a write needs them: a search in a
# process of its own (`grk search` on a `path` collection) never does.
if TYPE_CHECKING:
    from groundkit.backends.qdrant.lease import Lease
    from groundkit.backends.qdrant.writer import QdrantWriter
    from groundkit.config import Settings
    from groundkit.embed.base import Embedder
    from groundkit.index.sentences import ChunkSentences
    from groundkit.ingest.walk import Filters
    from groundkit.pipeline import Progress
    from groundkit.pipeline.sentences import Splitter, Stored

__all__ = ["QdrantBackend"]


class QdrantBackend:
    """A ``backends.base.Backend`` over ``transport``; ``spec`` makes the collection when it is
    first written."""

    kind: Literal["qdrant"] = "qdrant"
    local_sources = False

    def __init__(self, name: str, transport: Transport, spec: Spec, *, create: bool) -> None:
        self.name = name
        self.transport = transport
        self._spec = spec
        if not transport.exists():
            if not create:
                raise NotFoundError(
                    ErrorCode.COLLECTION_NOT_FOUND,
                    f"no collection named {name!r} on its Qdrant cluster",
                    hint="ingest something into it first, or check remote_name in grk.toml",
                )
            self._create()
        read_meta(transport)  # a collection groundkit did not make, or of another layout: refused
        self.reader = QdrantReader(transport)
        self._engine = QdrantEngine(transport, self.reader)
        self._lease: Lease | None = None

    def _create(self) -> None:
        from groundkit.backends.qdrant import vocab as models

        try:
            self.transport.create(self._spec, PAYLOAD_INDEXES)
        except Exception:
            if not self.transport.exists():  # not another process making it at the same time
                raise
        meta = models.PointStruct(id=META_ID, vector={}, payload=new_meta())
        self.transport.upsert([meta], insert_only=True)

    def close(self) -> None:
        self.transport.close()

    # -- identity
    def embedder_key(self) -> str | None:
        return self.reader.recent_meta().embedder

    def bind_embedder(self, identity: EmbedderIdentity) -> None:
        if self.reader.meta().dense is None:
            self.transport.add_dense(identity.dimensions, self._spec)
        self.transport.set_payload(
            {"embedder": identity.key(), "dense": identity.dimensions}, ids=[META_ID]
        )
        self.reader.forget()

    # -- writing
    @contextmanager
    def write_lock(self, wait_s: float) -> Iterator[None]:
        from groundkit.backends.qdrant.lease import lease

        with lease(self.transport, wait_s) as held:
            self._lease = held
            try:
                yield
            finally:
                self._lease = None
                self.reader.forget()  # whatever was written is read afresh

    def writer(self) -> QdrantWriter:
        """The ``DocumentStore`` an ingest writes through (under ``write_lock``)."""
        from groundkit.backends.qdrant.writer import QdrantWriter

        return QdrantWriter(self.transport, self._lease, Encoder())

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
        from groundkit.pipeline import run_ingest

        return run_ingest(
            self.writer(),
            lambda _progress: None,  # Qdrant's own indexes follow its points: nothing to sync
            inputs,
            settings,
            progress,
            embedder=embedder,
            exclude=exclude,
            filters=filters,
            names_from=names_from,
        )

    def delete_documents(self, rowids: Sequence[int]) -> None:
        writer = self.writer()
        with writer.transaction():
            writer.delete_documents(rowids)

    # A Qdrant collection keeps no sentences: an answer over it embeds them as it ranks.
    def store_sentences(
        self, embedder: Embedder, split: Splitter, batch_size: int, progress: Progress | None
    ) -> Stored:
        from groundkit.pipeline.sentences import Stored

        return Stored()

    def clear_sentences(self) -> int:
        return 0

    def sentences_of(self, chunk_ids: Sequence[str], dims: int) -> dict[str, ChunkSentences]:
        return {}

    def reindex(self) -> int:
        """Weigh every current chunk's BM25 vector anew with the analyzer of this code and the
        collection's mean chunk length now (avgdl is frozen between reindexes: ``sparse``)."""
        return self.reweigh()

    def reweigh(self, avgdl: float | None = None) -> int:
        """``reindex`` with ``avgdl`` given (None: measured); benchmarks/backends.py measures
        what a wrong one costs. Returns the chunks weighed."""
        from groundkit.backends.qdrant import vocab as models

        encoder = Encoder()
        committed = self.reader.committed()
        fields = ["context", "text"]
        made = [
            (point, encoder.terms(p.get("context", "") + p.get("text", "")))
            for point, p in scroll_all(self.transport, visible(committed, "chunk"), fields)
        ]
        if avgdl is None:
            avgdl = mean_length([terms.length for _, terms in made])
        for at in range(0, len(made), 256):
            vectors = []
            for point, terms in made[at : at + 256]:
                indices, values = weights(terms, avgdl)
                sparse = models.SparseVector(indices=indices, values=values)
                vectors.append(models.PointVectors(id=point, vector={SPARSE: sparse}))
            self.transport.update_vectors(vectors)
            if self._lease is not None:
                self._lease.renew()
        self.transport.set_payload({"avgdl": avgdl, "analyzer": SPARSE_BUILD}, ids=[META_ID])
        return len(made)

    # -- reading
    @property
    def engine(self) -> QdrantEngine:
        return self._engine

    def chunk(self, chunk_id: str) -> tuple[ChunkRow, DocumentRow] | None:
        return self.reader.chunk(chunk_id)

    def find_documents(self, key: str) -> list[DocumentRow]:
        return self.reader.find_documents(key)

    def all_documents(self) -> list[DocumentRow]:
        return self.reader.all_documents()

    def all_chunks(self) -> Iterator[ChunkRow]:
        return self.reader.all_chunks()

    def counts(self) -> tuple[int, int]:
        return self.reader.counts()

    def pending_documents(self) -> int:
        return 0  # a run's points become visible only when it commits: none lag behind

    def vector_count(self) -> int:
        return self.reader.vector_count()

    def status(self, name: str) -> CollectionStatus:
        meta = self.reader.meta()
        documents, chunks, vectors = self.reader.exact_counts(meta.committed)
        # A run that stopped before committing left these, invisible until the next run.
        pending = self.transport.count(born_at(meta.committed + 1))
        return CollectionStatus(
            collection=name,
            documents=documents,
            chunks=chunks,
            lexical_chunks=chunks,  # every chunk point carries its BM25 vector
            embedder=meta.embedder,
            vectors=vectors,
            dense_index_vectors=vectors,
            pending=pending,
            formats=self.reader.formats(meta.committed),
            schema_version=SCHEMA,
            analyzer=meta.analyzer,
            size_bytes=0,  # the cluster's to say (its telemetry), not a client's
            backend="qdrant",
        )

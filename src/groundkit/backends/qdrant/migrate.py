"""Move an embedded collection up to Qdrant: ``grk migrate NAME --to qdrant``.

Documents, chunks (the same ids, offsets, lines, metadata and near-duplicate fingerprints) and
dense vectors are copied from the store as they are: nothing is embedded again and nothing is
chunked again. The BM25 vectors are made from the stored text by the same analyzer. The copy is
one versioned run (``writer``): it becomes visible whole, and a copy that stops is resumed by
running it again (documents already there with the same content are passed over, and vectors
already there are not sent again). Then it is checked: the same numbers of documents, chunks and
vectors, and a sample of citations read back from both sides, text and offsets alike.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundkit.backends.embedded import EmbeddedBackend
from groundkit.backends.qdrant.backend import QdrantBackend
from groundkit.backends.qdrant.layout import chunk_point_id
from groundkit.embed.base import EmbedderIdentity
from groundkit.errors import ErrorCode, ModelError, StoreError
from groundkit.index.rows import ChunkRow, IngestState, NewChunk
from groundkit.retrieve.lines import line_span

if TYPE_CHECKING:
    from groundkit.pipeline import Progress

__all__ = ["Migration", "failed", "migrate"]

SAMPLE = 50  # citations read back from both sides
_VECTOR_BATCH = 256


@dataclass(frozen=True, slots=True)
class Migration:
    """What a migration copied and what its check found (``verified``: citations read back
    alike from both sides, of ``sampled``)."""

    documents: int
    chunks: int
    vectors: int
    passed_over: int  # documents already there with the same content
    counts: dict[str, tuple[int, int]]  # what -> (embedded, qdrant)
    sampled: int
    verified: int

    @property
    def ok(self) -> bool:
        return self.verified == self.sampled and all(a == b for a, b in self.counts.values())

    def to_dict(self) -> dict[str, object]:
        return {
            "documents": self.documents,
            "chunks": self.chunks,
            "vectors": self.vectors,
            "passed_over": self.passed_over,
            "counts": {k: {"embedded": a, "qdrant": b} for k, (a, b) in self.counts.items()},
            "sampled": self.sampled,
            "verified": self.verified,
            "ok": self.ok,
        }


def migrate(
    source: EmbeddedBackend,
    target: QdrantBackend,
    *,
    progress: Progress | None = None,
    sample: int = SAMPLE,
    lock_wait_s: float = 2.0,
) -> Migration:
    """Copy ``source`` into ``target`` and check the copy (see the module's docstring)."""
    store = source.store
    key = source.embedder_key()
    with target.write_lock(lock_wait_s):
        if key is not None:
            _bind(target, EmbedderIdentity.parse(key))
        written, chunks, passed = _copy_documents(source, target, progress)
        vectors = _copy_vectors(source, target, progress)
    counts = {
        "documents": (store.counts()[0], target.counts()[0]),
        "chunks": (store.counts()[1], target.counts()[1]),
        "vectors": (store.vector_count(), target.vector_count()),
    }
    sampled, verified = _check(source, target, sample)
    return Migration(written, chunks, vectors, passed, counts, sampled, verified)


def _bind(target: QdrantBackend, identity: EmbedderIdentity) -> None:
    bound = target.embedder_key()
    if bound is None:
        target.bind_embedder(identity)
    elif bound != identity.key():
        raise ModelError(
            ErrorCode.EMBEDDER_MISMATCH,
            f"the Qdrant collection was embedded with {bound}; this one with {identity.key()}",
            hint="migrate into a new Qdrant collection (remote_name in grk.toml)",
        )


def _copy_documents(
    source: EmbeddedBackend, target: QdrantBackend, progress: Progress | None
) -> tuple[int, int, int]:
    store = source.store
    documents = store.all_documents()
    by_document: dict[str, list[ChunkRow]] = {}
    for row in store.all_chunks():
        by_document.setdefault(row.document_id, []).append(row)
    writer = target.writer()
    written = chunks = passed = 0
    with writer.transaction():
        states: dict[str, dict[str, IngestState]] = {}
        for done, document in enumerate(documents, start=1):
            if document.origin not in states:
                states[document.origin] = store.ingest_state(document.origin)
            mine = states[document.origin][document.source]
            there = writer.ingest_state(document.origin).get(document.source)
            if there is not None and there.fingerprint == mine.fingerprint:
                passed += 1
                continue
            rows = by_document.get(document.document_id, [])
            folds = store.hit_rows([r.rowid for r in rows], fold=True)
            writer.put_document(
                rowid=None if there is None else there.rowid,
                document_id=document.document_id,
                source=document.source,
                path=document.path,
                origin=document.origin,
                external_id=document.external_id,
                format=document.format,
                title=document.title,
                text=document.text,
                content_hash=document.content_hash,
                fingerprint=mine.fingerprint,
                metadata=document.metadata,
                chunks=[_new_chunk(r, document.text, folds[r.rowid].fold) for r in rows],
            )
            written += 1
            chunks += len(rows)
            if progress:
                progress("copying", done, len(documents), document.path)
    return written, chunks, passed


def _new_chunk(row: ChunkRow, text: str, fold: bytes | None) -> NewChunk:
    lines = (row.line, row.end_line)
    if row.line is None or row.end_line is None:  # stored before lines were kept
        lines = line_span(text, row.start, row.end)
    line, end_line = lines
    assert line is not None
    assert end_line is not None
    return NewChunk(row.chunk_id, row.start, row.end, row.metadata, line, end_line, fold)


def _copy_vectors(source: EmbeddedBackend, target: QdrantBackend, progress: Progress | None) -> int:
    store = source.store
    wanted = {point for point, _ in target.writer().chunks_without_vectors()}
    if not wanted:
        return 0
    ids = {row.rowid: chunk_point_id(row.chunk_id) for row in store.all_chunks()}
    writer = target.writer()
    batch: list[tuple[int, bytes]] = []
    copied = 0

    def send() -> None:
        nonlocal copied
        writer.put_vectors(batch)
        copied += len(batch)
        batch.clear()
        if progress:
            progress("copying vectors", copied, len(wanted))

    for chunk, _document, blob in store.vectors():
        point = ids.get(chunk)
        if point in wanted:
            batch.append((point, blob))
            if len(batch) >= _VECTOR_BATCH:
                send()
    if batch:
        send()
    return copied


def _check(source: EmbeddedBackend, target: QdrantBackend, sample: int) -> tuple[int, int]:
    """Citations of a seeded sample of chunks, read back from both sides and compared."""
    chunk_ids = [row.chunk_id for row in source.store.all_chunks()]
    chosen = random.Random(0).sample(chunk_ids, min(sample, len(chunk_ids)))  # noqa: S311
    verified = 0
    for chunk_id in chosen:
        mine, there = source.chunk(chunk_id), target.chunk(chunk_id)
        if mine is None or there is None:
            continue
        (row, document), (copied, copied_document) = mine, there
        same_row = (row.chunk_id, row.start, row.end, row.text, row.document_id, row.source) == (
            copied.chunk_id,
            copied.start,
            copied.end,
            copied.text,
            copied.document_id,
            copied.source,
        )
        cited = copied_document.text[copied.start : copied.end]
        if same_row and cited == document.text[row.start : row.end] == row.text:
            verified += 1
    return len(chosen), verified


def failed(migration: Migration, name: str) -> StoreError | None:
    """The error a migration whose check failed ends with, or None."""
    if migration.ok:
        return None
    return StoreError(
        ErrorCode.STORE_FAILED,
        f"the copy of {name!r} on Qdrant does not match the embedded collection"
        f" ({migration.verified} of {migration.sampled} citations alike)",
        hint="run the same command again: it resumes and checks again",
    )

"""Split each chunk into the sentences an answer may show, once, and store their vectors.

An extractive answer weighs the evidence's sentences against the question by meaning; embedding
them while the reader waits was most of a cold ``grk answer`` (issue 35). So ingest stores them,
split by ``split`` (the answer's own splitter, handed down: this layer does not know what a
sentence is). Two ways, by what the embedder can do:

- one that embeds spans (``embed.base.SpanEmbedder``: the local ONNX model) gives each
  sentence's vector from the chunk's own run (``PooledSentences``, a ``ChunkPass``): no second
  run, and the sentences are committed with the chunk vectors. A chunk that has a vector and no
  sentences (ingested with sentences off) is run again, whole, to pool them the same way;
- any other embedder (a fake, a cloud API) embeds the sentences on their own, after the chunk
  vectors, ``COMMIT_EVERY`` chunks a transaction, so a run stopped mid-way resumes.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from groundkit.checkpoints import checkpoint
from groundkit.embed.base import Embedder, SpanEmbedder, span_embedder
from groundkit.index.sentences import Place, Unsplit
from groundkit.pipeline.progress import Progress
from groundkit.pipeline.vectors import COMMIT_EVERY, checked, embed_checked

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["PooledSentences", "SentenceStore", "Splitter", "Stored", "embed_sentences"]

Row = tuple[int, bytes, bytes]  # (chunk rowid, int32 offset pairs, float32 vectors)


class Splitter(Protocol):
    def __call__(self, text: str, source: str) -> Sequence[tuple[int, int]]:
        """The ``(start, end)`` in ``text`` of each sentence worth embedding (``source``: the
        document's name as shown)."""
        ...


class SentenceStore(Protocol):
    def transaction(self) -> AbstractContextManager[None]: ...

    def unsplit_chunks(self) -> list[Unsplit]: ...

    def sentence_places(self, rowids: Sequence[int]) -> dict[int, Place]: ...

    def put_sentences(self, rows: Sequence[Row]) -> None: ...


@dataclass(frozen=True, slots=True)
class Stored:
    """What a pass over the chunks stored: the chunks whose sentences it stored, how many
    sentences, and how many of those lay past the model's window (embedded on their own)."""

    chunks: int = 0
    sentences: int = 0
    alone: int = 0

    def __add__(self, other: Stored) -> Stored:
        return Stored(
            self.chunks + other.chunks,
            self.sentences + other.sentences,
            self.alone + other.alone,
        )


class PooledSentences:
    """A ``pipeline.vectors.ChunkPass``: each batch's chunk vectors, and from the same run the
    vectors of the sentences of those of its chunks that have none stored."""

    def __init__(self, store: SentenceStore, embedder: SpanEmbedder, split: Splitter) -> None:
        self._store = store
        self._embedder = embedder
        self._split = split
        self._rows: list[Row] = []
        self.stored = Stored()

    def vectors(self, batch: Sequence[tuple[int, str]]) -> npt.NDArray[np.float32]:
        found = self._store.sentence_places([rowid for rowid, _ in batch])
        chunks = [_unsplit(rowid, text, found.get(rowid)) for rowid, text in batch]
        vectors, rows, stored = _pooled(
            self._embedder, [text for _, text in batch], chunks, self._split
        )
        self._rows.extend(rows)
        self.stored += stored
        return vectors

    def write(self) -> None:
        self._store.put_sentences(self._rows)
        self._rows = []


def embed_sentences(
    store: SentenceStore,
    embedder: Embedder,
    split: Splitter,
    *,
    batch_size: int,
    progress: Progress | None = None,
) -> Stored:
    """Split and embed the sentences of every chunk that has a vector and none stored."""
    pending = store.unsplit_chunks()
    pooling = span_embedder(embedder)
    if pooling is not None:  # run like lengths together: a run is padded to its longest
        pending.sort(key=lambda c: len(c.context) + len(c.text))
    stored = Stored()
    if progress:
        progress("sentences", 0, len(pending))
    for first in range(0, len(pending), COMMIT_EVERY):
        group = pending[first : first + COMMIT_EVERY]
        if pooling is None:
            rows, done = _alone(embedder, group, split, batch_size)
        else:
            rows, done = [], Stored()
            for at in range(0, len(group), batch_size):
                part = group[at : at + batch_size]
                read = [c.context + c.text for c in part]
                _vectors, made, more = _pooled(pooling, read, part, split)
                rows, done = rows + made, done + more
        stored += done
        with store.transaction():
            store.put_sentences(rows)
        checkpoint("sentences-batch-committed")
        if progress:
            progress("sentences", first + len(group), len(pending))
    return stored


def _unsplit(rowid: int, read: str, place: Place | None) -> Unsplit | None:
    """The chunk whose embedder's text is ``read``, if it has no sentences stored."""
    if place is None:
        return None
    at = len(read) - place.length
    return Unsplit(rowid, place.source, read[at:], read[:at])


def _found(chunk: Unsplit, split: Splitter) -> list[tuple[int, int]]:
    return [(a, b) for a, b in split(chunk.text, chunk.source) if 0 <= a < b <= len(chunk.text)]


def _row(rowid: int, pairs: list[tuple[int, int]], vectors: npt.NDArray[np.float32]) -> Row:
    import numpy as np

    offsets = np.asarray(pairs, dtype=np.int32).reshape(-1, 2)
    return rowid, offsets.tobytes(), vectors.tobytes()


def _pooled(
    embedder: SpanEmbedder,
    read: list[str],
    chunks: Sequence[Unsplit | None],
    split: Splitter,
) -> tuple[npt.NDArray[np.float32], list[Row], Stored]:
    """One run over ``read`` (what the embedder reads of each chunk): its vectors, and a row of
    the sentences of each of ``chunks`` that is not None, pooled from the run."""
    found = [[] if c is None else _found(c, split) for c in chunks]
    shifted = [[] if c is None else [(a + len(c.context), b + len(c.context)) for a, b in pairs]
               for c, pairs in zip(chunks, found, strict=True)]  # fmt: skip
    got = embedder.embed_spans(read, shifted, "document")
    dims = embedder.identity.dimensions
    rows = [_row(c.rowid, pairs, checked(vectors, len(pairs), dims))
            for c, pairs, vectors in zip(chunks, found, got.spans, strict=True)
            if c is not None]  # fmt: skip
    stored = Stored(len(rows), sum(len(p) for p in found), got.alone)
    return checked(got.texts, len(read), dims), rows, stored


def _alone(
    embedder: Embedder, chunks: Sequence[Unsplit], split: Splitter, batch_size: int
) -> tuple[list[Row], Stored]:
    """A row of each chunk's sentences, embedded on their own (like lengths together)."""
    import numpy as np

    found = [_found(c, split) for c in chunks]
    texts = [c.text[a:b] for c, pairs in zip(chunks, found, strict=True) for a, b in pairs]
    vectors = np.empty((len(texts), embedder.identity.dimensions), np.float32)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    for first in range(0, len(order), batch_size):
        part = order[first : first + batch_size]
        vectors[part] = embed_checked(embedder, [texts[i] for i in part])
    rows, at = [], 0
    for chunk, pairs in zip(chunks, found, strict=True):
        rows.append(_row(chunk.rowid, pairs, vectors[at : at + len(pairs)]))
        at += len(pairs)
    return rows, Stored(len(rows), len(texts), len(texts))

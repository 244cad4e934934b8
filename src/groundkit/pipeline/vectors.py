"""Give every chunk in the store a vector, committing as it goes, so an interrupted run keeps
what it made and the next run resumes where it stopped."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from groundkit.checkpoints import checkpoint
from groundkit.embed.base import Embedder
from groundkit.errors import ErrorCode, ModelError
from groundkit.pipeline.progress import Progress
from groundkit.pipeline.store import DocumentStore

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["COMMIT_EVERY", "ChunkPass", "checked", "embed_checked", "embed_missing"]

# Chunks per commit: small enough that Ctrl-C loses under a minute of work on a slow CPU, large
# enough that the commits cost nothing next to the model.
COMMIT_EVERY = 256


class ChunkPass(Protocol):
    """How a batch of chunks is embedded when the same run makes more than their vectors
    (their sentences': ``pipeline.sentences.PooledSentences``), which is written with them."""

    def vectors(self, batch: Sequence[tuple[int, str]]) -> npt.NDArray[np.float32]:
        """The vectors of ``(chunk rowid, text to embed)`` of ``batch``, checked as
        ``embed_checked`` checks them; what else is made is kept until ``write``."""
        ...

    def write(self) -> None:
        """Store what was kept since the last call (inside the batch's transaction)."""
        ...


def embed_missing(
    store: DocumentStore,
    embedder: Embedder,
    *,
    batch_size: int,
    progress: Progress | None = None,
    committed: list[int] | None = None,
    chunk_pass: ChunkPass | None = None,
) -> int:
    """Embed the chunks that have no vector yet (all of them, when dense is first turned on).

    Texts go to the model in batches taken from all of them sorted by length, so that a batch
    (padded to its longest) pads little; sorting only within each group left every group's
    batches spanning the whole range of lengths. Each group of ``COMMIT_EVERY`` chunks of that
    order is its own transaction. ``committed`` (if given) holds one number, kept current: how
    many vectors are committed, for a caller interrupted mid-way; on Ctrl-C the vectors of the
    unfinished group are committed too. ``chunk_pass`` (if given) embeds each batch instead of
    ``embedder``, and writes what it made alongside in the same transactions. Returns the
    number of chunks embedded.
    """

    missing = sorted(store.chunks_without_vectors(), key=lambda row: len(row[1]))
    done = 0
    for start in range(0, len(missing), COMMIT_EVERY):
        group = missing[start : start + COMMIT_EVERY]
        rows: list[tuple[int, bytes]] = []
        try:
            for first in range(0, len(group), batch_size):
                batch = group[first : first + batch_size]
                if chunk_pass is None:
                    array = embed_checked(embedder, [text for _, text in batch])
                else:
                    array = chunk_pass.vectors(batch)
                rows.extend((rowid, array[i].tobytes()) for i, (rowid, _) in enumerate(batch))
                if progress:
                    progress("embedding", done + len(rows), len(missing))
        except KeyboardInterrupt:
            # Ctrl-C mid-group: the vectors already made are good, and on a slow CPU they are
            # minutes of work. Keep them (one more transaction, atomic like the others).
            done = _commit(store, rows, done, committed, chunk_pass)
            raise
        done = _commit(store, rows, done, committed, chunk_pass)
        checkpoint("embedding-batch-committed")
    return len(missing)


def embed_checked(embedder: Embedder, texts: list[str]) -> npt.NDArray[np.float32]:
    """``texts``' document vectors, refused unless there is one finite vector of the
    embedder's width for each."""
    return checked(embedder.embed(texts, "document"), len(texts), embedder.identity.dimensions)


def checked(vectors: npt.ArrayLike, count: int, dims: int) -> npt.NDArray[np.float32]:
    """``vectors`` as float32, refused (``embedding.invalid``) unless ``count`` finite rows of
    ``dims``."""
    import numpy as np

    found = np.asarray(vectors)
    if found.shape != (count, dims) or not np.isfinite(found).all():
        raise ModelError(
            ErrorCode.EMBEDDING_INVALID,
            f"the embedder returned vectors of shape {found.shape} (expected"
            f" {(count, dims)}) or non-finite values",
        )
    return found.astype(np.float32, copy=False)


def _commit(
    store: DocumentStore,
    rows: list[tuple[int, bytes]],
    done: int,
    committed: list[int] | None,
    chunk_pass: ChunkPass | None,
) -> int:
    if rows:
        with store.transaction():
            store.put_vectors(rows)
            if chunk_pass is not None:
                chunk_pass.write()
    done += len(rows)
    if committed is not None:
        committed[:] = [done]
    return done

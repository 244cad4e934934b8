"""Give every chunk in the store a vector, committing as it goes, so an interrupted run keeps
what it made and the next run resumes where it stopped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.checkpoints import checkpoint
from groundkit.embed.base import Embedder
from groundkit.errors import ErrorCode, ModelError
from groundkit.pipeline.progress import Progress
from groundkit.pipeline.store import DocumentStore

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["COMMIT_EVERY", "embed_checked", "embed_missing"]

# Chunks per commit: small enough that Ctrl-C loses under a minute of work on a slow CPU, large
# enough that the commits cost nothing next to the model.
COMMIT_EVERY = 256


def embed_missing(
    store: DocumentStore,
    embedder: Embedder,
    *,
    batch_size: int,
    progress: Progress | None = None,
    committed: list[int] | None = None,
) -> int:
    """Embed the chunks that have no vector yet (all of them, when dense is first turned on).

    Texts go to the model in batches taken from all of them sorted by length, so that a batch
    (padded to its longest) pads little; sorting only within each group left every group's
    batches spanning the whole range of lengths. Each group of ``COMMIT_EVERY`` chunks of that
    order is its own transaction. ``committed`` (if given) holds one number, kept current: how
    many vectors are committed, for a caller interrupted mid-way; on Ctrl-C the vectors of the
    unfinished group are committed too. Returns the number of chunks embedded.
    """

    missing = sorted(store.chunks_without_vectors(), key=lambda row: len(row[1]))
    done = 0
    for start in range(0, len(missing), COMMIT_EVERY):
        group = missing[start : start + COMMIT_EVERY]
        rows: list[tuple[int, bytes]] = []
        try:
            for first in range(0, len(group), batch_size):
                batch = group[first : first + batch_size]
                array = embed_checked(embedder, [text for _, text in batch])
                rows.extend((rowid, array[i].tobytes()) for i, (rowid, _) in enumerate(batch))
                if progress:
                    progress("embedding", done + len(rows), len(missing))
        except KeyboardInterrupt:
            # Ctrl-C mid-group: the vectors already made are good, and on a slow CPU they are
            # minutes of work. Keep them (one more transaction, atomic like the others).
            done = _commit(store, rows, done, committed)
            raise
        done = _commit(store, rows, done, committed)
        checkpoint("embedding-batch-committed")
    return len(missing)


def embed_checked(embedder: Embedder, texts: list[str]) -> npt.NDArray[np.float32]:
    """``texts``' document vectors, refused unless there is one finite vector of the
    embedder's width for each."""
    import numpy as np

    dims = embedder.identity.dimensions
    vectors = np.asarray(embedder.embed(texts, "document"))
    if vectors.shape != (len(texts), dims) or not np.isfinite(vectors).all():
        raise ModelError(
            ErrorCode.EMBEDDING_INVALID,
            f"the embedder returned vectors of shape {vectors.shape} (expected"
            f" {(len(texts), dims)}) or non-finite values",
        )
    return vectors.astype(np.float32, copy=False)


def _commit(
    store: DocumentStore, rows: list[tuple[int, bytes]], done: int, committed: list[int] | None
) -> int:
    if rows:
        with store.transaction():
            store.put_vectors(rows)
    done += len(rows)
    if committed is not None:
        committed[:] = [done]
    return done

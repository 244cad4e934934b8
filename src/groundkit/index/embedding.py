"""Give every chunk in the store a vector from the collection's embedder."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from groundkit.embed.base import Embedder
from groundkit.errors import ErrorCode, ModelError
from groundkit.index.store import Store

__all__ = ["embed_missing"]


def embed_missing(
    store: Store,
    embedder: Embedder,
    *,
    batch_size: int,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Embed the chunks that have no vector yet (all of them, when dense is first turned on).

    Runs inside the caller's transaction. Texts go in batches sorted by length, so that a batch
    pads little. Returns the number of chunks embedded.
    """
    missing = sorted(store.chunks_without_vectors(), key=lambda row: len(row[1]))
    dims = embedder.identity.dimensions
    for start in range(0, len(missing), batch_size):
        batch = missing[start : start + batch_size]
        vectors = np.asarray(embedder.embed([text for _, text in batch], "document"))
        if vectors.shape != (len(batch), dims) or not np.isfinite(vectors).all():
            raise ModelError(
                ErrorCode.EMBEDDING_INVALID,
                f"the embedder returned vectors of shape {vectors.shape} (expected"
                f" {(len(batch), dims)}) or non-finite values",
            )
        rows = vectors.astype(np.float32, copy=False)
        store.put_vectors([(rowid, rows[i].tobytes()) for i, (rowid, _) in enumerate(batch)])
        if progress:
            progress(min(start + batch_size, len(missing)), len(missing))
    return len(missing)

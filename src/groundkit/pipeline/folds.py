"""Give the chunks stored before fingerprints were kept (schema < 7) their near-duplicate
fingerprint, a committed group at a time, so that search reads them instead of making them."""

from __future__ import annotations

from groundkit.pipeline.progress import Progress
from groundkit.pipeline.store import DocumentStore
from groundkit.retrieve.batch_prints import stored_fingerprints

__all__ = ["FOLD_EVERY", "fold_missing"]

FOLD_EVERY = 2000  # chunks per commit: about a tenth of a second of work


def fold_missing(store: DocumentStore, progress: Progress | None = None) -> int:
    """Fingerprint every chunk that has none; returns how many. An interrupted run keeps the
    groups it committed, and the next one goes on from there."""
    total = store.unfolded_count()
    done = after = 0
    while done < total:
        rows = store.chunks_without_fold(after, FOLD_EVERY)
        if not rows:
            break
        folds = stored_fingerprints([text for _, text in rows])
        with store.transaction():
            store.put_folds(zip(folds, (rowid for rowid, _ in rows), strict=True))
        after, done = rows[-1][0], done + len(rows)
        if progress:
            progress("fingerprinting", done, total)
    return done

"""One ingest run: discover -> read, load, chunk -> store; derived indexes; fingerprints missing
from old rows; then vectors.

Storing documents is one SQLite transaction, and each changed document is logged in the store's
change log inside it. So a crash before that commit leaves the collection as it was, and a crash
after it is finished by ``catch_up`` on the next open. Vectors come after, a committed batch at a
time: a run stopped while embedding keeps every batch it committed, and the next run embeds only
what is still missing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from groundkit.checkpoints import checkpoint
from groundkit.chunk import ChunkSettings
from groundkit.config import Settings
from groundkit.embed.base import Embedder
from groundkit.index.derived import DerivedIndex, catch_up
from groundkit.index.rows import IngestState
from groundkit.index.store import Store
from groundkit.ingest.fetch import Inputs, fetch_page, split_inputs
from groundkit.ingest.walk import Discovery, FileInput, Filters, discover
from groundkit.pipeline.documents import (
    Prepared,
    Submit,
    Tally,
    chunking_key,
    file_unchanged,
    ingest_one,
    start_file,
    write_file,
)
from groundkit.pipeline.folds import fold_missing
from groundkit.pipeline.helpers import Making, Reading
from groundkit.pipeline.names import name_files
from groundkit.pipeline.progress import Progress
from groundkit.pipeline.store import DocumentStore
from groundkit.pipeline.vectors import embed_missing
from groundkit.types import IngestReport, Skipped

__all__ = ["Interrupted", "run_ingest", "sync_derived"]

_NO_FILTERS = Filters()


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while embedding: the documents and every committed batch of vectors are kept.

    ``report`` says what the run did up to then (``chunks_embedded`` counts the kept vectors).
    """

    def __init__(self, report: IngestReport, missing: int) -> None:
        super().__init__("interrupted while embedding")
        self.report = report
        self.missing = missing  # chunks still without a vector


def run_ingest(
    store: DocumentStore,
    sync: Callable[[Progress | None], None],
    inputs: Sequence[str],
    settings: Settings,
    progress: Progress | None = None,
    *,
    embedder: Embedder | None = None,
    exclude: Sequence[str] = (),
    filters: Filters = _NO_FILTERS,
    names_from: str | None = None,
) -> IngestReport:
    """Ingest ``inputs``; with an ``embedder``, also give every chunk lacking one a vector.
    ``names_from``: the folder files are named from (default: the inputs' common parent).
    ``sync`` brings whatever the backend derives from the store in line with what it has just
    committed (``sync_derived`` for the embedded indexes; nothing for a Qdrant collection).
    """
    named = split_inputs(inputs)
    if progress:
        progress("walking", 0, None)
    found = discover(named.paths, exclude=exclude, filters=filters, base=names_from)
    tally = Tally(skipped=list(found.skipped))
    for item, scheme in named.unsupported:
        reason = f"{scheme}:// URLs are not supported (only http and https)"
        tally.skipped.append(Skipped(item, reason))
    chunking = ChunkSettings(settings.chunk.size, settings.chunk.min_size)
    _store_all(store, found, named, settings, chunking, tally, progress)
    checkpoint("after-store-commit")
    sync(progress)
    fold_missing(store, progress)
    report = _report(tally, [*found.passed_over, *tally.passed_over])
    if embedder is None:
        return report
    committed = [0]
    try:
        embedded = embed_missing(
            store,
            embedder,
            batch_size=settings.embed.batch_size,
            progress=progress,
            committed=committed,
        )
    except KeyboardInterrupt:
        sync(None)  # the kept vectors become searchable now
        kept = _report(tally, [*found.passed_over, *tally.passed_over], committed[0])
        _documents, chunks = store.counts()
        raise Interrupted(kept, chunks - store.vector_count()) from None
    sync(progress)
    return _report(tally, [*found.passed_over, *tally.passed_over], embedded)


def _store_all(
    store: DocumentStore,
    found: Discovery,
    named: Inputs,
    settings: Settings,
    chunking: ChunkSettings,
    tally: Tally,
    progress: Progress | None,
) -> None:
    """Read and store every input in one transaction (see the module's docstring)."""
    seen: set[str] = set(found.present)
    total = len(found.files) + len(named.urls)
    key = chunking_key(chunking)
    with store.large_cache(), store.transaction():
        # Passed over unread when size and time say so; the rest may go to helper processes.
        checks = [(file, *file_unchanged(store, file, key)) for file in found.files]
        to_read = [check for check in checks if check[2] < 0]
        making = Making()

        def start(
            check: tuple[FileInput, os.stat_result | None, int], submit: Submit | None
        ) -> tuple[dict[str, IngestState], Callable[[], Prepared]]:
            existing, made = start_file(store, check[0], settings, chunking, submit)
            return existing, made if submit is not None else making.timed(made)

        reading = Reading(
            to_read,
            start,
            lambda check: 0 if check[1] is None else check[1].st_size,
            settings.ingest.helpers,
            making,
        )
        with reading as made_in_order:
            for done, (file, stat, same) in enumerate(checks, start=1):
                if progress:
                    progress("reading", done - 1, total, file.shown)
                seen.add(file.path)
                if same >= 0:
                    tally.unchanged += same
                else:
                    _check, (existing, made) = next(made_in_order)
                    write_file(store, file, stat, existing, made, chunking, tally)
                if done == total // 2:
                    checkpoint("mid-ingest")
        for done, url in enumerate(named.urls, start=len(found.files) + 1):
            if progress:
                progress("reading", done - 1, total, url)
            seen.add(url)
            ingest_one(store, url, url, partial(fetch_page, url, settings.ingest), chunking, tally)
        for root in found.walked_roots:
            for origin in store.origins_under(root):
                if origin not in seen and not _under_any(origin, found.unreadable_dirs):
                    tally.removed += store.delete_documents(store.documents_from(origin))
                    store.forget_file(origin)
        name_files(store, found.files)
        if progress:
            progress("reading", total, total)
            progress("writing", 0, None)


def _report(tally: Tally, passed_over: Sequence[Skipped], embedded: int = 0) -> IngestReport:
    return IngestReport(
        new=tally.new,
        changed=tally.changed,
        unchanged=tally.unchanged,
        removed=tally.removed,
        skipped=tuple(tally.skipped),
        passed_over=tuple(passed_over),
        chunks_written=tally.chunks,
        chunks_embedded=embedded,
    )


def _under_any(path: str, directories: Sequence[str]) -> bool:
    return any(path.startswith(d.rstrip("/") + "/") for d in directories)


def sync_derived(
    store: Store, derived: Sequence[DerivedIndex[Any]], progress: Progress | None = None
) -> None:
    """Bring every derived index in line with what the store has just committed."""
    for index in derived:
        if progress and index.name == "lexical":
            progress("indexing", 0, None)
        catch_up(store, index)

"""One ingest run: discover -> load -> chunk -> store, then bring the derived indexes in line.

The whole run is one SQLite transaction, and each changed document is logged in the store's
change log inside it. So a crash before the commit leaves the collection as it was, and a crash
after it is finished by ``catch_up`` on the next open: as before, or fully updated.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from groundkit.checkpoints import checkpoint
from groundkit.chunk import CHUNKER_VERSION, ChunkSettings, chunk_text
from groundkit.config import Settings
from groundkit.embed.base import Embedder
from groundkit.index.derived import DerivedIndex, catch_up
from groundkit.index.embedding import embed_missing
from groundkit.index.store import NewChunk, Store
from groundkit.ingest.fetch import fetch_page, split_inputs
from groundkit.ingest.formats import Format
from groundkit.ingest.loaders import Loaded, Rejected, load
from groundkit.ingest.walk import FileInput, discover
from groundkit.types import IngestReport, Skipped

__all__ = ["Progress", "document_id_for", "run_ingest", "sync_derived"]

Progress = Callable[[str, int, int], None]  # (stage, done, in all)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def document_id_for(source: str) -> str:
    return "d" + _digest(source)


def _fingerprint(content_hash: str, format: str, chunking: ChunkSettings) -> str:
    return _digest(f"{content_hash}|{format}|{chunking.size}|{chunking.min_size}|{CHUNKER_VERSION}")


@dataclass(slots=True)
class _Tally:
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    removed: int = 0
    chunks: int = 0
    skipped: list[Skipped] = field(default_factory=list)

    def add(self, other: _Tally) -> None:
        self.new += other.new
        self.changed += other.changed
        self.unchanged += other.unchanged
        self.removed += other.removed
        self.chunks += other.chunks
        self.skipped.extend(other.skipped)


def run_ingest(
    store: Store,
    derived: Sequence[DerivedIndex[Any]],
    inputs: Sequence[str],
    settings: Settings,
    progress: Progress | None = None,
    *,
    embedder: Embedder | None = None,
    exclude: Sequence[str] = (),
) -> IngestReport:
    """Ingest ``inputs``; with an ``embedder``, also give every chunk lacking one a vector."""
    named = split_inputs(inputs)
    urls = named.urls
    found = discover(named.paths, exclude=exclude)
    tally = _Tally(skipped=list(found.skipped))
    for item, scheme in named.unsupported:
        tally.skipped.append(
            Skipped(item, f"{scheme}:// URLs are not supported (only http and https)")
        )
    chunking = ChunkSettings(settings.chunk.size, settings.chunk.min_size)
    seen: set[str] = {s.source for s in found.skipped}
    total = len(found.files) + len(urls)
    with store.transaction():
        for done, file in enumerate(found.files, start=1):
            seen.add(file.path)
            _ingest_one(store, file.path, partial(_read_file, file, settings), chunking, tally)
            if done == total // 2:
                checkpoint("mid-ingest")
            if progress:
                progress("reading", done, total)
        for done, url in enumerate(urls, start=len(found.files) + 1):
            seen.add(url)
            _ingest_one(store, url, partial(fetch_page, url, settings.ingest), chunking, tally)
            if progress:
                progress("reading", done, total)
        for root in found.walked_roots:
            for origin in store.origins_under(root):
                if origin not in seen and not _under_any(origin, found.unreadable_dirs):
                    tally.removed += store.delete_documents(store.documents_from(origin))
        embedded = 0
        if embedder is not None:
            embedded = embed_missing(
                store,
                embedder,
                batch_size=settings.embed.batch_size,
                progress=partial(progress, "embedding") if progress else None,
            )
    checkpoint("after-store-commit")
    sync_derived(store, derived)
    return IngestReport(
        new=tally.new,
        changed=tally.changed,
        unchanged=tally.unchanged,
        removed=tally.removed,
        skipped=tuple(tally.skipped),
        ignored=found.ignored,
        chunks_written=tally.chunks,
        chunks_embedded=embedded,
    )


def _under_any(path: str, directories: Sequence[str]) -> bool:
    return any(path.startswith(d.rstrip("/") + "/") for d in directories)


def sync_derived(store: Store, derived: Sequence[DerivedIndex[Any]]) -> None:
    """Bring every derived index in line with what the store has just committed."""
    for index in derived:
        catch_up(store, index)


def _read_file(file: FileInput, settings: Settings) -> tuple[bytes, Format]:
    path = file.path
    try:
        size = os.path.getsize(path)
        if size > settings.ingest.max_file_bytes:
            raise Rejected(
                f"oversized ({size:,} bytes; ingest.max_file_bytes is "
                f"{settings.ingest.max_file_bytes:,})"
            )
        with open(path, "rb") as fh:
            data = fh.read(settings.ingest.max_file_bytes + 1)
        if len(data) > settings.ingest.max_file_bytes:  # it grew while we looked
            raise Rejected(
                f"oversized (ingest.max_file_bytes is {settings.ingest.max_file_bytes:,})"
            )
        return data, file.format
    except IsADirectoryError:
        raise Rejected("unreadable: is a directory") from None
    except OSError as exc:
        raise Rejected(f"unreadable: {(exc.strerror or type(exc).__name__).lower()}") from None


def _ingest_one(
    store: Store,
    origin: str,
    read: Callable[[], tuple[bytes, Format]],
    chunking: ChunkSettings,
    tally: _Tally,
) -> None:
    """Ingest one file or URL inside a savepoint, so that whatever goes wrong with it (a parser's
    own bug included) undoes only its writes and the run goes on. Store failures end the run."""
    mine = _Tally()
    try:
        with store.savepoint():
            _ingest_source(store, origin, read, chunking, mine)
    except sqlite3.Error:
        raise
    except Exception as exc:  # the input is at fault, not the run
        tally.skipped.append(Skipped(origin, f"could not be ingested ({type(exc).__name__})"))
        return
    tally.add(mine)


def _ingest_source(
    store: Store,
    origin: str,
    read: Callable[[], tuple[bytes, Format]],
    chunking: ChunkSettings,
    tally: _Tally,
) -> None:
    existing = store.ingest_state(origin)
    # Only content whose stored chunks are still current may be passed over unparsed.
    known = {
        state.content_hash: source
        for source, state in existing.items()
        if state.fingerprint == _fingerprint(state.content_hash, state.format, chunking)
    }
    try:
        data, fmt = read()
        found = load(data, origin=origin, fmt=fmt, known=known)
    except Rejected as exc:
        # Whatever was stored from this source stays: nothing is lost to a bad read.
        tally.skipped.append(Skipped(origin, exc.reason))
        return
    tally.skipped.extend(found.skipped)
    tally.unchanged += len(found.unchanged)
    produced = set(found.unchanged)
    for item in found.loaded:
        produced.add(item.source)
        previous = existing.get(item.source)
        fingerprint = _fingerprint(item.content_hash, item.format, chunking)
        tally.chunks += _store(
            store, item, fingerprint, chunking, None if previous is None else previous.rowid
        )
        if previous is None:
            tally.new += 1
        else:
            tally.changed += 1
    gone = [state.rowid for source, state in existing.items() if source not in produced]
    tally.removed += store.delete_documents(gone)


def _store(
    store: Store, item: Loaded, fingerprint: str, chunking: ChunkSettings, rowid: int | None
) -> int:
    document_id = document_id_for(item.source)
    spans = chunk_text(item.text, format=item.format, settings=chunking, pages=item.pages)
    chunks = [
        NewChunk(
            "c" + _digest(f"{document_id}|{fingerprint}|{s.start}|{s.end}"),
            s.start,
            s.end,
            s.metadata,
        )
        for s in spans
    ]
    metadata = dict(item.metadata)
    if item.pages:
        metadata["page_count"] = len(item.pages)
    store.put_document(
        rowid=rowid,
        document_id=document_id,
        source=item.source,
        origin=item.origin,
        external_id=item.external_id,
        format=item.format,
        title=item.title,
        text=item.text,
        content_hash=item.content_hash,
        fingerprint=fingerprint,
        metadata=metadata,
        chunks=chunks,
    )
    return len(chunks)

"""One file or URL into stored documents: read, load, chunk, and write inside a savepoint."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from groundkit.chunk import CHUNKER_VERSION, ChunkSettings, Span, chunk_text
from groundkit.config import Settings
from groundkit.index.store import NewChunk, Store
from groundkit.ingest.formats import Format
from groundkit.ingest.loaders import Empty, Loaded, Rejected, load
from groundkit.ingest.walk import FileInput
from groundkit.retrieve.duplicates import stored_fingerprints
from groundkit.types import Skipped

__all__ = ["Tally", "chunking_key", "document_id_for", "ingest_file", "ingest_one", "read_file"]

Read = Callable[[], tuple[bytes, Format]]

# The format a person filters on (`--where format=pdf`), stored in each document's metadata.
_SHOWN_FORMAT = {
    "markdown": "md",
    "text": "txt",
    "rst": "rst",
    "code": "code",
    "html": "html",
    "pdf": "pdf",
    "record": "jsonl",
}


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def document_id_for(source: str) -> str:
    return "d" + _digest(source)


def _fingerprint(content_hash: str, format: str, chunking: ChunkSettings) -> str:
    return _digest(f"{content_hash}|{format}|{chunking.size}|{chunking.min_size}|{CHUNKER_VERSION}")


@dataclass(slots=True)
class Tally:
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    removed: int = 0
    chunks: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    passed_over: list[Skipped] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.new += other.new
        self.changed += other.changed
        self.unchanged += other.unchanged
        self.removed += other.removed
        self.chunks += other.chunks
        self.skipped.extend(other.skipped)
        self.passed_over.extend(other.passed_over)


def read_file(file: FileInput, settings: Settings) -> tuple[bytes, Format]:
    limit = settings.ingest.max_file_bytes
    try:
        size = os.path.getsize(file.path)
        if size > limit:
            raise Rejected(f"oversized ({size:,} bytes; ingest.max_file_bytes is {limit:,})")
        with open(file.path, "rb") as fh:
            data = fh.read(limit + 1)
        if len(data) > limit:  # it grew while we looked
            raise Rejected(f"oversized (ingest.max_file_bytes is {limit:,})")
        return data, file.format
    except IsADirectoryError:
        raise Rejected("unreadable: is a directory") from None
    except OSError as exc:
        raise Rejected(f"unreadable: {(exc.strerror or type(exc).__name__).lower()}") from None


def chunking_key(chunking: ChunkSettings) -> str:
    """What, besides a file's bytes, decides its stored chunks."""
    return f"{chunking.size}|{chunking.min_size}|{CHUNKER_VERSION}"


def ingest_file(
    store: Store, file: FileInput, settings: Settings, chunking: ChunkSettings, tally: Tally
) -> None:
    """A file from disk: passed over unread when its size and time say it has not changed since
    it was last read whole (the content hash decides whenever they differ)."""
    key = chunking_key(chunking)
    try:
        stat = os.stat(file.path)
    except OSError:
        stat = None  # read_file says why
    if stat is not None:
        same = store.file_unchanged(file.path, stat.st_size, stat.st_mtime_ns, key)
        if same is not None:
            tally.unchanged += same
            return
    before = len(tally.skipped) + len(tally.passed_over)
    ingest_one(store, file.path, file.shown, lambda: read_file(file, settings), chunking, tally)
    if stat is not None and len(tally.skipped) + len(tally.passed_over) == before:
        # Only a file read whole with nothing skipped: one with a bad record must say so again.
        store.record_file(file.path, stat.st_size, stat.st_mtime_ns, key)


def ingest_one(
    store: Store, origin: str, shown: str, read: Read, chunking: ChunkSettings, tally: Tally
) -> None:
    """Ingest one file or URL inside a savepoint, so that whatever goes wrong with it (a parser's
    own bug included) undoes only its writes and the run goes on. Store failures end the run.

    ``origin`` is where it is read from (an absolute path or a URL), ``shown`` how a person names
    it (relative to the folder given, or the URL)."""
    mine = Tally()
    try:
        with store.savepoint():
            _ingest_source(store, origin, shown, read, chunking, mine)
    except sqlite3.Error:
        raise
    except Exception as exc:  # the input is at fault, not the run
        tally.skipped.append(Skipped(shown, f"could not be ingested ({type(exc).__name__})"))
        return
    tally.add(mine)


def _ingest_source(
    store: Store, origin: str, shown: str, read: Read, chunking: ChunkSettings, tally: Tally
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
        bucket = tally.passed_over if isinstance(exc, Empty) else tally.skipped
        bucket.append(Skipped(shown, exc.reason))
        return
    tally.skipped.extend(Skipped(shown + s.source[len(origin) :], s.reason) for s in found.skipped)
    tally.unchanged += len(found.unchanged)
    produced = set(found.unchanged)
    spans = [
        chunk_text(item.text, format=item.format, settings=chunking, pages=item.pages)
        for item in found.loaded
    ]
    # Every chunk of the file at once: a numpy pass per chunk cost more than the hashing itself.
    folds = iter(
        stored_fingerprints(
            [
                item.text[s.start : s.end]
                for item, cut in zip(found.loaded, spans, strict=True)
                for s in cut
            ]
        )
    )
    for item, cut in zip(found.loaded, spans, strict=True):
        produced.add(item.source)
        previous = existing.get(item.source)
        fingerprint = _fingerprint(item.content_hash, item.format, chunking)
        # A record's "#id" (or nothing, for a file) follows the name the file is shown by.
        path = shown + item.source[len(item.origin) :]
        rowid = None if previous is None else previous.rowid
        tally.chunks += _store(store, item, cut, folds, path, fingerprint, rowid)
        if previous is None:
            tally.new += 1
        else:
            tally.changed += 1
    gone = [state.rowid for source, state in existing.items() if source not in produced]
    tally.removed += store.delete_documents(gone)


def _store(
    store: Store,
    item: Loaded,
    spans: Sequence[Span],
    folds: Iterator[bytes],
    path: str,
    fingerprint: str,
    rowid: int | None,
) -> int:
    document_id = document_id_for(item.source)
    chunks = [
        NewChunk(
            "c" + _digest(f"{document_id}|{fingerprint}|{s.start}|{s.end}"),
            s.start,
            s.end,
            s.metadata,
            line,
            end_line,
            next(folds),
        )
        for s, (line, end_line) in zip(spans, _lines(item.text, spans), strict=True)
    ]
    metadata = dict(item.metadata)
    metadata.setdefault("format", _SHOWN_FORMAT.get(item.format, item.format))
    if item.pages:
        metadata["page_count"] = len(item.pages)
    store.put_document(
        rowid=rowid,
        document_id=document_id,
        source=item.source,
        path=path,
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


def _lines(text: str, spans: Sequence[Span]) -> list[tuple[int, int]]:
    """The 1-based lines of each span's first and last character, in one pass over the text
    (spans come in order)."""
    out: list[tuple[int, int]] = []
    line, at = 1, 0
    for span in spans:
        line += text.count("\n", at, span.start)
        at = span.start
        out.append((line, line + text.count("\n", span.start, max(span.start, span.end - 1))))
    return out

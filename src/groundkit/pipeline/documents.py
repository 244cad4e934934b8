"""One file or URL into stored documents: read, load, chunk and fingerprint (``prepare``, which
needs no store), then write inside a savepoint (``write_one``)."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from groundkit.chunk import CHUNKER_VERSION, ChunkSettings, Span, chunk_text
from groundkit.config import Settings
from groundkit.errors import StoreError
from groundkit.index.rows import IngestState, NewChunk, NewDocument
from groundkit.ingest.formats import Format
from groundkit.ingest.loaders import Empty, Loaded, Loading, Rejected, load
from groundkit.ingest.walk import FileInput
from groundkit.pipeline.store import DocumentStore
from groundkit.retrieve.batch_prints import stored_fingerprints
from groundkit.source_files import Unread, Why, read_regular
from groundkit.types import Skipped

__all__ = [
    "Prepared",
    "Tally",
    "chunking_key",
    "document_id_for",
    "file_unchanged",
    "ingest_one",
    "known_contents",
    "prepare",
    "read_file",
    "start_file",
    "write_file",
]

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
    """A walked file's bytes. It was a regular file when walked; it is read only if it still is
    (a FIFO put in its place would block the read for ever), and never past the size cap."""
    limit = settings.ingest.max_file_bytes
    data = read_regular(file.path, limit)
    if isinstance(data, Unread):
        if data.why == Why.OVERSIZED:
            raise Rejected(f"oversized ({data.size:,} bytes; ingest.max_file_bytes is {limit:,})")
        if data.why == Why.MISSING:
            raise Rejected("unreadable: no such file or directory")
        raise Rejected(data.reason)
    return data, file.format


def chunking_key(chunking: ChunkSettings) -> str:
    """What, besides a file's bytes, decides its stored chunks."""
    return f"{chunking.size}|{chunking.min_size}|{CHUNKER_VERSION}"


def file_unchanged(
    store: DocumentStore, file: FileInput, key: str
) -> tuple[os.stat_result | None, int]:
    """A file's stat (None: it cannot be read; ``read_file`` says why) and, when its size and
    time say it has not changed since it was last read whole, how many documents it holds
    (else -1): it is passed over unread. The content hash decides whenever they differ."""
    try:
        stat = os.stat(file.path)
    except OSError:
        return None, -1
    same = store.file_unchanged(file.path, stat.st_size, stat.st_mtime_ns, key)
    return stat, -1 if same is None else same


Submit = Callable[[FileInput, Settings, dict[str, str], ChunkSettings], Callable[[], "Prepared"]]


def start_file(
    store: DocumentStore,
    file: FileInput,
    settings: Settings,
    chunking: ChunkSettings,
    submit: Submit | None,
) -> tuple[dict[str, IngestState], Callable[[], Prepared]]:
    """What is stored from a file now, and what to call for what it is made of: made in this
    process when called, or by a helper (``submit``) from now on."""
    existing = store.ingest_state(file.path)
    known = known_contents(existing, chunking)
    if submit is not None:
        return existing, submit(file, settings, known, chunking)
    return existing, partial(prepare, lambda: read_file(file, settings), file.path, known, chunking)


def write_file(
    store: DocumentStore,
    file: FileInput,
    stat: os.stat_result | None,
    existing: Mapping[str, IngestState],
    made: Callable[[], Prepared],
    chunking: ChunkSettings,
    tally: Tally,
) -> None:
    """Write a file ``made`` gives, and remember its size and time when it was read whole."""
    before = len(tally.skipped) + len(tally.passed_over)
    write_one(store, file.path, file.shown, existing, made, chunking, tally)
    if stat is not None and len(tally.skipped) + len(tally.passed_over) == before:
        # Only a file read whole with nothing skipped: one with a bad record must say so again.
        store.record_file(file.path, stat.st_size, stat.st_mtime_ns, chunking_key(chunking))


def ingest_one(
    store: DocumentStore, origin: str, shown: str, read: Read, chunking: ChunkSettings, tally: Tally
) -> None:
    """Ingest one URL (or file) read in this process.

    ``origin`` is where it is read from (an absolute path or a URL), ``shown`` how a person names
    it (relative to the folder given, or the URL)."""
    existing = store.ingest_state(origin)
    known = known_contents(existing, chunking)
    made = partial(prepare, read, origin, known, chunking)
    write_one(store, origin, shown, existing, made, chunking, tally)


def known_contents(existing: Mapping[str, IngestState], chunking: ChunkSettings) -> dict[str, str]:
    """Content hash -> source of what is stored from an origin and still current: content with
    one of these hashes may be passed over unparsed."""
    return {
        state.content_hash: source
        for source, state in existing.items()
        if state.fingerprint == _fingerprint(state.content_hash, state.format, chunking)
    }


@dataclass(slots=True)
class Prepared:
    """A file or URL read, loaded, chunked and fingerprinted: everything written of it, made
    without the store, so that a helper process can make it (``pipeline.helpers``)."""

    found: Loading | None = None
    rejected: Rejected | None = None  # nothing in it can be used (found is None)
    spans: list[list[Span]] = field(default_factory=list)  # of each loaded document
    folds: list[bytes] = field(default_factory=list)  # of every chunk, in order
    failed: str | None = None  # a helper's reader raised this (an exception's type name)


def prepare(read: Read, origin: str, known: Mapping[str, str], chunking: ChunkSettings) -> Prepared:
    try:
        data, fmt = read()
        found = load(data, origin=origin, fmt=fmt, known=known)
    except Rejected as exc:
        return Prepared(rejected=exc)
    spans = [
        chunk_text(item.text, format=item.format, settings=chunking, pages=item.pages)
        for item in found.loaded
    ]
    # Every chunk of the file at once: a numpy pass per chunk cost more than the hashing itself.
    texts = [
        item.text[s.start : s.end]
        for item, cut in zip(found.loaded, spans, strict=True)
        for s in cut
    ]
    return Prepared(found, None, spans, stored_fingerprints(texts))


def write_one(
    store: DocumentStore,
    origin: str,
    shown: str,
    existing: Mapping[str, IngestState],
    made: Callable[[], Prepared],
    chunking: ChunkSettings,
    tally: Tally,
) -> None:
    """Write what ``made`` gives of one file or URL inside a savepoint, so that whatever goes
    wrong with it (a parser's own bug included) undoes only its writes and the run goes on.
    Store failures end the run."""
    mine = Tally()
    try:
        with store.savepoint():
            _write(store, origin, shown, existing, made(), chunking, mine)
    except (sqlite3.Error, StoreError):
        raise  # the store failed, not the input: the run ends
    except Exception as exc:  # the input is at fault, not the run
        tally.skipped.append(Skipped(shown, f"could not be ingested ({type(exc).__name__})"))
        return
    tally.add(mine)


def _write(
    store: DocumentStore,
    origin: str,
    shown: str,
    existing: Mapping[str, IngestState],
    made: Prepared,
    chunking: ChunkSettings,
    tally: Tally,
) -> None:
    if made.failed is not None:
        tally.skipped.append(Skipped(shown, f"could not be ingested ({made.failed})"))
        return
    if made.found is None:
        # Whatever was stored from this source stays: nothing is lost to a bad read.
        assert made.rejected is not None
        bucket = tally.passed_over if isinstance(made.rejected, Empty) else tally.skipped
        bucket.append(Skipped(shown, made.rejected.reason))
        return
    found = made.found
    tally.skipped.extend(Skipped(shown + s.source[len(origin) :], s.reason) for s in found.skipped)
    tally.unchanged += len(found.unchanged)
    produced = set(found.unchanged)
    folds = iter(made.folds)
    documents: list[NewDocument] = []
    for item, cut in zip(found.loaded, made.spans, strict=True):
        produced.add(item.source)
        previous = existing.get(item.source)
        fingerprint = _fingerprint(item.content_hash, item.format, chunking)
        # A record's "#id" (or nothing, for a file) follows the name the file is shown by.
        path = shown + item.source[len(item.origin) :]
        rowid = None if previous is None else previous.rowid
        documents.append(_document(item, cut, folds, path, fingerprint, rowid))
        tally.chunks += len(cut)
        if previous is None:
            tally.new += 1
        else:
            tally.changed += 1
    store.put_documents(documents)  # a file's at once: see index.writes
    gone = [state.rowid for source, state in existing.items() if source not in produced]
    tally.removed += store.delete_documents(gone)


def _document(
    item: Loaded,
    spans: Sequence[Span],
    folds: Iterator[bytes],
    path: str,
    fingerprint: str,
    rowid: int | None,
) -> NewDocument:
    document_id = document_id_for(item.source)
    key = f"{document_id}|{fingerprint}|"
    chunks = [
        NewChunk(
            "c" + _digest(f"{key}{s.start}|{s.end}"),
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
    return NewDocument(
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

"""The lexical index written while an ingest's store transaction runs, committed after it.

An ingest used to commit the store and only then bring the lexical index in line: read every
chunk it had just written back out of SQLite and hand it to tantivy, whose indexing threads had
sat idle all along. Fed as each file is stored, tantivy indexes on the other core while Python
reads, chunks and stores the next files, and nothing is read back.

The crash rules stay those of docs/decisions/0007-derived-indexes.md: nothing reaches the index
before the store commits. The writer commits only after the store has (and a kill before then
leaves files that meta.json does not name, which the next writer collects); every change is in
the store's change log, so a kill between the two commits is replayed on the next open as
before, and only once the index has committed is the change recorded as applied.

The feed follows the store's writes (``Store.followed_by``) and sends a file's documents to the
writer once its savepoint is released: a file undone never reaches the index. It stands aside,
leaving the index to ``derived.catch_up`` as before, whenever it cannot vouch for every change
the transaction logged: the index behind the store when the run began, or a failure of the
index while it fed (a full disk, say), which ``catch_up`` then meets and reports as it always
has. A run of fewer than ``_PARALLEL_FROM`` documents is held and written at the end on one
thread, as ``catch_up`` would write it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence

import tantivy

from groundkit.checkpoints import checkpoint
from groundkit.index.lexical import PARALLEL_FROM, LexicalIndex
from groundkit.index.rows import NewDocument, indexed_text
from groundkit.index.store import Store
from groundkit.types import Metadata

__all__ = ["LexicalFeed"]

# What one put or delete sends: documents whose postings go, then chunks to add.
_Change = tuple[list[int], list[tuple[int, int, str]]]


class LexicalFeed:
    """A ``store.Follower`` that writes the lexical index as the store's transaction goes."""

    def __init__(self, lexical: LexicalIndex, store: Store) -> None:
        self._lexical, self._store = lexical, store
        applied = store.applied(lexical.name)
        # Only a caught-up index: the feed then holds every change the log gains from here.
        self.active = lexical.opened and applied is not None and applied == store.head()
        self._held: list[_Change] = []
        self._depth = 0  # savepoints open
        self._documents = 0
        self._writer: tantivy.IndexWriter | None = None

    # -- following the store ---------------------------------------------------------------------
    def put(
        self, documents: Sequence[NewDocument], rowids: Sequence[int], first_chunk: int
    ) -> None:
        if not self.active:
            return
        replaced = [r for d, r in zip(documents, rowids, strict=True) if d.rowid is not None]
        rows: list[tuple[int, int, str]] = []
        chunk = first_chunk
        for document, rowid in zip(documents, rowids, strict=True):
            title, text = document.title, document.text
            for c in document.chunks:
                rows.append(
                    (chunk, rowid, indexed_text(title, text, c.start, c.end, _headings(c.metadata)))
                )
                chunk += 1
        self._held.append((replaced, rows))
        self._documents += len(documents)
        self._send()

    def delete(self, rowids: Sequence[int]) -> None:
        if self.active:
            self._held.append((list(rowids), []))
            self._documents += len(rowids)
            self._send()

    def mark(self) -> int:
        self._depth += 1
        return len(self._held)

    def undo(self, mark: int) -> None:
        self._depth -= 1
        del self._held[mark:]

    def release(self, mark: int) -> None:
        self._depth -= 1
        self._send()

    # -- the writer ------------------------------------------------------------------------------
    def _send(self) -> None:
        """Hand what is held to the writer, once no savepoint can take it back."""
        if self._depth or not self.active:
            return
        if self._writer is None:
            if self._documents < PARALLEL_FROM:
                return  # a small run: written at the end
            # One indexing thread even for a large run: it keeps pace with the thread storing
            # the files (scale.py: 100k documents ingested a little faster than on two), and
            # each thread would write a segment of its own, taking documents as they come: two
            # segments made every search slower (lexical_segments.py) and left equal-scored hits
            # in an order that changed from one ingest of the same corpus to the next.
            self._writer = self._open(parallel=False)
            if self._writer is None:
                return
        try:
            for doomed, rows in self._held:
                self._lexical.delete(self._writer, doomed)
                self._lexical.add(self._writer, rows)
        except (ValueError, OSError):
            self.abandon()  # catch_up writes it all again, and says what failed if it fails
        self._held.clear()

    def _open(self, *, parallel: bool) -> tantivy.IndexWriter | None:
        try:
            return self._lexical.writer(parallel=parallel)
        except Exception:  # whatever it is, catch_up meets it again and reports it
            self.abandon()
            return None

    def finish(self, meanwhile: Callable[[], None] = lambda: None) -> None:
        """After the store's commit: commit the index and record every logged change applied.
        Left to ``catch_up`` when the feed stood aside or the commit fails.

        ``meanwhile`` runs on this thread while tantivy commits on another (it releases the
        GIL): the other derived indexes catch up then, rather than after it. Only the index's
        own files are written there, and the change log is read and written here alone, so
        each index still records its changes applied only once they are committed."""
        if not self.active:
            meanwhile()
            return
        if self._writer is None:
            self._writer = self._open(parallel=False)
        self._send()
        writer = self._writer
        if writer is None or not self.active:
            meanwhile()
            return
        failed: list[BaseException] = []

        def commit() -> None:
            try:
                writer.commit()
                writer.wait_merging_threads()
            except (ValueError, OSError) as exc:
                failed.append(exc)

        committing = threading.Thread(target=commit, name="groundkit-lexical-commit")
        committing.start()
        try:
            meanwhile()
        finally:
            committing.join()
            self._committed(ok=not failed)

    def _committed(self, *, ok: bool) -> None:
        if not ok:
            self.abandon()
            return
        self.active, self._writer = False, None
        checkpoint(f"after-{self._lexical.name}-commit")
        self._store.set_applied(self._lexical.name, self._store.head())
        self._lexical.refresh()

    def abandon(self) -> None:
        """Stand aside: nothing sent is committed; ``catch_up`` does the index's work."""
        self.active = False
        self._held.clear()
        writer, self._writer = self._writer, None
        if writer is not None:
            # Should it fail, the uncommitted files are collected by the next writer.
            with contextlib.suppress(ValueError, OSError):
                writer.rollback()


def _headings(metadata: Metadata) -> str | None:
    """The heading path as ``index.rows.HEADINGS`` reads it back from the stored metadata."""
    path = metadata.get("heading_path")
    return "\n".join(path) if path else None

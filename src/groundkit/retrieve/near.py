"""The chunks that may fold, decided once per ingest: a derived index (``near.bin``).

Folding a search's hits (``retrieve.duplicates``) sets each hit against the hits kept before it;
on a top 100 that cost more than the rest of the search together, although most collections
hold few near-duplicates (SciFact: 4 of 10,931 chunks). This index names, for the chunks up to
a rowid (``covered``), those that are the near-duplicate of another (``near_join``). A search
whose candidates are all covered keeps an unflagged hit without a look (no chunk it could fold
into or take in exists) and folds only the flagged ones among themselves: the verdicts of the
full walk, at the cost of a lookup per hit.

Chunk rowids are never reused (``AUTOINCREMENT``) and a chunk's text never changes under its
rowid, so a file made earlier stays true of the chunks it covers: one deleted since only leaves
a flag that is no longer needed. A chunk added after it (rowid above ``covered``) makes a search
that meets it fold the whole way, as before. A sync makes the file anew when the chunks added
since it was made are more than an eighth of all (it reads every fingerprint: some 30-60 ms per
1,000 chunks on SciFact); otherwise it only records the count (``entries``).

The file: ``GKNEAR1\\0``, then ``covered``, the chunk count and the number of flagged rowids
(little-endian 64-bit each), then the flagged rowids, ascending. It is replaced atomically.
"""

from __future__ import annotations

import os
import struct
import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence, Set
from pathlib import Path

from groundkit.errors import ErrorCode, StoreError
from groundkit.index.store import Store
from groundkit.retrieve.batch_prints import stored_fingerprints
from groundkit.retrieve.near_join import near_flags
from groundkit.storage.faults import classify_os_error

__all__ = ["NearIndex", "NearSnapshot", "NearSource"]

_FILE = "near.bin"
_MAGIC = b"GKNEAR1\0"
_HEADER = struct.Struct("<8sqqq")
# Made anew when the chunks it does not cover are more than 1/_LAG_FRACTION of them: its cost per
# chunk added stays bounded, and an ingest that changes a few files costs what it did.
_LAG_FRACTION = 8
_BATCH = 2000
_SET_UP_TO = 100_000


class NearSnapshot:
    """What one ``near.bin`` says: every chunk up to ``covered`` was compared with every other,
    and ``flagged`` (ascending) are those with a near-duplicate."""

    __slots__ = ("_set", "chunks", "covered", "flagged")

    def __init__(self, covered: int, chunks: int, flagged: Sequence[int]) -> None:
        self.covered, self.chunks, self.flagged = covered, chunks, flagged
        # A set answers a search's lookups fastest; past a size, making it on every open would
        # cost more than the searches save, and a binary search answers instead.
        self._set = frozenset(flagged) if len(flagged) <= _SET_UP_TO else None

    def may_fold(self, rowid: int) -> bool:
        """Whether the chunk ``rowid`` (covered) has a near-duplicate in the collection."""
        if self._set is not None:
            return rowid in self._set
        flagged = self.flagged
        at = bisect_left(flagged, rowid)
        return at < len(flagged) and flagged[at] == rowid

    def among(self, rowids: Iterable[int]) -> Set[int]:
        """Those of ``rowids`` (covered) that may fold."""
        if self._set is not None:
            return self._set.intersection(rowids)
        return {rowid for rowid in rowids if self.may_fold(rowid)}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NearSnapshot):
            return NotImplemented
        return (self.covered, self.chunks, list(self.flagged)) == (
            other.covered,
            other.chunks,
            list(other.flagged),
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        flagged = len(self.flagged)
        return f"NearSnapshot(covered={self.covered}, chunks={self.chunks}, flagged={flagged})"

    def to_bytes(self) -> bytes:
        ids = array("q", self.flagged)
        if sys.byteorder != "little":
            ids.byteswap()
        return _HEADER.pack(_MAGIC, self.covered, self.chunks, len(ids)) + ids.tobytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> NearSnapshot | None:
        """None for a file this code did not write, or a torn one."""
        if len(data) < _HEADER.size:
            return None
        magic, covered, chunks, count = _HEADER.unpack_from(data)
        if magic != _MAGIC or len(data) != _HEADER.size + 8 * count:
            return None
        ids = array("q", data[_HEADER.size :])
        if sys.byteorder != "little":
            ids.byteswap()
        return cls(covered, chunks, ids)


class NearSource:
    """What the index is made from: every chunk's stored fingerprint (a flag depends on all of
    them, so a sync reads the whole store, when it reads it at all)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        store = self.store
        missing = []
        for rowid, fold in store.chunk_folds():
            if fold is None:  # stored before fingerprints were kept (schema < 7)
                missing.append(rowid)
            else:
                yield rowid, fold
        if missing:
            after = 0
            while rows := store.chunks_without_fold(after, _BATCH):
                made = stored_fingerprints([text for _, text in rows])
                yield from zip((rowid for rowid, _ in rows), made, strict=True)
                after = rows[-1][0]

    def lagging(self, covered: int) -> tuple[int, int]:
        """``(chunks, those past covered)``."""
        return self.store.counts()[1], self.store.chunks_after(covered)


class NearIndex:
    """A ``DerivedIndex`` of the chunks that may fold, in ``root/near.bin``."""

    name = "near"
    build = "near_v1"

    def __init__(self, root: Path) -> None:
        self.path = root / _FILE
        self.snapshot: NearSnapshot | None = None
        self._seen: tuple[int, int] | None = None
        self.refresh()

    @property
    def opened(self) -> bool:
        return self.snapshot is not None

    def refresh(self) -> None:
        """See what another process committed."""
        try:
            stat = self.path.stat()
            seen = (stat.st_mtime_ns, stat.st_size)
            if seen != self._seen:
                self.snapshot = NearSnapshot.from_bytes(self.path.read_bytes())
                self._seen = seen
        except OSError:
            self.snapshot, self._seen = None, None

    def entries(self) -> int:
        return self.snapshot.chunks if self.snapshot is not None else 0

    def expected(self, store: Store) -> int:
        return store.counts()[1]

    def source_rows(self, store: Store, documents: Sequence[int] | None) -> NearSource:
        return NearSource(store)

    def size_bytes(self) -> int:
        return self.path.stat().st_size if self.path.exists() else 0

    def sync(self, delete_docs: Iterable[int], add: Iterable[tuple[int, bytes]]) -> None:
        """Make the file anew when enough chunks were added since (see the module's docstring);
        else record the chunk count. Idempotent."""
        now = self.snapshot
        if now is not None and isinstance(add, NearSource):
            chunks, lagging = add.lagging(now.covered)
            if lagging * _LAG_FRACTION <= chunks:
                self._write(NearSnapshot(now.covered, chunks, now.flagged))
                return
        self.rebuild(add)

    def rebuild(self, add: Iterable[tuple[int, bytes]]) -> None:
        """Compare every chunk with every other, and replace the file."""
        rowids: list[int] = []
        folds: list[bytes] = []
        for rowid, fold in add:
            rowids.append(rowid)
            folds.append(fold)
        flagged = sorted(rowids[i] for i in near_flags(folds))
        self._write(NearSnapshot(max(rowids, default=0), len(rowids), flagged))

    def _write(self, snapshot: NearSnapshot) -> None:
        temporary = self.path.with_name(f"{_FILE}.tmp")
        try:
            with open(temporary, "wb") as fh:
                fh.write(snapshot.to_bytes())
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(temporary, self.path)
        except OSError as exc:
            what = "the near-duplicate index could not be written"
            raise classify_os_error(exc, self.path.parent, what) or StoreError(
                ErrorCode.INDEX_FAILED, what, hint="run `grk reindex` to rebuild it from the store"
            ) from exc
        self.refresh()

"""Which chunks of a collection have a near-duplicate among the others: a similarity self-join.

The answer lets a search fold only where folding can happen (``retrieve.near``): a chunk that
is no passage's near-duplicate is kept wherever it ranks, and no hit folds into it. The rule is
``duplicates.near_duplicates`` on the stored fingerprints, exactly:

* the same words: every chunk of a group of equal word hashes is flagged;
* the overlap: ``A`` (``n`` 3-grams, ``n <= m``) and ``B`` (``m``) are near when they share at
  least ``THRESHOLD * n`` (and ``n >= MIN_SHINGLES``). Then at most ``n - ceil(THRESHOLD * n)``
  of ``A``'s 3-grams are missing from ``B``, so any ``n - ceil(THRESHOLD * n) + 1`` of them hold
  one that ``B`` has: ``A``'s *prefix*. Ordered by how many chunks hold them (rarest first, as
  the prefix filter of all-pairs similarity joins does), a prefix is mostly 3-grams no other
  chunk holds, so only the pairs a shared prefix 3-gram names are counted (21 on SciFact's
  10,931 chunks).

A flag is only ever a licence to look: a chunk flagged that has no near-duplicate costs a check
at search time, never a wrong verdict. So where the pairs to count would be too many (thousands
of near-copies of one passage), the chunks they involve are flagged without counting.
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from groundkit.retrieve.duplicates import MIN_SHINGLES, THRESHOLD, Fingerprint

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["near_flags"]

_MAX_PAIRS = 2_000_000  # candidate pairs made at all; past this, their chunks flagged unmade
# Candidate pairs counted exactly, per chunk (and at least _MIN_COUNTED): a count costs some
# 15 us in Python, so a corpus of near-copies (scale.py's: 59k pairs at 11,764 chunks) spent
# more on the join than on the rest of its ingest. The pairs past it flag both their chunks.
_COUNTED_PER_CHUNK = 1
_MIN_COUNTED = 10_000
_MASK = 0xFFFFFFFF


def near_flags(folds: Sequence[bytes]) -> list[int]:
    """The positions in ``folds`` (stored fingerprints, ``Fingerprint.to_bytes``) of those that
    are ``near_duplicates`` of at least one other, ascending."""
    import numpy as np  # here: a search never needs it

    count = len(folds)
    if count < 2:
        return []
    words = np.fromiter((int.from_bytes(f[:8], "little") for f in folds), np.uint64, count)
    sizes = np.fromiter(((len(f) - 8) >> 2 for f in folds), np.int64, count)
    # Equal words: the same passage. One of each group stands for it in the overlap join: its
    # 3-grams are those of every member, so a near-duplicate of it is one of them all.
    order = np.argsort(words, kind="stable")
    same = words[order][1:] == words[order][:-1]
    group = np.empty(count, dtype=np.int64)
    group[order] = np.cumsum(np.concatenate(([True], ~same))) - 1
    flagged_group = np.zeros(int(group.max()) + 1, dtype=bool)
    flagged_group[group[order][1:][same]] = True
    first = np.zeros(count, dtype=bool)
    first[order[np.concatenate(([True], ~same))]] = True
    members = np.flatnonzero(first & (sizes >= MIN_SHINGLES))
    with _small_pages():
        near = _overlapping([folds[i] for i in members.tolist()], sizes[members])
    flagged_group[group[members[near]]] = True
    found: list[int] = np.flatnonzero(flagged_group[group]).tolist()
    return found


def _overlapping(folds: Sequence[bytes], sizes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Indexes of the fingerprints (each of MIN_SHINGLES 3-grams or more, no two of the same
    words) that share at least ``THRESHOLD`` of the smaller one's 3-grams with another.

    Arrays the length of every 3-gram are few and made in place: each fresh one is memory the
    kernel must hand over page by page, and those faults cost more than the arithmetic (at 100k
    documents, 26M 3-grams, twice the user time in system time)."""
    import numpy as np

    count = len(folds)
    if count < 2:
        return np.zeros(0, dtype=np.int64)
    values = np.frombuffer(b"".join(memoryview(f)[8:] for f in folds), dtype="<u4")
    # (3-gram << 32 | chunk) keys, written half by half: the 3-gram in the high half.
    keys = np.empty(len(values), dtype=np.uint64)
    halves = keys.view(np.uint32).reshape(-1, 2)
    low, high = (0, 1) if sys.byteorder == "little" else (1, 0)
    halves[:, high] = values
    del values
    # The chunk that holds each 3-gram in the low half: a chunk's 3-grams are distinct, so the
    # sort orders equal 3-grams as their positions would, and no gather finds their chunks.
    halves[:, low] = np.repeat(np.arange(count, dtype=np.uint32), sizes)
    keys.sort()
    # By sorted position from here: the chunk of each 3-gram, runs of equal 3-grams.
    holder = halves[:, low].astype(np.int32)
    grams = halves[:, high]
    new = np.empty(len(keys), dtype=bool)
    new[0] = True
    np.not_equal(grams[1:], grams[:-1], out=new[1:])
    del keys, halves, grams
    starts = np.flatnonzero(new)
    lengths = np.diff(starts, append=len(new))  # how many chunks hold each 3-gram
    alone = np.repeat(lengths == 1, lengths)
    prefix = sizes - np.ceil(THRESHOLD * sizes).astype(np.int64) + 1
    # A chunk with as many 3-grams of its own as its prefix is long names no pair; the others
    # take the rest of their prefix from their shared 3-grams, rarest first.
    need = prefix - np.bincount(holder[alone], minlength=count)
    np.logical_not(alone, out=alone)
    wanted = (need > 0)[holder]
    wanted &= alone
    del alone
    # Masks, not index arrays: a bool per 3-gram, where an index costs eight bytes.
    run = np.cumsum(new, dtype=np.int32)[wanted]
    run -= 1
    del new
    runs, owners = _probes(holder[wanted], run, lengths, need)
    del wanted, run
    # Every other holder of each probe's 3-gram: a candidate pair.
    widths = lengths[runs]
    total = int(widths.sum())
    if total > _MAX_PAIRS:
        named = np.zeros(len(starts), dtype=bool)
        named[runs] = True
        flagged = np.zeros(count, dtype=bool)
        flagged[holder[np.repeat(named, lengths)]] = True  # not np.unique: a third of the time
        return np.flatnonzero(flagged)
    at = np.repeat(starts[runs], widths) + (
        np.arange(total) - np.repeat(np.cumsum(widths) - widths, widths)
    )
    a = np.repeat(owners, widths)
    b = holder[at]
    keep = a != b
    low_, high_ = np.minimum(a[keep], b[keep]), np.maximum(a[keep], b[keep])
    pairs = np.unique(low_ * count + high_)
    budget = max(_MIN_COUNTED, _COUNTED_PER_CHUNK * count)
    return _counted(folds, pairs // count, pairs % count, budget)


@contextmanager
def _small_pages() -> Iterator[None]:
    """Arrays made without numpy's ``madvise(MADV_HUGEPAGE)`` (its default for 4 MB and more).

    Where the kernel's hugepage setting is ``madvise`` and its ``defrag`` one too (both Linux's
    defaults), each fault in such an array compacts memory to find 2 MB pages, synchronously: at
    100k documents that system time was as much as the join's own arithmetic, and what made its
    CPU per document grow with the collection (``benchmarks/near_join_time.py``). The switch is
    the process's: arrays another thread makes meanwhile go without the advice too (only that)."""
    toggle = _hugepage_switch()
    if toggle is None:  # a numpy without the switch: arrays as it makes them
        yield
        return
    # Joins at once in one process (two collections rebuilt by a server): the first to start
    # turns it off, the last to end puts back what the first found.
    with _JOINS.lock:
        if not _JOINS.running:
            _JOINS.before = toggle(False)
        _JOINS.running += 1
    try:
        yield
    finally:
        with _JOINS.lock:
            _JOINS.running -= 1
            if not _JOINS.running:
                toggle(_JOINS.before)


class _Running:
    """Joins running in this process, and numpy's setting before the first of them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.before = True


_JOINS = _Running()


def _hugepage_switch() -> Callable[[bool], bool] | None:
    """numpy's own switch (``numpy._core``; ``numpy.core`` before 2.0), documented with its
    ``NUMPY_MADVISE_HUGEPAGE`` variable, which is read only when numpy is imported."""
    for name in ("numpy._core.multiarray", "numpy.core.multiarray"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        switch: Callable[[bool], bool] | None = getattr(module, "_set_madvise_hugepage", None)
        return switch
    return None


def _probes(
    holder: npt.NDArray[np.int32],
    run: npt.NDArray[np.int32],
    lengths: npt.NDArray[np.int64],
    need: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Of shared 3-grams (each one's chunk, and its run), the ``need[chunk]`` rarest of each
    chunk: their runs and chunks, by chunk.

    Rarest first is fewest holders, then by value (the order of runs); one sort of (chunk,
    rarity) keys puts each chunk's 3-grams in that order (a three-key lexsort took 3x longer)."""
    import numpy as np

    held = np.flatnonzero(lengths > 1)  # the runs a shared 3-gram is in
    rarest = held[np.argsort(lengths[held], kind="stable")]
    rank = np.empty(len(lengths), dtype=np.uint64)
    rank[rarest] = np.arange(len(rarest), dtype=np.uint64)
    chosen = holder.astype(np.uint64)
    chosen <<= np.uint64(32)
    chosen |= rank[run]
    chosen.sort()
    owners = (chosen >> np.uint64(32)).view(np.int64)
    if not len(owners):
        return owners, owners
    # Each chunk's first need[chunk] entries, marked +1 where its entries start and -1 where its
    # probes end, then summed: arrays of one byte the length of every entry, not of eight.
    firsts = np.flatnonzero(np.concatenate(([True], owners[1:] != owners[:-1])))
    ends = np.minimum(firsts + need[owners[firsts]], np.append(firsts[1:], len(owners)))
    mark = np.zeros(len(owners) + 1, dtype=np.int8)
    mark[firsts] = 1
    mark[ends] -= 1  # (where a chunk's probes end as the next chunk's begin: 0)
    probes = np.cumsum(mark[:-1], dtype=np.int8).view(bool)
    picked = chosen[probes]
    picked &= np.uint64(_MASK)
    return rarest[picked.view(np.int64)], owners[probes]


def _counted(
    folds: Sequence[bytes], a: npt.NDArray[np.int64], b: npt.NDArray[np.int64], budget: int
) -> npt.NDArray[np.int64]:
    """Of each pair ``(a[i], b[i])``, both when they share enough 3-grams; after ``budget``
    counts, both without counting."""
    import numpy as np

    prints: dict[int, Fingerprint] = {}

    def of(i: int) -> Fingerprint:
        found = prints.get(i)
        if found is None:
            found = prints[i] = Fingerprint.from_bytes(folds[i])
        return found

    near: set[int] = set()
    left = budget
    for k, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        if i in near and j in near:
            continue
        if not left:
            near.update(a[k:].tolist())
            near.update(b[k:].tolist())
            break
        left -= 1
        x, y = of(i), of(j)
        if len(x.shingles & y.shingles) >= THRESHOLD * min(x.size, y.size):
            near.update((i, j))
    return np.array(sorted(near), dtype=np.int64)

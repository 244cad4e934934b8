"""Near-duplicate folding for a long walk: every pair's shared 3-grams counted at once, by numpy.

``Folding`` places hits one at a time in pure Python; placing a hundred of them that way cost
more than the rest of a top-100 search together (and three times what bm25s takes for a whole
query). ``BatchFolding`` gives the very same verdicts (the same rule, ``near_duplicates``,
against each kept hit in keeping order) for a batch of hits at a time: it sorts every 3-gram of
the batch and of the hits kept before it once, counts for each pair of hits the 3-grams they
share, and then walks the batch in order against that table.

numpy takes about 150 ms to import, more than a whole ``grk search`` process otherwise costs,
so a search uses this only for batches of ``BATCH_FROM`` hits or more (``search`` decides); a
short walk keeps to ``Folding``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from groundkit.retrieve.duplicates import MIN_SHINGLES, THRESHOLD, Fingerprint

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["BATCH_FROM", "BatchFolding"]

BATCH_FROM = 48  # below this, Folding's filter costs less than numpy's fixed costs
_GROUP_FROM = 100_000  # twice the pairs of 3-grams above which runs are grouped by owners
_COUNTED_UP_TO = 1 << 22  # hits squared up to which pairs are counted in an array, not sorted


class BatchFolding:
    """Hits met best first, a batch at a time: each is kept, or folded into the first kept hit
    it nearly duplicates. ``place_all`` yields the verdicts lazily: a walk that stops early
    leaves the hits it did not read unplaced, as if never met."""

    def __init__(self) -> None:
        self._kept: list[Fingerprint] = []
        self._exact: dict[int, int] = {}
        self._large: list[int] = []  # kept hits with MIN_SHINGLES 3-grams or more

    def place(self, found: Fingerprint) -> int | None:
        return next(self.place_all([found]))

    def place_all(self, batch: Sequence[Fingerprint]) -> Iterator[int | None]:
        """For each hit of ``batch`` in order: the index (in keeping order) of the kept hit it
        folds into, or None when it is kept."""
        earlier = [self._kept[i] for i in self._large]
        large = [found for found in batch if found.size >= MIN_SHINGLES]
        table = _near_table([*earlier, *large])
        kept_as: list[int | None] = [*self._large, *([None] * len(large))]
        row = len(earlier) - 1  # the table's row of the last large hit met
        exact, kept = self._exact, self._kept
        for found in batch:
            same = exact.get(found.words)
            if found.size >= MIN_SHINGLES:
                row += 1
                if same is None and table[row]:
                    # The first kept hit in keeping order: rows of kept hits rise with it.
                    same = next(
                        (k for k in map(kept_as.__getitem__, table[row]) if k is not None), None
                    )
            if same is not None:
                yield same
                continue
            index = len(kept)
            exact[found.words] = index
            kept.append(found)
            if found.size >= MIN_SHINGLES:
                kept_as[row] = index
                self._large.append(index)
            yield None


def _near_table(prints: Sequence[Fingerprint]) -> list[list[int]]:
    """For each fingerprint (all of MIN_SHINGLES 3-grams or more), the earlier ones it nearly
    duplicates by their 3-grams, in ascending order."""
    import numpy as np  # here: see the module's docstring

    n = len(prints)
    table: list[list[int]] = [[] for _ in range(n)]
    if n < 2:
        return table
    sizes = np.fromiter((p.size for p in prints), dtype=np.int64, count=n)
    values = np.frombuffer(b"".join(p.blob for p in prints), dtype="<u4")
    owners = np.repeat(np.arange(n, dtype=np.uint64), sizes)
    # Sorted by (3-gram, owner): the owners of one 3-gram form a run, in ascending order, and
    # each fingerprint's 3-grams are distinct, so a run never holds an owner twice.
    # Stable: each fingerprint's 3-grams are already in order, and timsort merges such runs.
    keys = np.sort((values.astype(np.uint64) << np.uint64(32)) | owners, kind="stable")
    grams = keys >> np.uint64(32)
    repeated = grams[1:] == grams[:-1]
    shared = np.concatenate(([False], repeated)) | np.concatenate((repeated, [False]))
    keys, grams = keys[shared], grams[shared]  # only 3-grams of two hits or more make pairs
    owner = (keys & np.uint64(0xFFFFFFFF)).astype(np.int64)
    if not owner.size:
        return table
    codes, weights = _shared_counts(grams, owner, n)
    if n * n <= _COUNTED_UP_TO:  # a count per possible pair: no sort of the pairs
        totals = np.bincount(codes, weights=weights, minlength=n * n)
        pairs = np.flatnonzero(totals)
        counts = totals[pairs]  # 3-grams shared by each pair
    else:
        order = np.argsort(codes, kind="stable")
        codes = codes[order]
        starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
        counts = np.add.reduceat(np.ones_like(codes) if weights is None else weights[order], starts)
        pairs = codes[starts]
    a, b = np.divmod(pairs, n)
    near = counts >= THRESHOLD * np.minimum(sizes[a], sizes[b])
    # A hit can only fold into one met before it: each row lists the earlier ones (a < b), in
    # ascending order since the pairs' codes ascend.
    for i, j in zip(a[near].tolist(), b[near].tolist(), strict=True):
        table[j].append(i)
    return table


def _shared_counts(
    grams: npt.NDArray[np.uint64], owner: npt.NDArray[np.int64], n: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64] | None]:
    """Pair codes (``i * n + j``, ``i < j``, repeated, in no order) and what each adds to the
    pair's count of shared 3-grams (None: one each), from the runs of equal ``grams`` and their
    ``owner``.

    Passages that share a sentence share each of its 3-grams, so many runs hold the same owners
    (a top 100 whose hits all quote one sentence made 700,000 pairs of 869 3-grams). Runs with
    the same owners are paired once, weighted by how many they are: grouped by a hash of their
    owners, and checked member by member, so that a collision costs only the grouping."""
    import numpy as np

    size = len(owner)
    starts = np.flatnonzero(np.concatenate(([True], grams[1:] != grams[:-1])))
    lengths = np.diff(np.append(starts, size))
    if int((lengths * (lengths - 1)).sum()) <= _GROUP_FROM:  # grouping would cost more
        first, second = _pairs_in_runs(grams)
        return owner[first] * n + owner[second], None
    run = np.repeat(np.arange(len(starts)), lengths)
    signature = (
        np.add.reduceat(_mixed(owner, 1), starts),
        np.add.reduceat(_mixed(owner, 2), starts),
    )
    order = np.lexsort((signature[1], signature[0], lengths))
    ordered = (lengths[order], signature[0][order], signature[1][order])
    new = np.concatenate(([True], np.any([k[1:] != k[:-1] for k in ordered], axis=0)))
    group = np.empty(len(starts), dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    representative = order[new]
    within = np.arange(size) - np.repeat(starts, lengths)
    if not np.array_equal(owner, owner[starts[representative[group]][run] + within]):
        representative, group = np.arange(len(starts)), np.arange(len(starts))  # a collision
    weight = np.bincount(group, minlength=len(representative))
    chosen = lengths[representative]
    picked = np.repeat(starts[representative], chosen) + (
        np.arange(int(chosen.sum())) - np.repeat(np.cumsum(chosen) - chosen, chosen)
    )
    label = np.repeat(np.arange(len(representative)), chosen)
    first, second = _pairs_in_runs(label)
    return owner[picked[first]] * n + owner[picked[second]], weight[label[first]]


def _mixed(owner: npt.NDArray[np.int64], salt: int) -> npt.NDArray[np.uint64]:
    """A fixed 64-bit hash of each owner (splitmix64's finaliser), different for each salt."""
    import numpy as np

    x = (owner.astype(np.uint64) + np.uint64(salt << 32)) * np.uint64(0x9E3779B97F4A7C15)
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _pairs_in_runs(
    values: npt.NDArray[Any],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every pair of positions ``p < q`` of a sorted array that hold the same value."""
    import numpy as np

    size = len(values)
    if not size:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    lengths = np.diff(np.append(starts, size))
    after = np.repeat(starts + lengths, lengths) - np.arange(size) - 1  # later positions in run
    first = np.repeat(np.arange(size), after)
    offsets = np.arange(len(first)) - np.repeat(np.cumsum(after) - after, after)
    return first, first + 1 + offsets

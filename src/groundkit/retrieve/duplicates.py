"""Near-duplicate passages: the same text stored more than once ranks more than once.

A real folder holds a page as ``.md``, as ``.html`` and again inside an ``all.html``; each copy
is its own document, so one passage can take the top three places. Search walks its hits best
first and folds each hit that nearly duplicates a hit already kept into that hit.

The test, on the text alone (no source names, no scores):

- words: the runs of letters and digits of the case-folded text, with Markdown link targets, URLs
  and code-fence lines left out (a page converted from HTML keeps a link's words but not where it
  pointed, and a fence's language name is gone);
- two passages are duplicates when their words are the same sequence;
- they are near-duplicates when at least ``THRESHOLD`` of the word 3-grams of the one with fewer
  3-grams also occur in the other (the overlap coefficient): a copy cut at other chunk bounds, or
  a chunk that holds another whole, is folded. The smaller must have at least ``MIN_SHINGLES``
  distinct 3-grams, so that two short passages sharing a phrase are not folded.

A passage's fingerprint is made once, at ingest, and stored with its chunk (``to_bytes``), so a
search only reads it back: making it from the text costs ten times more than the rest of a hit.
The word sequence is kept as a 64-bit hash and each 3-gram as a 32-bit one, all stable across
processes (BLAKE2b of the words), so the result depends only on the texts and the order of the
hits: it is deterministic. A hash collision could only change a verdict that sits exactly at the
threshold (two unrelated 3-grams of two passages of 150 collide with odds of about 1 in 200,000).
``benchmarks/search_extras.py`` measures the cost and the false-fold rate on SciFact, whose
passages are distinct abstracts.
"""

from __future__ import annotations

import math
import re
import sys
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from hashlib import blake2b

__all__ = [
    "MIN_SHINGLES",
    "THRESHOLD",
    "Fingerprint",
    "Folding",
    "fingerprint",
    "near_duplicates",
    "words",
]

THRESHOLD = 0.8
MIN_SHINGLES = 16
PROBE = 8  # see Folding
# Half the hashes: the probe of 128 uniform hashes (34 of them) ends near a quarter of the range.
_LOW = 0x7FFFFFFF
_WORD = re.compile(r"\w+")
# A Markdown link's target (`](...)`), a bare URL and a code fence's line (with its language):
# present in Markdown, gone from a page converted from HTML.
_MARKUP = re.compile(r"\]\([^)\s]*\)|https?://\S+|^ {0,3}(?:```|~~~)[^\n]*$", re.MULTILINE)

# ASCII characters that are not word characters (\w: letters, digits, "_") become spaces.
_ASCII_SEPARATORS = str.maketrans(
    {c: " " for c in map(chr, range(128)) if not (c.isalnum() or c == "_")}
)
_MASK = 0xFFFFFFFF
# Odd multipliers: each makes a bijection of 32-bit values, so a 3-gram's hash changes with any
# one of its words.
_K1, _K2, _K3 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D
_WORD_IDS: dict[str, int] = {}  # a word's stable 32-bit hash, kept across passages
_MAX_WORD_IDS = 1_000_000
_SWAP = sys.byteorder != "little"  # stored little-endian


class Fingerprint:
    """What the test compares of one passage: its word sequence and its 3-grams, hashed.

    The 3-grams are kept as their sorted hashes (``to_bytes``: as stored with the chunk) and made
    a set only when an exact comparison needs one: read back at search time, most passages are
    placed by ``Folding`` through its filter alone.
    """

    __slots__ = ("_set", "_values", "blob", "size", "words")
    words: int
    size: int  # the number of distinct 3-grams
    blob: bytes  # the 3-grams' hashes, ascending, as 32-bit little-endian values
    _values: Sequence[int] | None
    _set: frozenset[int] | None

    def __init__(self, words: int, blob: bytes) -> None:
        self.words, self.blob, self.size = words, blob, len(blob) >> 2
        self._values = self._set = None

    @property
    def values(self) -> Sequence[int]:
        """The 3-grams' hashes, ascending."""
        if self._values is None:
            if _SWAP:
                values: Sequence[int] = array("I", self.blob)
                values.byteswap()  # type: ignore[attr-defined]
            else:
                values = memoryview(self.blob).cast("I")
            self._values = values
        return self._values

    @property
    def shingles(self) -> frozenset[int]:
        if self._set is None:
            self._set = frozenset(self.values)
        return self._set

    def to_bytes(self) -> bytes:
        return self.words.to_bytes(8, "little") + self.blob

    @classmethod
    def from_bytes(cls, blob: bytes) -> Fingerprint:
        return cls(int.from_bytes(blob[:8], "little"), blob[8:])

    @classmethod
    def of(cls, words: int, shingles: Iterable[int]) -> Fingerprint:
        values = array("I", sorted(set(shingles)))
        if _SWAP:
            values.byteswap()
        return cls(words, values.tobytes())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Fingerprint):
            return NotImplemented
        return self.words == other.words and self.blob == other.blob

    def __hash__(self) -> int:
        return hash((self.words, self.blob))

    def __repr__(self) -> str:
        return f"Fingerprint(words={self.words:#x}, size={self.size})"


def words(text: str) -> list[str]:
    """The words the test compares (see the module's docstring)."""
    if "](" in text or "://" in text or "```" in text or "~~~" in text:  # cheaper than the regex
        text = _MARKUP.sub(" ", text)
    if text.isascii():  # the same words as the regex gives, three times faster
        return text.lower().translate(_ASCII_SEPARATORS).split()
    return _WORD.findall(text.casefold())


def _word_ids(found: list[str]) -> list[int]:
    """Each word's stable 32-bit hash (BLAKE2b), remembered across passages."""
    new = set(found).difference(_WORD_IDS)
    if new:
        if len(_WORD_IDS) + len(new) > _MAX_WORD_IDS:
            _WORD_IDS.clear()
            new = set(found)
        for word in new:
            digest = blake2b(word.encode(), digest_size=4).digest()
            _WORD_IDS[word] = int.from_bytes(digest, "little")
    return list(map(_WORD_IDS.__getitem__, found))


def _words_hash(found: list[str]) -> int:
    return int.from_bytes(blake2b("\0".join(found).encode(), digest_size=8).digest(), "little")


def fingerprint(text: str) -> Fingerprint:
    found = words(text)
    ids = _word_ids(found)
    triples = zip(ids, ids[1:], ids[2:], strict=False)
    shingles = {(a * _K1 ^ b * _K2 ^ c * _K3) & _MASK for a, b, c in triples}
    return Fingerprint.of(_words_hash(found), shingles)


def near_duplicates(a: Fingerprint, b: Fingerprint) -> bool:
    """Whether ``a`` and ``b`` are the same passage, or nearly (see the module's docstring)."""
    if a.words == b.words:
        return True
    small, large = (a, b) if len(a.shingles) <= len(b.shingles) else (b, a)
    if small.size < MIN_SHINGLES:
        return False
    return len(small.shingles & large.shingles) >= THRESHOLD * small.size


class Folding:
    """Hits met best first: each is kept, or folded into the first kept hit it duplicates.

    The same verdicts as ``near_duplicates`` against each kept hit in turn, in time linear in
    the 3-grams met rather than in kept x candidates.

    First a filter that can only say no, on the sorted hashes as stored (no set is made of a
    candidate). Say a candidate ``C`` of ``n`` 3-grams folds into a kept ``K`` of ``m``: they
    share ``t = ceil(THRESHOLD * min(n, m))``, so all but ``min(n, m) - t`` of the smaller one's
    3-grams are in the other, and any ``min(n, m) - t + PROBE`` of them (its ``probe``: its
    smallest hashes) hold at least ``PROBE`` that are. So:

    - if ``n <= m``: ``C``'s probe shares ``PROBE`` or more with ``K``, all of them no larger
      than the probe's largest hash;
    - if ``m < n``: ``K``'s probe shares ``PROBE`` or more with ``C``.

    The kept hits' hashes up to ``_LOW`` and their probes are kept as two unions; a candidate
    that shares fewer than ``PROBE`` with each union (its probe with the first, its hashes up to
    ``_LOW`` with the second) folds into no kept hit. Counting against a union can only
    overcount, so the filter never hides a fold. On SciFact's top 100 it passes 2.4% of the
    candidates: 3-grams such as "in this study" are common to many abstracts, so asking for one
    shared 3-gram (``PROBE = 1``) passed 59%, and ``PROBE = 4`` 10%.

    A candidate the filter passes is compared exactly. Kept hits are grouped by size (their
    3-gram count's bit length), each group with the union of its 3-grams (made on first need).
    Folding into a kept hit of size ``m`` needs ``THRESHOLD * min(n, m)`` shared 3-grams, so a
    group whose union a candidate of size ``n`` shares fewer than ``THRESHOLD * min(n, smallest
    size of the group)`` with holds no hit to fold into (one set operation), and only the groups
    left are walked.
    """

    def __init__(self) -> None:
        self._kept: list[Fingerprint] = []
        self._exact: dict[int, int] = {}
        # Kept hits of MIN_SHINGLES 3-grams or more (a smaller one is folded into by its very
        # words alone): the unions of the filter, and the size groups.
        self._large: list[int] = []
        self._low: set[int] = set()  # their hashes up to _LOW
        self._probes: set[int] = set()  # their probes
        self._wide = False  # a probe reaches past _LOW
        self._groups: dict[int, tuple[set[int], list[int]]] = {}
        self._grouped = 0  # how many of ``_large`` are in ``_groups``

    def place(self, found: Fingerprint) -> int | None:
        """The index (in keeping order) of the kept hit ``found`` folds into; None: it is kept."""
        same = self._exact.get(found.words)
        if same is not None:
            return same
        size = found.size
        large = size >= MIN_SHINGLES  # else only its very words could fold it
        if large:
            values = found.values
            probe = values[: size - math.ceil(THRESHOLD * size) + PROBE]
            low = values[: bisect_right(values, _LOW)]
            if self._large and (
                probe[-1] > _LOW
                or len(self._low.intersection(probe)) >= PROBE
                or len(self._probes.intersection(values if self._wide else low)) >= PROBE
            ):
                into = self._first_near(found, size)
                if into is not None:
                    return into
        index = len(self._kept)
        self._exact.setdefault(found.words, index)
        self._kept.append(found)
        if large:
            self._large.append(index)
            self._low.update(low)
            self._probes.update(probe)
            self._wide = self._wide or probe[-1] > _LOW
        return None

    def place_all(self, batch: Iterable[Fingerprint]) -> Iterator[int | None]:
        """``place`` for each hit of ``batch`` in turn, lazily."""
        return map(self.place, batch)

    def _first_near(self, found: Fingerprint, size: int) -> int | None:
        for i in self._large[self._grouped :]:
            kept = self._kept[i]
            union, members = self._groups.setdefault(kept.size.bit_length(), (set(), []))
            union.update(kept.values)
            members.append(i)
        self._grouped = len(self._large)
        first: int | None = None
        for group, (union, members) in self._groups.items():
            smallest = 1 << (group - 1)
            common = found.shingles & union
            if len(common) < THRESHOLD * max(MIN_SHINGLES, min(size, smallest)):
                continue
            for i in members:  # in keeping order: the first near one is the group's answer
                if first is not None and i > first:
                    break
                shingles = self._kept[i].shingles
                if len(common & shingles) >= THRESHOLD * min(size, len(shingles)):
                    first = i
                    break
        return first

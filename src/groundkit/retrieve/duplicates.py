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

import re
import sys
from array import array
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """What the test compares of one passage: its word sequence and its 3-grams, hashed."""

    words: int
    shingles: frozenset[int]

    def to_bytes(self) -> bytes:
        values = array("I", sorted(self.shingles))
        if _SWAP:
            values.byteswap()
        return self.words.to_bytes(8, "little") + values.tobytes()

    @classmethod
    def from_bytes(cls, blob: bytes) -> Fingerprint:
        values = array("I")
        values.frombytes(blob[8:])
        if _SWAP:
            values.byteswap()
        return cls(int.from_bytes(blob[:8], "little"), frozenset(values))


def words(text: str) -> list[str]:
    """The words the test compares (see the module's docstring)."""
    if "](" in text or "://" in text or "```" in text or "~~~" in text:  # cheaper than the regex
        text = _MARKUP.sub(" ", text)
    if text.isascii():  # the same words as the regex gives, three times faster
        return text.lower().translate(_ASCII_SEPARATORS).split()
    return _WORD.findall(text.casefold())


def _word_id(word: str) -> int:
    if len(_WORD_IDS) >= _MAX_WORD_IDS:
        _WORD_IDS.clear()
    found = _WORD_IDS[word] = int.from_bytes(
        blake2b(word.encode(), digest_size=4).digest(), "little"
    )
    return found


def fingerprint(text: str) -> Fingerprint:
    found = words(text)
    known = _WORD_IDS.get
    ids = [known(w) or _word_id(w) for w in found]
    whole = blake2b("\0".join(found).encode(), digest_size=8).digest()
    triples = zip(ids, ids[1:], ids[2:], strict=False)
    shingles = frozenset([(a * _K1 ^ b * _K2 ^ c * _K3) & _MASK for a, b, c in triples])
    return Fingerprint(int.from_bytes(whole, "little"), shingles)


def near_duplicates(a: Fingerprint, b: Fingerprint) -> bool:
    """Whether ``a`` and ``b`` are the same passage, or nearly (see the module's docstring)."""
    if a.words == b.words:
        return True
    small, large = (a, b) if len(a.shingles) <= len(b.shingles) else (b, a)
    if len(small.shingles) < MIN_SHINGLES:
        return False
    return len(small.shingles & large.shingles) >= THRESHOLD * len(small.shingles)


class Folding:
    """Hits met best first: each is kept, or folded into the first kept hit it duplicates.

    The same verdicts as ``near_duplicates`` against each kept hit in turn, in time linear in
    the 3-grams met rather than in kept x candidates. Kept hits are grouped by size (their
    3-gram count's bit length), each group with the union of its 3-grams. Folding into a kept
    hit of size ``m`` needs ``THRESHOLD * min(n, m)`` shared 3-grams, so a group whose union a
    candidate of size ``n`` shares fewer than ``THRESHOLD * min(n, smallest size of the group)``
    with holds no hit to fold into (one set operation), and only the groups left are walked.
    """

    def __init__(self) -> None:
        self._kept: list[Fingerprint] = []
        self._exact: dict[int, int] = {}
        self._groups: dict[int, tuple[set[int], list[int]]] = {}

    def place(self, found: Fingerprint) -> int | None:
        """The index (in keeping order) of the kept hit ``found`` folds into; None: it is kept."""
        same = self._exact.get(found.words)
        if same is not None:
            return same
        size = len(found.shingles)
        if size >= MIN_SHINGLES:  # else only its very words could fold it
            into = self._first_near(found, size)
            if into is not None:
                return into
        index = len(self._kept)
        self._exact.setdefault(found.words, index)
        self._kept.append(found)
        if size >= MIN_SHINGLES:  # a smaller kept hit is folded into by its very words alone
            union, members = self._groups.setdefault(size.bit_length(), (set(), []))
            union |= found.shingles
            members.append(index)
        return None

    def _first_near(self, found: Fingerprint, size: int) -> int | None:
        first: int | None = None
        for group, (union, members) in self._groups.items():
            smallest = 1 << (group - 1)
            common = found.shingles & union
            if len(common) < THRESHOLD * max(MIN_SHINGLES, min(size, smallest)):
                continue
            for i in members:  # in keeping order: the first near one is the group's answer
                if first is not None and i > first:
                    break
                kept = self._kept[i].shingles
                if len(common & kept) >= THRESHOLD * min(size, len(kept)):
                    first = i
                    break
        return first

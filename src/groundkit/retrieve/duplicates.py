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

Sets of 3-grams are compared exactly (no hashing, no sampling), so the result depends only on the
texts and the order of the hits: it is deterministic. ``benchmarks/duplicates.py`` measures the
cost and the false-fold rate on SciFact, whose passages are distinct abstracts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MIN_SHINGLES", "THRESHOLD", "Fingerprint", "Folding", "fingerprint", "near_duplicates"]

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

Shingle = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """What the test compares of one passage."""

    words: tuple[str, ...]
    shingles: frozenset[Shingle]


def fingerprint(text: str) -> Fingerprint:
    if "](" in text or "://" in text or "```" in text or "~~~" in text:  # cheaper than the regex
        text = _MARKUP.sub(" ", text)
    if text.isascii():  # the same words as the regex gives, three times faster
        words = tuple(text.lower().translate(_ASCII_SEPARATORS).split())
    else:
        words = tuple(_WORD.findall(text.casefold()))
    return Fingerprint(words, frozenset(zip(words, words[1:], words[2:], strict=False)))


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
    the 3-grams met rather than in kept x candidates: a candidate's 3-grams are first met
    against the union of the kept hits' (one set operation), and only the kept hits sharing
    enough of them are compared.
    """

    def __init__(self) -> None:
        self._kept: list[Fingerprint] = []
        self._exact: dict[tuple[str, ...], int] = {}
        self._seen: set[Shingle] = set()

    def place(self, found: Fingerprint) -> int | None:
        """The index (in keeping order) of the kept hit ``found`` folds into; None: it is kept."""
        same = self._exact.get(found.words)
        if same is not None:
            return same
        common = found.shingles & self._seen
        # Folding needs at least THRESHOLD * MIN_SHINGLES 3-grams shared with one kept hit.
        if len(common) >= THRESHOLD * MIN_SHINGLES:
            for i, kept in enumerate(self._kept):
                small = min(len(found.shingles), len(kept.shingles))
                if small >= MIN_SHINGLES and len(common & kept.shingles) >= THRESHOLD * small:
                    return i
        self._exact.setdefault(found.words, len(self._kept))
        self._kept.append(found)
        self._seen |= found.shingles
        return None

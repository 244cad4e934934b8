"""Atoms: the pieces a range of text is cut into before packing, found on demand.

A range longer than the chunk size is cut at the coarsest separator that occurs in it (blank
lines, then line breaks, then sentence ends, then runs of whitespace); each piece still too long
is cut the same way at the next finer separator, and a piece with no separator left is cut every
``size`` characters. Every cut falls where a whitespace run ends, so whitespace stays with the
piece before it.

Packing only ever asks which atom holds a position, for positions that only move forward.
``AtomCursor`` answers by keeping the path of nested pieces that held the last answer and moving
it forward, so each question costs a few regex searches over about one chunk of text. Listing
every cut up front instead (one match object per word of an abstract) was most of the chunker's
time, and recursing per piece cost one Python call per word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AtomCursor", "atoms", "first_text", "has_text", "last_text_end"]

# Each separator is a whitespace run (so no match spans a non-space character, and a search
# that starts at a non-space character sees the same matches as one that started earlier). A cut
# is where a separator's run ends.
_SEPARATORS = (
    r"\n[ \t]*\n\s*",  # paragraphs
    r"\n\s*",  # lines
    r"[.!?;:]\s+",  # sentences and clauses: a run after punctuation
    r"\s+",  # words
)
# The sentence pattern consumes its punctuation rather than looking behind for it (three times
# faster to scan), so forward searches start one character early to see punctuation just
# before the range; the run after it is all inside the range, as a look-behind would have it.
_SENTENCES = 2
_FORWARD = tuple(re.compile(p) for p in _SEPARATORS)
# The last cut in a window: `.*` runs to the window's end and backtracks to the last match.
# `(?=\S)` makes the match end where its whitespace run really ends, never where the window
# happens to end.
_BACKWARD = tuple(re.compile(r"(?s:.*)" + p + r"(?=\S)") for p in _SEPARATORS)
_FIRST_WINDOW = 64
_HARD = len(_SEPARATORS)  # no separator left: cut every `size` characters
_TEXT = re.compile(r"\S")


def has_text(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a non-whitespace character."""
    return _TEXT.search(text, start, end) is not None


def first_text(text: str, start: int, end: int) -> int | None:
    """Where the first non-whitespace character of ``text[start:end]`` is, if there is one."""
    match = _TEXT.search(text, start, end)
    return None if match is None else match.start()


def last_text_end(text: str, start: int, end: int) -> int | None:
    """One past the last non-whitespace character of ``text[start:end]``, if there is one.

    Looks back from ``end`` in growing windows, so it costs about the length of the trailing
    whitespace, however long the range (copying a short slice beats any regex scan).
    """
    width = _FIRST_WINDOW
    while True:
        low = max(start, end - width)
        kept = len(text[low:end].rstrip())
        if kept or low == start:
            return low + kept if kept else None
        width *= 4


@dataclass(slots=True)
class _Frame:
    """An oversized range cut at ``level``, and the piece of it that held the last answer."""

    end: int
    level: int
    piece_start: int
    piece_end: int


class AtomCursor:
    """The atoms of ``text[start:end]`` for chunks of ``size``, asked for in position order."""

    def __init__(self, text: str, start: int, end: int, size: int) -> None:
        self._text = text
        self._start = start
        self._end = end
        self._size = size
        self._path: list[_Frame] = []

    def atom_at(self, pos: int) -> tuple[int, int]:
        """The atom ``[a, b)`` with ``a <= pos < b``; ``pos`` must not go back between calls."""
        lo, hi, level, depth = self._start, self._end, 0, 0
        while hi - lo > self._size:
            if depth == len(self._path):
                self._path.append(self._frame(lo, hi, level))
            frame = self._path[depth]
            if frame.level == _HARD:
                first = lo + (pos - lo) // self._size * self._size
                return first, min(first + self._size, hi)
            if pos >= frame.piece_end:
                self._advance(frame, pos)
                del self._path[depth + 1 :]
            lo, hi, level, depth = frame.piece_start, frame.piece_end, frame.level + 1, depth + 1
        return lo, hi

    def _frame(self, start: int, end: int, level: int) -> _Frame:
        for depth in range(level, _HARD):
            cut = _next_cut(self._text, depth, start, end)
            if cut < end:
                return _Frame(end, depth, start, cut)
        return _Frame(end, _HARD, start, end)

    def _advance(self, frame: _Frame, pos: int) -> None:
        # The current piece ends at a cut at or before pos, and text there is non-space: search
        # back from pos (to its last non-space character, so that no run is cut short) for the
        # last cut, then forward from it for the next one.
        text, cut = self._text, frame.piece_end
        window_end = last_text_end(text, cut, pos + 1) or cut + 1
        start = _last_cut(text, frame.level, cut, window_end) or cut
        frame.piece_start, frame.piece_end = start, _next_cut(text, frame.level, start, frame.end)


def _next_cut(text: str, level: int, start: int, end: int) -> int:
    """The first cut of ``level`` in ``text[start:end]``, or ``end`` when there is none.

    A run that reaches ``end`` is no cut: the range ends there anyway.
    """
    begin = start - 1 if level == _SENTENCES and start > 0 else start
    match = _FORWARD[level].search(text, begin, end)
    return end if match is None or match.end() >= end else match.end()


def _last_cut(text: str, level: int, start: int, end: int) -> int | None:
    """The last cut of ``level`` inside ``text[start:end]``, where ``text[start]`` is not space.

    Windows grow back from ``end``, so the search costs about the distance to the cut. Any match
    in a shorter window is a real cut (each pattern holds the whole of what makes a cut), and the
    last one if it is there at all.
    """
    pattern, width = _BACKWARD[level], _FIRST_WINDOW
    while True:
        low = max(start, end - width)
        match = pattern.match(text, low, end)
        if match is not None or low == start:
            return None if match is None else match.end()
        width *= 4


def atoms(text: str, start: int, end: int, size: int) -> list[tuple[int, int]]:
    """Every atom of ``text[start:end]``, in order (for short ranges: it lists them all)."""
    cursor = AtomCursor(text, start, end, size)
    out: list[tuple[int, int]] = []
    pos = start
    while pos < end:
        atom = cursor.atom_at(pos)
        out.append(atom)
        pos = atom[1]
    return out

"""The atoms of each section, its heading line glued to the first piece of its text.

The first piece with text is cut small enough to fit beside the heading, so that no packing can
leave a heading at the end of one chunk and its text in the next.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from groundkit.chunk.atoms import AtomCursor, atoms, has_text
from groundkit.chunk.model import Section

__all__ = ["DocumentAtoms"]


class DocumentAtoms:
    """The atoms of every section in turn, asked for in position order like ``AtomCursor``.

    A section's atoms are worked out only when a position inside it is asked for.
    """

    def __init__(self, text: str, sections: Sequence[Section], size: int) -> None:
        self._text = text
        self._sections = sections
        self._size = size
        self._index = -1
        self._end = 0  # end of the current section
        self._head: list[tuple[int, int]] = []  # the current section's atoms before its tail
        self._head_ends: list[int] = []
        self._tail = AtomCursor(text, 0, 0, size)

    def atom_at(self, pos: int) -> tuple[int, int]:
        if pos >= self._end:
            # Sections passed over whole cost nothing: their atoms are never asked for.
            self._index += 1
            while self._sections[self._index].end <= pos:
                self._index += 1
            self._enter(self._sections[self._index])
        if self._head and pos < self._head_ends[-1]:
            return self._head[bisect_right(self._head_ends, pos)]
        return self._tail.atom_at(pos)

    def _enter(self, section: Section) -> None:
        self._end = section.end
        self._head, self._tail = _section_atoms(self._text, section, self._size)
        self._head_ends = [end for _, end in self._head]


def _section_atoms(
    text: str, section: Section, size: int
) -> tuple[list[tuple[int, int]], AtomCursor]:
    """A section's first atoms as a list, and a cursor over the atoms that follow them."""
    whole: tuple[list[tuple[int, int]], AtomCursor] = (
        [],
        AtomCursor(text, section.start, section.end, size),
    )
    if not section.lead or section.end - section.start <= size or section.lead >= size:
        return whole
    body = AtomCursor(text, section.start + section.lead, section.end, size)
    first = body.atom_at(section.start + section.lead)
    # Blank lines after the heading can be atoms of their own: glue up to the first piece that
    # has text, or the heading would be kept with whitespace alone.
    if has_text(text, first[0], section.end):
        while not has_text(text, *first):
            first = body.atom_at(first[1])
    work = [first]  # work[0]: the piece to glue; the rest: what re-cutting it left over
    while True:
        first_start, first_end = work[0]
        if first_end - section.start <= size:
            return [(section.start, first_end), *work[1:]], body
        room = size - (first_start - section.start)
        if room <= 0:  # not even the first character fits beside the heading
            return whole
        # Cutting the piece smaller can again put whitespace first: look again.
        work[0:1] = atoms(text, first_start, first_end, room)
        skip = next((i for i, (s, e) in enumerate(work) if has_text(text, s, e)), 0)
        del work[:skip]

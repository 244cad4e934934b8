"""Text as a pattern should read it, with a map back to where each character came from.

A secret can be disguised without changing what a person (or a model) reads: a zero-width space
inside ``ghp_``, a fullwidth ``ghp_`` or ``=`` (U+FF47..., U+FF1D), a Cyrillic ``s`` or ``A``
(U+0455, U+0410), a combining mark or a
variation selector after each letter, a Hangul filler, a braille blank, the letters written as
Unicode tag characters, a card grouped with no-break spaces. ``fold`` undoes all of that before
a pattern looks, and keeps, for every character of the folded text, the span of the original it
came from, so that the original span (disguise included) is what gets replaced.

What is done to each character, in order:
- dropped: format characters (Cf: zero-width spaces and joiners, the soft hyphen, the BOM, bidi
  marks), combining and enclosing marks (Mn, Me: accents, U+034F, variation selectors U+FE0F and
  U+E0100...), and the fillers that render as nothing (U+115F, U+1160, U+3164, U+FFA0, U+2800,
  U+17B4, U+17B5, U+180E);
- a tag character (U+E0020-U+E007E) reads as the ASCII character it tags;
- NFKC: fullwidth and other compatibility forms read as their plain form, a no-break space as a
  space;
- a letter that only looks like an ASCII one (Unicode's confusables, ``confusable_homoglyphs``)
  reads as that one.
Case is kept (``AKIA`` is upper case; patterns say where case does not matter).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

__all__ = ["Folded", "fold", "fold_char"]

# Characters that draw nothing and are neither Cf nor marks (Lo, So): dropped too.
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
_TAGS = range(0xE0020, 0xE007F)


@dataclass(frozen=True, slots=True)
class Folded:
    """``text`` folded; ``origin[i]`` is the ``(start, end)`` of the original that folded
    character ``i`` came from (a fullwidth letter is one to one; ``ﬁ`` gives two characters of
    the same origin)."""

    text: str
    origin: Sequence[tuple[int, int]]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span holding folded ``[start, end)``, with any dropped characters that
        sat between its first and last character."""
        return self.origin[start][0], self.origin[end - 1][1]


def fold(text: str) -> Folded:
    """``text`` as patterns read it (see the module's docstring)."""
    if text.isascii():  # nothing to undo: the common case costs one scan
        return Folded(text, _Identity(len(text)))
    table = {ord(ch): fold_char(ch) for ch in set(text) if not ch.isascii()}
    if all(len(plain) == 1 for plain in table.values()):
        # Every character stays one character (a curly quote, a dash, an accented or a
        # fullwidth letter): offsets do not move, and one translate does it all.
        return Folded(text.translate(table), _Identity(len(text)))
    out: list[str] = []
    origin: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        plain = table.get(ord(ch), ch)
        if len(plain) == 1:
            out.append(plain)
            origin.append((i, i + 1))
        else:
            out.extend(plain)
            origin.extend([(i, i + 1)] * len(plain))
    return Folded("".join(out), tuple(origin))


@functools.lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """What ``ch`` reads as (``""``: nothing)."""
    if ch.isascii():
        return ch
    code = ord(ch)
    if code in _TAGS:
        return chr(code - 0xE0000)
    if ch in _FILLERS or unicodedata.category(ch) in ("Cf", "Mn", "Me"):
        return ""
    plain = unicodedata.normalize("NFKC", ch)
    if plain.isascii():
        return plain
    if len(plain) == 1:
        return _lookalike(plain) or plain
    return plain


def _lookalike(ch: str) -> str | None:
    """The ASCII letter or digit ``ch`` is confusable with, if any."""
    if unicodedata.category(ch)[0] not in "LN":
        return None
    from confusable_homoglyphs.confusables import confusables_data  # 50 ms: only when needed

    for glyph in confusables_data.get(ch, ()):
        found = str(glyph["c"]).strip("\u200e")
        if len(found) == 1 and found.isascii() and found.isalnum():
            return found
    return None


class _Identity(Sequence[tuple[int, int]]):
    """``origin`` of an ASCII text: character ``i`` came from ``(i, i + 1)``, without a list."""

    __slots__ = ("_n",)

    def __init__(self, n: int) -> None:
        self._n = n

    @overload
    def __getitem__(self, i: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[int, int]]: ...

    def __getitem__(self, i: int | slice) -> tuple[int, int] | Sequence[tuple[int, int]]:
        if isinstance(i, slice):
            return [(j, j + 1) for j in range(self._n)[i]]
        if i < 0:
            i += self._n
        return i, i + 1

    def __len__(self) -> int:
        return self._n

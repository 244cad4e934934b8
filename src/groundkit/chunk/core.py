"""The packing algorithm every chunker shares.

A text is cut into *atoms* at the coarsest separator that works (blank lines, then line breaks,
then sentence ends, then spaces, then a hard cut), each atom no longer than the chunk size. Atoms
are then packed greedily into chunks. Chunks never cross a section boundary (a Markdown heading, a
PDF page) unless the chunk so far is smaller than ``min_size``: that is what keeps a heading from
being orphaned and a short section from becoming a fragment. Each chunk is trimmed of surrounding
whitespace, so ``text[start:end]`` is exactly the chunk's text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from groundkit.types import Metadata

__all__ = ["CHUNKER_VERSION", "ChunkSettings", "Section", "Span", "pack"]

# Part of every document fingerprint: bump it whenever chunk boundaries could change, so that
# the next ingest re-chunks everything instead of mixing old and new boundaries.
CHUNKER_VERSION = "4"

_SEPARATORS = (
    re.compile(r"\n[ \t]*\n\s*"),  # paragraphs
    re.compile(r"\n\s*"),  # lines
    re.compile(r"(?<=[.!?;:])\s+"),  # sentences and clauses
    re.compile(r"\s+"),  # words
)


@dataclass(frozen=True, slots=True)
class ChunkSettings:
    """``size``: the most characters a chunk may hold. ``min_size``: smaller chunks are merged
    into a neighbour when the result still fits."""

    size: int = 1000
    min_size: int = 200

    def __post_init__(self) -> None:
        if self.size < 1 or not 0 <= self.min_size <= self.size:
            raise ValueError("need 1 <= size and 0 <= min_size <= size")


@dataclass(frozen=True, slots=True)
class Section:
    """A region that chunks should not straddle, with the metadata its chunks inherit.

    ``lead``: the length of a heading line at its start, kept in the same chunk as what follows.
    """

    start: int
    end: int
    metadata: Metadata = field(default_factory=dict)
    lead: int = 0


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    metadata: Metadata = field(default_factory=dict)


def pack(text: str, sections: Sequence[Section], settings: ChunkSettings) -> list[Span]:
    """Chunk ``text``, whose ``sections`` are contiguous and cover it, into trimmed spans."""
    stripped = _trim(text, 0, len(text))
    if stripped is None:
        return []
    start, end = stripped
    if end - start <= settings.size:
        return [_span(sections, start, end)]

    # (start, end, whether the atom opens a section)
    atoms: list[tuple[int, int, bool]] = []
    for section in sections:
        pieces = _section_atoms(text, section, settings.size)
        atoms.extend((s, e, i == 0) for i, (s, e) in enumerate(pieces))

    groups: list[list[int]] = []
    for a_start, a_end, opens in atoms:
        if groups:
            group = groups[-1]
            fits = a_end - group[0] <= settings.size
            boundary = opens and _visible(text, group[0], group[1]) >= settings.min_size
            if fits and not boundary:
                group[1] = a_end
                continue
        groups.append([a_start, a_end])

    trimmed = [t for g in groups if (t := _trim(text, g[0], g[1])) is not None]
    return [_span(sections, s, e) for s, e in _absorb_fragments(trimmed, settings)]


def _section_atoms(text: str, section: Section, size: int) -> list[tuple[int, int]]:
    """A section's atoms, its heading line glued to the first piece of its body.

    The first body piece is cut small enough to fit beside the heading, so that no packing can
    leave a heading at the end of one chunk and its text in the next.
    """
    lead_end = section.start + section.lead
    if not section.lead or section.end - section.start <= size or section.lead >= size:
        return _atoms(text, section.start, section.end, size, 0)
    body = _atoms(text, lead_end, section.end, size, 0)
    # Blank lines after the heading can be atoms of their own: glue up to the first piece that
    # has text, or the heading would be kept with whitespace alone.
    while True:
        first = next((i for i, (s, e) in enumerate(body) if not text[s:e].isspace()), 0)
        first_start, first_end = body[first]
        if first_end - section.start <= size:
            return [(section.start, first_end), *body[first + 1 :]]
        room = size - (first_start - section.start)
        if room <= 0:  # not even the first character fits beside the heading
            return _atoms(text, section.start, section.end, size, 0)
        # Cutting the piece smaller can again put whitespace first: look again.
        body[first : first + 1] = _atoms(text, first_start, first_end, room, 0)


def _atoms(text: str, start: int, end: int, size: int, level: int) -> list[tuple[int, int]]:
    if end - start <= size:
        return [(start, end)]
    for depth in range(level, len(_SEPARATORS)):
        cuts = [m.end() for m in _SEPARATORS[depth].finditer(text, start, end) if m.end() < end]
        if not cuts:
            continue
        out: list[tuple[int, int]] = []
        prev = start
        for cut in [*cuts, end]:
            if cut > prev:
                out.extend(_atoms(text, prev, cut, size, depth + 1))
                prev = cut
        return out
    return [(s, min(s + size, end)) for s in range(start, end, size)]


def _absorb_fragments(
    spans: list[tuple[int, int]], settings: ChunkSettings
) -> list[tuple[int, int]]:
    """Merge each chunk shorter than ``min_size`` into a neighbour when the result still fits.

    Packing alone leaves few such fragments; trimming whitespace can make more.
    """
    out = list(spans)
    i = 0
    while i < len(out):
        s, e = out[i]
        if e - s >= settings.min_size or len(out) == 1:
            i += 1
        elif i > 0 and e - out[i - 1][0] <= settings.size:
            out[i - 1 : i + 1] = [(out[i - 1][0], e)]
            i -= 1
        elif i + 1 < len(out) and out[i + 1][1] - s <= settings.size:
            out[i : i + 2] = [(s, out[i + 1][1])]
        else:
            i += 1
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def _visible(text: str, start: int, end: int) -> int:
    trimmed = _trim(text, start, end)
    return 0 if trimmed is None else trimmed[1] - trimmed[0]


def _span(sections: Sequence[Section], start: int, end: int) -> Span:
    """A chunk with the metadata of the section it starts in (and, for pages, ends in)."""
    starts = [section.start for section in sections]
    first = max(0, bisect_right(starts, start) - 1)
    last = max(0, bisect_right(starts, end - 1) - 1)
    return Span(start, end, _metadata(sections, first, last))


def _metadata(sections: Sequence[Section], first: int, last: int) -> Metadata:
    if not sections:
        return {}
    meta = dict(sections[first].metadata)
    page_end = sections[last].metadata.get("page")
    if "page" in meta and page_end is not None and page_end != meta["page"]:
        meta["page_end"] = page_end
    return meta

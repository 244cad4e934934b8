"""The packing algorithm every chunker shares.

A text is cut into *atoms* at the coarsest separator that works (see ``atoms``), each atom no
longer than the chunk size. Atoms are then packed greedily into chunks. Chunks never cross a
section boundary (a Markdown heading, a PDF page) unless the chunk so far is smaller than
``min_size``: that is what keeps a heading from being orphaned and a short section from becoming
a fragment. Each chunk is trimmed of surrounding whitespace, so ``text[start:end]`` is exactly the
chunk's text.

One pass, left to right: each chunk asks for the one atom that would overflow it, so the cost
grows with the number of chunks, not with the number of words, sections or atoms.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from groundkit.chunk.atoms import first_text, last_text_end
from groundkit.chunk.glue import DocumentAtoms
from groundkit.chunk.model import ChunkSettings, Section, Span
from groundkit.types import Metadata

__all__ = ["pack"]


def pack(text: str, sections: Sequence[Section], settings: ChunkSettings) -> list[Span]:
    """Chunk ``text``, whose ``sections`` are contiguous and cover it, into trimmed spans."""
    stripped = _trim(text, 0, len(text))
    if stripped is None:
        return []
    starts = [section.start for section in sections]
    if stripped[1] - stripped[0] <= settings.size:
        return [_span(sections, starts, *stripped)]
    if not sections:
        return []
    groups = _groups(text, starts, DocumentAtoms(text, sections, settings.size), settings)
    trimmed = [t for g in groups if (t := _trim(text, *g)) is not None]
    return [_span(sections, starts, s, e) for s, e in _absorb_fragments(trimmed, settings)]


def _groups(
    text: str, starts: list[int], document: DocumentAtoms, settings: ChunkSettings
) -> list[tuple[int, int]]:
    """Greedy packing: each group ends before the atom that would overflow it, or earlier at a
    section start once the group holds ``min_size`` visible characters."""
    groups: list[tuple[int, int]] = []
    start, boundary = 0, 1  # boundary: index of the next section start after `start`
    while start < len(text):
        limit = start + settings.size
        end = document.atom_at(limit)[0] if limit < len(text) else len(text)
        while boundary < len(starts) and starts[boundary] <= start:
            boundary += 1
        # Visible length only grows with the end, so the first section start that has enough
        # before it is the one; the starts passed over are inside this group and never seen again.
        lead = first_text(text, start, end)
        for at in range(boundary, len(starts)):
            if starts[at] >= end:
                break
            if _visible(text, lead, starts[at]) >= settings.min_size:
                end = starts[at]
                break
        groups.append((start, end))
        start = end
    return groups


def _absorb_fragments(
    spans: list[tuple[int, int]], settings: ChunkSettings
) -> list[tuple[int, int]]:
    """Merge each chunk shorter than ``min_size`` into a neighbour when the result still fits.

    Packing alone leaves few such fragments; trimming whitespace can make more. Chunks already
    settled are a stack, so a merge with the previous chunk is a pop, not a list splice (which
    made many merges quadratic).
    """
    done: list[tuple[int, int]] = []
    ahead = 1  # spans[ahead:] are still to come
    current = spans[0] if spans else None
    while current is not None:
        s, e = current
        alone = not done and ahead == len(spans)
        if e - s >= settings.min_size or alone:
            pass
        elif done and e - done[-1][0] <= settings.size:
            current = (done.pop()[0], e)
            continue
        elif ahead < len(spans) and spans[ahead][1] - s <= settings.size:
            current = (s, spans[ahead][1])
            ahead += 1
            continue
        done.append(current)
        current = spans[ahead] if ahead < len(spans) else None
        ahead += 1
    return done


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    first = first_text(text, start, end)
    if first is None:
        return None
    last = last_text_end(text, first, end)
    return None if last is None else (first, last)


def _visible(text: str, lead: int | None, end: int) -> int:
    """The trimmed length of ``text[lead:end]``, ``lead`` being where its text starts."""
    if lead is None or lead >= end:
        return 0
    last = last_text_end(text, lead, end)
    return 0 if last is None else last - lead


def _span(sections: Sequence[Section], starts: list[int], start: int, end: int) -> Span:
    """A chunk with the metadata of the section it starts in (and, for pages, ends in)."""
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

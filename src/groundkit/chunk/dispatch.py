"""Pick the sectioning for a document's format, then pack it into chunks."""

from __future__ import annotations

from collections.abc import Sequence

from groundkit.chunk.core import pack
from groundkit.chunk.markdown import markdown_sections
from groundkit.chunk.model import ChunkSettings, Section, Span
from groundkit.chunk.rst import rst_sections

__all__ = ["chunk_text"]


def chunk_text(
    text: str,
    *,
    format: str,
    settings: ChunkSettings,
    pages: Sequence[tuple[int, int]] = (),
) -> list[Span]:
    """Chunk a stored document text. ``pages`` (PDF) are ``[start, end)`` per page, in order."""
    if format == "markdown":
        sections = markdown_sections(text)
    elif format == "html":
        # HTML is stored as the Markdown trafilatura made of its main text: headings as in
        # Markdown, and code fences that can open at the end of a line of text.
        sections = markdown_sections(text, glued_fences=True)
    elif format == "rst":
        sections = rst_sections(text)
    elif pages:
        sections = _page_sections(text, pages)
    else:
        sections = [Section(0, len(text))]
    return pack(text, sections, settings)


def _page_sections(text: str, pages: Sequence[tuple[int, int]]) -> list[Section]:
    # Pages are joined by separators; each separator belongs to the page before it so that the
    # sections stay contiguous and cover the text.
    sections: list[Section] = []
    for number, (start, _end) in enumerate(pages, start=1):
        stop = pages[number][0] if number < len(pages) else len(text)
        begin = 0 if number == 1 else start
        if stop > begin:
            sections.append(Section(begin, stop, {"page": number}))
    return sections

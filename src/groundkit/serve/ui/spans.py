"""Text cut into the pieces a page marks: a cited chunk, the span inside it, the quotes in it.

Pure functions over offsets into stored text, so that what a page highlights is exactly the
stored ``text[start:end]`` a citation names, never text re-found by searching.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from groundkit.errors import ErrorCode, UsageError

__all__ = ["DocumentView", "Piece", "document_view", "quote_pieces"]

WINDOW = 50_000  # characters of a long document shown on each side of the cited chunk


@dataclass(frozen=True, slots=True)
class DocumentView:
    """A document's text around a citation: ``before`` + chunk (``lead`` + ``mark`` + ``tail``)
    + ``after``. ``hidden_before`` / ``hidden_after`` count what a long document leaves out."""

    before: str
    lead: str
    mark: str
    tail: str
    after: str
    hidden_before: int
    hidden_after: int


def document_view(
    text: str, chunk: tuple[int, int], mark: tuple[int, int] | None = None
) -> DocumentView:
    """Cut ``text`` at the chunk ``[start, end)`` and the marked span inside it (default: the
    whole chunk). Raises ``UsageError`` for a span that is not inside the chunk."""
    start, end = chunk
    if not 0 <= start <= end <= len(text):
        raise UsageError(ErrorCode.USAGE, "the cited span is outside the stored document")
    m_start, m_end = mark if mark is not None else chunk
    if not start <= m_start < m_end <= end:
        raise UsageError(
            ErrorCode.USAGE,
            "the span to highlight must be a non-empty part of the cited chunk",
            hint="open the passage from a search result or an answer's citation",
        )
    shown_from = max(0, start - WINDOW)
    shown_to = min(len(text), end + WINDOW)
    return DocumentView(
        before=text[shown_from:start],
        lead=text[start:m_start],
        mark=text[m_start:m_end],
        tail=text[m_end:end],
        after=text[end:shown_to],
        hidden_before=shown_from,
        hidden_after=len(text) - shown_to,
    )


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of text and the citation markers whose quote covers all of it (none: plain)."""

    text: str
    markers: tuple[int, ...]


def quote_pieces(text: str, quotes: Sequence[tuple[int, int, int]]) -> list[Piece]:
    """``text`` cut at every quote boundary. ``quotes``: ``(marker, start, end)`` with offsets
    into ``text``; quotes may overlap, so a piece lists every marker covering it. A quote out of
    range is left out (the page then shows its text unmarked rather than a wrong span)."""
    valid = [(m, s, e) for m, s, e in quotes if 0 <= s < e <= len(text)]
    cuts = sorted({0, len(text), *(s for _, s, _ in valid), *(e for _, _, e in valid)})
    pieces: list[Piece] = []
    for a, b in itertools.pairwise(cuts):
        covering = tuple(sorted({m for m, s, e in valid if s <= a and b <= e}))
        pieces.append(Piece(text[a:b], covering))
    return pieces

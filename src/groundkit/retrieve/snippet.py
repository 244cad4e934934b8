"""A short excerpt of a hit around the query's terms, for display only (never a citation)."""

from __future__ import annotations

from collections.abc import Collection

__all__ = ["snippet"]


def snippet(text: str, terms: Collection[str], width: int) -> str:
    """The ``width``-character window of ``text`` holding the most term matches, on word bounds.

    ``terms`` are the analysed (stemmed, lower-case) query terms. A stem is nearly always a prefix
    of the words it came from, and a snippet only has to land near the matches, so plain
    substring search stands in for re-analysing every hit, which costs ten times more.
    """
    if len(text) <= width:
        return " ".join(text.split())
    start = 0
    hits = sorted(_find_all(text.lower(), terms))
    if hits:
        best, best_count, right = 0, 0, 0
        for left, pos in enumerate(hits):  # sliding window over the sorted match positions
            while right < len(hits) and hits[right] < pos + width:
                right += 1
            if right - left > best_count:
                best, best_count = pos, right - left
        # Lead in a little so the first match is not at the very edge.
        start = max(0, best - width // 5)
    end = min(len(text), start + width)
    start = max(0, end - width)
    if start > 0:
        space = text.find(" ", start, start + 20)
        start = space + 1 if space != -1 else start
    if end < len(text):
        space = text.rfind(" ", end - 20, end)
        end = space if space > start else end
    body = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + body + ("…" if end < len(text) else "")


def _find_all(haystack: str, needles: Collection[str]) -> list[int]:
    found: list[int] = []
    for needle in needles:
        at = haystack.find(needle)
        while at != -1:
            found.append(at)
            at = haystack.find(needle, at + len(needle))
    return found

"""A short excerpt of a hit around the query's terms, for display only (never a citation)."""

from __future__ import annotations

from collections.abc import Collection

import tantivy

__all__ = ["snippet"]


def snippet(text: str, terms: Collection[str], analyzer: tantivy.TextAnalyzer, width: int) -> str:
    """The ``width``-character window of ``text`` holding the most query terms, on word bounds."""
    if len(text) <= width:
        return " ".join(text.split())
    hits = [t.char_offset_from for t in analyzer.pre_tokenize(text).tokens if t.text in terms]
    start = 0
    if hits:
        best = max(range(len(hits)), key=lambda i: sum(1 for h in hits[i:] if h < hits[i] + width))
        # Lead in a little so the first matching word is not at the very edge.
        start = max(0, hits[best] - width // 5)
    end = min(len(text), start + width)
    start = max(0, min(start, end - width))
    if start > 0:
        space = text.find(" ", start, start + 20)
        start = space + 1 if space != -1 else start
    if end < len(text):
        space = text.rfind(" ", end - 20, end)
        end = space if space > start else end
    body = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + body + ("…" if end < len(text) else "")

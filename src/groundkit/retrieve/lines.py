"""Lines of a passage in its document, for citations a person can jump to (``path:line``).

Chunks stored since lines were kept carry them; for older rows they are counted here, at read
time, from the stored document text: a count of newlines, done in C.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundkit.index.rows import HitRow
from groundkit.retrieve.reading import Documents

__all__ = ["line_span", "with_lines"]


def line_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The 1-based lines of the first and last character of ``text[start:end]``."""
    line = 1 + text.count("\n", 0, start)
    return line, line + text.count("\n", start, max(start, end - 1))


def with_lines(store: Documents, rows: Sequence[HitRow]) -> list[HitRow]:
    """``rows``, each with its lines: counted from its document's text where none were stored.
    Each document is read once, however many of its chunks need lines."""
    texts: dict[str, str] = {}
    out: list[HitRow] = []
    for row in rows:
        if row.line is None:
            if row.document_id not in texts:
                found = store.find_documents(row.document_id)
                texts[row.document_id] = next(
                    (d.text for d in found if d.document_id == row.document_id), ""
                )
            line, end_line = line_span(texts[row.document_id], row.start, row.end)
            out.append(row._replace(line=line, end_line=end_line))
        else:
            out.append(row)
    return out

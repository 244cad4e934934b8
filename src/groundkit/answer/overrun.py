"""A passage the chunk boundary cut inside its example: read on to the end of the code.

A chunk ends where the chunker's size runs out, not where the text's parts do, so a passage may
end on the sentence that introduces a code block ("set ``verify`` to False::", "Adds CORS
headers ... in a Cross-Domain context.") with the block in the next chunk, or part way into it.
The sentence alone tells a reader what to do without the code that does it. ``read_on`` finds,
in the stored document, the end of the code that a unit of the passage brings or is
(``answer.units``: an example is at most ``CODE_LINES`` lines of it) when that unit runs past the
passage's end; the bundle then sends the passage up to there (``answer.bundle``), and its quotes
are checked against the stored document's text at those offsets, as every quote is
(``BundleItem.cite``).

Only code: a passage cut inside a paragraph of prose is read as the chunk has it.
"""

from __future__ import annotations

from groundkit.answer.units import units

__all__ = ["READ_ON", "read_on"]

# The most characters of the document read past a passage's end: an example's first piece is
# at most CODE_CHARS (800) after the sentence that introduces it (at most 400), with room for
# the blank lines and the fence between them.
READ_ON = 2000


def read_on(document: str, start: int, end: int) -> int:
    """Where passage ``document[start:end]`` ends once read on to the end of the code a unit
    of it brings (or is) past ``end``; ``end`` when no unit crosses it."""
    if end >= len(document):
        return end
    stop = min(len(document), end + READ_ON)
    window = document[start:stop]
    cut = end - start
    crossing = [
        u.end
        for u in units(window)
        if u.start < cut < u.end and (u.brings_code or u.kind in ("code", "imports"))
    ]
    if not crossing:
        return end
    last = max(crossing)
    if stop < len(document) and not window[last:].strip():
        return end  # the window may have cut the code itself: do not guess where it ends
    return start + last

"""A passage the chunk boundary cut from what it needs: read on to its example's end, and back
to the API name it describes.

A chunk ends where the chunker's size runs out, not where the text's parts do. So a passage may
end on the sentence that introduces a code block ("set ``verify`` to False::", "Adds CORS
headers ... in a Cross-Domain context.") with the block in the next chunk, or part way into it:
the sentence tells a reader what to do without the code that does it. And a passage may begin
with an API entry's description ("Returns a copy of the **list** with all falsy values
removed.") whose name (``_.compact(list)``) ended the chunk before.

``read_on`` finds, in the stored document, the end of the code that a unit of the passage brings
or is (``answer.units``: an example is at most ``CODE_LINES`` lines of it) when that unit runs
past the passage's end; ``read_back`` finds the heading that names code right above the
passage's first paragraph (only a label or a line such as "source" between them). The bundle
sends the passage from there to there (``answer.bundle``), and its quotes are checked against the
stored document's text at those offsets, as every quote is (``BundleItem.cite``).

Only these: a passage cut inside a paragraph of prose is read as the chunk has it.
"""

from __future__ import annotations

from groundkit.answer.blocks import Block, blocks
from groundkit.answer.units import TINY, names_code, units

__all__ = ["READ_BACK", "READ_ON", "read_back", "read_on"]

# The most characters of the document read past a passage's end: an example's first piece is
# at most CODE_CHARS (800) after the sentence that introduces it (at most 400), with room for
# the blank lines and the fence between them.
READ_ON = 2000
# ...and before its start: an API entry's title and the short lines under it.
READ_BACK = 400


def read_on(document: str, start: int, end: int) -> int:
    """Where passage ``document[start:end]`` ends once read on to the end of the code a unit
    of it brings (or is) past ``end``; ``end`` when no unit crosses it."""
    if end >= len(document):
        return end
    stop = min(len(document), end + READ_ON)
    window = document[start:stop]
    cut = end - start
    if not _code_near(blocks(window), cut):
        return end  # no code at the cut: the units (four times the blocks' cost) are not read
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


def read_back(document: str, start: int, end: int) -> int:
    """Where passage ``document[start:end]`` starts once read back to the heading that names
    code right above its first paragraph; ``start`` when there is none."""
    first = blocks(document[start:end])
    if start == 0 or not first or first[0].kind not in ("prose", "item"):
        return start
    # from a line's start: a block is read from its first line
    low = document.rfind("\n", 0, start - READ_BACK) + 1 if start > READ_BACK else 0
    window = document[low:start]
    parts = blocks(window)
    while parts and _between(parts[-1]):
        parts.pop()
    if not parts or parts[-1].kind != "heading" or not names_code(window, parts[-1]):
        return start
    return low + parts[-1].start


def _code_near(parts: list[Block], cut: int) -> bool:
    """Whether a unit may cross ``cut`` with code: the first block past it is code, or a
    paragraph the cut runs through is followed by code."""
    later = [b for b in parts if b.end > cut][:2]
    if not later:
        return False
    if later[0].kind == "code":
        return True
    return later[0].start < cut and len(later) > 1 and later[1].kind == "code"


def _between(block: Block) -> bool:
    """What may stand between a heading and its first paragraph: an underline, a label, a line
    too short to be what it heads ("source")."""
    if block.kind in ("rule", "label"):
        return True
    return block.kind == "prose" and block.end - block.start < TINY

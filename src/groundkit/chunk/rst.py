"""reStructuredText sections: one per section title, with the title path as metadata.

A title is a line of text underlined, and optionally also overlined, with one punctuation
character repeated at least as long as the title; an overline must match its underline, and
only an overlined title may be indented. A title starts a block: it follows a blank line,
another title, or the start of the document. As in docutils, a title's level is decided by the
order in which adornment styles are first met (an overlined style differs from the same
character underlined alone). Deliberately simpler than docutils: no warnings for underlines a
little too short (docutils accepts some), and characters count one column each.
"""

from __future__ import annotations

import re

from groundkit.chunk.model import Section

__all__ = ["rst_sections"]

# docutils' adornment characters: every printable ASCII character that is not alphanumeric.
_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1*")


def rst_sections(text: str) -> list[Section]:
    """Split at section titles; each section starts at its title's overline or title line."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    styles: dict[tuple[str, bool], int] = {}
    path: list[tuple[int, str]] = []
    starts: list[tuple[int, list[str], int]] = [(0, [], 0)]
    i, block_start = 0, True
    while i < len(lines):
        found = _title_at(lines, i) if block_start else None
        if found is None:
            block_start = not lines[i].strip()
            i += 1
            continue
        title, style, count = found
        level = styles.setdefault(style, len(styles) + 1)
        path = [(lvl, t) for lvl, t in path if lvl < level]
        path.append((level, title))
        starts.append((offsets[i], [t for _, t in path], offsets[i + count] - offsets[i]))
        i += count
    sections: list[Section] = []
    bounds = [s for s, _, _ in starts[1:]] + [len(text)]
    for (start, title_path, lead), end in zip(starts, bounds, strict=True):
        if end > start:
            sections.append(Section(start, end, {"heading_path": title_path}, lead))
    return sections


def _title_at(lines: list[str], i: int) -> tuple[str, tuple[str, bool], int] | None:
    """The title starting at line ``i``: its text, its style and how many lines it takes."""
    first = _adornment(lines[i])
    if first is not None and i + 2 < len(lines):
        title = lines[i + 1].rstrip()
        matched = _adornment(lines[i + 2]) == first and _adornment(lines[i + 1]) is None
        if matched and title.strip() and len(first) >= len(title):
            return title.strip(), (first[0], True), 3
    if first is not None or i + 1 >= len(lines) or lines[i][:1].isspace():
        return None
    under = _adornment(lines[i + 1])
    title = lines[i].rstrip()
    if under is None or not title or len(under) < len(title):
        return None
    return title, (under[0], False), 2


def _adornment(line: str) -> str | None:
    """The adornment a line is made of (trailing blanks dropped), or None."""
    content = line.rstrip()
    return content if content and _ADORNMENT.fullmatch(content) else None

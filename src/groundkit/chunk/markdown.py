"""Markdown sections: one per ATX heading, with the heading path as metadata."""

from __future__ import annotations

import re

from groundkit.chunk.core import Section

__all__ = ["markdown_sections"]

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def markdown_sections(text: str) -> list[Section]:
    """Split at headings outside fenced code; each section starts at its heading line."""
    starts: list[tuple[int, list[str], int]] = [(0, [], 0)]
    path: list[tuple[int, str]] = []
    fence: str | None = None
    pos = 0
    for line in text.splitlines(keepends=True):
        fence_match = _FENCE.match(line)
        if fence_match:
            marker = fence_match.group(1)
            if fence is None:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = None
        elif fence is None and (heading := _HEADING.match(line)):
            level = len(heading.group(1))
            path = [(lvl, title) for lvl, title in path if lvl < level]
            path.append((level, heading.group(2).strip()))
            starts.append((pos, [title for _, title in path], len(line)))
        pos += len(line)
    sections: list[Section] = []
    bounds = [s for s, _, _ in starts[1:]] + [len(text)]
    for (start, heading_path, lead), end in zip(starts, bounds, strict=True):
        if end > start:
            sections.append(Section(start, end, {"heading_path": heading_path}, lead))
    return sections

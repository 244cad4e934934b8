"""Markdown sections: one per ATX heading outside fenced code, raw HTML blocks and front
matter, with the heading path as metadata.

Lines are what ``str.splitlines`` makes of the text. Only lines that could matter (a ``#``, a
fence character or a ``<`` after at most three spaces, and for HTML a line ending in backticks)
get more than a glance at their first characters, so a long document costs little more than the
split.
"""

from __future__ import annotations

import re

from groundkit.chunk.fences import Fence, closes, glued_open, opens
from groundkit.chunk.html_blocks import HtmlBlock, front_matter_end, html_block_start
from groundkit.chunk.model import Section

__all__ = ["heading", "markdown_sections"]

_MARKERS = frozenset("#`~")
_MARKERS_HTML = frozenset("#`~<")
_HEADING_START = re.compile(r" {0,3}(#{1,6})[ \t]")
# CommonMark's backslash escapes: a backslash before ASCII punctuation stands for the character.
# HTML converted to Markdown escapes brackets (`Stream\[src\]`); a breadcrumb shows the text.
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def markdown_sections(text: str, *, glued_fences: bool = False) -> list[Section]:
    """Split at headings outside fenced code, raw HTML blocks and front matter; each section
    starts at its heading line.

    ``glued_fences``: Markdown that trafilatura made of an HTML page, whose fences may open at
    the end of a line of text (see ``fences``) and which holds no raw HTML of its own.
    """
    sections: list[Section] = []
    section: tuple[int, list[str], int] = (0, [], 0)  # start, heading path, heading length
    path: list[tuple[int, str]] = []
    fence: Fence | None = None
    markers = _MARKERS if glued_fences else _MARKERS_HTML
    skip = 0 if glued_fences else front_matter_end(text)
    html: HtmlBlock | None = None
    paragraph = False  # the last line was paragraph text, which a lone tag does not interrupt
    pos = 0
    for line in text.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        if pos <= skip:
            continue
        if html is not None:
            if html.ends_on(_content(line)):
                html, paragraph = None, False
            continue
        if _marker(line) not in markers and not (glued_fences and "```" in line):
            # Text starts or goes on with a paragraph; an indented line opens none (it is code).
            indented = line[:4].expandtabs(4).startswith("    ")
            paragraph = fence is None and not line.isspace() and (paragraph or not indented)
            continue
        content = _content(line)
        if fence is not None:
            if closes(content, fence):
                fence = None
        elif (opened := opens(content)) is not None:
            fence = opened
        elif (found := heading(line)) is not None:
            _close(sections, section, start)
            level, title = found
            path = [(lvl, t) for lvl, t in path if lvl < level]
            path.append((level, title))
            section = (start, [t for _, t in path], len(line))
        elif glued_fences:
            fence = glued_open(content)
        elif (block := html_block_start(content, in_paragraph=paragraph)) is not None:
            html = None if block.ends_on(content) else block
        else:
            paragraph = True
            continue
        paragraph = False
    _close(sections, section, len(text))
    return sections


def _content(line: str) -> str:
    return line.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _close(sections: list[Section], section: tuple[int, list[str], int], end: int) -> None:
    start, heading_path, lead = section
    if end > start:
        sections.append(Section(start, end, {"heading_path": heading_path}, lead))


def _marker(line: str) -> str:
    """The first character after at most three leading spaces."""
    first = line[:1]
    return line[:4].lstrip(" ")[:1] if first == " " else first


def heading(line: str) -> tuple[int, str] | None:
    """The level and title of an ATX heading line (with its line break), or None.

    Same as matching ``^ {0,3}(#{1,6})[ \\t]+(.+?)[ \\t]*#*[ \\t]*$`` and stripping the title,
    whose backtracking took minutes on a heading line with a few thousand spaces.
    """
    start = _HEADING_START.match(line)
    if start is None:
        return None
    body = line[:-1] if line.endswith("\n") else line
    rest = body[start.end(1) :]  # the blanks after the hashes, then the title
    title = rest.lstrip(" \t")
    if not title:
        # The pattern still matches when one blank is left over to be the title.
        return (len(start.group(1)), "") if len(rest) >= 2 else None
    kept = title.rstrip(" \t").rstrip("#").rstrip(" \t") or title[:1]
    return len(start.group(1)), _ESCAPED.sub(r"\1", kept.strip())

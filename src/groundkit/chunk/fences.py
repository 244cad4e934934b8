"""Fenced code blocks, as CommonMark defines them, so that ``#`` lines inside code are no headings.

An opening fence is three or more backticks or tildes after at most three spaces; a backtick
fence's info string holds no backtick (else the line is inline code). The closing fence uses the
same character, at least as many of it, and nothing after it but spaces and tabs. A fence left
open runs to the end of the document.

Markdown made by trafilatura from HTML also opens fences at the end of a line of text: a ``<pre>``
inside a list item or after inline text comes out as ``- text ```\\n``, with the closing fence on
a line of its own. ``glued_open`` recognises that, and only the HTML path uses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Fence", "closes", "glued_open", "opens"]

_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})(.*)", re.DOTALL)
_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*", re.DOTALL)
_TRAILING_RUN = re.compile(r"(?<!`)(`{3,})[ \t]*\Z")
_BACKTICK_RUNS = re.compile(r"`+")


@dataclass(frozen=True, slots=True)
class Fence:
    char: str
    length: int


def opens(line: str) -> Fence | None:
    """The fence a line opens, for a line without its line break."""
    match = _OPEN.fullmatch(line)
    if match is None:
        return None
    marker, info = match.groups()
    if marker[0] == "`" and "`" in info:
        return None
    return Fence(marker[0], len(marker))


def closes(line: str, fence: Fence) -> bool:
    """Whether a line (without its line break) closes ``fence``."""
    match = _CLOSE.fullmatch(line)
    if match is None:
        return False
    marker = match.group(1)
    return marker[0] == fence.char and len(marker) >= fence.length


def glued_open(line: str) -> Fence | None:
    """A backtick fence that ends a line of text, as trafilatura writes one.

    The run must not close an inline code span that opened earlier on the line with a run of
    the same length.
    """
    match = _TRAILING_RUN.search(line)
    if match is None:
        return None
    length = len(match.group(1))
    before = line[: match.start()]
    if any(len(run) == length for run in _BACKTICK_RUNS.findall(before)):
        return None
    return Fence("`", length)

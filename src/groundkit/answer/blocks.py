"""A passage as a reader sees its parts: prose, list items, code, headings, rules, tables.

Documentation mixes kinds of text that read differently, and only some of them answer a
question on their own: a heading names a topic, an underline (reStructuredText's ``-----``) or a
table's separator is decoration, and a code block shows what the sentence before it describes.
``blocks`` labels every part of a passage with its kind and exact offsets, from the text alone
(Markdown, reStructuredText, and what the HTML reader makes of a page), so the extract
(``answer.units``) can offer what answers and bring what it needs along.

Recognised, line by line: fenced code (```` ``` ````, ``~~~``); reStructuredText literal blocks
(the indented lines after a paragraph ending in ``::`` or a ``.. code-block::`` directive);
interactive sessions (``>>>``) and paragraphs every line of which reads as code; headings
(``#``, a line over an underline of ``=-~^...``, a bold name followed by its signature as an API
reference sets it); rules (underlines, ``---``); tables (``|`` rows, ``+--+`` grids, ``=== ===``);
reStructuredText labels and comments (``.. _name:``); list items; and prose paragraphs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Block", "Kind", "blocks"]

Kind = Literal["prose", "item", "code", "heading", "rule", "table", "label"]

_FENCE = re.compile(r"[ \t]*(?:```|~~~)")
_RULE = re.compile(r"[ \t]*([=\-~^\"'`#*+:._])\1{2,}[ \t]*$")
_MD_HEADING = re.compile(r"[ \t]*#{1,6}\s")
# A bold name then its signature in code, as an API reference sets a definition's title.
_SIGNATURE = re.compile(r"[ \t]*\*\*[^*\n]{1,80}\*\*[ \t]*`[^`\n]+`[ \t]*$")
_TABLE = re.compile(r"[ \t]*(?:\||\+[-=+]{2,}|=+(?:[ \t]+=+)+[ \t]*$)")
_ITEM = re.compile(r"[ \t]*(?:[-*+\u2022]|\d+[.)]|#\.)[ \t]+\S")
_LABEL = re.compile(r"[ \t]*\.\.[ \t]+(?:_[^:\n]*:|\|[^|\n]*\||\[[^\]\n]*\])|[ \t]*\.\.[ \t]*$")
_CODE_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+(?:code-block|code|sourcecode|doctest)::")
_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+[\w:-]+::")
_PROMPT = re.compile(r"[ \t]*(?:>>>|\$ |\.\.\. )")
# A line that reads as code rather than prose: a statement or call ending in ; { } ) or a
# comment, an arrow showing a result, an assignment, an import.
_CODE_LINE = re.compile(
    r"[ \t]*(?:(?:var|let|const|function|def|class|import|await)\s|async\s+def\s"
    r"|from\s+[\w.]+\s+import\s|=>|//|#\s|\$\(|[\w.$\\]+(?:\[[^\]]*\])?\s*=[^=]"
    r"|[\w.$\\]+\(.*\)\s*;?\s*$|[}\])];?\s*$)"
    r"|.*[;{]\s*$"
)


@dataclass(frozen=True, slots=True)
class Block:
    """One part of a passage: ``text[start:end]``, trimmed of surrounding blank space."""

    start: int
    end: int
    kind: Kind


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


class _Lines:
    """The passage's lines with their offsets, and the blocks made of them so far."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: list[tuple[int, str]] = []
        at = 0
        for line in text.splitlines(keepends=True):
            self.lines.append((at, line.rstrip("\r\n")))
            at += len(line)
        self.out: list[Block] = []

    def add(self, first: int, last: int, kind: Kind) -> None:
        """Lines ``first..last`` (inclusive) as one block, trimmed."""
        start = self.lines[first][0]
        end = self.lines[last][0] + len(self.lines[last][1])
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if end > start:
            self.out.append(Block(start, end, kind))


def blocks(text: str) -> list[Block]:
    """The parts of ``text`` in reading order, each with its kind."""
    doc = _Lines(text)
    i, literal = 0, False  # literal: the paragraph before ended in "::", so indented is code
    while i < len(doc.lines):
        line = doc.lines[i][1]
        if not line.strip():
            i += 1
        elif literal and _indent(line) > 0:
            i = _add_code(doc, i, _indented_end(doc.lines, i, _indent(line)))
        else:
            i, literal = _one_block(doc, i)
    return doc.out


def _add_code(doc: _Lines, first: int, last: int) -> int:
    doc.add(first, last, "code")
    return last + 1


def _one_block(doc: _Lines, i: int) -> tuple[int, bool]:
    """Add the block that starts at line ``i``; the line after it, and whether an indented
    block after it is code."""
    lines, line = doc.lines, doc.lines[i][1]
    if _FENCE.match(line):
        return _add_code(doc, i, _fence_end(lines, i)), False
    if _CODE_DIRECTIVE.match(line):
        return _add_code(doc, i, max(i, _indented_end(lines, i + 1, 1))), False
    kind = _line_kind(lines, i)
    if kind is not None:
        doc.add(i, i, kind)
        if kind == "heading" and i + 1 < len(lines) and _RULE.match(lines[i + 1][1]):
            # The title's underline is read here: one of ``~`` would open a Markdown fence.
            doc.add(i + 1, i + 1, "rule")
            return i + 2, False
        return i + 1, False
    if _TABLE.match(line):
        j = i
        while j + 1 < len(lines) and _TABLE.match(lines[j + 1][1]):
            j += 1
        doc.add(i, j, "table")
        return j + 1, False
    j = _paragraph_end(lines, i)
    body = [lines[k][1] for k in range(i, j + 1)]
    if _PROMPT.match(line) or (all(_CODE_LINE.match(b) for b in body) and not _ITEM.match(line)):
        return _add_code(doc, i, j), False
    doc.add(i, j, "item" if _ITEM.match(line) else "prose")
    return j + 1, body[-1].rstrip().endswith("::") or bool(_DIRECTIVE.match(body[-1]))


def _line_kind(lines: list[tuple[int, str]], i: int) -> Kind | None:
    """The kind of a block of one line: a label, a rule or a heading (None: another kind)."""
    line = lines[i][1]
    if _LABEL.match(line) and not _DIRECTIVE.match(line):
        return "label"
    if _RULE.match(line):
        return "rule"
    if i + 1 < len(lines) and _RULE.match(lines[i + 1][1]) and not _ITEM.match(line):
        return "heading"  # a title over its underline
    if _MD_HEADING.match(line) or _SIGNATURE.match(line):
        return "heading"
    return None


def _fence_end(lines: list[tuple[int, str]], i: int) -> int:
    for j in range(i + 1, len(lines)):
        if _FENCE.match(lines[j][1]):
            return j
    return len(lines) - 1  # the passage ends inside the block


def _indented_end(lines: list[tuple[int, str]], i: int, indent: int) -> int:
    """The last line of the block indented at least ``indent`` that starts at ``i`` (blank
    lines inside it belong to it); ``i - 1`` when none does (the passage ends, or the next
    line is not indented: a directive that ends its passage has no body here)."""
    last = i - 1
    for j in range(i, len(lines)):
        line = lines[j][1]
        if line.strip() and _indent(line) < indent:
            break
        if line.strip():
            last = j
    return last


def _paragraph_end(lines: list[tuple[int, str]], i: int) -> int:
    """The last line of the paragraph starting at ``i``: it runs until a blank line, or a line
    that starts a block of its own (a heading, a fence, a rule, a list item, a table row)."""
    j = i
    while j + 1 < len(lines):
        nxt = lines[j + 1][1]
        if not nxt.strip() or _FENCE.match(nxt) or _RULE.match(nxt) or _MD_HEADING.match(nxt):
            break
        if _ITEM.match(nxt) or _TABLE.match(nxt) or _SIGNATURE.match(nxt):
            break
        if j + 2 < len(lines) and _RULE.match(lines[j + 2][1]):
            break  # the next line is a title over its underline
        j += 1
    return j

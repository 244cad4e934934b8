"""Text cut into quotable spans at exact offsets: sentences, clauses of long ones, lines.

Every span is a byte-exact substring of the text it was cut from, so what is quoted or cited is
cut from the stored text, never rewritten: the spans a quote-constrained schema offers
(``answer.menu``), the sentences the extract ranks (``answer.units``). This module reads text
only; it knows nothing of bundles or schemas, so every module of the answer path may use it.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from groundkit.answer.abbreviations import runs_on

__all__ = [
    "MAX_SENTENCE_CHARS",
    "MAX_SPAN_CHARS",
    "Block",
    "cut_spans",
    "sentence_offsets",
    "sentence_parts",
    "span_offsets",
]

Block = Literal["prose", "table", "code"]

MAX_SPAN_CHARS = 240  # a longer sentence is cut into clauses, a longer clause at a space

# A sentence ends at . ! or ? followed by space, unless the full stop closes an abbreviation the
# sentence runs on past ("Ltd. —", "e.g. a", "J. R. R."); a line break ends a span too (lists,
# headings).
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n+")
_CLAUSE_END = re.compile(r"(?<=[,;:])\s+|\s+(?=\u2014|--)")
# Within a paragraph, a sentence ends at . ! or ? followed by space, a line break does not.
_PROSE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+")
# A line that starts a block of its own: a heading, a list item, a quote; a heading never runs
# on into the next line.
_BLOCK = re.compile(r"[ \t]*(?:#{1,6}\s|[-*+\u2022]\s|\d+[.)]\s|>)")
_HEADING_LINE = re.compile(r"[ \t]*#{1,6}\s")
_FENCE = re.compile(r"[ \t]*(?:```|~~~)")
_ROW = re.compile(r"[ \t]*\|")
_LINE_END = re.compile(r"\n")
MAX_SENTENCE_CHARS = 400  # a reader takes a long sentence whole; longer ones go by clauses
_WORD = re.compile(r"\w", re.UNICODE)


def cut_spans(text: str, *, min_chars: int) -> list[str]:
    """The sentences of ``text`` (clauses of long ones), trimmed, each a substring of ``text``.

    Spans shorter than ``min_chars`` or without a letter or digit are dropped: the contract would
    refuse them as quotes. Duplicates are kept once.
    """
    out: list[str] = []
    seen: set[str] = set()
    for start, end in span_offsets(text, min_chars=min_chars):
        part = text[start:end]
        if part not in seen:
            seen.add(part)
            out.append(part)
    return out


def span_offsets(text: str, *, min_chars: int) -> list[tuple[int, int]]:
    """``[start, end)`` of each span ``cut_spans`` gives, in reading order (repeats included):
    ``text[start:end]`` is the span, so a sentence is cited at the offsets it came from."""
    out: list[tuple[int, int]] = []
    for start, end in _pieces(text, 0, len(text), _SENTENCE_END):
        parts = [(start, end)] if end - start <= MAX_SPAN_CHARS else _clauses(text, start, end)
        for a, b in parts:
            if b - a >= min_chars and _WORD.search(text, a, b):
                out.append((a, b))
    return out


def sentence_offsets(text: str, *, min_chars: int) -> list[tuple[int, int]]:
    """``[start, end)`` of each sentence of ``text``, in reading order, as a reader sees them:
    a hard-wrapped paragraph's lines run on (a line break ends no sentence), while a blank line,
    a heading or a list item starts a new one; a table is one unit (a row means little without
    its header) unless it is longer than a sentence may be, and each line of a fenced code
    block stands alone. Sentences longer than ``MAX_SENTENCE_CHARS`` are cut into clauses;
    those shorter than ``min_chars`` or without a letter or digit are dropped."""
    return [(a, b) for a, b, _ in sentence_parts(text, min_chars=min_chars)]


def sentence_parts(text: str, *, min_chars: int) -> list[tuple[int, int, Block]]:
    """``sentence_offsets`` with the block each sentence came from: ``prose``, ``table`` or
    ``code`` (a line of a fenced block)."""
    out: list[tuple[int, int, Block]] = []
    for begin, stop, kind in _paragraphs(text):
        if kind == "prose":
            pieces = _pieces(text, begin, stop, _PROSE_END)
        elif kind == "table" and stop - begin > MAX_SENTENCE_CHARS:
            pieces = _pieces(text, begin, stop, _LINE_END)
        else:
            pieces = [(begin, stop)]
        for start, end in pieces:
            whole = end - start <= MAX_SENTENCE_CHARS
            for a, b in [(start, end)] if whole else _clauses(text, start, end):
                if b - a >= min_chars and _WORD.search(text, a, b):
                    out.append((a, b, kind))
    return out


def _paragraphs(text: str) -> list[tuple[int, int, Block]]:
    """Paragraphs as ``(start, end, kind)``: ``prose``, a ``table`` (its rows together), or
    ``code`` (a fenced block's lines, one by one)."""
    out: list[list[Any]] = []
    at, joins, fenced = 0, False, False
    for line in text.splitlines(keepends=True):
        start, end = at, at + len(line.rstrip("\r\n"))
        at += len(line)
        fence = bool(_FENCE.match(line))
        if fence or fenced:
            fenced = fenced != fence  # a fence opens or closes a block; it is no sentence
            if not fence and line.strip():
                out.append([start, end, "code"])
            joins = False
        elif _ROW.match(line):
            if out and out[-1][2] == "table" and joins:
                out[-1][1] = end
            else:
                out.append([start, end, "table"])
            joins = True
        elif not line.strip():
            joins = False
        elif joins and out[-1][2] == "prose" and not _BLOCK.match(line):
            out[-1][1] = end
        else:
            out.append([start, end, "prose"])
            joins = not _HEADING_LINE.match(line)
    return [(*_trim(text, a, b), kind) for a, b, kind in out]


def _pieces(text: str, begin: int, stop: int, boundary: re.Pattern[str]) -> list[tuple[int, int]]:
    """The pieces of ``text[begin:stop]`` between matches of ``boundary``, trimmed of
    whitespace, as offsets into ``text``."""
    pieces, at = [], begin
    for m in boundary.finditer(text, begin, stop):
        ends = boundary is _PROSE_END or boundary is _SENTENCE_END
        if ends and _after_abbreviation(text, m, lines=boundary is _SENTENCE_END):
            continue
        pieces.append(_trim(text, at, m.start()))
        at = m.end()
    pieces.append(_trim(text, at, stop))
    return [(a, b) for a, b in pieces if b > a]


def _after_abbreviation(text: str, m: re.Match[str], *, lines: bool) -> bool:
    """True when the boundary ``m`` is a full stop after an abbreviation or an initial that the
    sentence runs on past (``answer.abbreviations``). Where line breaks end spans (``lines``),
    one still does."""
    gap, dot = m.group(), m.start() - 1
    if dot < 0 or text[dot] != "." or (lines and "\n" in gap):
        return False
    return runs_on(text, dot, m.end(), closed=not gap[:1].isspace())


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _clauses(text: str, begin: int, stop: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for clause in _pieces(text, begin, stop, _CLAUSE_END):
        start, end = clause
        while end - start > MAX_SPAN_CHARS:
            cut = text.rfind(" ", start, start + MAX_SPAN_CHARS)
            cut = cut if cut > start else start + MAX_SPAN_CHARS
            a, b = _trim(text, start, cut)
            if b > a:
                out.append((a, b))
            start, end = _trim(text, cut, end)
        if end > start:
            out.append((start, end))
    return out

"""What the extract may offer from a passage: its sentences, each with what it needs to be read.

A passage's parts (``answer.blocks``) become units at exact offsets, ``text[start:end]``:

- a sentence of prose (``spans.sentence_parts`` cuts them); a list item whole when it is short
  (a bullet is one point, and its second sentence often says what its first means), else by
  sentences;
- a sentence that introduces code (it ends in ``:`` or ``::``, or says "like this", "for
  example", "as follows") and is followed by a code block comes *with* the block: the unit runs
  from the sentence to the end of the block (at most ``CODE_LINES`` lines of it), so "set
  ``verify`` to False::" arrives with ``verify=False``; so does a statement ending a paragraph
  right above a code block without announcing it (its example), weighed as a whole (``whole``);
  the block's later pieces stay units of their own;
- a sentence that refers back ("This ...", "the above") comes with the unit before it; with
  nothing before it in the passage, it is not offered (it would point at nothing);
- the first sentence under a heading that names code (an API reference's
  ``_.throttle(function, wait)``) and a bullet of release notes under its version heading carry
  that heading as their ``lead``, cited before them;
- a code block no sentence introduced, alone (at most ``CODE_LINES`` lines a unit); one made
  only of imports is ``imports``;
- a table (whole when short, else by rows; separator rows are never units).

Headings, underlines, labels and table separators are never units of their own. Which kinds a
question is offered is the extract's choice (``answer.extract``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from groundkit.answer.blocks import Block, blocks
from groundkit.answer.spans import MAX_SENTENCE_CHARS, sentence_parts

__all__ = [
    "CODE_LINES",
    "TINY",
    "Unit",
    "UnitKind",
    "is_release_notes",
    "names_code",
    "units",
]

UnitKind = Literal["prose", "item", "code", "imports", "table", "release"]

CODE_LINES = 12  # the most lines of a code block a unit brings: an example, not a file
CODE_CHARS = 800
_INTRODUCES = re.compile(
    r"(?::{1,2}|\.\.\.|\u2026)\s*$"
    r"|\b(?:like (?:this|so)|for (?:example|instance)|as follows|e\.g\.)",
    re.IGNORECASE,
)
_REFERS_BACK = re.compile(
    r"^(?:this|these|those|such|for\s+(?:example|instance)|as\s+an\s+example|e\.g\.)\b"
    r"|^(?:that|it)\s+(?:is|was|will|can|also|does|means)\b"
    r"|\b(?:the|as|shown|see)\s+above\b|\babove\s+(?:example|code|snippet)\b",
    re.IGNORECASE,
)
_IMPORT = re.compile(
    r"[ \t]*(?:>>>\s*)?(?:import\s+[\w.]+|from\s+[\w.]+\s+import\s"
    r"|(?:const|let|var)\s+.*=\s*require\()"
)
_FENCE_LINE = re.compile(r"[ \t]*(?:```|~~~)")
_DIRECTIVE_HEAD = re.compile(r"\.\.[ \t]+[\w:-]+::[ \t]*")
_CODE_NAME = re.compile(r"[a-z_][A-Z]|[A-Z]\w*[a-z][A-Z]|\w[._]\w")  # camelCase, dotted
# A name called, ``stream()``, ``_.throttle(function, wait)``; not an aside in brackets ("Marek P.
# (with chat assistant)", "Sessions (advanced)").
_CALL = re.compile(r"[\w\]]\(")
_ABOVE = re.compile(r"\babove\b", re.IGNORECASE)
# A list item that is only a link (``- [Title](#anchor)``): a table of contents' entry.
_LINK_ONLY = re.compile(r"(?:[-*+\u2022]|\d+[.)])[ \t]+\[[^\]\n]*\]\([^)\s]*\)[ \t]*$")
TINY = 16  # a paragraph this short ("source") is a label, not what a heading heads
_SEPARATOR = re.compile(r"[ \t|+:=\-]*$")
# A version heading: a version number alone, or with a date or a name after a dash or in
# brackets ("0.47.3 (August 24, 2025)", "v2.0 - 2024-01-05"); "5.2 Deadlines" is a section.
_VERSION = re.compile(
    r"[#\s*]*(?:v|version\s+|release\s+)?\d+\.\d+(?:\.\d+)*(?:[-.]?[a-z]+\d*)?\**"
    r"\s*(?:\(.*\)|[-\u2013\u2014:,].*)?\s*$",
    re.IGNORECASE,
)
_RELEASE_NAME = re.compile(
    r"(?:change[-_ ]?log|changes|history|release[-_ ]?notes?|news|whats[-_]?new)", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Unit:
    """One thing the extract may show: ``text[start:end]``, the sentence it is weighed by
    (``core``), and a heading cited before it (``lead``)."""

    start: int
    end: int
    core: tuple[int, int]
    kind: UnitKind
    lead: tuple[int, int] | None = None
    brings_code: bool = False
    # Weighed by meaning as a whole: the sentence does not announce the code after it, so it
    # may not say what the code does (a clause ending the paragraph before an example).
    whole: bool = False


def is_release_notes(source: str, text: str) -> bool:
    """Whether a passage is release notes: its file is named so (CHANGELOG, HISTORY,
    release-notes...) or it has a heading that is a version number."""
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    if _RELEASE_NAME.search(name):
        return True
    return any(b.kind == "heading" and _VERSION.match(text, b.start, b.end) for b in blocks(text))


def units(text: str, *, release: bool = False) -> list[Unit]:
    """The units of a passage, in reading order. ``release``: the passage is release notes, so
    its sentences are ``release`` units, each under the version heading above it."""
    parts = blocks(text)
    out: list[Unit] = []
    heading: Block | None = None  # the heading right above this paragraph, if any
    version: Block | None = None  # release notes: the version heading above
    named: Block | None = None  # the heading above that names code: its section describes it
    taken: set[int] = set()  # code blocks brought by the sentence that introduces them
    for i, block in enumerate(parts):
        if block.kind == "heading":
            heading = block
            named = block if names_code(text, block) else None
            if release and _VERSION.match(text, block.start, block.end):
                version = block
            continue
        if block.kind in ("rule", "label"):
            continue
        if block.kind == "table":
            out.extend(_table(text, block))
            heading = None
            continue
        if block.kind == "code":
            # a sentence brought its first piece: the rest are still units of their own
            out.extend(_code(text, block)[1 if i in taken else 0 :])
            heading = None
            continue
        if block.kind == "item" and _LINK_ONLY.match(text, block.start, block.end):
            continue  # a table of contents' entry names where the answer is, not the answer
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        before = len(out)
        for start, end in _sentences(text, block):
            kind: UnitKind = "release" if release else "item" if block.kind == "item" else "prose"
            unit = Unit(start, end, (start, end), kind)
            last = start == _sentences(text, block)[-1][0]
            if last and nxt is not None and nxt.kind == "code":
                sentence = text[start:end].rstrip()
                if _INTRODUCES.search(sentence):
                    unit = _with_code(text, unit, nxt, whole=False)
                    taken.add(i + 1)
                elif not sentence.endswith("?"):  # a statement right above code: its example
                    unit = _with_code(text, unit, nxt, whole=True)
                    taken.add(i + 1)
            if _REFERS_BACK.search(text[start:end]):
                if heading is None and not out:
                    continue  # "the above" with nothing above it in the passage
                # Right under a heading, it refers to what the heading names; after another
                # sentence of its paragraph, to that sentence.
                if heading is None or len(out) > before:
                    # never across the heading: it is cited before the unit, not inside it
                    said = out if heading is None else out[before:]
                    unit = _after(_referent(text, said, start, end), unit)
            lead = version if release else named
            # A unit that reached back past its heading holds it: cited inside, not before.
            if lead is not None and lead.end <= unit.start:
                unit = Unit(unit.start, unit.end, unit.core, unit.kind, (lead.start, lead.end),
                            unit.brings_code)  # fmt: skip
            out.append(unit)
        if any(u.end - u.start >= TINY for u in out[before:]):
            heading = None  # a heading is read with the paragraph right under it, not the next
    return out


def _referent(text: str, out: list[Unit], start: int, end: int) -> Unit:
    """What a sentence refers back to: for "the above", the last unit that shows code (within
    the last three), else the unit right before it."""
    if _ABOVE.search(text, start, end):
        for before in reversed(out[-3:]):
            if before.brings_code or before.kind in ("code", "imports"):
                return before
    return out[-1]


def _sentences(text: str, block: Block) -> list[tuple[int, int]]:
    """The sentences of a prose block, at offsets in ``text``; a directive's name
    (``.. note::``) is not part of its first sentence."""
    if block.kind == "item" and block.end - block.start <= MAX_SENTENCE_CHARS:
        # A list item is one point: its sentences are read together, as a reader takes a bullet
        # ("- Python 3.9 is no longer supported. tidepool 3.2 requires Python 3.10 or newer.").
        return [(block.start, block.end)]
    out = []
    for a, b, _ in sentence_parts(text[block.start : block.end], min_chars=1):
        start, end = block.start + a, block.start + b
        named = _DIRECTIVE_HEAD.match(text, start, end)
        out.append((named.end() if named else start, end))
    return [(a, b) for a, b in out if b > a]


def _after(before: Unit, unit: Unit) -> Unit:
    """``unit`` with what it refers back to, weighed by meaning on both: "As an example, ...
    you would use the following code::" says nothing of what the example is of."""
    return Unit(before.start, unit.end, (before.core[0], unit.core[1]), unit.kind, before.lead,
                unit.brings_code or before.brings_code)  # fmt: skip


def names_code(text: str, heading: Block | None) -> bool:
    """Whether a heading names a piece of code (``Client.stream()``, ``GZipMiddleware``): its
    section describes that piece, and each of its sentences is read under the name."""
    if heading is None:
        return False
    title = text[heading.start : heading.end].strip("#*= \t")
    if "`" in title or _CALL.search(title):
        return True
    return " " not in title and bool(_CODE_NAME.search(title))


def _with_code(text: str, unit: Unit, code: Block, whole: bool) -> Unit:
    end = _code_pieces(text, code)[0][1]
    return Unit(unit.start, end, unit.core, unit.kind, unit.lead, brings_code=True, whole=whole)


def _code(text: str, block: Block) -> list[Unit]:
    out = []
    for a, b in _code_pieces(text, block):
        lines = [ln for ln in text[a:b].splitlines() if ln.strip() and not _FENCE_LINE.match(ln)]
        only_imports = bool(lines) and all(_IMPORT.match(ln) for ln in lines)
        out.append(Unit(a, b, (a, b), "imports" if only_imports else "code"))
    return out


def _code_pieces(text: str, block: Block) -> list[tuple[int, int]]:
    """A code block in pieces of at most ``CODE_LINES`` lines and ``CODE_CHARS`` characters,
    cut at line ends."""
    pieces: list[tuple[int, int]] = []
    start, lines = block.start, 0
    at = block.start
    while at < block.end:
        stop = text.find("\n", at, block.end)
        stop = block.end if stop < 0 else stop
        lines += 1
        if lines > 1 and (lines > CODE_LINES or stop - start > CODE_CHARS):
            pieces.append((start, _rtrim(text, start, at)))
            start, lines = at, 1
        at = stop + 1
    pieces.append((start, block.end))
    # A later piece starts at a line's start: its indentation or blank lines are no part of it.
    pieces = [(b - len(text[a:b].lstrip()), b) for a, b in pieces]
    return [(a, b) for a, b in pieces if b > a]


def _rtrim(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _table(text: str, block: Block) -> list[Unit]:
    if block.end - block.start <= MAX_SENTENCE_CHARS:
        return [Unit(block.start, block.end, (block.start, block.end), "table")]
    out, at = [], block.start
    for line in text[block.start : block.end].splitlines(keepends=True):
        a, b = at, _rtrim(text, at, at + len(line))
        at += len(line)
        if b > a and not _SEPARATOR.match(text, a, b):
            out.append(Unit(a, b, (a, b), "table"))
    return out

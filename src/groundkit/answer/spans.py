"""Quote-constrained decoding: the response schema lists exactly what may be quoted.

Each evidence item is cut into spans, every one a byte-exact substring of the item's text: a
passage into sentences (and clauses of long sentences), a code-map edge into its evidence line,
its claim (``a.f calls b.g``) and its statement. The schema then lets a citation be one of a set of
alternatives, one per item: ``{"source": N, "quote": <one of item N's spans>}``. A model decoding
under this schema cannot misquote or cite a source that was not sent. The citation contract still
checks every reply: the schema only makes passing likely, and a server that ignores schemas is
refused as before.

Size limits keep the grammar small enough to compile and decode quickly: at most
``MAX_SPANS_PER_ITEM`` spans per item and ``MAX_ENUM_BYTES`` bytes of span text in all. What they
leave out is counted and reported, as the bundle cap does for passages.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from groundkit.answer.bundle import EvidenceBundle

__all__ = [
    "MAX_ENUM_BYTES",
    "MAX_SPANS_PER_ITEM",
    "Block",
    "QuoteMenu",
    "constrained_schema",
    "cut_spans",
    "hosted_strict_problems",
    "sentence_offsets",
    "sentence_parts",
    "span_offsets",
]

Block = Literal["prose", "table", "code"]

MAX_SPANS_PER_ITEM = 40
MAX_ENUM_BYTES = 16_000
MAX_SPAN_CHARS = 240  # a longer sentence is cut into clauses, a longer clause at a space
MAX_ITEMS = 2  # few items per answer: small models finish their JSON
MAX_CITATIONS = 2
MAX_TEXT_CHARS = 200

# A sentence ends at . ! or ? followed by space; a line break ends a span too (lists, headings).
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


@dataclass(frozen=True, slots=True)
class QuoteMenu:
    """What the schema offered: the spans of each item and what the limits left out."""

    spans: tuple[tuple[str, ...], ...]  # per bundle item, in item order
    omitted: int  # spans cut by the limits
    enum_bytes: int

    @property
    def truncated(self) -> bool:
        return self.omitted > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": "constrained",
            "spans": sum(len(s) for s in self.spans),
            "omitted": self.omitted,
            "truncated": self.truncated,
            "enum_bytes": self.enum_bytes,
            "max_spans_per_item": MAX_SPANS_PER_ITEM,
            "max_enum_bytes": MAX_ENUM_BYTES,
        }


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
        pieces.append(_trim(text, at, m.start()))
        at = m.end()
    pieces.append(_trim(text, at, stop))
    return [(a, b) for a, b in pieces if b > a]


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


def _menu(bundle: EvidenceBundle, min_chars: int) -> QuoteMenu:
    per_item: list[tuple[str, ...]] = []
    omitted = used = 0
    for item in bundle.items:
        kept: list[str] = []
        for span in item.spans(min_chars):
            size = len(json.dumps(span, ensure_ascii=False).encode("utf-8", "surrogatepass"))
            if len(kept) >= MAX_SPANS_PER_ITEM or used + size > MAX_ENUM_BYTES:
                omitted += 1
                continue
            kept.append(span)
            used += size
        per_item.append(tuple(kept))
    return QuoteMenu(tuple(per_item), omitted, used)


def constrained_schema(
    bundle: EvidenceBundle, *, min_chars: int
) -> tuple[dict[str, Any], QuoteMenu]:
    """The answer schema whose citations can only be spans of the items that were sent."""
    menu = _menu(bundle, min_chars)
    choices = [
        {
            "type": "object",
            "properties": {"source": {"const": item.number}, "quote": {"enum": list(spans)}},
            "required": ["source", "quote"],
            "additionalProperties": False,
        }
        for item, spans in zip(bundle.items, menu.spans, strict=True)
        if spans
    ]
    items: dict[str, Any] = {"type": "array", "maxItems": MAX_ITEMS if choices else 0}
    if choices:
        # Citations come first: a model that has picked its quote then writes about it, where
        # one that writes first loops on its own words (measured: docs/answer.md).
        items["items"] = {
            "type": "object",
            "properties": {
                "citations": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": MAX_CITATIONS,
                    "items": {"anyOf": choices},
                },
                "text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARS},
            },
            "required": ["citations", "text"],
            "additionalProperties": False,
        }
    schema = {
        "type": "object",
        "properties": {"items": items},
        "required": ["items"],
        "additionalProperties": False,
    }
    return schema, menu


# OpenAI's documented limits for strict structured outputs (the strictest hosted dialect we know).
_HOSTED_MAX_ENUM_VALUES = 1000
_HOSTED_MAX_ENUM_CHARS = 15_000  # for one enum property with more than 250 values
_HOSTED_MAX_DEPTH = 10


def hosted_strict_problems(schema: dict[str, Any]) -> list[str]:
    """Why a hosted API in strict structured-output mode would reject ``schema`` (empty: none).

    Checks OpenAI's documented rules: at most 1,000 enum values in all, at most 15,000 characters
    of values in one enum of more than 250, at most 10 levels of nesting, and no two ``anyOf``
    alternatives that are objects starting with the same key (one alternative per evidence item
    always does, which is why hosted profiles default to free quotes).
    """
    problems: list[str] = []
    values = 0

    def walk(node: Any, depth: int) -> None:
        nonlocal values
        if not isinstance(node, dict):
            return
        if depth > _HOSTED_MAX_DEPTH:
            problems.append(f"nesting deeper than {_HOSTED_MAX_DEPTH} levels")
        enum = node.get("enum")
        if isinstance(enum, list):
            values += len(enum)
            chars = sum(len(v) for v in enum if isinstance(v, str))
            if len(enum) > 250 and chars > _HOSTED_MAX_ENUM_CHARS:
                problems.append(f"an enum of {len(enum)} values and {chars} characters")
        alternatives = node.get("anyOf")
        if isinstance(alternatives, list):
            firsts = [next(iter(a.get("properties") or {}), None) for a in alternatives]
            named = [f for f in firsts if f is not None]
            if len(named) != len(set(named)):
                problems.append("anyOf alternatives share their first key")
        for child in (node.get("properties") or {}).values():
            walk(child, depth + 1)
        for child in [node.get("items"), *(alternatives or [])]:
            walk(child, depth + 1)

    walk(schema, 1)
    if values > _HOSTED_MAX_ENUM_VALUES:
        problems.append(f"{values} enum values in all (the limit is {_HOSTED_MAX_ENUM_VALUES})")
    return problems

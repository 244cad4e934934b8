"""Quote-constrained decoding: the response schema lists exactly what may be quoted.

Each evidence item is cut into spans (``answer.spans``), every one a byte-exact substring of the
item's text: a passage into sentences (and clauses of long sentences), a code-map edge into its
evidence line, its claim (``a.f calls b.g``) and its statement. The schema then lets a citation be
one of a set of alternatives, one per item: ``{"source": N, "quote": <one of item N's spans>}``.
A model decoding under this schema cannot misquote or cite a source that was not sent. The
citation contract still checks every reply: the schema only makes passing likely, and a server
that ignores schemas is refused as before.

Size limits keep the grammar small enough to compile and decode quickly: at most
``MAX_SPANS_PER_ITEM`` spans per item and ``MAX_ENUM_BYTES`` bytes of span text in all. What they
leave out is counted and reported, as the bundle cap does for passages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundkit.answer.bundle import EvidenceBundle

__all__ = [
    "MAX_ENUM_BYTES",
    "MAX_SPANS_PER_ITEM",
    "QuoteMenu",
    "constrained_schema",
    "hosted_strict_problems",
]

MAX_SPANS_PER_ITEM = 40
MAX_ENUM_BYTES = 16_000
MAX_ITEMS = 2  # few items per answer: small models finish their JSON
MAX_CITATIONS = 2
MAX_TEXT_CHARS = 200


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

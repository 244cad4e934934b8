"""A search's filters on a Qdrant collection, as the embedded ``index.filters`` defines them.

``--where KEY=VALUE`` compares text: each chunk point keeps, in ``meta``, every scalar of its
document's metadata overlaid with its own (so a key is found on the chunk first, then on its
document), each spelled as SQLite spells it (``true``, ``2020``, ``2020.5``), and a pair matches
when the value's spelling is the stored one. So ``year=2020`` matches the number 2020 as the
embedded filter does, on every transport alike (qdrant-edge cannot match a boolean). A number
given as a number also matches its spelling as a real (``3`` and ``3.0``), as SQLite compares.
``--source GLOB`` is SQLite's GLOB (``*``, ``?``, ``[...]``, ``[^...]``; case-sensitive; ``*``
crosses ``/``) on the shown source or the stored one: Qdrant has no glob, so the documents are
matched here and the chunks filtered by their document ids.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from groundkit.errors import ErrorCode, UsageError

if TYPE_CHECKING:
    from groundkit.backends.qdrant import vocab as models

__all__ = ["filterable", "glob_matcher", "spelled", "where_conditions"]


def spelled(value: Any) -> str | None:
    """A metadata value as the filter compares it (None: not comparable, a list or a table)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{int(value)}.0" if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, str):
        return value
    return None


def filterable(metadata: Mapping[str, Any]) -> dict[str, str]:
    """What ``meta`` keeps of a chunk's metadata (its document's overlaid with its own)."""
    return {k: text for k, v in metadata.items() if (text := spelled(v)) is not None}


def _key(key: str) -> str:
    if '"' in key or "\\" in key:
        raise UsageError(
            ErrorCode.INVALID_QUERY,
            "a metadata key with a quote or backslash cannot be filtered on a Qdrant collection",
        )
    return f'meta."{key}"'


def where_conditions(where: Mapping[str, Any]) -> list[models.Condition]:
    """One condition per pair, all of which must hold."""
    from groundkit.backends.qdrant import vocab as models

    out: list[models.Condition] = []
    for key, value in where.items():
        path = _key(key)
        if value is None:  # no value: the key is absent
            out.append(models.IsEmptyCondition(is_empty=models.PayloadField(key=path)))
            continue
        text = spelled(value)
        if text is None:
            raise UsageError(
                ErrorCode.INVALID_QUERY,
                "a metadata filter on a Qdrant collection compares text, numbers and true/false",
            )
        names = [text]
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and float(value).is_integer():  # 3 and 3.0 are one number to SQLite
            names = sorted({str(int(value)), f"{int(value)}.0"})
        match = models.MatchValue(value=names[0]) if len(names) == 1 else models.MatchAny(any=names)
        out.append(models.FieldCondition(key=path, match=match))
    return out


def glob_matcher(pattern: str) -> re.Pattern[str]:
    """SQLite's GLOB as a regular expression to ``fullmatch``. An unclosed ``[`` matches
    nothing, as in SQLite."""
    return _compiled(pattern)


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            end, body = _class(pattern, i + 1)
            if end < 0:
                return re.compile(r"(?!)")
            out.append(body)
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL)


def _class(pattern: str, at: int) -> tuple[int, str]:
    """The character class opening at ``at`` (after ``[``): where its ``]`` is, and its regex."""
    negate = at < len(pattern) and pattern[at] == "^"
    if negate:
        at += 1
    items: list[str] = []
    i = at
    while i < len(pattern):
        c = pattern[i]
        if c == "]" and i > at:
            return i, "[" + ("^" if negate else "") + "".join(items) + "]"
        if c == "-" and items and i + 1 < len(pattern) and pattern[i + 1] != "]":
            items.append("-" + re.escape(pattern[i + 1]))
            i += 2
            continue
        items.append(re.escape(c))
        i += 1
    return -1, ""

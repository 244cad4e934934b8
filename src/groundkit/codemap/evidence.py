"""An edge's evidence re-read from the working tree, as ``grk show`` re-checks a passage:
``verified`` (the line still says what the evidence quotes), ``drifted`` (it says something
else now, or the file is shorter), ``missing`` (the file is gone), ``unreadable``."""

from __future__ import annotations

import os
from pathlib import Path

from groundkit.codemap.extract.base import Unparsable
from groundkit.codemap.lines import decode, source_lines
from groundkit.codemap.model import Edge
from groundkit.types import Verification

__all__ = ["check_edge", "quote_matches"]


def quote_matches(quote: str, line: str) -> bool:
    """Whether ``line`` (as now written) still says ``quote`` (kept whole, or cut with ``…``)."""
    current = line.strip()
    if quote.endswith("…"):
        return current.startswith(quote[:-1])
    return current == quote


def check_edge(root: Path, edge: Edge, cache: dict[str, list[str] | None] | None = None) -> str:
    """The verification of ``edge`` against the files under ``root``. A location that would
    leave ``root`` (a symlink since swapped, say) is not read: it is reported missing."""
    lines = _lines(root, edge.location.path, cache if cache is not None else {})
    if lines is None:
        return str(Verification.MISSING)
    if lines == ["\x00unreadable"]:
        return str(Verification.UNREADABLE)
    number = edge.location.line
    if number < 1 or number > len(lines):
        return str(Verification.DRIFTED)
    ok = quote_matches(edge.quote, lines[number - 1])
    return str(Verification.VERIFIED if ok else Verification.DRIFTED)


def _lines(root: Path, rel: str, cache: dict[str, list[str] | None]) -> list[str] | None:
    if rel in cache:
        return cache[rel]
    real_root = os.path.realpath(root)
    target = os.path.realpath(root / rel)
    found: list[str] | None
    if not target.startswith(real_root + os.sep) or not os.path.isfile(target):
        found = None
    else:
        try:
            with open(target, "rb") as fh:
                found = source_lines(decode(fh.read()))
        except (OSError, Unparsable):
            found = ["\x00unreadable"]
    cache[rel] = found
    return found

"""An edge's evidence re-read from the working tree, as ``grk show`` re-checks a passage:
``verified`` (the line still says what the evidence quotes), ``drifted`` (it says something
else now, or the file is shorter), ``missing`` (the file is gone), ``unreadable``."""

from __future__ import annotations

import os
from pathlib import Path

from groundkit.codemap.extract.base import Unparsable
from groundkit.codemap.lines import decode, source_lines
from groundkit.codemap.model import Edge
from groundkit.config import CodemapConfig
from groundkit.source_files import Unread, Why, read_source
from groundkit.types import Verification

__all__ = ["check_edge", "quote_matches"]

_LIMIT = CodemapConfig().max_file_bytes  # what `grk map` would read of a file


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
    data = read_source(target, _LIMIT) if target.startswith(real_root + os.sep) else None
    if data is None or (isinstance(data, Unread) and data.why == Why.MISSING):
        found = None
    elif isinstance(data, Unread):  # a pipe, a device, oversized or slow: never read whole
        found = ["\x00unreadable"]
    else:
        try:
            found = source_lines(decode(data))
        except Unparsable:
            found = ["\x00unreadable"]
    cache[rel] = found
    return found

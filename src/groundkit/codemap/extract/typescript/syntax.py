"""tree-sitter, loaded when the first TypeScript or JavaScript file is parsed, never before.

The grammars come from their own wheels (``tree-sitter-typescript``, ``tree-sitter-javascript``),
so nothing is downloaded at run time. Without them a file is skipped with the install hint, never
a crash: ``grk map`` of a Python repository does not need them at all.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache
from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.base import Unparsable

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = ["INSTALL_HINT", "Columns", "dialect", "parser", "text_of"]

INSTALL_HINT = "needs tree-sitter: pip install 'groundkit[codemap]'"

_DIALECTS = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
}


def dialect(path: str) -> str:
    """Which grammar reads ``path``: by its extension (``.d.ts`` is TypeScript)."""
    dot = path.rfind(".")
    return _DIALECTS.get(path[dot:].lower(), "typescript")


@cache
def parser(name: str) -> Parser:
    """One parser per grammar and process (tree-sitter's API as of 0.22: ``Parser(Language)``).

    Raises ``Unparsable`` with the install hint when tree-sitter or a grammar is missing."""
    try:
        import tree_sitter
        import tree_sitter_javascript
        import tree_sitter_typescript
    except ImportError:
        raise Unparsable(INSTALL_HINT) from None
    grammars: dict[str, Any] = {
        "typescript": tree_sitter_typescript.language_typescript,
        "tsx": tree_sitter_typescript.language_tsx,
        "javascript": tree_sitter_javascript.language,
    }
    return tree_sitter.Parser(tree_sitter.Language(grammars[name]()))


def text_of(node: Node | None) -> str:
    text = node.text if node is not None else None  # (each read of .text copies the bytes)
    return "" if text is None else text.decode("utf-8", "replace")


class Columns:
    """Columns in characters from tree-sitter's columns in UTF-8 bytes, for one file's lines.

    The byte offsets where a line's characters start are found once per line and searched
    (``bisect``), so a long line costs linear time however many nodes it holds (a minified
    bundle is one line of hundreds of kilobytes)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._starts: dict[int, list[int]] = {}  # non-ASCII row -> byte offsets of its chars
        # Every line ASCII (most files): a byte column is the character column, asked twice
        # for each site of the file (each line's test is O(1): CPython knows a string is ASCII).
        self.ascii = all(line.isascii() for line in lines)

    def col(self, row: int, byte_col: int) -> int:
        """The character column of ``byte_col`` on 0-based line ``row``."""
        if not 0 <= row < len(self.lines):
            return byte_col
        starts = self._starts.get(row)
        if starts is None:
            line = self.lines[row]
            if line.isascii():  # O(1): CPython knows a string is ASCII
                return byte_col
            encoded = line.encode("utf-8", "surrogatepass")
            starts = [i for i, byte in enumerate(encoded) if byte & 0xC0 != 0x80]
            self._starts[row] = starts
        return bisect_left(starts, byte_col)

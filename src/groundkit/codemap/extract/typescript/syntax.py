"""tree-sitter, loaded when the first TypeScript or JavaScript file is parsed, never before.

The grammars come from their own wheels (``tree-sitter-typescript``, ``tree-sitter-javascript``),
so nothing is downloaded at run time. Without them a file is skipped with the install hint, never
a crash: ``grk map`` of a Python repository does not need them at all.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.base import Unparsable

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = ["INSTALL_HINT", "char_col", "dialect", "parser", "text_of"]

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
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def char_col(line: str, byte_col: int) -> int:
    """A column in characters from tree-sitter's column in UTF-8 bytes."""
    if line.isascii():
        return byte_col
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", "ignore"))

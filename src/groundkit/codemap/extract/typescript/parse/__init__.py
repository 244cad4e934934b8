"""One TypeScript or JavaScript file to typed facts (``facts.py``) with tree-sitter: no other
file is looked at, nothing is compiled or run.

``walker.py`` dispatches each node type to its handler: ``declarations.py`` (functions,
classes), ``variables.py`` (bindings, object literals, assignments, CommonJS), ``modules.py``
(imports, exports), ``calls.py`` (call sites); ``expressions.py`` makes ``Expr`` records and
``closure.py`` closes pass sites over local bindings for the interface.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from groundkit.codemap.extract.base import Clock, FileFacts, Unparsable
from groundkit.codemap.extract.typescript.parse.walker import walk
from groundkit.codemap.extract.typescript.syntax import dialect, parser
from groundkit.codemap.extract.typescript.vue import VUE_SUFFIX, script_of
from groundkit.codemap.lines import source_lines

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["parse_typescript"]

_BREAKS = re.compile(r"\r\n?")


def parse_typescript(path: str, text: str, deadline: float = math.inf) -> FileFacts:
    # tree-sitter counts rows at "\n" only; the map's lines also break at "\r" (lines.py).
    text = _BREAKS.sub("\n", text)
    grammar = dialect(path)
    if path.endswith(VUE_SUFFIX):
        text, grammar = script_of(text)  # its script blocks in place, the rest blanked
    source = text.encode("utf-8")
    tree = parser(grammar).parse(source)
    root = tree.root_node
    if root.has_error and _error_share(root) > 0.2:
        raise Unparsable(f"syntax error at line {_first_error(root)}")
    try:
        interface, body = walk(root, source_lines(text), Clock(deadline), source)
    except RecursionError:
        raise Unparsable("nested too deeply to analyse") from None
    return FileFacts(interface, body)


def _error_share(root: Node) -> float:
    """The share of the file's top-level statements tree-sitter could not read, or of its
    text, whichever is larger: a file with one odd statement is still mapped (tree-sitter
    recovers), a file that is not code is not, nor one whose error swallows much of the rest
    (the declarations after it would be read as anonymous functions, their names lost)."""
    children = root.children or []
    bad = [c for c in children if c.type == "ERROR" or c.is_missing]
    text = sum(c.end_byte - c.start_byte for c in bad) / max(1, root.end_byte - root.start_byte)
    return max(len(bad) / max(1, len(children)), text)


def _first_error(root: Node) -> int:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return int(node.start_point[0]) + 1
        stack.extend(reversed(node.children))
    return 1

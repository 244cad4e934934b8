"""One Python file to ``Facts`` with the standard library's ``ast``: no other file is looked
at, nothing is imported or run. ``facts.py`` says what the records are."""

from __future__ import annotations

import ast
import math

from groundkit.codemap.extract.base import Clock, Unparsable
from groundkit.codemap.extract.python.parse.facts import Facts
from groundkit.codemap.extract.python.parse.statements import walk_body
from groundkit.codemap.extract.python.parse.walker import Walker

__all__ = ["parse_python", "parse_python_tree"]


def parse_python(path: str, text: str, deadline: float = math.inf) -> Facts:
    return parse_python_tree(path, text, deadline)[0]


def parse_python_tree(path: str, text: str, deadline: float = math.inf) -> tuple[Facts, ast.Module]:
    """The facts and the syntax tree they were read from (the data pass reads it too)."""
    try:
        tree = ast.parse(text, filename=path, type_comments=False)
    except SyntaxError as exc:
        if exc.lineno is None:  # Python 3.12+ says a NUL byte so, with no line
            raise Unparsable(f"cannot be parsed ({_plain(exc.msg)})") from None
        raise Unparsable(f"syntax error at line {exc.lineno}") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes; absurd nesting
        raise Unparsable(f"cannot be parsed ({type(exc).__name__})") from None
    walker = Walker(text, _rebound(tree, text), Clock(deadline))
    try:
        walk_body(walker, tree.body)
        walker.pop()
    except RecursionError:
        raise Unparsable("nested too deeply to analyse") from None
    return walker.facts(), tree


def _plain(msg: str) -> str:
    return "it holds a NUL byte" if "null bytes" in msg else msg


def _rebound(tree: ast.Module, text: str) -> frozenset[str]:
    """Names declared ``global`` or ``nonlocal`` anywhere (looked for only when the words
    occur, and only among statements: no expression holds one)."""
    if "global" not in text and "nonlocal" not in text:
        return frozenset()
    names: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
            continue
        for field in _BODIES:
            stack.extend(getattr(node, field, ()))
    return frozenset(names)


# The fields that hold statements (``handlers`` and ``cases`` hold what holds them); a
# lambda's or a conditional expression's ``body`` is an expression, never walked to.
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")

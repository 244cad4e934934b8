"""What the parts of the parser share: the scope tree, the facts being collected, and the
bookkeeping of names, lines and columns.

The parser is one ``ast`` walk, written as a class per kind of syntax (definitions, assignments,
imports, control flow, expressions, binding values), each a mixin over ``ParseState``; the
``Visitor`` (``visitor.py``) puts them together. The methods one part calls on another are
declared here, so that each part type-checks alone.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from groundkit.codemap.lines import source_lines

__all__ = ["LIT", "UNKNOWN", "ParseState", "Scope", "holder_of", "method_of"]

# Binding values every part writes (``bindings.py`` makes the others).
UNKNOWN: list[Any] = [["unknown"], []]
LIT: list[Any] = [["lit"], []]


class Scope:
    """A module, class, function, lambda or comprehension, with the names bound in it."""

    __slots__ = (
        "bindings",
        "cls",
        "first",
        "globals",
        "index",
        "kind",
        "nonlocals",
        "parent",
        "qual",
    )

    def __init__(self, index: int, qual: str, kind: str, parent: Scope | None) -> None:
        self.index = index
        self.qual = qual
        self.kind = kind
        self.parent = parent
        self.bindings: dict[str, list[Any]] = {}
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.cls: str | None = None  # for a method: its class's qualname
        self.first: str | None = None  # for a method: the name of its self/cls parameter


class ParseState:
    """The walk's state: the scope being visited, and every fact collected so far."""

    def __init__(self, text: str) -> None:
        self._site_of: dict[int, int] = {}  # id(ast.Call) -> its call-site index
        self._lambdas: dict[int, str] = {}  # id(ast.Lambda) -> its qualified name
        self._line_now = 0  # the statement being visited
        self.name_lines: dict[str, int] = {}  # module-level name -> its last binding's line
        self.patched: list[list[Any]] = []  # [ref, attribute or None]: classes changed outside
        self._attrs: list[tuple[str, str, list[Any], Scope]] = []
        self.text_lines = source_lines(text)
        self.scopes: list[list[Any]] = []
        self.scope_objs: list[Scope] = []
        self.calls: list[list[Any]] = []
        self.imports: list[list[Any]] = []
        self.lists: dict[str, list[Any]] = {}
        self.lines: dict[str, str] = {}
        self.classes: dict[str, dict[str, Any]] = {}
        self.funcs: dict[str, list[Any]] = {}
        self.stars: list[list[Any]] = []
        self.all: list[str] | None = None
        self.all_dynamic = False
        self.flags: list[str] = []  # type_checking / optional, while inside such a block
        self.returns: dict[int, list[Any]] = {}
        self.scope: Scope = self._push("", "module", None, 1, len(self.text_lines) or 1)
        self.non_ascii = {i + 1 for i, line in enumerate(self.text_lines) if not line.isascii()}

    if TYPE_CHECKING:
        # Implemented by the visitor's parts: visitor.py, expressions.py, definitions.py,
        # bindings.py and assignments.py.
        def _body(self, stmts: list[ast.stmt]) -> None: ...
        def _generic(self, node: ast.AST) -> None: ...
        def _expr(self, node: ast.expr) -> None: ...
        def _call(self, node: ast.Call, how: str = "c", target: int = -1) -> int: ...
        def _attribute(self, node: ast.Attribute, how: str = "a") -> None: ...
        def _lambda(self, node: ast.Lambda) -> None: ...
        def _value(self, expr: ast.expr) -> list[Any]: ...
        def _target(self, target: ast.expr, value: list[Any], source: ast.expr | None) -> None: ...

    def _push(
        self, qual: str, kind: str, parent: Scope | None, line: int, end: int, at: int = 0
    ) -> Scope:
        """``line``..``end``: the definition with its decorators; ``at``: its def/class line."""
        scope = Scope(len(self.scope_objs), qual, kind, parent)
        self.scope_objs.append(scope)
        self.scopes.append([qual, kind, parent.index if parent else -1, line, end, at or line])
        self._line(at or line)
        return scope

    def _bind(self, name: str, value: list[Any]) -> None:
        scope = self.scope
        if name in scope.globals:
            scope = self.scope_objs[0]
        elif name in scope.nonlocals:
            holder = scope.parent
            while holder is not None and holder.kind in ("class", "comp"):
                holder = holder.parent
            if holder is not None and holder.kind != "module":
                holder.bindings.setdefault(name, []).append(UNKNOWN)  # rebound from inside
            return
        scope.bindings.setdefault(name, []).append(value)
        if scope.kind == "module":
            self.name_lines[name] = self._line_now

    def _line(self, line: int) -> None:
        key = str(line)
        if key not in self.lines and 0 < line <= len(self.text_lines):
            self.lines[key] = self.text_lines[line - 1].strip()[:240]

    def _col(self, line: int, col: int) -> int:
        if line in self.non_ascii and 0 < line <= len(self.text_lines):
            return len(self.text_lines[line - 1].encode("utf-8")[:col].decode("utf-8", "replace"))
        return col

    def _where(self, node: ast.AST) -> list[int]:
        line = node.lineno  # type: ignore[attr-defined]
        end = node.end_lineno or line  # type: ignore[attr-defined]
        self._line(line)
        return [
            line,
            self._col(line, node.col_offset),  # type: ignore[attr-defined]
            end,
            self._col(end, node.end_col_offset or 0),  # type: ignore[attr-defined]
        ]


def holder_of(scope: Scope, name: str) -> Scope | None:
    """The scope whose binding ``name`` refers to from ``scope`` (class bodies are skipped from
    inside functions, as Python does)."""
    current: Scope | None = scope
    first = True
    while current is not None:
        if name in current.globals:
            while current.parent is not None:
                current = current.parent
            return current
        if (first or current.kind != "class") and name in current.bindings:
            return current
        first = False
        current = current.parent
    return None


def method_of(scope: Scope) -> Scope | None:
    current: Scope | None = scope
    while current is not None and current.kind in ("lambda", "comp", "function"):
        if current.kind == "function":
            return None
        current = current.parent
    return current if current is not None and current.kind == "method" else None

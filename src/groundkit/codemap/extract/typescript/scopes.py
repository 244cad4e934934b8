"""The state one file's walk builds: scopes, bindings, call and import sites, and the facts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.base import FileFacts
from groundkit.codemap.extract.typescript.summary import UNKNOWN
from groundkit.codemap.extract.typescript.syntax import Columns, text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["Scopes"]

_PATTERN_HOLDERS = frozenset(
    {"object_pattern", "array_pattern", "pair_pattern", "rest_pattern", "assignment_pattern"}
)


class Scopes:
    def __init__(self, lines: list[str]) -> None:
        self.text_lines = lines
        self.columns = Columns(lines)
        self.scopes: list[list[Any]] = []
        self.bindings: list[dict[str, Any]] = []
        self.reassigned: list[tuple[int, str]] = []
        self.exports: dict[str, Any] = {}
        self.stars: list[str] = []
        self.classes: dict[str, dict[str, Any]] = {}
        self.imports: list[list[Any]] = []
        self.calls: list[list[Any]] = []
        self.lines: dict[str, str] = {}
        self.pending_names: dict[int, str] = {}  # node id -> the name an inline handler gets
        self._quals: dict[int, str] = {}  # node id -> qualname of a visited function or class
        self._taken: set[str] = set()
        self.current = self.push("", "module", None, None)

    # -- scopes -----------------------------------------------------------------------------------
    def push(self, qual: str, kind: str, node: Node | None, this: str | None) -> int:
        parent = getattr(self, "current", -1) if self.scopes else -1
        line = int(node.start_point[0]) + 1 if node is not None else 1
        end = int(node.end_point[0]) + 1 if node is not None else max(1, len(self.text_lines))
        self.scopes.append([qual, kind, parent, line, end, line, this])
        self.bindings.append({})
        if node is not None:
            self.note(line)
        self.current = len(self.scopes) - 1
        return self.current

    def pop(self) -> None:
        self.current = self.scopes[self.current][2]

    def named_scope(self, index: int) -> int:
        """The scope whose node owns code in ``index``: anonymous functions are transparent."""
        while self.scopes[index][1] == "anon":
            index = self.scopes[index][2]
        return index

    def qualify(self, name: str, unique: bool = True) -> str:
        owner = self.scopes[self.named_scope(self.current)][0]
        qual = f"{owner}.{name}" if owner else name
        if unique and qual in self._taken:
            n = 2
            while f"{qual}#{n}" in self._taken:
                n += 1
            qual = f"{qual}#{n}"
        self._taken.add(qual)
        return qual

    def this_class(self) -> str | None:
        this: str | None = self.scopes[self.current][6]
        return this

    def remember(self, node: Node, qual: str) -> None:
        self._quals[node.id] = qual

    def qual_of(self, node: Node) -> str | None:
        return self._quals.get(node.id)

    # -- bindings ---------------------------------------------------------------------------------
    def _binding_scope(self) -> int:
        index = self.current
        while self.scopes[index][1] == "class":
            index = self.scopes[index][2]
        return index

    def bind(self, name: str, value: list[Any]) -> None:
        """A name bound in the current function: bound twice to different values, unknown."""
        table = self.bindings[self._binding_scope()]
        if name in table and table[name] != value:
            table[name] = UNKNOWN
        else:
            table[name] = value

    def is_bound(self, name: str) -> bool:
        index = self.current
        while index >= 0:
            if name in self.bindings[index]:
                return True
            index = self.scopes[index][2]
        return False

    def reassign(self, name: str) -> None:
        self.reassigned.append((self._binding_scope(), name))

    def finish(self) -> None:
        """A name assigned after its declaration holds more than one value: unknown."""
        for scope, name in self.reassigned:
            index = scope
            while index >= 0 and name not in self.bindings[index]:
                index = self.scopes[index][2]
            if index >= 0:
                self.bindings[index][name] = UNKNOWN

    def pattern_names(self, node: Node | None) -> list[str]:
        if node is None:
            return []
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            return [text_of(node)]
        if node.type not in _PATTERN_HOLDERS:
            return []
        out: list[str] = []
        for child in node.named_children:
            if node.type == "pair_pattern" and child == node.child_by_field_name("key"):
                continue
            if node.type == "assignment_pattern" and child == node.child_by_field_name("right"):
                continue
            out.extend(self.pattern_names(child))
        return out

    # -- sites ------------------------------------------------------------------------------------
    def note(self, line: int) -> None:
        if 0 < line <= len(self.text_lines):
            self.lines[str(line)] = self.text_lines[line - 1]

    def where(self, node: Node) -> list[int]:
        (row, col), (end_row, end_col) = node.start_point, node.end_point
        self.note(row + 1)
        columns = self.columns
        return [row + 1, columns.col(row, col), end_row + 1, columns.col(end_row, end_col)]

    def add_call(self, callee: list[Any], how: str, node: Node, args: list[Any] | None) -> None:
        self.calls.append([self.current, callee, how, *self.where(node), args])

    def add_import(self, kind: str, spec: str, node: Node, type_only: bool) -> None:
        self.imports.append([kind, spec, self.current, *self.where(node), type_only])

    def visit(self, node: Node) -> None:  # pragma: no cover - the walk is the subclass's
        raise NotImplementedError

    def visit_children(self, node: Node | None) -> None:
        if node is not None:
            for child in node.named_children:
                self.visit(child)

    def facts(self) -> FileFacts:
        interface = {
            "names": self.bindings[0],
            "exports": self.exports,
            "stars": self.stars,
            "classes": self.classes,
        }
        body = {
            "scopes": self.scopes,
            "bind": {str(i): b for i, b in enumerate(self.bindings) if i and b},
            "imports": self.imports,
            "calls": self.calls,
            "lines": self.lines,
        }
        return FileFacts(interface, body)

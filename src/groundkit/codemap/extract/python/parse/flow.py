"""Control flow and scope statements: ``if TYPE_CHECKING``, ``try/except ImportError`` (whose
imports are flagged), ``match``, ``for``, ``with``, ``return``, ``global`` and ``nonlocal``."""

from __future__ import annotations

import ast

from groundkit.codemap.extract.python.parse.state import UNKNOWN, ParseState
from groundkit.codemap.extract.python.syntax import ref_of

__all__ = ["Flow"]

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


class Flow(ParseState):
    """Statements that hold other statements, and those that change where a name lives."""

    def _global(self, node: ast.Global | ast.Nonlocal) -> None:
        if isinstance(node, ast.Global):
            self.scope.globals.update(node.names)
        else:  # its assignments make the enclosing function's binding unknown
            self.scope.nonlocals.update(node.names)

    def _if(self, node: ast.If) -> None:
        self._expr(node.test)
        test = ref_of(node.test)
        if test and test[-1] == "TYPE_CHECKING":
            self._flagged("type_checking", node.body)
            self._body(node.orelse)
            return
        self._body(node.body)
        self._body(node.orelse)

    def _try(self, node: ast.Try | ast.TryStar) -> None:
        catches = False
        for handler in node.handlers:
            types = handler.type
            elements = types.elts if isinstance(types, ast.Tuple) else [types]
            for element in elements:
                ref = ref_of(element) if element is not None else ["BaseException"]
                if ref and ref[-1] in _IMPORT_ERRORS:
                    catches = True
        if catches:
            self._flagged("optional", node.body)
        else:
            self._body(node.body)
        for handler in node.handlers:
            if handler.type is not None:
                self._expr(handler.type)
            if handler.name:
                types = handler.type
                ref = ref_of(types) if types is not None else None
                self._bind(handler.name, [["ann", ref], []] if ref else UNKNOWN)
            if catches:
                self._flagged("optional", handler.body)
            else:
                self._body(handler.body)
        self._body(node.orelse)
        self._body(node.finalbody)

    def _match(self, node: ast.Match) -> None:
        self._expr(node.subject)
        for case in node.cases:
            for sub in ast.walk(case.pattern):
                name = getattr(sub, "name", None) or getattr(sub, "rest", None)
                if isinstance(name, str):
                    self._bind(name, UNKNOWN)
                if isinstance(sub, ast.MatchValue | ast.MatchClass):
                    self._expr(sub.value if isinstance(sub, ast.MatchValue) else sub.cls)
            if case.guard is not None:
                self._expr(case.guard)
            self._body(case.body)

    def _flagged(self, flag: str, body: list[ast.stmt]) -> None:
        self.flags.append(flag)
        try:
            self._body(body)
        finally:
            self.flags.pop()

    def _for(self, node: ast.For | ast.AsyncFor) -> None:
        self._expr(node.iter)
        self._target(node.target, UNKNOWN, None)
        self._body(node.body)
        self._body(node.orelse)

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self._expr(item.context_expr)
            if item.optional_vars is not None:
                value = UNKNOWN
                if isinstance(item.context_expr, ast.Call):
                    # Only an outside client class is taken to return itself from __enter__.
                    inner = self._value(item.context_expr)
                    value = [["with", inner], []]
                self._target(item.optional_vars, value, None)
        self._body(node.body)

    def _return(self, node: ast.Return) -> None:
        if node.value is None:
            return
        self._expr(node.value)
        function = self.scope
        if function.kind in ("function", "method"):
            self.returns.setdefault(function.index, []).append(self._value(node.value))

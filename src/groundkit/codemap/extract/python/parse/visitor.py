"""The parser put together: one walk over a module's statements, each handed to the part that
reads its kind of syntax, then the facts collected along the way."""

from __future__ import annotations

import ast
from typing import Any

from groundkit.codemap.extract.base import FileFacts
from groundkit.codemap.extract.python.parse.assignments import Assignments
from groundkit.codemap.extract.python.parse.bindings import Bindings
from groundkit.codemap.extract.python.parse.definitions import Definitions
from groundkit.codemap.extract.python.parse.expressions import Expressions
from groundkit.codemap.extract.python.parse.flow import Flow
from groundkit.codemap.extract.python.parse.imports import Imports

__all__ = ["Visitor"]


class Visitor(Definitions, Assignments, Imports, Flow, Expressions, Bindings):
    """One file's walk: ``run`` the module's tree once, then take its ``facts``."""

    def facts(self) -> FileFacts:
        module = self.scope_objs[0]
        interface = {
            "names": module.bindings,
            "stars": self.stars,
            "all": None if self.all_dynamic else self.all,
            "classes": self.classes,
            "funcs": self.funcs,
            "lines": self.name_lines,
            "patched": self.patched,
        }
        bind = {
            str(s.index): s.bindings
            for s in self.scope_objs
            if s.kind not in ("module", "class") and s.bindings
        }
        glob = {str(s.index): sorted(s.globals) for s in self.scope_objs if s.globals}
        body = {
            "scopes": self.scopes,
            "bind": bind,
            "global": glob,
            "calls": self.calls,
            "imports": self.imports,
            "lists": self.lists,
            "lines": self.lines,
        }
        return FileFacts(interface, body)

    def run(self, tree: ast.Module) -> None:
        self._body(tree.body)
        for cls, attr, value, scope in self._attrs:
            attrs = self.classes[cls]["attrs"]
            attrs.setdefault(attr, []).append(self._portable(value, scope))
        for scope in self.scope_objs:  # returns are portable only once every binding is known
            rets = self.returns.get(scope.index)
            if rets is not None and scope.qual in self.funcs:
                self.funcs[scope.qual][2] = [self._returned(v, scope) for v in rets]

    def _body(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self._line_now = stmt.lineno
            handler = _STATEMENTS.get(type(stmt))
            if handler is None:
                self._generic(stmt)
            else:
                handler(self, stmt)

    def _generic(self, node: ast.AST) -> None:
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.stmt):
                        self._body([item])
                    elif isinstance(item, ast.expr):
                        self._expr(item)
                    elif isinstance(item, ast.AST):
                        self._generic(item)
            elif isinstance(value, ast.stmt):
                self._body([value])
            elif isinstance(value, ast.expr):
                self._expr(value)
            elif isinstance(value, ast.AST):
                self._generic(value)


_STATEMENTS: dict[type[ast.AST], Any] = {
    ast.FunctionDef: Visitor._function,
    ast.AsyncFunctionDef: Visitor._function,
    ast.ClassDef: Visitor._class,
    ast.Assign: Visitor._assign,
    ast.AnnAssign: Visitor._ann_assign,
    ast.AugAssign: Visitor._aug_assign,
    ast.Import: Visitor._import,
    ast.ImportFrom: Visitor._import_from,
    ast.Global: Visitor._global,
    ast.Nonlocal: Visitor._global,
    ast.If: Visitor._if,
    ast.Try: Visitor._try,
    ast.TryStar: Visitor._try,
    ast.Match: Visitor._match,
    ast.For: Visitor._for,
    ast.AsyncFor: Visitor._for,
    ast.With: Visitor._with,
    ast.AsyncWith: Visitor._with,
    ast.Return: Visitor._return,
}

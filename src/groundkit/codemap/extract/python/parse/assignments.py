"""Assignments: the names, tuple targets, attributes (``self.x``, ``Cls.attr``) they bind, and
at module level ``__all__`` and the lists a Django urlconf is built from."""

from __future__ import annotations

import ast
from typing import Any

from groundkit.codemap.extract.python.parse.state import LIT, UNKNOWN, ParseState
from groundkit.codemap.extract.python.syntax import annotation_ref, ref_of, strings

__all__ = ["Assignments"]


class Assignments(ParseState):
    """``=``, annotated and augmented assignments, and their targets."""

    def _assign(self, node: ast.Assign) -> None:
        self._expr(node.value)
        value = self._value(node.value)
        for target in node.targets:
            self._target(target, value, node.value)
        if self.scope.kind == "module":
            self._module_lists(node.targets, node.value, replace=True)

    def _ann_assign(self, node: ast.AnnAssign) -> None:
        self._expr(node.annotation)
        if node.value is not None:
            self._expr(node.value)
        ann = annotation_ref(node.annotation)
        value = [["ann", ann], []] if ann else self._value(node.value) if node.value else LIT
        if node.value is None and self.scope.kind == "class" and isinstance(node.target, ast.Name):
            # A dataclass-style field: instances have it, the class body does not bind it.
            if ann:
                attrs = self.classes[self.scope.qual]["attrs"]
                attrs.setdefault(node.target.id, []).append(value)
            return
        if node.value is None and isinstance(node.target, ast.Name):
            if ann:  # `x: Foo` declares the type a later assignment will have
                self._bind(node.target.id, value)
            return
        self._target(node.target, value, node.value)

    def _aug_assign(self, node: ast.AugAssign) -> None:
        self._expr(node.value)
        if isinstance(node.target, ast.Name):
            if self.scope.kind == "module":
                self._module_lists([node.target], node.value, replace=False)
            self._bind(node.target.id, UNKNOWN)
        else:
            self._expr(node.target)

    def _module_lists(self, targets: list[ast.expr], value: ast.expr, *, replace: bool) -> None:
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if "__all__" in names:
            listed = strings(value)
            if listed is None:
                self.all_dynamic = True
            else:
                self.all = listed if replace or self.all is None else [*self.all, *listed]
        for name in names:
            parts = self._list_parts(value)
            if parts is None:
                if replace:
                    self.lists.pop(name, None)
            elif replace:
                self.lists[name] = parts
            else:
                if name not in self.lists and name in self.scope.bindings:
                    # `from app.urls import urlpatterns` then `urlpatterns += [...]`
                    self.lists[name] = [["import", [name]]]
                self.lists.setdefault(name, []).extend(parts)

    def _list_parts(self, expr: ast.expr) -> list[Any] | None:
        """A list built from literal lists and other lists: ``a + [path(...)] + b``."""
        if isinstance(expr, ast.List | ast.Tuple):
            sites = [self._site_of.get(id(e)) for e in expr.elts]
            return [["sites", [s for s in sites if s is not None]]]
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            left, right = self._list_parts(expr.left), self._list_parts(expr.right)
            return None if left is None or right is None else [*left, *right]
        ref = ref_of(expr)
        return [["ref", ref]] if ref and "()" not in ref else None

    def _target(self, target: ast.expr, value: list[Any], source: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, value)
        elif isinstance(target, ast.Tuple | ast.List):
            values: list[list[Any]]
            if isinstance(source, ast.Tuple | ast.List) and len(source.elts) == len(target.elts):
                values = [self._value(e) for e in source.elts]
            else:
                values = [UNKNOWN] * len(target.elts)
            for sub, sub_value in zip(target.elts, values, strict=True):
                self._target(sub, sub_value, None)
        elif isinstance(target, ast.Starred):
            self._target(target.value, LIT, None)
        elif isinstance(target, ast.Attribute):
            self._attribute(target, "s")
            self._self_attribute(target, value)
            if isinstance(target.value, ast.Name) and target.value.id[:1].isupper():
                self.patched.append([[target.value.id], target.attr])  # Class.attr = ...
        else:
            self._expr(target)

    def _self_attribute(self, target: ast.Attribute, value: list[Any]) -> None:
        """``self.x = v`` in a method: instances of the class have ``x``."""
        method = self.scope
        while method.kind in ("lambda", "comp") and method.parent is not None:
            method = method.parent
        if (
            method.kind == "method"
            and method.first is not None
            and isinstance(target.value, ast.Name)
            and target.value.id == method.first
            and method.cls in self.classes
        ):
            self._attrs.append((method.cls, target.attr, value, self.scope))

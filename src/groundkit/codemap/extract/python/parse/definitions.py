"""``def``, ``class`` and ``lambda``: the definitions that open a scope, with their parameters
(what ``self``, ``cls`` and annotated arguments are) and their decorators (applied, and what the
name is then bound to)."""

from __future__ import annotations

import ast
from typing import Any

from groundkit.codemap.extract.python.parse.state import LIT, ParseState, Scope
from groundkit.codemap.extract.python.syntax import annotation_ref, ref_of

__all__ = ["Definitions"]

_CLS_FIRST = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})


class Definitions(ParseState):
    """Functions, methods, classes and lambdas."""

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer = self.scope
        qual = f"{outer.qual}.{node.name}" if outer.qual else node.name
        kind = "method" if outer.kind == "class" else "function"
        decorators = [ref_of(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
        names = [r[-1] for r in decorators if r]
        self._defaults(node.args)
        if node.returns is not None:
            self._expr(node.returns)
        line = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        scope = self._push(qual, kind, outer, line, node.end_lineno or node.lineno, node.lineno)
        for deco in node.decorator_list:
            self._decorator(deco, scope.index)
        self._bind(node.name, self._decorated(qual, node.decorator_list))
        earlier = self.funcs.get(qual)  # a property's setter keeps the getter's decorators
        self.funcs[qual] = [kind, [*(earlier[1] if earlier else []), *names], []]
        self.scope = scope
        if kind == "method":
            scope.cls = outer.qual
        self._params(node.args, scope, names, node.name)
        self._body(node.body)
        self.scope = outer

    def _defaults(self, args: ast.arguments) -> None:
        for default in [*args.defaults, *args.kw_defaults]:
            if default is not None:
                self._expr(default)
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None and arg.annotation is not None:
                self._expr(arg.annotation)

    def _params(self, args: ast.arguments, scope: Scope, decorators: list[str], name: str) -> None:
        positional = [*args.posonlyargs, *args.args]
        first = 0
        if scope.kind == "method" and positional and "staticmethod" not in decorators:
            is_cls = "classmethod" in decorators or name in _CLS_FIRST
            tag = "cls" if is_cls else "self"
            scope.first = positional[0].arg
            scope.bindings[positional[0].arg] = [[[tag, scope.cls], []]]
            first = 1
        for index, arg in enumerate([*positional[first:], *args.kwonlyargs]):
            ann = annotation_ref(arg.annotation)
            value = [["ann", ann], []] if ann else [["arg", index], []]
            scope.bindings.setdefault(arg.arg, []).append(value)
        for star in (args.vararg, args.kwarg):
            if star is not None:
                scope.bindings.setdefault(star.arg, []).append(LIT)

    def _class(self, node: ast.ClassDef) -> None:
        outer = self.scope
        qual = f"{outer.qual}.{node.name}" if outer.qual else node.name
        bases = []
        for base in node.bases:
            self._expr(base)
            target = base.value if isinstance(base, ast.Subscript) else base
            ref = ref_of(target)
            if ref and "()" not in ref:
                bases.append(ref)
        for keyword in node.keywords:
            self._expr(keyword.value)
        line = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        scope = self._push(qual, "class", outer, line, node.end_lineno or node.lineno, node.lineno)
        for deco in node.decorator_list:
            self._decorator(deco, scope.index)
        self._bind(node.name, self._decorated(qual, node.decorator_list))
        info: dict[str, Any] = {"bases": bases, "names": scope.bindings, "attrs": {}}
        self.classes[qual] = info
        self.scope = scope
        self._body(node.body)
        self.scope = outer

    def _decorated(self, qual: str, decorators: list[ast.expr]) -> list[Any]:
        """What a ``def``/``class`` binds its name to: the definition, passed through its
        decorators (evaluated later: a decorator may return the function, a wrapper, or
        anything)."""
        # `@x.setter` adds to the property x: the name stays that property (one node).
        kept = [
            d
            for d in decorators
            if not ((r := ref_of(d)) and len(r) == 2 and r[1] in ("setter", "getter", "deleter"))
        ]
        if not kept:
            return [["def", qual], []]
        return [["decorated", qual, [self._value(d) for d in kept]], []]

    def _decorator(self, deco: ast.expr, target: int) -> None:
        if isinstance(deco, ast.Call):
            self._call(deco, how="d", target=target)
            return
        self._expr(deco)
        ref = ref_of(deco)
        where = self._where(deco)
        self.calls.append(
            [self.scope.index, ref, *where, "d", target, None, None if ref else "dyn"]
        )

    def _lambda(self, node: ast.Lambda) -> None:
        """A lambda is a function of its own, ``<enclosing>.<lambda>`` (one name for all the
        lambdas of a scope: they share a node)."""
        self._defaults(node.args)
        outer = self.scope
        while outer.kind == "comp" and outer.parent is not None:  # comprehensions are not scopes
            outer = outer.parent
        qual = f"{outer.qual}.<lambda>" if outer.qual else "<lambda>"
        line, end = node.lineno, node.end_lineno or node.lineno
        scope = self._push(qual, "lambda", self.scope, line, end, line)
        self._lambdas[id(node)] = qual
        self.funcs.setdefault(qual, ["function", [], []])
        for index, arg in enumerate(
            [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        ):
            scope.bindings[arg.arg] = [[["arg", index], []]]
        for star in (node.args.vararg, node.args.kwarg):
            if star is not None:
                scope.bindings[star.arg] = [LIT]
        saved, self.scope = self.scope, scope
        self._expr(node.body)
        self.returns.setdefault(scope.index, []).append(self._value(node.body))
        self.scope = saved

"""What an expression binds a name to, as a fact: ``[base, rest of the reference]``, with a
third item, the call site (or -1), when the base is a name or ``super()``. The base is
``["name", n]``, ``["def", qualname]``, ``["str", text]``, ``["tmpl", pieces]``,
``["super", class]``, ``["lit"]``, ``["none"]`` or ``["unknown"]`` (and, written elsewhere,
``["arg", i]``, ``["ann", ref]``, ``["self"|"cls", class]``, ``["mod", ...]``, ``["from", ...]``,
``["decorated", ...]``, ``["with", value]``). Values that leave their function (returns,
instance attributes) are made portable: meaningful at module level."""

from __future__ import annotations

import ast
from typing import Any

from groundkit.codemap.extract.python.parse.state import (
    LIT,
    UNKNOWN,
    ParseState,
    Scope,
    holder_of,
    method_of,
)
from groundkit.codemap.extract.python.syntax import LITERALS, pieces, ref_of

__all__ = ["Bindings"]

_NONE: list[Any] = [["none"], []]


class Bindings(ParseState):
    """Expressions read as the values names are bound to."""

    def _value(self, expr: ast.expr) -> list[Any]:
        """What an expression binds a name to: [base, rest-of-ref, call site]."""
        if isinstance(expr, ast.Constant):
            if expr.value is None:
                return _NONE
            return [["str", expr.value], []] if isinstance(expr.value, str) else LIT
        if isinstance(expr, ast.Await):
            return self._value(expr.value) if isinstance(expr.value, ast.Call) else UNKNOWN
        if isinstance(expr, ast.JoinedStr | ast.BinOp):
            parts = pieces(expr)
            if parts is not None:
                return [["tmpl", parts], []]
            return LIT if isinstance(expr, ast.JoinedStr) else UNKNOWN
        if isinstance(expr, LITERALS):
            return LIT
        if isinstance(expr, ast.Lambda):
            qual = self._lambdas.get(id(expr))
            return [["def", qual], []] if qual else UNKNOWN
        ref = ref_of(expr)
        if ref is None:
            return UNKNOWN
        site = self._site_of.get(id(expr), -1) if isinstance(expr, ast.Call) else -1
        scope = self.scope
        if ref[0] == "super" and len(ref) > 1 and ref[1] == "()":
            method = method_of(scope)
            if method is not None:
                return [["super", method.cls], ref[2:], site]
            return UNKNOWN
        return [["name", ref[0]], ref[1:], site]

    def _returned(self, value: list[Any], scope: Scope) -> list[Any]:
        """A return value made portable; returning one's own parameter unchanged stays
        ``["arg", i]`` (what makes a decorator the identity)."""
        base = value[0]
        if base[0] == "name" and not value[1] and base[1] not in scope.globals:
            bound: list[list[Any]] = scope.bindings.get(base[1], [])
            if len(bound) == 1 and bound[0][0][0] == "arg":
                return bound[0]
        return self._portable(value, scope)

    def _portable(self, value: list[Any], scope: Scope, depth: int = 0) -> list[Any]:
        """A value made to mean the same when evaluated at module level: a function-local name
        is replaced by what it is bound to (when every binding agrees); else unknown."""
        base = value[0]
        if base[0] != "name":
            return value
        name = base[1]
        holder = holder_of(scope, name)
        if holder is None or holder.kind in ("module", "class"):
            return value
        if depth > 3:
            return UNKNOWN
        bound = [v for v in holder.bindings.get(name, []) if v[0][0] != "none"]
        if not bound or any(b != bound[0] for b in bound):
            return UNKNOWN
        inner = self._portable(bound[0], holder, depth + 1)
        if inner[0][0] in ("unknown", "arg"):
            return UNKNOWN
        site = value[2] if len(value) > 2 and value[1] else inner[2] if len(inner) > 2 else -1
        return [inner[0], [*inner[1], *value[1]], site]

"""Pass sites and member writes, closed over the file's local bindings, for the interface.

A call ``apply(double)`` inside a function may name ``double`` through that function's own
bindings (``const double = ...``, a parameter, ``this``). Other files read pass sites without
this file's body (only the interface is theirs to consult, and its digest decides when they are
resolved again), so each local name is replaced here by what it is bound to: another
reference, a function of the file (``Fn``), a parameter of a named function (``ParamOf``), a
member of something with no name (``Get``), ``this`` of a class (``This``), or ``Unknown``.
Names bound at module level stay references: the module's ``names`` say what they hold.
"""

from __future__ import annotations

from groundkit.codemap.extract.typescript.parse import facts as f
from groundkit.codemap.extract.typescript.parse.facts import ScopeKind

__all__ = ["Closer", "may_hold_code"]

_PLAIN = (f.Str, f.Template, f.Lit, f.AnonFn, f.ArrayLit)
_AS_IS = (
    f.Fn,
    f.AnonFn,
    f.Lit,
    f.Str,
    f.Template,
    f.Unknown,
    f.Spread,
    f.Import,
    f.Namespace,
    f.Require,
    f.DynImport,
    f.ArrayLit,
)
_DEPTH = 8
_UNKNOWN = f.Unknown()


def may_hold_code(expr: f.Expr) -> bool:
    """Whether an argument may be a function of the repository (or hold one, or be unknown):
    strings, numbers, arrays and anonymous functions never give a parameter a named target."""
    return not isinstance(expr, _PLAIN)


class Closer:
    def __init__(self, scopes: list[f.Scope], bindings: list[dict[str, f.Expr]]) -> None:
        self.scopes = scopes
        self.bindings = bindings

    def close(self, expr: f.Expr, scope: int, depth: int = 0) -> f.Expr:
        if depth > _DEPTH:
            return _UNKNOWN
        if isinstance(expr, _AS_IS):
            return expr
        if isinstance(expr, f.Ref):
            return self._ref(expr.parts, scope, depth)
        if isinstance(expr, f.ObjectLit):
            fields = {k: self.close(v, scope, depth + 1) for k, v in expr.fields.items()}
            return f.ObjectLit(fields, expr.name)
        if isinstance(expr, f.Call | f.New):
            # What a call gives is not followed; its callee is kept when it is no local name
            # (``new Store()``: an instance, ``axios.create()``: a client).
            if expr.ref is None or self._local(expr.ref[0], scope) is not None:
                return _UNKNOWN
            return expr
        return _UNKNOWN  # a parameter record, or a closed form already

    def _ref(self, parts: list[str], scope: int, depth: int) -> f.Expr:
        head, rest = parts[0], parts[1:]
        if head == "this":
            cls = self.scopes[scope].this
            return _get(f.This(cls), rest) if cls else _UNKNOWN
        if head == "super":
            return _UNKNOWN
        found = self._local(head, scope)
        if found is None:
            return f.Ref(parts)  # a module-level name, or a global
        value, where = found
        if isinstance(value, f.Ref):
            return self._ref([*value.parts, *rest], where, depth + 1)
        if isinstance(value, f.Param):
            owner = self.scopes[where]
            if owner.kind not in (ScopeKind.FUNCTION, ScopeKind.METHOD) or not owner.qual:
                return _UNKNOWN  # an anonymous function's: no call site names it
            return _get(f.ParamOf(owner.qual, value.position, value.path), rest)
        return _get(self.close(value, where, depth + 1), rest)

    def _local(self, name: str, scope: int) -> tuple[f.Expr, int] | None:
        """What ``name`` is bound to in a function around ``scope`` (not the module)."""
        index = scope
        while index > 0:
            table = self.bindings[index]
            if name in table:
                return table[name], index
            index = self.scopes[index].parent
        return None


def _get(base: f.Expr, attrs: list[str]) -> f.Expr:
    if not attrs or isinstance(base, f.Unknown):
        return base
    return f.Get(base, attrs)

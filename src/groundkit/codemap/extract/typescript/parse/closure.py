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

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.facts import ScopeKind

__all__ = ["Closer", "any_may_hold_code", "may_hold_code"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

# Sets of exact types (no fact record subclasses another): one hash, not a dozen isinstance
# checks, for each of the tens of thousands of expressions a large package closes.
_PLAIN = frozenset((facts.Str, facts.Template, facts.Lit, facts.AnonFn, facts.ArrayLit))
_AS_IS = frozenset(
    (
        facts.Fn,
        facts.AnonFn,
        facts.Lit,
        facts.Str,
        facts.Template,
        facts.Unknown,
        facts.Spread,
        facts.Import,
        facts.Namespace,
        facts.Require,
        facts.DynImport,
        facts.This,  # already closed
    )
)
_DEPTH = 8
_UNKNOWN = facts.Unknown()


def may_hold_code(expr: facts.Expr) -> bool:
    """Whether an argument may be a function of the repository (or hold one, or be unknown):
    strings, numbers, arrays and anonymous functions never give a parameter a named target."""
    if type(expr) is facts.ArrayLit and expr.name:
        return True  # a named array: what is stored into it is found by its name
    if type(expr) is facts.ArrayLit and any(type(i) is facts.Spread for i in expr.items):
        return True  # [...xs]: xs's elements
    if type(expr) is facts.ArrayLit:  # [one]: its items (a parameter ``[head]`` reads one)
        return any(may_hold_code(i) for i in expr.items)
    return type(expr) not in _PLAIN


def any_may_hold_code(exprs: list[facts.Expr]) -> bool:
    """Whether some of ``exprs`` may hold code (``may_hold_code``): a call's arguments, the
    plain ones (most: strings, literals) told apart without a call each."""
    for expr in exprs:
        kind = type(expr)
        if kind not in _PLAIN or (kind is facts.ArrayLit and may_hold_code(expr)):
            return True
    return False


def may_return_code(expr: facts.Expr) -> bool:
    """Whether a return may give a function of the repository: as ``may_hold_code`` (an array
    literal bound to no name with such an item, ``return [comp]``, the array of its items:
    ``values/functions.py``)."""
    return may_hold_code(expr)


class Closer:
    def __init__(self, scopes: list[facts.Scope], bindings: list[dict[str, facts.Expr]]) -> None:
        self.scopes = scopes
        self.bindings = bindings

    def close(self, expr: facts.Expr, scope: int, depth: int = 0) -> facts.Expr:
        if depth > _DEPTH:
            return _UNKNOWN
        if type(expr) is facts.Spread and expr.of is not None:
            return facts.Spread(self.close(expr.of, scope, depth + 1))
        if type(expr) in _AS_IS:
            return expr
        if type(expr) is facts.Ref:
            return self._ref(expr.parts, scope, depth)
        if type(expr) is facts.ArrayLit:
            items = [self.close(i, scope, depth + 1) for i in expr.items]
            return facts.ArrayLit(items, expr.name, expr.kind)
        if type(expr) is facts.ObjectLit:
            fields = {k: self.close(v, scope, depth + 1) for k, v in expr.fields.items()}
            return facts.ObjectLit(fields, expr.name)
        if type(expr) is facts.Call or type(expr) is facts.New:
            # What a call gives is not followed; its callee is kept when it is no local name
            # (``new Store()``: an instance, ``axios.create()``: a client).
            if expr.ref is None:
                return _UNKNOWN
            local = self._local(expr.ref[0], scope) is not None
            if local or expr.ref[0] == "this":  # route.get(), this.parse(): what it returns
                made = "new" if type(expr) is facts.New else "()"
                return self._ref([*expr.ref, made], scope, depth + 1)
            args = [self.close(a, scope, depth + 1) for a in expr.args]
            return type(expr)(expr.ref, args)
        if type(expr) is facts.Get:
            return _get(self.close(expr.base, scope, depth + 1), expr.attrs)
        if type(expr) is facts.Choice:  # `p = p || new C()`: each closed
            return facts.Choice([self.close(o, scope, depth + 1) for o in expr.options])
        if type(expr) is facts.Created:
            return facts.Created(self.close(expr.proto, scope, depth + 1), expr.owner)
        if type(expr) is facts.Defined:
            return facts.Defined(self.close(expr.on, scope, depth + 1), expr.name)
        if type(expr) is facts.ArrayCall:
            args = [self.close(a, scope, depth + 1) for a in expr.args]
            base, call = (
                self.close(expr.base, scope, depth + 1),
                self.close(expr.call, scope, depth),
            )
            return facts.ArrayCall(base, expr.method, args, call)
        return _UNKNOWN  # a parameter record, or a closed form already

    def _ref(self, parts: list[str], scope: int, depth: int) -> facts.Expr:
        head, rest = parts[0], parts[1:]
        if head == "this":
            cls = self.scopes[scope].this
            if cls:
                return _get(facts.This(cls), rest)
            found = self._local("this", scope)  # a member's function: its holder
            if found is None or not isinstance(found[0], facts.Ref):
                return _UNKNOWN
            held, where = found[0], found[1]
            closed = self._ref([*held.parts, *rest], self.scopes[where].parent, depth + 1)
            if type(closed) is facts.Ref and closed.parts[: len(held.parts)] == held.parts:
                # a module-level holder, marked: ``this`` may be a function its members are
                # copied onto (``values/evaluate.py``), which the holder's name is not
                return facts.Ref([facts.THIS_OF + closed.parts[0], *closed.parts[1:]])
            return closed
        if head == "super":
            return _UNKNOWN
        found = self._local(head, scope)
        if found is None:
            return facts.Ref(parts)  # a module-level name, or a global
        value, where = found
        if type(value) is facts.Ref:
            return self._ref([*value.parts, *rest], where, depth + 1)
        if type(value) is facts.Param:
            owner = self.scopes[where]
            if owner.kind not in (ScopeKind.FUNCTION, ScopeKind.METHOD) or not owner.qual:
                return _UNKNOWN  # an anonymous function's: no call site names it
            return _get(facts.ParamOf(owner.qual, value.position, value.path), rest)
        return _get(self.close(value, where, depth + 1), rest)

    def _local(self, name: str, scope: int) -> tuple[facts.Expr, int] | None:
        """What ``name`` is bound to in a function around ``scope`` (not the module)."""
        index = scope
        while index > 0:
            table = self.bindings[index]
            if name in table:
                return table[name], index
            index = self.scopes[index].parent
        return None


def _get(base: facts.Expr, attrs: list[str]) -> facts.Expr:
    if not attrs or type(base) is facts.Unknown:
        return base
    return facts.Get(base, attrs)

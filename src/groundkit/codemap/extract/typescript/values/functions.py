"""Functions as values: what calling one gives (what it returns), and functions used as classes
before ``class`` (``new F()`` is an instance whose methods are the functions assigned to
``F.prototype.m``; an object or function ``F`` returns replaces that instance)."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import (
    Choice,
    Def,
    Inst,
    Scope,
    Unknown,
    Value,
)

__all__ = ["Functions"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

Once = Callable[[Hashable, Callable[[], Value], Value], Value]


class Functions:
    def __init__(
        self,
        interface: Callable[[str], facts.Module],
        value: Callable[[facts.Expr, Scope], Value],
        listed: Callable[[facts.ArrayLit, Scope], Value],
        once: Once,
    ) -> None:
        self._interface = interface
        self._value = value
        self._listed = listed  # an array literal bound to no name: the array of its items
        self._once = once  # ``Memo.once``: what a function returns is worked out once

    def prototype(self, func: Def, name: str) -> Value:
        """``name`` on an instance of function ``func``: the function assigned to
        ``func.prototype.name``; else, when some are assigned under a computed key, one of
        those (chosen at run time)."""
        members = self._interface(func.path).protos.get(func.qual, {})
        qual = members.get(name)
        if qual is not None:
            return Def(func.path, qual, "function") if qual else Unknown()
        computed = [Def(func.path, q, "function") for k, q in members.items() if k[:2] == "[]"]
        if computed and all(d.qual for d in computed):
            return Choice(tuple(computed))
        return Unknown()

    def returned(self, func: Def) -> Value:
        """What calling ``func`` gives: what it returns (not what a parameter it returns was
        given: that depends on the call)."""
        value = self._returns(func)
        if type(value) is Choice and Inst(func) in value.options:
            # F() that returns new F() when not called with new: what new F() gives
            return Inst(func)
        return value

    def yielded(self, func: Def) -> Value:
        """What iterating the object generator ``func`` makes gives: what it yields (worked out
        once, as what it returns is: babel's generators, each iterated at many places, were
        worked out again at each, 2.9 million times in one map)."""
        return self._once(("yields", func), lambda: self._yields(func), Unknown())

    def _yields(self, func: Def) -> Value:
        found = self._interface(func.path).yields.get(func.qual)
        return self._value(found, (func.path, -1)) if found is not None else Unknown()

    def _returns(self, func: Def) -> Value:
        return self._once(("returns", func), lambda: self._worked_out(func), Unknown())

    def _worked_out(self, func: Def) -> Value:
        found = self._interface(func.path).returns.get(func.qual)
        if found is not None and _of_a_parameter(found):
            found = _not_given(found)  # `p = p || new C()`: what else it may be, beside p's
        if found is None or type(found) is facts.Unknown:
            return Unknown()
        scope = (func.path, -1)
        if not _lists(found):
            return self._value(found, scope)
        # ``return [comp]`` (semver's parseRange): an array whose elements are read back
        options = found.options if type(found) is facts.Choice else [found]
        given = tuple(dict.fromkeys(self._option(o, scope) for o in options))
        return given[0] if len(given) == 1 else Choice(given)

    def _option(self, expr: facts.Expr, scope: Scope) -> Value:
        if type(expr) is facts.ArrayLit and not expr.name:
            return self._listed(expr, scope)
        return self._value(expr, scope)

    def made(self, func: Def) -> Def | None:
        """The function ``new func()`` gives when ``func`` returns one (an object returned by a
        constructor replaces the instance); ``return new F()`` beside it (the ``if (!(this
        instanceof F))`` idiom) gives the same."""
        found = self._returns(func)
        options = found.options if type(found) is Choice else (found,)
        made = {o for o in options if o != Inst(func)}
        if len(made) != 1:
            return None
        (only,) = made
        return only if type(only) is Def and only.kind != "class" else None

    def given_back(self, func: Def, args: list[facts.Expr]) -> facts.Expr | None:
        """The argument a call hands ``func`` when ``func`` returns that parameter."""
        given = self._interface(func.path).returns.get(func.qual)
        if (
            type(given) is facts.ParamOf
            and given.qual == func.qual
            and not given.path
            and given.position < len(args)
            and not any(type(a) is facts.Spread for a in args[: given.position])
        ):
            return args[given.position]
        return None


def _lists(expr: facts.Expr) -> bool:
    """Whether a return (or one of several) is an array literal bound to no name."""
    if type(expr) is facts.Choice:
        return any(_lists(o) for o in expr.options)
    return type(expr) is facts.ArrayLit and not expr.name


def _not_given(expr: facts.Expr) -> facts.Expr:
    """``expr`` with what its function's parameters are given not known."""
    if type(expr) is facts.Choice:
        return facts.Choice([_not_given(o) for o in expr.options])
    if type(expr) is facts.Get:
        base = _not_given(expr.base)
        return base if type(base) is facts.Unknown else facts.Get(base, expr.attrs)
    return facts.Unknown() if type(expr) is facts.ParamOf else expr


def _of_a_parameter(expr: facts.Expr) -> bool:
    if type(expr) is facts.Choice:
        return any(_of_a_parameter(o) for o in expr.options)
    return type(expr) is facts.ParamOf or (type(expr) is facts.Get and _of_a_parameter(expr.base))

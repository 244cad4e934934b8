"""The array a method makes (``xs.map(f)``, ``xs.filter(g)``, ``xs.concat(ys)``,
``Array.from(xs, f)``): a ``Made`` value, whose elements ``arrays.py`` reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import (
    Arr,
    Choice,
    Ext,
    Feed,
    Global,
    Lit,
    Made,
    Mod,
    Scope,
    Unknown,
    Value,
)

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.values.evaluate import Evaluator

__all__ = ["array_item", "array_made", "listed", "map_entry", "spread", "spread_literal"]

_REST = (facts.REST, facts.ITEM)
ITERATORS = frozenset({"values", "keys", "entries"})


def array_made(ev: Evaluator, expr: facts.ArrayCall, scope: Scope) -> Made | None:
    """``xs.map(f)``, ``xs.filter(g)``, ``xs.concat(ys)``, ``Array.from(xs, f)``: the array
    made from ``xs`` (``arrays.py`` reads its elements); None when ``xs`` may be no array
    (an instance whose class has a ``map``, a package's value: what the call gives)."""
    base = _array_of(ev, expr.base, scope)
    if isinstance(base, Mod):
        base = ev.export(base.path, "=")  # module.exports = [...]
    known = isinstance(base, Arr) or (isinstance(base, Made) and base.known)
    vague = not known and isinstance(base, Made | Unknown | Feed | Lit | Global | Choice)
    if _is_rest(base) or not (known or vague):
        return None  # ``arguments`` and its copies: ``_copied``
    if expr.method in ITERATORS:
        return _iterated(expr.method, base) if isinstance(base, Arr) else None
    if expr.method in ("map", "flatMap") or (expr.method == "from" and expr.args):
        if not expr.args or isinstance(expr.args[0], facts.Spread):
            return None
        kind = "flatMap" if expr.method == "flatMap" else "map"
        return Made(kind, (ev.value(expr.args[0], scope),), known)
    kind = "flat" if expr.method == "flat" else "copy"
    if not known:  # a copy of what a map on a value not known made: as vague
        return Made(kind, (base,), known=False) if isinstance(base, Made) else None
    if expr.method != "concat":
        return Made(kind, (base,))
    added = (_concatenated(a, _array_of(ev, a, scope)) for a in expr.args)
    return Made(kind, (base, *added))


def _iterated(method: str, base: Arr) -> Made:
    """``xs.values()``, a Map's or a Set's: an array of its values; ``entries()``: of its
    ``[key, value]`` entries (``map_entry``); a Map's keys are not followed (a Set's are its
    values)."""
    if method == "values" or (method == "keys" and base.kind == "Set"):
        return Made("copy", (base,))
    if method == "entries":
        return Made("items", (map_entry(base),))
    return Made("items", (Unknown(),))


def map_entry(base: Arr) -> Made:
    """One ``[key, value]`` entry of a Map (a Set's: ``[value, value]``), as iterating it or
    its ``entries()`` gives: an element of it is the key, not followed, or one of the values."""
    return Made("copy", (base,) if base.kind == "Set" else (Unknown(), base))


def listed(ev: Evaluator, expr: facts.ArrayLit, scope: Scope) -> Made:
    """An array literal bound to no name (``[a, b].map(f)``, ``return [comp]``): the array of
    its items (a spread: the spread array's elements)."""
    made = spread_literal(ev, expr, scope)
    if made is not None:
        return made
    return Made("items", tuple(array_item(i, ev.value(i, scope)) for i in expr.items))


def _array_of(ev: Evaluator, expr: facts.Expr, scope: Scope) -> Value:
    """What ``expr`` holds; an array literal bound to no name is the array of its items."""
    if isinstance(expr, facts.ArrayLit) and not expr.name:
        return listed(ev, expr, scope)
    if _array_shaped(expr):
        return Made("items", (Unknown(),))  # its elements: not ours, or not known
    return ev.value(expr, scope)


def spread_literal(ev: Evaluator, expr: facts.ArrayLit, scope: Scope) -> Made | None:
    """``[a, ...xs, b]``: a copy of each item and of each spread array's elements; None for a
    literal that spreads nothing."""
    if not any(isinstance(i, facts.Spread) for i in expr.items):
        return None
    parts: list[Value] = []
    for item in expr.items:
        if isinstance(item, facts.Spread):
            parts.append(spread(ev, item, scope))
        else:
            value = array_item(item, ev.value(item, scope))
            parts.append(Made("items", (value,)) if isinstance(value, Arr | Made) else value)
    return Made("copy", tuple(parts))


def spread(ev: Evaluator, item: facts.Spread, scope: Scope) -> Arr | Made:
    """What ``...xs`` gives an array: ``xs``'s elements when it is an array of ours, an unknown
    element otherwise (an iterable not known, arguments given by a call)."""
    value = _array_of(ev, item.of, scope) if item.of is not None else Unknown()
    return value if isinstance(value, Arr | Made) else Made("items", (Unknown(),))


def _array_shaped(expr: facts.Expr) -> bool:
    """A call whose result is an array of values not ours: ``s.split(",")``, ``Object.keys``
    (a local's ``split`` closed to a member read: ``Get(param, ["split", "()"])``)."""
    if isinstance(expr, facts.Call):
        ref = expr.ref or []
        named = ref in (["Object", "keys"], ["Object", "entries"], ["Object", "values"])
        return named or (len(ref) > 1 and ref[-1] == "split")
    attrs = expr.attrs if isinstance(expr, facts.Get) else []
    return attrs[-2:] == ["split", "()"]


def array_item(item: facts.Expr, value: Value) -> Value:
    """What writing or storing ``item`` in an array puts there: a value of the runtime or a
    package, or a call's result, is not known (it may be a function of ours)."""
    if isinstance(value, Global | Ext):
        return Unknown()
    if isinstance(value, Lit) and not isinstance(item, facts.Lit | facts.ArrayLit | facts.Str):
        return Unknown()
    return value


def _concatenated(arg: facts.Expr, value: Value) -> Value:
    """What ``concat`` adds for ``arg``: an array (its elements) or the value itself; one
    that may be either (a choice, an unknown) adds an unknown element."""
    if isinstance(value, Arr | Made):
        return value
    if isinstance(value, Choice | Unknown | Feed):
        return Made("items", (Unknown(),))
    return Made("items", (array_item(arg, value),))


def _is_rest(value: Value) -> bool:
    """``arguments`` (or an array of its values): ``Evaluator._copied`` reads its copies."""
    return isinstance(value, Feed) and len(value.path) == 1 and value.path[0] in _REST

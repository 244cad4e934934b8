"""The index of pass sites the value flow reads (``flow.py``), read once per run.

Every pass site of the repository's files and of the package files read for the flow
(``dependencies.py``) is evaluated once: where its callee is a function of the repository (or
a parameter), it is a call of it (``calls``), or maybe of each option of a choice (``maybe``);
each function, parameter or array it hands over is found where it is handed (``passed``);
tables handed as arguments are noted (``tables``); sites whose callee was unknown while the
index was read are asked again once it is (``ask_again``). ``arguments`` reads what a site
gives a parameter, each argument evaluated once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeGuard

from groundkit.codemap.extract.typescript.library import ELEMENT_CALLBACKS, ELEMENT_STORES
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.expressions import literal_element
from groundkit.codemap.extract.typescript.parse.facts import How
from groundkit.codemap.extract.typescript.values.made import listed
from groundkit.codemap.extract.typescript.values.objects import (
    Arr,
    Choice,
    Def,
    Ext,
    Feed,
    Global,
    Inst,
    Lit,
    Made,
    Mod,
    Obj,
    Unknown,
    Value,
)

# Members read per call site (an enum member costs a class lookup each read)
_CALL = How.CALL
_NEW = How.NEW
_JSX = How.JSX

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.values.evaluate import Evaluator

__all__ = [
    "DEPTH",
    "Index",
    "Site",
    "Target",
    "arguments",
    "array_method",
    "as_given",
    "ask_again",
    "build_index",
    "callable_of",
    "given_value",
    "handed_tables",
    "settled_then",
]

# A value's kind is tested as ``type(v) is C``: no value or fact class is subclassed, and on a
# miss the identity test costs a third of an isinstance call, asked a million times a large map.

# Nested parameters the flow follows (``flow.py``); as many positions ``f.apply(o, arguments)``
# is read to hand on.
DEPTH = 8
_ITEMS = 64  # array-literal items read per argument (nested ones included)
# Arguments that may hand over a function, a parameter or a table (a call's result may too,
# but it is unknown: never followed).
_MAY_BE_OURS = frozenset(
    {
        facts.Ref,
        facts.Get,
        facts.Fn,
        facts.ParamOf,
        facts.ObjectLit,
        facts.Import,
        facts.Namespace,
    }
)
Target = Def | Feed | Arr  # what a value is passed into or called through (or stored in)
_OUTSIDE = frozenset({Global, Ext})  # a runtime's or a package's value
_WRITTEN_LITERALS = frozenset({facts.Lit, facts.ArrayLit})


@dataclass(slots=True)
class Site:
    path: str
    record: facts.Pass
    callee: Value
    args: dict[int, Value] = field(default_factory=dict)  # what each argument gives, once asked
    spread: int = -1  # the position of the first ``...xs``: it and those after are unknown


@dataclass(slots=True)
class Index:
    calls: dict[Target, list[Site]] = field(default_factory=lambda: defaultdict(list))
    # Sites whose callee is one of several functions (``c ? f : g``, ``F.prototype[k]``): each
    # may be the one called; read by ``known()`` alone.
    maybe: dict[Target, list[Site]] = field(default_factory=lambda: defaultdict(list))
    tables: set[tuple[str, str]] = field(default_factory=set)  # tables handed as arguments
    # A function or parameter -> where it is handed on: (site, position, member of the argument)
    passed: dict[Target, list[tuple[Site, int, tuple[str, ...]]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    # Sites whose callee was unknown while the index was read (asked again after)
    unknown: list[Site] = field(default_factory=list)
    # A function with defaults -> how many arguments each call that hands no code gives it
    arities: dict[Def, list[int]] = field(default_factory=lambda: defaultdict(list))


def build_index(ev: Evaluator, solved: list[str], sources: list[str]) -> Index:
    index = Index()
    # A pass site is closed over its function's bindings and read at (path, -1), so a name
    # written at many sites of a file (``it``, ``request``, ``res.send``: four in five of
    # express's) holds one value there: worked out once per build.
    named: dict[tuple[str, tuple[str, ...]], tuple[Value, bool]] = {}

    def value_of(expr: facts.Expr, path: str) -> tuple[Value, bool]:
        """What ``expr`` holds, and whether the answer was cut by the index being read."""
        key = (path, tuple(expr.parts)) if type(expr) is facts.Ref else None
        found = named.get(key) if key is not None else None
        if found is None:
            cuts = ev.memo.cut_count
            found = (ev.value(expr, (path, -1)), ev.memo.cut_count != cuts)
            if key is not None:
                named[key] = found
        return found

    for path in solved:
        for written in ev.interface(path).passes:
            record = _through_call(ev, path, written)
            callee, cut = value_of(record.callee, path)
            site = Site(path, record, callee)
            if type(callee) is Unknown and cut:
                index.unknown.append(site)  # it may be known once the index is read
            else:
                _file(ev, index, site)
            _handed(ev, index, site, lambda arg, at: value_of(arg, at)[0])
    _arities(ev, index, sources)
    return index


def _handed(
    ev: Evaluator, index: Index, site: Site, value_of: Callable[[facts.Expr, str], Value]
) -> None:
    """What each argument of a site hands on: the functions and parameters given there, and
    the tables."""
    for position, arg in enumerate(site.record.args):
        if type(arg) is facts.Spread and site.spread < 0:
            site.spread = position
        if type(arg) not in _MAY_BE_OURS:
            continue  # a call's result, unknown: gives nothing that can be passed on
        value = site.args[position] = as_given(arg, value_of(arg, site.path))
        at = position if site.spread < 0 else -1  # behind a spread: anywhere
        for held, member in _held(ev, value):
            index.passed[held].append((site, at, member))
        index.tables.update(handed_tables(ev, value))


def _arities(ev: Evaluator, index: Index, sources: list[str]) -> None:
    """The argument counts of calls, to the functions that have defaults (by name first:
    only a call whose last name is such a function's is evaluated)."""
    names = {qual.rpartition(".")[2] for path in sources for qual in ev.interface(path).defaults}
    if not names:
        return
    for path in sources:
        for arity in ev.interface(path).arities:
            callee = arity.callee
            last = callee.parts[-1] if type(callee) is facts.Ref else None
            if type(callee) is facts.Get:
                last = callee.attrs[-1]
            if last not in names:
                continue
            called = callable_of(ev, ev.value(callee, (path, -1)), _CALL)
            if type(called) is Def:
                index.arities[called].append(arity.count)


def ask_again(ev: Evaluator, index: Index) -> None:
    """Sites whose callee was unknown while the index was read, asked again now that it
    is (a member a getter ``defineProperty`` made, one copied by ``mixin``: their writes
    are counted through the index): each found is a call of what it may be."""
    saved, ev.deps = ev.deps, set()
    try:
        for unknown in index.unknown:
            site = unknown
            record = _through_call(ev, site.path, site.record)
            if record is not site.record:
                # route[method].apply(route, args), route a call's result: now known, the
                # site hands route[method] the arguments
                site = Site(site.path, record, Unknown())
                _handed(ev, index, site, lambda arg, at: ev.value(arg, (at, -1)))
            site.callee = ev.value(site.record.callee, (site.path, -1))
            _file(ev, index, site)
    finally:
        ev.deps = saved
    index.unknown.clear()


def _file(ev: Evaluator, index: Index, site: Site) -> None:
    """Where a site is found by its callee: a call of it, or maybe of each option."""
    called = callable_of(ev, site.callee, site.record.how)
    if type(called) is Def or type(called) is Feed:
        index.calls[called].append(site)
    elif type(site.callee) is Choice:
        for option in site.callee.options:
            maybe = callable_of(ev, option, site.record.how)
            if type(maybe) is Def or type(maybe) is Feed:
                index.maybe[maybe].append(site)


def arguments(ev: Evaluator, site: Site, position: int) -> list[Value]:
    """What a site gives parameter ``position`` (a ``Param``'s): the argument there, or
    for the arguments from k on each of those and the items of array literals among them."""
    args = site.record.args
    if position >= 0:
        return [_argument(ev, site, position)] if position < len(args) else []
    # (an array literal there: its items, below; itself a literal, as written)
    out = [
        Lit() if _items_listed(args[p]) else _argument(ev, site, p)
        for p in range(-1 - position, len(args))
    ]
    items = [a for a in args[-1 - position :] if type(a) is facts.ArrayLit]
    while items and len(out) < _ITEMS:
        for item in items.pop().items:
            if type(item) is facts.ArrayLit:
                items.append(item)
            elif type(item) is facts.Spread:
                out.append(Unknown())
            else:
                out.append(as_given(item, ev.value(item, (site.path, -1))))
    return out if not items else [Unknown()]


def _argument(ev: Evaluator, site: Site, position: int) -> Value:
    found = site.args.get(position)
    if found is None:
        found = site.args[position] = given_value(ev, site.record.args[position], site.path)
    return found


def given_value(ev: Evaluator, arg: facts.Expr, path: str) -> Value:
    """What an argument (or a default) written in ``path`` gives a parameter: ``as_given``,
    and an array literal the array of its items (``f([one])``: ``[head]`` holds one)."""
    if _items_listed(arg):
        return listed(ev, arg, (path, -1))
    return as_given(arg, ev.value(arg, (path, -1)))


def _items_listed(arg: facts.Expr) -> TypeGuard[facts.ArrayLit]:
    """An array literal bound to no name that spreads nothing: given as the array of its
    items (one that spreads is a copy, as ``value`` gives it)."""
    if type(arg) is not facts.ArrayLit or arg.name or arg.kind:
        return False
    return not any(type(i) is facts.Spread for i in arg.items)


def _through_call(ev: Evaluator, path: str, record: facts.Pass) -> facts.Pass:
    """``f.call(o, a, b)`` hands ``a, b`` to ``f`` (``o`` is its ``this``); ``f.apply(o,
    arguments)`` hands ``f`` each argument at its own position (``slice.call(arguments, k)``
    from k on, which positions is not known: all of them, behind a spread). ``f`` may be a
    member of a call's result (``this.route(path).get.apply(...)``) and be one of several
    values (a member made from a list of names: maybe that function), each then maybe handed
    them. Not ``f`` read by a computed key (``route[method].apply(route, args)``): every
    member may be read so, and each would be handed the arguments (a route's
    ``dispatch(req, res, done)`` given the handlers as ``done``)."""
    callee = record.callee
    inner: facts.Expr
    if type(callee) is facts.Ref and len(callee.parts) > 1:
        inner, last = facts.Ref(callee.parts[:-1]), callee.parts[-1]
    elif type(callee) is facts.Get and callee.attrs and _COMPUTED not in callee.attrs:
        attrs = callee.attrs[:-1]
        inner, last = (facts.Get(callee.base, attrs) if attrs else callee.base), callee.attrs[-1]
    else:
        return record
    if last not in ("call", "apply"):
        return record
    value = ev.value(inner, (path, -1))
    if not any(_runs(v) for v in (value.options if type(value) is Choice else (value,))):
        return record
    if last == "call":
        return facts.Pass(inner, record.how, record.args[1:])
    given = ev.value(record.args[1], (path, -1)) if len(record.args) > 1 else Unknown()
    if type(given) is Feed and given.path == (facts.REST,) and given.position == 0:
        owner = given.func.qual
        return facts.Pass(inner, record.how, [facts.ParamOf(owner, p) for p in range(DEPTH)])
    if type(given) is Feed and given.path == (facts.ITEM,):  # a copy: any one of them
        item = facts.ParamOf(given.func.qual, given.position, [facts.ITEM])
        return facts.Pass(inner, record.how, [item] * DEPTH)
    return facts.Pass(inner, record.how, [facts.Spread()])


_COMPUTED = "[]"  # a member of a ``Get`` read by a computed key (``route[method]``)


def _runs(value: Value) -> bool:
    return type(value) is Feed or (type(value) is Def and value.kind != "class")


def callable_of(ev: Evaluator, value: Value, how: int) -> Def | Feed | None:
    """What calling ``value`` runs: a function or method, a class's constructor (``new``), or
    a parameter's values; None for anything else."""
    if type(value) is Feed:
        return value
    if type(value) is Mod:  # const Layer = require("./layer"); new Layer(): its export
        value = ev.export(value.path, "=")
    if type(value) is Inst and value.cls.kind == "function" and how == _CALL:
        return ev.functions.made(value.cls)  # new F() gave a function: calling it runs that
    if type(value) is not Def:
        return None
    if value.kind != "class":  # new F(): F runs with the arguments
        return value if how != _NEW or value.kind == "function" else None
    return ev.classes.constructor(value) if how in (_NEW, _JSX) else None


def array_method(ev: Evaluator, callee: facts.Expr, path: str) -> bool:
    """Whether ``callee`` is a method that stores or calls back the elements of an array of
    the repository (``stack.push``, ``stack.forEach``)."""
    # (asked of every site a function is handed at, under each stack: the method's name is
    # tested before the receiver's expression is made, which most sites never need)
    receiver: facts.Expr
    if type(callee) is facts.Ref and len(callee.parts) > 1:
        name = callee.parts[-1]
        if name not in ELEMENT_STORES and name not in ELEMENT_CALLBACKS:
            return False
        receiver = facts.Ref(callee.parts[:-1])
    elif type(callee) is facts.Get and callee.attrs:
        name = callee.attrs[-1]
        if name not in ELEMENT_STORES and name not in ELEMENT_CALLBACKS:
            return False
        receiver = facts.Get(callee.base, callee.attrs[:-1]) if callee.attrs[1:] else callee.base
    else:
        return False
    if literal_element(receiver) is not None:  # [a, b].forEach(f): f is handed an item
        return True
    held = ev.value(receiver, (path, -1))
    if type(held) is Mod:  # module.exports = [...]
        held = ev.export(held.path, "=")
    return type(held) is Arr or (type(held) is Made and held.known)


def settled_then(ev: Evaluator, callee: facts.Expr, path: str) -> bool:
    """Whether ``callee`` is ``load().then``, ``load`` an ``async`` function of the repository:
    the runtime's promise, whose first callback is given what ``load`` returns (a pass site of
    its own, ``parse/calls.py``) and whose second an error (not known)."""
    if type(callee) is not facts.Ref or len(callee.parts) < 3:
        return False
    if callee.parts[-1] != "then" or callee.parts[-2] != "()":
        return False
    called = ev.value(facts.Ref(callee.parts[:-2]), (path, -1))
    return type(called) is Def and called.qual in ev.interface(called.path).asyncs


def as_given(arg: facts.Expr, value: Value) -> Value:
    """What an argument gives a parameter. A value of the runtime's or a package's (``Map.get``
    may return one of ours, ``window.handler`` be one) and a literal's member or a call's result
    (``[a, b].find(...)``) are not known: only a literal as written is known not to be ours."""
    if type(value) in _OUTSIDE:
        return Unknown()
    if type(value) is Lit and type(arg) not in _WRITTEN_LITERALS:
        return Unknown()
    return value


def handed_tables(ev: Evaluator, value: Value) -> Iterator[tuple[str, str]]:
    """The named tables an argument hands over: itself, or an options object's members."""
    if type(value) is Obj:
        if value.name:
            yield value.path, value.name
        for key, member in value.fields.items():
            if isinstance(member, facts.Ref | facts.ObjectLit):
                inner = ev.attribute(value, key)
                if type(inner) is Obj and inner.name:
                    yield inner.path, inner.name


def _held(ev: Evaluator, value: Value | None) -> Iterator[tuple[Target, tuple[str, ...]]]:
    """The functions and parameters an argument hands over: itself, or an options object's
    members (one level)."""
    if type(value) is Def or type(value) is Feed or type(value) is Arr:
        yield value, ()
    elif type(value) is Choice:  # (options.compose || compose)(xs): whichever it is, handed
        for option in value.options:
            if type(option) is Def or type(option) is Feed:
                yield option, ()
    elif type(value) is Obj:
        for key in value.fields:
            member = ev.attribute(value, key)
            if type(member) is Def or type(member) is Feed:
                yield member, (key,)

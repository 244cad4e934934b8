"""What an array's elements hold: the items of its literal and every value stored into it.

An array is known by the name it is bound to (``Arr``: a module-level or local name, or a
field's ``this.stack = []``). Every file's interface lists its element stores (``push``,
``unshift``, ``splice``'s items, ``xs[i] = v``), closed over local bindings; each run reads them
once. A store is matched to an array by evaluating its target: through aliases
(``const stack = this.stack``), fields and parameters (a parameter holds what its callers give:
``flow.py``).

An array a method makes (``Made``: ``xs.map(f)``, ``xs.filter(g)``, ``xs.concat(ys)``) holds
what ``f`` returns, or its sources' elements (``_made``), and what is stored into it.

An element is read by index, by ``for...of`` and by a runtime method's callback (``forEach``,
``map``...). It holds one value when every store is known and gives that value (an edge through
it is certain), a ``Choice`` otherwise: several values, or an unknown one among them (a value of
the runtime or of a package, a store whose target is not known to be this array but names the
same member, ``other.stack.push(x)``), whose edges are ``partial``. An array none of whose
elements is known is ``Unknown``.

A literal's spread item (``[a, ...xs]``) gives ``xs``'s elements (``made.spread``); a Map's
``set(k, v)`` and a Set's ``add(v)`` are stores of ``v`` into it (``Arr.kind``), read through
``values()``; a Map's own iteration gives entries, not followed.

Not followed (elements missed, never guessed): arrays handed to a package's function that adds
to them, elements stored by ``Object.assign`` or
``Array.prototype.push.apply``; an array handed to the repository's own function and filled
there through a parameter no caller is known for.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TypeGuard

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.made import array_item, spread
from groundkit.codemap.extract.typescript.values.objects import (
    Arr,
    Choice,
    Def,
    Ext,
    Feed,
    Global,
    Lit,
    Made,
    Unknown,
    Value,
)

__all__ = ["Arrays"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

_ELEMENTS = 32  # values per array; past it, the elements are unknown


@dataclass(slots=True)
class _Index:
    # an array -> the stores into it: (the storing file, what is stored)
    stores: dict[Arr | Made, list[tuple[str, facts.Expr]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    # stores through a parameter, matched when the value flow can answer
    through: list[tuple[str, Feed, list[facts.Expr]]] = field(default_factory=list)
    opened: set[str] = field(default_factory=set)  # member names stored into, target unknown


class Arrays:
    def __init__(self, ev: Evaluator, flow: Flow, sources: list[str]) -> None:
        self.ev = ev
        self.flow = flow
        self.sources = sources
        self._index: _Index | None = None
        self._building = False
        ev.elements = self.elements
        flow.stored_in = self.stored_in
        self._holding: dict[Def | Feed, list[Arr]] | None = None

    def elements(self, array: Arr | Made) -> Value:
        """What an element of ``array`` may hold (a ``Choice`` when it may be several)."""
        if self._building:
            self.ev.memo.cut()  # (the stores being read: not the answer)
            return Unknown()
        return self.ev.memo.once(("elements", array), lambda: self._worked_out(array), Unknown())

    def _worked_out(self, array: Arr | Made) -> Value:
        self.flow.consulted = True
        return self._elements(array) if isinstance(array, Arr) else self._made(array)

    def _elements(self, array: Arr) -> Value:
        index = self.index()
        found: list[Value] = []
        items, scope = self.ev.literals.get(array, ([], (array.path, -1)))
        for item in items:
            if type(item) is facts.Spread:  # [...xs]: xs's elements
                found.append(self.elements(spread(self.ev, item, scope)))
            else:
                found.append(array_item(item, self.ev.value(item, scope)))
        for path, item in index.stores.get(array, []):
            found.append(array_item(item, self.ev.value(item, (path, -1))))
        for path, feed, stored in index.through:
            if not self.flow.settled:
                self.ev.memo.cut()  # (the index being read, or known() asking)
            held = self.flow.feeds(feed) if self.flow.settled else None
            if held is not None and array not in held:
                continue
            if held is None and array.name.rpartition(":")[2] != _last(feed):
                continue  # a parameter not known to be this array, of another name
            found.extend(array_item(i, self.ev.value(i, (path, -1))) for i in stored)
            if held is None:
                found.append(Unknown())
        if array.name.rpartition(":")[2] in index.opened and ":" in array.name:
            found.append(Unknown())  # a field of that name stored into on an unknown object
        return _one_of(found)

    def _made(self, made: Made) -> Value:
        """The elements of an array a method made: what ``map``'s function returns (a function
        not known, or a receiver that may be no array: an unknown one among them), each
        source's elements for a copy, and what is stored into it."""
        found: list[Value] = []
        if made.kind in ("map", "flatMap"):
            func = made.sources[0]
            back = self.ev.functions.returned(func) if _callable(func) else Unknown()
            flat = made.kind == "flatMap"  # an array returned gives its elements
            found.extend(self._flat(back) if flat else map(_known, _options(back)))
            if not made.known:
                found.append(Unknown())
        elif made.kind == "items":
            found.extend(made.sources)
        else:
            for source in made.sources:
                held = self.elements(source) if isinstance(source, Arr | Made) else source
                found.extend(self._flat(held) if made.kind == "flat" else (held,))
            if not made.known:
                found.append(Unknown())
        for path, item in self.index().stores.get(made, []):
            found.append(array_item(item, self.ev.value(item, (path, -1))))
        return _one_of(found)

    def _flat(self, value: Value) -> list[Value]:
        """Each of ``value``'s options, an array's elements in its place."""
        out: list[Value] = []
        for option in _options(value):
            out.append(self.elements(option) if isinstance(option, Arr | Made) else _known(option))
        return out

    def index(self) -> _Index:
        if self._index is None:
            saved, self.ev.deps = self.ev.deps, set()
            self._building = True
            try:
                with self.ev.memo.index(
                    sum(len(self.ev.interface(p).stores) for p in self.flow.solved())
                ):
                    self._index = self._build()
            finally:
                self.ev.deps = saved
                self._building = False
        return self._index

    def stored_in(self, value: Def | Feed) -> list[Arr]:
        """The named arrays ``value`` is stored into (``this.middleware.push(fn)``): where an
        array goes, a call of its elements may call it (``flow.py``)."""
        if self._holding is None:
            holding: dict[Def | Feed, list[Arr]] = defaultdict(list)
            for array, stored in self.index().stores.items():
                if type(array) is not Arr:
                    continue
                for path, item in stored:
                    held = self.ev.value(item, (path, -1))
                    if (type(held) is Def or type(held) is Feed) and array not in holding[held]:
                        holding[held].append(array)
            self._holding = holding
        return self._holding.get(value, [])

    def _build(self) -> _Index:
        index = _Index()
        for path in self.flow.solved():  # a package's stores too (``dependencies.py``)
            for store in self.ev.interface(path).stores:
                target = self.ev.value(store.target, (path, -1))
                if isinstance(target, Arr | Made):
                    index.stores[target].extend((path, item) for item in store.items)
                elif type(target) is Feed:
                    index.through.append((path, target, store.items))
                elif not isinstance(target, Lit | Global | Ext):
                    name = _name(store.target)
                    if name is not None:
                        index.opened.add(name)
        return index


def _one_of(found: list[Value]) -> Value:
    """The one value ``found`` all are, a ``Choice`` among several (choices flattened), or
    ``Unknown`` when none is known."""
    flat: list[Value] = []
    for value in found:
        flat.extend(_options(value))
    options = tuple(dict.fromkeys(flat))
    if not options or len(options) > _ELEMENTS or all(type(o) is Unknown for o in options):
        return Unknown()
    return options[0] if len(options) == 1 else Choice(options)


def _options(value: Value) -> tuple[Value, ...]:
    return value.options if type(value) is Choice else (value,)


def _callable(value: Value) -> TypeGuard[Def]:
    return type(value) is Def and value.kind != "class"


def _known(value: Value) -> Value:
    """What a function's return gives an array: a value of the runtime or a package, or a
    literal's (maybe a call's result), is not known."""
    return Unknown() if isinstance(value, Global | Ext | Lit) else value


def _name(target: facts.Expr) -> str | None:
    """The member a store's target names last (``stack`` of ``router.stack``)."""
    if type(target) is facts.Ref and len(target.parts) > 1:
        return target.parts[-1]
    if type(target) is facts.Get and target.attrs:
        return target.attrs[-1]
    return None


def _last(feed: Feed) -> str:
    return feed.path[-1] if feed.path else ""

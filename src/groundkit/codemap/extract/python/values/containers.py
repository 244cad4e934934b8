"""Containers: what a literal key, index or slice of one holds, what a loop over it gives, what
unpacking takes from it, and what its methods (``append``, ``update``, ``get``, ``items``...)
put in or take out. A read under a run-time key may give any value of the container: a choice.

Iterating anything else follows the protocol: a generator gives what it yields; an instance of
a class of the repository runs ``__iter__``, then ``__next__`` on what that returns (or, with no
``__iter__`` anywhere along its MRO, built-in bases included, ``__getitem__``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.engine import each
from groundkit.codemap.extract.python.values.keys import NOWHERE, Args, FuncKey, SiteKey
from groundkit.codemap.extract.python.values.state import Flow

if TYPE_CHECKING:
    from groundkit.codemap.extract.python.values.calls import Calls

__all__ = ["Containers"]

_INSTANCES = (objects.INST, objects.CONE)


class Containers:
    def __init__(self, flow: Flow, calls: Calls) -> None:
        self.flow = flow
        self.calls = calls  # the rules that call (they hold this one)
        self._elements: dict[int, int] = {}
        self._gathered: dict[int, int] = {}  # a variable -> its containers gathered in one

    def elements(self, var: int) -> int:
        """A variable holding every element of every iterable ``var`` holds."""
        found = self._elements.get(var)
        if found is not None:
            return found
        found = self._elements[var] = self.flow.temp()
        self.flow.engine.on(var, each(lambda v: self.iterate(v, found, None, var)))
        return found

    def iterate(self, value: int, dst: int, site: SiteKey | None, operand: int) -> None:
        """``dst`` holds the elements a loop over ``value`` gives."""
        flow = self.flow
        engine = flow.engine
        key = flow.values.keys[value]
        kind = key[0]
        if kind in (objects.CONT, objects.SYN):
            if kind == objects.CONT and key[3] == objects.DICT:
                engine.add(dst, [objects.LIT_ID])  # a dict gives its keys
            else:
                engine.flow(flow.every(value), dst)
                if value in flow.summaries:
                    flow.computed_reads.add(dst)
        elif kind == objects.ARGS:
            engine.flow(flow.every(value), dst)
        elif kind == objects.VIEW:
            self._view(key[1], key[2], dst)
        elif kind == objects.GEN:
            engine.flow(flow.yields(FuncKey((key[1], key[2]))), dst)
        elif kind in _INSTANCES:
            at = NOWHERE if site is None else site
            is_async = at[0] >= 0 and flow.site(at).name == "__aiter__"
            iterator = flow.temp()
            if self.calls.protocol(
                at, value, "__aiter__" if is_async else "__iter__", [], iterator, operand
            ):
                engine.on(iterator, each(lambda v: self._next(v, dst, at, iterator, is_async)))
            else:
                self._by_index(at, value, dst, operand)
        elif kind in (objects.UNKNOWN, objects.EXT, objects.EXTINST, objects.BOUND):
            engine.add(dst, [objects.UNKNOWN_ID])
        else:
            engine.add(dst, [objects.LIT_ID])

    def _by_index(self, at: SiteKey, value: int, dst: int, operand: int) -> None:
        """A loop over an instance whose classes define no ``__iter__``: the old sequence
        protocol (``__getitem__`` from 0) runs, unless a base from outside has ``__iter__``: a
        ``list`` subclass iterates with ``list.__iter__``, never its own ``__getitem__``; a
        base the map cannot read may (``Certainty`` draws that ``__getitem__`` partial)."""
        flow = self.flow
        outside = {flow.program.outside_binds(c, "__iter__") for c in flow.classes_of(value)}
        ran = outside != {True} and self.calls.protocol(
            at, value, "__getitem__", [flow.lit], dst, operand
        )
        if not ran or outside != {False}:
            flow.engine.add(dst, [objects.UNKNOWN_ID])  # (what an outside ``__iter__`` gives)

    def _next(self, value: int, dst: int, site: SiteKey, operand: int, is_async: bool) -> None:
        if self.flow.values.keys[value][0] in _INSTANCES:
            method = "__anext__" if is_async else "__next__"
            self.calls.protocol(site, value, method, [], dst, operand)
        else:
            self.iterate(value, dst, site, operand)

    def _view(self, container: int, which: str, dst: int) -> None:
        flow = self.flow
        if which == "values":
            flow.engine.flow(flow.every(container), dst)
        elif which == "items":
            pair = flow.value(objects.SYN, "item", container)
            flow.engine.add(flow.slot(pair, 0), [objects.LIT_ID])
            flow.engine.flow(flow.every(container), flow.slot(pair, 1))
            flow.engine.add(dst, [pair])
        else:
            flow.engine.add(dst, [objects.LIT_ID])

    def subscript(
        self,
        value: int,
        key: str | int | None,
        dst: int,
        bounds: tuple[int | None, int | None] | None,
        site: SiteKey | None,
        protocol: str,
        operand: int,
    ) -> None:
        """``obj[key]`` (``bounds``: a slice ``obj[a:b]``)."""
        flow = self.flow
        engine = flow.engine
        kind = flow.values.keys[value][0]
        if kind in objects.CONTAINERS:
            if bounds is not None:
                engine.add(dst, [self._slice(value, bounds[0], bounds[1], dst)])
                return
            if isinstance(key, int) and key < 0:
                size = self._size(value)
                key = None if size is None else size + key
            if key is None or value in flow.summaries:
                engine.flow(flow.every(value), dst)
                flow.computed_reads.add(dst)
            else:
                engine.flow(self._read(value, key), dst)
        elif kind in _INSTANCES:
            if site is not None:
                self.calls.protocol(site, value, protocol, [flow.lit], dst, operand)
        elif kind in (objects.CLASS, objects.CCONE, objects.EXT):
            engine.add(dst, [value])  # Cls[int], typing.Optional[X]: still that
        elif kind in (objects.EXTINST, objects.BOUND):
            engine.add(dst, [flow.value(objects.EXTINST, "?", None)])
        elif kind == objects.UNKNOWN:
            engine.add(dst, [objects.UNKNOWN_ID])
        else:
            engine.add(dst, [objects.LIT_ID])

    def store(
        self, value: int, key: str | int | None, src: int, site: SiteKey | None, operand: int
    ) -> None:
        flow = self.flow
        kind = flow.values.keys[value][0]
        if value in flow.summaries:
            return  # a container of which nothing is known: what it holds is not followed
        if kind in objects.CONTAINERS:
            target = flow.loose(value) if key is None else flow.slot(value, key)
            flow.engine.flow(src, target)
        elif kind in _INSTANCES:
            if site is not None:
                self.calls.protocol(
                    site, value, "__setitem__", [flow.lit, src], flow.temp(), operand
                )
        elif kind in (objects.EXT, objects.EXTINST, objects.BOUND, objects.UNKNOWN):
            self.calls.escape(src)

    def _read(self, container: int, key: str | int) -> int:
        """A literal key's slot, or what was stored under keys not known: one of them."""
        cell = self.flow.cell(("read", container, key))
        if cell not in self.flow.alt:
            self.flow.alt.add(cell)
            self.flow.engine.flow(self.flow.slot(container, key), cell)
            self.flow.engine.flow(self.flow.loose(container), cell)
        return cell

    def _slice(self, container: int, start: int | None, stop: int | None, at: int) -> int:
        flow = self.flow
        made = flow.value(objects.SYN, "slice", at, container)
        size = self._size(container)
        if size is None:
            flow.engine.flow(flow.every(container), flow.loose(made))
            return made
        for new, old in enumerate(range(size)[start:stop]):
            flow.engine.flow(self._read(container, old), flow.slot(made, new))
        flow.engine.flow(flow.loose(container), flow.loose(made))
        return made

    def unpack(
        self,
        value: int,
        index: int,
        rest: bool,
        after: int,
        dst: int,
        site: SiteKey | None,
        operand: int,
    ) -> None:
        flow = self.flow
        engine = flow.engine
        key = flow.values.keys[value]
        kind = key[0]
        if kind in objects.CONTAINERS and not (kind == objects.CONT and key[3] == objects.DICT):
            if rest:
                size = self._size(value)
                stop = None if size is None else size - after
                engine.add(dst, [self._slice(value, index, stop, dst)])
                return
            if index < 0:
                size = self._size(value)
                if size is None:
                    engine.flow(flow.every(value), dst)
                    return
                index += size
            engine.flow(self._read(value, index), dst)
        elif rest:
            made = flow.value(objects.SYN, "rest", dst)
            self.iterate(value, flow.loose(made), site, operand)
            engine.add(dst, [made])
        elif kind in _INSTANCES and site is not None:
            self._unpack_instance(value, index, dst, site, operand)
        else:
            self.iterate(value, dst, site, operand)

    def _unpack_instance(
        self, value: int, index: int, dst: int, site: SiteKey, operand: int
    ) -> None:
        """``a, b = obj``: ``obj.__iter__()``; when that gives a container (``iter((x, y))``,
        a tuple), each target takes its own item of it, not any of them."""
        flow = self.flow
        iterator = flow.temp()
        if not self.calls.protocol(site, value, "__iter__", [], iterator, operand):
            self.iterate(value, dst, site, operand)
            return

        def run(new: Sequence[int]) -> None:
            for item in new:
                kind = flow.values.keys[item][0]
                if kind in objects.CONTAINERS:
                    self.unpack(item, index, False, 0, dst, site, iterator)
                elif kind in _INSTANCES:
                    self.calls.protocol(site, item, "__next__", [], dst, iterator)
                else:
                    self.iterate(item, dst, site, iterator)

        flow.engine.on(iterator, run)

    def _size(self, container: int) -> int | None:
        slots = self.flow.slots.get(container, {})
        numbers = [k for k in slots if isinstance(k, int)]
        return max(numbers) + 1 if numbers else None

    def method(
        self,
        site: SiteKey,
        container: int,
        name: str,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
        operand: int,
    ) -> None:
        """``xs.append(f)``, ``d.update(...)``, ``d.get("k")``, ``d.items()``..."""
        flow = self.flow
        engine = flow.engine
        plain = [a for a in args if isinstance(a, int)]
        if name in ("append", "add", "insert"):
            if plain:
                engine.flow(plain[-1], flow.loose(container))
            engine.add(dst, [objects.LIT_ID])
        elif name in ("extend", "update"):
            for source in plain:
                self._merge(source, container)
            for key, var in keywords:
                if key:
                    engine.flow(var, flow.slot(container, key))
            engine.add(dst, [objects.LIT_ID])
        elif name in ("get", "pop", "setdefault"):
            if not plain:
                engine.flow(flow.every(container), dst)
                return
            if name == "setdefault" and len(plain) > 1:
                self._keyed(plain[0], container, plain[1])
            self._read_keyed(plain[0], container, dst)
            if len(plain) > 1:
                engine.flow(plain[1], dst)
            elif name == "get":  # a missing key gives None
                engine.flow(flow.none, dst)
        elif name in ("values", "items", "keys"):
            engine.add(dst, [flow.value(objects.VIEW, container, name)])
        elif name == "copy":
            engine.add(dst, [container])
        elif name == "sort":
            sorter = next((v for k, v in keywords if k == "key"), None)
            if sorter is not None:
                element = flow.every(container)
                engine.on(
                    sorter,
                    each(
                        lambda v: self.calls.call(
                            site, v, [element], [], flow.temp(), "callback", sorter
                        )
                    ),
                )
            engine.add(dst, [objects.LIT_ID])
        else:
            engine.add(dst, [objects.LIT_ID])

    def _merge(self, source: int, container: int) -> None:
        """Everything ``source``'s containers hold, under the same keys: gathered once per
        source variable, then merged into each container updated with it."""
        flow = self.flow
        merged = self._gathered.get(source)
        if merged is None:
            merged = self._gathered[source] = flow.value(objects.SYN, "merged", source)

            def run(new: Sequence[int]) -> None:
                for value in new:
                    if flow.values.keys[value][0] in objects.CONTAINERS:
                        flow.on_slots(value, lambda k, s: flow.engine.flow(s, flow.slot(merged, k)))
                        flow.engine.flow(flow.loose(value), flow.loose(merged))
                    else:
                        self.iterate(value, flow.loose(merged), None, source)

            flow.engine.on(source, run)
        once = ("merge", merged, container)
        if once not in flow.once:
            flow.once.add(once)
            flow.on_slots(merged, lambda k, s: flow.engine.flow(s, flow.slot(container, k)))
            flow.engine.flow(flow.loose(merged), flow.loose(container))

    def _keyed(self, key_var: int, container: int, src: int) -> None:
        flow = self.flow

        def run(new: Sequence[int]) -> None:
            for value in new:
                key = flow.values.keys[value]
                target = (
                    flow.slot(container, key[1]) if key[0] == objects.STR else flow.loose(container)
                )
                flow.engine.flow(src, target)

        flow.engine.on(key_var, run)

    def _read_keyed(self, key_var: int, container: int, dst: int) -> None:
        flow = self.flow

        def run(new: Sequence[int]) -> None:
            for value in new:
                key = flow.values.keys[value]
                if key[0] == objects.STR:
                    flow.engine.flow(self._read(container, key[1]), dst)
                else:
                    flow.engine.flow(flow.every(container), dst)
                    flow.computed_reads.add(dst)

        flow.engine.on(key_var, run)

"""Containers: what a literal key, index or slice of one holds, what a loop over it gives, what
unpacking takes from it, and what its methods (``append``, ``update``, ``get``, ``items``...)
put in or take out. A read under a run-time key may give any value of the container: a choice.

Iterating anything else follows the protocol: a generator gives what it yields; an instance of
a class of the repository runs ``__iter__``, then ``__next__`` on what that returns.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.values import objects as o
from groundkit.codemap.extract.python.values.state import Args, Flow, Rules, SiteKey

__all__ = ["Containers"]

_INSTANCES = (o.INST, o.CONE)


class Containers:
    def __init__(self, flow: Flow, rules: Rules) -> None:
        self.flow = flow
        self.rules = rules
        self._elements: dict[int, int] = {}

    def elements(self, var: int) -> int:
        """A variable holding every element of every iterable ``var`` holds."""
        found = self._elements.get(var)
        if found is not None:
            return found
        found = self._elements[var] = self.flow.temp()
        self.flow.engine.on(var, lambda new: [self.iterate(v, found, None, var) for v in new])
        return found

    def iterate(self, value: int, dst: int, site: SiteKey | None, operand: int) -> None:
        flow = self.flow
        engine = flow.engine
        key = flow.values.keys[value]
        kind = key[0]
        if kind in (o.CONT, o.SYN):
            if kind == o.CONT and key[3] == o.DICT:
                engine.add(dst, [o.LIT_ID])  # a dict gives its keys
            else:
                engine.flow(flow.every(value), dst)
        elif kind == o.ARGS:
            engine.flow(flow.every(value), dst)
        elif kind == o.VIEW:
            self._view(key[1], key[2], dst)
        elif kind == o.GEN:
            engine.flow(flow.yields((key[1], key[2])), dst)
        elif kind in _INSTANCES:
            if site is None:
                site = (-1, -1)
            iterator = flow.temp()
            if self.rules.protocol(site, value, "__iter__", [], iterator, operand):
                engine.on(iterator, lambda new: [self._next(v, dst, site, iterator) for v in new])
            else:
                engine.add(dst, [o.UNKNOWN_ID])
        elif kind in (o.UNKNOWN, o.EXT, o.EXTINST, o.BOUND):
            engine.add(dst, [o.UNKNOWN_ID])
        else:
            engine.add(dst, [o.LIT_ID])

    def _next(self, value: int, dst: int, site: SiteKey, operand: int) -> None:
        if self.flow.values.keys[value][0] in _INSTANCES:
            self.rules.protocol(site, value, "__next__", [], dst, operand)
        else:
            self.iterate(value, dst, site, operand)

    def _view(self, container: int, which: str, dst: int) -> None:
        flow = self.flow
        if which == "values":
            flow.engine.flow(flow.every(container), dst)
        elif which == "items":
            pair = flow.value(o.SYN, "item", container)
            flow.engine.add(flow.slot(pair, 0), [o.LIT_ID])
            flow.engine.flow(flow.every(container), flow.slot(pair, 1))
            flow.engine.add(dst, [pair])
        else:
            flow.engine.add(dst, [o.LIT_ID])

    def subscript(
        self,
        value: int,
        key: str | int | None,
        dst: int,
        sliced: bool,
        site: SiteKey | None,
        protocol: str,
        operand: int,
    ) -> None:
        flow = self.flow
        engine = flow.engine
        kind = flow.values.keys[value][0]
        if kind in o.CONTAINERS:
            if sliced:
                engine.add(dst, [value])
            elif key is None:
                engine.flow(flow.every(value), dst)
                flow.computed_reads.add(dst)
            else:
                engine.flow(flow.slot(value, key), dst)
                engine.flow(flow.loose(value), dst)
                flow.alt.add(dst)
        elif kind in _INSTANCES:
            if site is not None:
                self.rules.protocol(site, value, protocol, [flow.lit], dst, operand)
        elif kind in (o.CLASS, o.CCONE, o.EXT):
            engine.add(dst, [value])  # Cls[int], typing.Optional[X]: still that
        elif kind in (o.EXTINST, o.BOUND):
            engine.add(dst, [flow.value(o.EXTINST, "?", None)])
        elif kind == o.UNKNOWN:
            engine.add(dst, [o.UNKNOWN_ID])
        else:
            engine.add(dst, [o.LIT_ID])

    def store(
        self, value: int, key: str | int | None, src: int, site: SiteKey | None, operand: int
    ) -> None:
        flow = self.flow
        kind = flow.values.keys[value][0]
        if kind in o.CONTAINERS:
            target = flow.loose(value) if key is None else flow.slot(value, key)
            flow.engine.flow(src, target)
        elif kind in _INSTANCES:
            if site is not None:
                self.rules.protocol(site, value, "__setitem__", [flow.lit, src], flow.temp(), operand)
        elif kind in (o.EXT, o.EXTINST, o.BOUND, o.UNKNOWN):
            self.rules.escape(src)

    def unpack(self, value: int, index: int, rest: bool, dst: int) -> None:
        flow = self.flow
        engine = flow.engine
        key = flow.values.keys[value]
        kind = key[0]
        if kind in o.CONTAINERS and not (kind == o.CONT and key[3] == o.DICT):
            if rest:
                engine.add(dst, [value])
                return
            if index < 0:
                size = self._size(value)
                if size is None:
                    engine.flow(flow.every(value), dst)
                    return
                index += size
            engine.flow(flow.slot(value, index), dst)
            engine.flow(flow.loose(value), dst)
            flow.alt.add(dst)
        elif rest:
            made = flow.value(o.SYN, "rest", dst)
            self.iterate(value, flow.loose(made), None, dst)
            engine.add(dst, [made])
        else:
            self.iterate(value, dst, None, dst)

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
            engine.add(dst, [o.LIT_ID])
        elif name in ("extend", "update"):
            for source in plain:
                self._merge(source, container)
            for key, var in keywords:
                if key:
                    engine.flow(var, flow.slot(container, key))
            engine.add(dst, [o.LIT_ID])
        elif name in ("get", "pop", "setdefault"):
            if not plain:
                engine.flow(flow.every(container), dst)
                return
            if name == "setdefault" and len(plain) > 1:
                self._keyed(plain[0], container, plain[1])
            self._read_keyed(plain[0], container, dst)
            if len(plain) > 1:
                engine.flow(plain[1], dst)
        elif name in ("values", "items", "keys"):
            engine.add(dst, [flow.value(o.VIEW, container, name)])
        elif name == "copy":
            engine.add(dst, [container])
        elif name == "sort":
            key = next((v for k, v in keywords if k == "key"), None)
            if key is not None:
                element = flow.every(container)
                engine.on(
                    key,
                    lambda new: [
                        self.rules.call(site, v, [element], [], flow.temp(), "callback", key)
                        for v in new
                    ],
                )
            engine.add(dst, [o.LIT_ID])
        else:
            engine.add(dst, [o.LIT_ID])

    def _merge(self, source: int, container: int) -> None:
        """Everything ``source``'s containers hold, under the same keys."""
        flow = self.flow

        def run(new: set[int]) -> None:
            for value in new:
                if flow.values.keys[value][0] in o.CONTAINERS:
                    flow.on_slots(
                        value, lambda k, s: flow.engine.flow(s, flow.slot(container, k))
                    )
                    flow.engine.flow(flow.loose(value), flow.loose(container))
                else:
                    self.iterate(value, flow.loose(container), None, source)

        flow.engine.on(source, run)

    def _keyed(self, key_var: int, container: int, src: int) -> None:
        flow = self.flow

        def run(new: set[int]) -> None:
            for value in new:
                key = flow.values.keys[value]
                target = flow.slot(container, key[1]) if key[0] == o.STR else flow.loose(container)
                flow.engine.flow(src, target)

        flow.engine.on(key_var, run)

    def _read_keyed(self, key_var: int, container: int, dst: int) -> None:
        flow = self.flow
        flow.engine.flow(flow.loose(container), dst)

        def run(new: set[int]) -> None:
            for value in new:
                key = flow.values.keys[value]
                if key[0] == o.STR:
                    flow.engine.flow(flow.slot(container, key[1]), dst)
                    flow.alt.add(dst)
                else:
                    flow.engine.flow(flow.every(container), dst)
                    flow.computed_reads.add(dst)

        flow.engine.on(key_var, run)

"""Attributes, as Python finds them: a module's names; a class's along its C3 MRO (the first
class of the repository that binds the name in its body, after any class before it that code
patched); an instance's own attributes first (every ``self.x = ...`` of its classes), then its
class's; ``super()`` from after the class that calls it. A function found through an instance
becomes a method bound to it; a property's getter runs (and is recorded at the site).
"""

from __future__ import annotations

from groundkit.codemap.extract.python.values import objects as o
from groundkit.codemap.extract.python.values.program import ClassKey
from groundkit.codemap.extract.python.values.state import Flow, Rules, SiteKey

__all__ = ["CONTAINER_METHODS", "Lookups"]

CONTAINER_METHODS = frozenset(
    "append extend insert add update setdefault get pop values items keys copy sort".split()
)


class Lookups:
    def __init__(self, flow: Flow, rules: Rules) -> None:
        self.flow = flow
        self.rules = rules
        keys = flow.values
        self.outside = keys.id((o.EXT, "?"))

    def attribute(
        self, value: int, attr: str | None, dst: int, site: SiteKey | None, operand: int
    ) -> None:
        """``dst`` holds what ``value.attr`` may be (now and as cells fill)."""
        flow = self.flow
        engine = flow.engine
        key = flow.values.keys[value]
        kind = key[0]
        if attr is None:  # getattr(obj, <computed>): nothing can be said
            engine.add(dst, [o.UNKNOWN_ID])
            return
        if kind == o.MOD:
            engine.flow(flow.glob(key[1], attr), dst)
        elif kind in (o.INST, o.CONE, o.CLASS, o.CCONE):
            self._class_lookup(value, attr, dst, site, operand)
        elif kind == o.SUPER:
            self._super(key[1], key[2], attr, dst, site, operand)
        elif kind == o.EXT:
            name = key[1]
            engine.add(dst, [self.outside if name == "?" else flow.value(o.EXT, f"{name}.{attr}")])
        elif kind == o.EXTINST:
            engine.add(dst, [flow.value(o.BOUND, value, attr)])
        elif kind == o.UNKNOWN:
            engine.add(dst, [o.UNKNOWN_ID])
        elif kind in o.CONTAINERS or kind == o.VIEW:
            found = attr in CONTAINER_METHODS
            engine.add(dst, [flow.value(o.CMETH, value, attr) if found else o.LIT_ID])
        elif kind == o.PROP and attr in ("setter", "getter", "deleter"):
            engine.add(dst, [flow.value(o.ACCESSOR, value, attr)])
        else:
            engine.add(dst, [o.LIT_ID])

    def _class_lookup(
        self, value: int, attr: str, dst: int, site: SiteKey | None, operand: int
    ) -> None:
        flow = self.flow
        program = flow.program
        kind = flow.values.keys[value][0]
        instance = kind in (o.INST, o.CONE)
        for cls in flow.classes_of(value):
            flow.lookups_on.setdefault(cls, []).append(dst)
            mro = program.mro(cls)
            if instance:
                for owner in mro:
                    flow.engine.flow(flow.inst_attr(owner, attr), dst)
            if not self._along(mro, 0, attr, value, instance, dst, site, operand):
                self._missing(cls, value, attr, instance, dst, site, operand)

    def _along(
        self,
        mro: list[ClassKey],
        start: int,
        attr: str,
        receiver: int,
        instance: bool,
        dst: int,
        site: SiteKey | None,
        operand: int,
    ) -> bool:
        """Connect the class attribute cells along ``mro`` from ``start`` up to the first class
        that binds ``attr`` in its body; whether one does."""
        flow = self.flow
        for owner in mro[start:]:
            cell = flow.class_attr(owner, attr)
            once = ("bind", cell, dst, receiver, instance)
            if once not in flow.once:
                flow.once.add(once)
                flow.engine.on(
                    cell,
                    lambda new, r=receiver, i=instance: self._bound(new, r, i, dst, site, operand),
                )
            if flow.program.binds_in_class(owner, attr):
                return True
        return False

    def _missing(
        self,
        cls: ClassKey,
        value: int,
        attr: str,
        instance: bool,
        dst: int,
        site: SiteKey | None,
        operand: int,
    ) -> None:
        flow = self.flow
        if flow.program.classes[cls].open:
            flow.engine.add(dst, [self.outside])  # from a base outside the repository
        elif attr.startswith("__") and attr.endswith("__"):
            flow.engine.add(dst, [o.LIT_ID])  # __name__, __dict__, __class__...
        elif instance and site is not None:
            self.rules.protocol(site, value, "__getattr__", [], dst, operand)

    def _bound(
        self,
        new: set[int],
        receiver: int,
        instance: bool,
        dst: int,
        site: SiteKey | None,
        operand: int,
    ) -> None:
        """A class attribute as seen through an instance (or the class itself)."""
        flow = self.flow
        keys = flow.values.keys
        out: list[int] = []
        for value in new:
            kind = keys[value][0]
            if kind == o.FUNC:
                out.append(flow.value(o.METH, value, receiver) if instance else value)
            elif kind == o.STATIC:
                out.append(keys[value][1])
            elif kind == o.CLASSMETHOD:
                out.append(flow.value(o.CLSMETH, keys[value][1], self._class_of(receiver)))
            elif kind == o.PROP:
                if instance and site is not None:
                    getter = keys[keys[value][1]]
                    func = (getter[1], getter[2])
                    self.rules.bind(site, func, receiver, [], [], dst, "property", operand)
                else:
                    out.append(o.LIT_ID)
            else:
                out.append(value)
        if out:
            flow.engine.add(dst, out)

    def _class_of(self, receiver: int) -> int:
        flow = self.flow
        key = flow.values.keys[receiver]
        if key[0] == o.INST:
            return flow.value(o.CLASS, key[1], key[2])
        if key[0] == o.CONE:
            return flow.value(o.CCONE, key[1], key[2])
        return receiver

    def _super(
        self,
        cls: ClassKey,
        receiver: int,
        attr: str,
        dst: int,
        site: SiteKey | None,
        operand: int,
    ) -> None:
        flow = self.flow
        instance = flow.values.keys[receiver][0] in (o.INST, o.CONE)
        for actual in flow.classes_of(receiver):
            mro = flow.program.mro(actual)
            if cls not in mro:
                continue
            start = mro.index(cls) + 1
            if not self._along(mro, start, attr, receiver, instance, dst, site, operand):
                if any(flow.program.classes[c].open for c in mro[start:]) or flow.program.classes[
                    cls
                ].open:
                    flow.engine.add(dst, [self.outside])

    def setter(self, value: int, attr: str, site: SiteKey, operand: int) -> None:
        """``obj.attr = v`` runs a property's setter when the class has one."""
        flow = self.flow
        for cls in flow.classes_of(value):
            for owner in flow.program.mro(cls):
                if not flow.program.binds_in_class(owner, attr):
                    continue
                cell = flow.class_attr(owner, attr)
                once = ("setter", cell, site)
                if once not in flow.once:
                    flow.once.add(once)
                    flow.engine.on(
                        cell, lambda new, v=value: self._set(new, v, site, operand)
                    )
                break

    def _set(self, new: set[int], receiver: int, site: SiteKey, operand: int) -> None:
        keys = self.flow.values.keys
        for value in new:
            key = keys[value]
            if key[0] == o.PROP and key[2] >= 0:
                setter = keys[key[2]]
                self.rules.bind(
                    site, (setter[1], setter[2]), receiver, [], [], self.flow.temp(), "property",
                    operand,
                )

    def store(
        self, value: int, attr: str | None, src: int, site: SiteKey | None, operand: int
    ) -> None:
        """``obj.attr = src``: an instance's own attribute, a class's (patched from outside),
        a module's; on an outside object, ``src`` escapes."""
        flow = self.flow
        key = flow.values.keys[value]
        kind = key[0]
        if kind in (o.INST, o.CONE, o.CLASS, o.CCONE):
            cls = (key[1], key[2])
            if attr is None:
                flow.patched_any.add(cls)
            elif kind in (o.INST, o.CONE):
                flow.engine.flow(src, flow.inst_attr(cls, attr))
                if site is not None:
                    self.setter(value, attr, site, operand)
            else:
                flow.engine.flow(src, flow.class_attr(cls, attr))
        elif kind == o.MOD and attr is not None:
            flow.engine.flow(src, flow.glob(key[1], attr))
        elif kind in (o.EXT, o.EXTINST, o.BOUND, o.UNKNOWN):
            self.rules.escape(src)

    def dynamic(
        self, site: SiteKey, name: str, args: list[int | tuple[str, int]], dst: int, operand: int
    ) -> None:
        """``getattr(obj, name[, default])`` and ``setattr(obj, name, value)``: an attribute
        by name when the name is a known string, else nothing can be said."""
        flow = self.flow
        obj, attr_var = args[0], args[1]
        if not isinstance(obj, int) or not isinstance(attr_var, int):
            flow.engine.add(dst, [o.UNKNOWN_ID])
            return
        extra = args[2] if len(args) > 2 and isinstance(args[2], int) else None
        if name == "getattr":
            flow.depends.append((obj, dst))
            if extra is not None:
                flow.engine.flow(extra, dst)
        else:
            flow.engine.add(dst, [o.LIT_ID])

        def names(new: set[int]) -> None:
            for value in new:
                key = flow.values.keys[value]
                text = key[1] if key[0] == o.STR else None
                if name == "getattr":
                    if text is None:
                        flow.engine.add(dst, [o.UNKNOWN_ID])
                        continue
                    flow.engine.on(
                        obj, lambda objs, a=text: [
                            self.attribute(v, a, dst, site, operand) for v in objs
                        ]
                    )
                elif extra is not None:
                    flow.engine.on(
                        obj, lambda objs, a=text: [
                            self.store(v, a, extra, site, operand) for v in objs
                        ]
                    )

        flow.engine.on(attr_var, names)

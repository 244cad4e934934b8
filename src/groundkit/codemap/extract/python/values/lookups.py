"""Attributes, as Python finds them: a module's names; a class's along its C3 MRO (the first
class of the repository that binds the name in its body, after any class before it that code
patched); an instance's own attributes first (every ``self.x = ...`` of its classes), then its
class's; ``super()`` from after the class that calls it. A function found through an instance
becomes a method bound to it; a property's getter (a descriptor's ``__get__``) runs (a
``__get__`` is judged on what the attribute holds where it is read: ``descriptors.py``).

What ``value.attr`` is does not depend on where it is read, so it is worked out once per
(value, attribute) into one variable that every read of it copies; the functions it runs on
the way (getters, ``__get__``, ``__getattr__``) are recorded at each site that reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from groundkit.codemap.extract.python.values import library, objects
from groundkit.codemap.extract.python.values.descriptors import CLASSY, Descriptors
from groundkit.codemap.extract.python.values.engine import each, each_value, with_args
from groundkit.codemap.extract.python.values.keys import (
    NOWHERE,
    Args,
    ClassKey,
    FuncKey,
    How,
    SiteKey,
)
from groundkit.codemap.extract.python.values.parsers import NAMESPACE
from groundkit.codemap.extract.python.values.patches import Owner, Patches
from groundkit.codemap.extract.python.values.state import Flow
from groundkit.codemap.extract.python.values.visitors import Visitors

if TYPE_CHECKING:
    from groundkit.codemap.extract.python.values.calls import Calls

__all__ = ["CONTAINER_METHODS", "Lookups"]

CONTAINER_METHODS = frozenset(
    "append extend insert add update setdefault get pop values items keys copy sort".split()
)
_CLASSY = CLASSY
# what ``delattr`` / ``__new__`` / ``x.__class__ =`` may be given: instances and classes
_MADE_KINDS = (objects.INST, objects.CONE, objects.CLASS, objects.CCONE)


class Lookups:
    def __init__(self, flow: Flow, calls: Calls) -> None:
        self.flow = flow
        self.calls = calls  # the rules that call (they hold this one)
        self.outside = flow.values.id((objects.EXT, "?"))
        self.patches = Patches(flow)
        self.descriptors = Descriptors(flow, self.patches)
        self.visitors = Visitors(flow)
        self._results: dict[tuple[int, str], int] = {}
        self._deleted: set[str] | None = None  # names a ``del obj.name`` deletes
        self._deleted_on: set[ClassKey] = set()  # ``_made_otherwise``
        # Functions a lookup runs (getter, __get__, __getattr__; whether a descriptor's), and
        # the sites reading it.
        self._runs: dict[tuple[int, str], dict[FuncKey, tuple[How, bool]]] = {}
        # (the sites and operands one after the other: a pair for each took 12 MB on django)
        self._sites: dict[tuple[int, str], list[SiteKey | int]] = {}

    def attribute(
        self,
        value: int,
        attr: str | None,
        dst: int,
        site: SiteKey | None,
        operand: int,
        file: int,
    ) -> None:
        """``dst`` holds what ``value.attr`` may be (now and as cells fill), read by code of
        ``file``."""
        flow = self.flow
        engine = flow.engine
        key = flow.values.keys[value]
        kind = key[0]
        if attr is None:  # getattr(obj, <computed>): nothing can be said
            engine.add(dst, [objects.UNKNOWN_ID])
        elif kind == objects.MOD:
            owner = ("module", key[1])
            engine.flow(self.patches.seen_from(file, [owner], attr, flow.glob(key[1], attr)), dst)
        elif kind in _CLASSY:
            found = self.result(value, attr)
            if kind != objects.SUPER and self.patches.watches(file, attr):
                owners: list[Owner] = []
                for cls in flow.classes_of(value):
                    owners += [c for c in flow.program.mro(cls) if c not in owners]
                found = self.patches.seen_from(file, owners, attr, found)
            engine.flow(found, dst)
            if site is not None:
                self._watch(value, attr, site, operand)
        elif kind == objects.EXT:
            name = key[1]
            engine.add(
                dst, [self.outside if name == "?" else flow.value(objects.EXT, f"{name}.{attr}")]
            )
        elif kind == objects.EXTINST:
            engine.add(dst, [value if key[1] == "?" else flow.value(objects.BOUND, value, attr)])
        elif kind == objects.UNKNOWN:
            engine.add(dst, [objects.UNKNOWN_ID])
        elif kind == objects.SYN and key[1] == NAMESPACE:  # argparse's parsed arguments
            engine.flow(flow.slot(value, attr), dst)
        elif kind == objects.SYN and key[1] == library.REQUEST:
            # a fixture's ``request``: its ``param`` is known, the rest is pytest's
            if attr == "param":
                engine.flow(flow.slot(value, attr), dst)
            else:
                engine.add(dst, [objects.UNKNOWN_ID])
        elif kind in objects.CONTAINERS or kind == objects.VIEW:
            found = attr in CONTAINER_METHODS
            engine.add(dst, [flow.value(objects.CMETH, value, attr) if found else objects.LIT_ID])
        elif kind == objects.PROP and attr in ("setter", "getter", "deleter"):
            engine.add(dst, [flow.value(objects.ACCESSOR, value, attr)])
        elif kind == objects.BUILTIN and key[1] == "object" and attr == "__setattr__":
            engine.add(dst, [flow.value(objects.BUILTIN, "setattr")])  # object.__setattr__(o, k, v)
        elif kind == objects.BUILTIN and key[1] == "object" and attr == "__new__":
            engine.add(dst, [flow.value(objects.BUILTIN, "object.__new__")])
        else:
            engine.add(dst, [objects.LIT_ID])

    # -- per site ---------------------------------------------------------------------------------
    def _watch(self, value: int, attr: str, site: SiteKey, operand: int) -> None:
        key = (value, attr)
        self._sites.setdefault(key, []).extend((site, operand))
        for func, (how, got) in self._runs.get(key, {}).items():
            self._record(site, attr, func, how, got, operand)

    def _runs_here(self, value: int, attr: str, func: FuncKey, how: How, got: bool = False) -> None:
        """``func`` runs where ``value.attr`` is read (``got``: a descriptor's ``__get__``)."""
        key = (value, attr)
        runs = self._runs.setdefault(key, {})
        if func in runs:
            return
        runs[func] = (how, got)
        sites, at = self._sites.get(key, []), 0
        while at < len(sites):
            self._record(sites[at], attr, func, how, got, sites[at + 1])  # type: ignore[arg-type]
            at += 2

    def _record(
        self, site: SiteKey, attr: str, func: FuncKey, how: How, got: bool, operand: int
    ) -> None:
        # A __get__ is judged on the attribute's values there, not on the receiver's; so is a
        # property's getter, whose operand stays the receiver (its ``self``: replaced.py).
        if got and site[0] >= 0:
            operand = self.descriptors.read_at(site, attr, operand)
        elif how == "property" and site[0] >= 0:
            self.descriptors.property_at(site, attr, operand)
        self.flow.record(site, func, how, operand)

    # -- once per (value, attribute) --------------------------------------------------------------
    def result(self, value: int, attr: str) -> int:
        key = (value, attr)
        found = self._results.get(key)
        if found is not None:
            return found
        found = self._results[key] = self.flow.temp()
        flow = self.flow
        entry = flow.values.keys[value]
        if entry[0] == objects.SUPER:
            self._super(entry[1], entry[2], value, attr, found)
            return found
        instance = entry[0] in (objects.INST, objects.CONE)
        program = flow.program
        classes = flow.classes_of(value)
        never = 0  # (classes of the cone whose own instances, none, would find ``attr``)
        # The classes of a cone share their bases: each base's cells are connected once
        # (django: 86,000 of 202,000 class attribute rules were the same rule on the same
        # cell again, and most instance attribute copies the same edge again).
        copied: set[ClassKey] = set()
        watched: set[ClassKey] = set()
        for cls in classes:
            flow.lookups_on.setdefault(cls, []).append(found)
            mro = program.mro(cls)
            if flow.set_plain:  # (a base given an attribute by name: set_on_class)
                for owner in flow.set_plain.intersection(mro):
                    flow.engine.flow(flow.cell(("set by name", owner)), found)
            if instance:
                for owner in mro:
                    if owner not in copied:
                        copied.add(owner)
                        flow.engine.flow(flow.inst_attr(owner, attr), found)
            if entry[0] == objects.CONE and flow.instances.never_runs(cls, attr, classes):
                never += 1
            elif not self._along(mro, 0, value, attr, instance, found, watched=watched):
                self._missing(cls, value, attr, instance, found)
        if never == len(classes) and flow.instances.subclassed_outside(classes):
            flow.engine.add(found, [objects.UNKNOWN_ID])  # (instances from outside: unknown)
        return found

    def _along(
        self,
        mro: list[ClassKey],
        start: int,
        value: int,
        attr: str,
        instance: bool,
        dst: int,
        receiver: int | None = None,
        watched: set[ClassKey] | None = None,
    ) -> bool:
        """Connect the class attribute cells along ``mro`` from ``start`` up to the first class
        that binds ``attr`` in its body; whether one does. ``watched``: the classes whose cell
        has this rule already (from another class of the same lookup), passed over."""
        flow = self.flow
        recv = value if receiver is None else receiver
        # One rule for every cell along the way (it does not depend on the cell), and not a
        # closure: a closure per cell with its six cells took 63 MB of django's solve.
        rule = with_args(Lookups._bound, self, value, attr, recv, instance, dst)
        binds_in_class = flow.program.binds_in_class
        for owner in mro[start:]:
            if watched is None or owner not in watched:
                if watched is not None:
                    watched.add(owner)
                cell = flow.class_attr(owner, attr)
                flow.depends.extend((cell, dst))
                flow.engine.on(cell, rule)
            if binds_in_class(owner, attr):
                return True
        return False

    def _missing(self, cls: ClassKey, value: int, attr: str, instance: bool, dst: int) -> None:
        flow = self.flow
        if flow.program.classes[cls].open:
            flow.engine.add(dst, [self.outside])  # from a base outside the repository
        elif attr.startswith("__") and attr.endswith("__"):
            flow.engine.add(dst, [objects.LIT_ID])  # __name__, __dict__, __class__...
        elif instance:
            # __getattr__ runs only when nothing else gives the attribute: decided once values
            # have flowed (an instance attribute may yet be set).
            flow.fallbacks.append((value, attr, dst))

    def _always_set(self, value: int, attr: str) -> bool:
        """Whether every instance ``value`` may be has ``attr`` set by the ``__init__`` that
        made it (``Scope.sets``), whether or not the map sees one made: a read of it then never
        runs ``__getattr__``. Not where anything could make an instance without it: a
        ``__new__`` or ``__setattr__``, ``__getattribute__`` or ``__slots__`` along the MRO,
        a decorated ``__init__``, a ``del x.attr`` in the repository, or an instance made or
        changed past ``__init__`` (``_made_otherwise``)."""
        flow = self.flow
        program = flow.program
        if self._deleted is None:
            self._deleted = {name for info in program.files for name in info.facts.scopes[0].sets}
            self._deleted_on = self._made_otherwise()
        if attr in self._deleted:
            return False
        classes = flow.classes_of(value)
        for cls in classes:
            if any(
                program.owner(cls, name) is not None
                for name in ("__new__", "__setattr__", "__getattribute__", "__slots__")
            ):
                return False
            if cls in self._deleted_on:
                return False
            if any(program.classes[c].open for c in program.mro(cls)):
                return False
            if not program.init_sets(cls, attr):
                return False
        return bool(classes)

    def forget_deleted(self) -> None:
        self._deleted = None

    def _made_otherwise(self) -> set[ClassKey]:
        """The classes an instance may lack what ``__init__`` sets on: given to ``delattr``,
        made by ``__new__`` alone (``Context.__new__(Context)``, ``object.__new__(cls)``) or
        put in an object's ``__class__``. As for ``setattr`` by a computed name (``store``),
        an object the map cannot tell is taken for none of them."""
        flow = self.flow
        keys = flow.values.keys
        out: set[ClassKey] = set()
        for info in flow.program.files:
            for site in info.facts.sites:
                if site.name not in ("delattr", "__new__") or not site.args:
                    continue
                first = site.args[0] if site.args[0] >= 0 else ~site.args[0]
                for held in flow.engine.held(info.var(first)):
                    if keys[held][0] in _MADE_KINDS:
                        out.update(flow.classes_of(held))
            for op in info.attribute_sets():
                if op.attr == "__class__":
                    for held in flow.engine.held(info.var(op.src)):
                        if keys[held][0] in _MADE_KINDS:
                            out.update(flow.classes_of(held))
        return out

    def fallback(self, value: int, attr: str, dst: int) -> None:
        """The second round: ``__getattr__(name)`` for a lookup that found nothing (none for
        an attribute every instance has: ``_always_set``)."""
        flow = self.flow
        if flow.values.keys[value][0] in (objects.INST, objects.CONE) and self._always_set(
            value, attr
        ):
            return
        name = flow.cell(("name", attr))
        flow.engine.add(name, [flow.value(objects.STR, attr)])
        for func in self._protocol(value, "__getattr__", [name], dst):
            self._runs_here(value, attr, func, "protocol")

    def set_by_name(self, classes: set[ClassKey]) -> None:
        """The second round: instances of ``classes`` (or of their subclasses) were given an
        attribute by a computed name (``setattr(self, key, value)`` over keyword arguments or
        a node's fields), so what a lookup of their data finds may be anything. A name their
        class defines with ``def`` still finds that method: setting fields by name is what such
        code does; replacing one object's method under a name known only at run time is not
        (a class given one so is, in ``patched_any``)."""
        flow = self.flow
        program = flow.program
        cone = {sub for cls in classes for sub in program.cone(cls)}
        keys = flow.values.keys
        for (value, attr), found in (*self._results.items(), *self.descriptors.raws.items()):
            if keys[value][0] not in (objects.INST, objects.CONE):
                continue
            for cls in flow.classes_of(value):
                owner = program.owner(cls, attr)
                if cls in cone and (owner is None or not program.functions_named(owner, attr)):
                    flow.engine.add(found, [objects.UNKNOWN_ID])
                    break

    def set_on_class(self, cls: ClassKey, src: int) -> None:
        """``setattr(cls, name, src)`` with a run-time name: while ``src`` holds only ``None``
        or literals, every lookup on the class's cone may find those too (a copy from
        ``None`` keeps the dunder rule knowing it may arrive), but nothing it may call:
        a call on ``None`` or a literal raises or runs a built-in, so a call that runs goes
        where it went (mealie's controllers set annotated names to ``None``). A value that
        may be a function, class, object or unknown replaces anything: ``patched_any``."""
        flow = self.flow
        if ("set by name", cls, src) in flow.once:
            return
        flow.once.add(("set by name", cls, src))
        engine = flow.engine
        cell = flow.cell(("set by name", cls))
        if cls not in flow.set_plain:
            flow.set_plain.add(cls)
            engine.flow(flow.none, cell)
            for sub in flow.program.cone(cls):
                for dst in flow.lookups_on.get(sub, ()):
                    engine.flow(cell, dst)
        keys = flow.values.keys

        def run(new: Sequence[int]) -> None:
            plain = [value for value in new if keys[value][0] in objects.PLAIN]
            if plain:
                engine.add(cell, plain)
            if len(plain) < len(new) and cls not in flow.patched_any:
                flow.patched_any.add(cls)
                if flow.second_round:  # (gained after it: its lookups are told here)
                    self.patched(cls)

        engine.on(src, run)

    def patched(self, cls: ClassKey) -> None:
        """A class in ``patched_any``: every lookup on its cone may find anything."""
        flow = self.flow
        for sub in flow.program.cone(cls):
            for dst in flow.lookups_on.get(sub, ()):
                flow.engine.add(dst, [objects.UNKNOWN_ID])

    def _bound(
        self, value: int, attr: str, receiver: int, instance: bool, dst: int, new: Sequence[int]
    ) -> None:
        """A class attribute as seen through an instance (or the class itself)."""
        flow = self.flow
        keys = flow.values.keys
        out: list[int] = []
        for item in new:
            kind = keys[item][0]
            if kind == objects.FUNC:
                out.append(flow.value(objects.METH, item, receiver) if instance else item)
            elif kind == objects.STATIC:
                out.append(keys[item][1])
            elif kind == objects.CLASSMETHOD:
                out.append(flow.value(objects.CLSMETH, keys[item][1], self._class_of(receiver)))
            elif kind == objects.PROP:
                if instance:
                    func = flow.values.function(keys[item][1])
                    self.calls.bind(NOWHERE, func, receiver, [], [], dst, "property", -1)
                    self._runs_here(value, attr, func, "property")
                else:
                    out.append(objects.LIT_ID)
            elif kind in (objects.INST, objects.CONE):
                # A descriptor: what its __get__ returns (else the object itself).
                args: Args = [flow.lit, flow.lit]
                found = self._protocol(item, "__get__", args, dst)
                for func in found:
                    self._runs_here(value, attr, func, "protocol", got=True)
                if not found:
                    out.append(item)
            else:
                out.append(item)
        if out:
            flow.engine.add(dst, out)

    def _protocol(self, value: int, method: str, args: Args, dst: int) -> list[FuncKey]:
        """Run ``method`` of an instance's class here (no site): the functions it may be."""
        flow = self.flow
        found: list[FuncKey] = []
        for cls in flow.classes_of(value):
            owner = flow.program.owner(cls, method)
            if owner is not None:
                self.calls.protocol(NOWHERE, value, method, args, dst, -1)
                found.extend(flow.program.functions_named(owner, method))
                break
        return found

    def _class_of(self, receiver: int) -> int:
        flow = self.flow
        key = flow.values.keys[receiver]
        if key[0] == objects.INST:
            return flow.value(objects.CLASS, key[1], key[2])
        if key[0] == objects.CONE:
            return flow.value(objects.CCONE, key[1], key[2])
        return receiver

    def _super(self, cls: ClassKey, receiver: int, value: int, attr: str, dst: int) -> None:
        flow = self.flow
        receiver_kind = flow.values.keys[receiver][0]
        instance = receiver_kind in (objects.INST, objects.CONE)
        watched: set[ClassKey] = set()
        for actual in flow.classes_of(receiver):
            mro = flow.program.mro(actual)
            if cls not in mro:
                continue
            start = mro.index(cls) + 1
            found = self._along(mro, start, value, attr, instance, dst, receiver, watched)
            if found:
                continue
            if any(flow.program.classes[c].open for c in (cls, *mro[start:])):
                flow.engine.add(dst, [self.outside])
            elif attr == "__setattr__" and instance:
                # object's own: the way past a class's __setattr__ (``State``, frozen classes)
                flow.engine.add(dst, [flow.value(objects.SETATTR, receiver)])

    # -- setting ----------------------------------------------------------------------------------
    def store(
        self,
        value: int,
        attr: str | None,
        src: int,
        site: SiteKey | None,
        operand: int,
        file: int,
    ) -> None:
        """``obj.attr = src`` by code of ``file``: an instance's own attribute, a class's
        (patched from outside), a module's; on an outside object, ``src`` escapes. A patch a
        test or script makes to the package stays in that file (``patches.py``)."""
        flow = self.flow
        key = flow.values.keys[value]
        kind = key[0]
        if kind in (objects.INST, objects.CONE, objects.CLASS, objects.CCONE):
            cls = ClassKey((key[1], key[2]))
            if self.patches.kept_apart(file, cls[0]) and self._patched(value, cls, attr, src, file):
                if site is not None and attr is not None and kind in (objects.INST, objects.CONE):
                    self.setter(value, attr, site, operand)
                return
            if attr is None:  # (an instance's: its data, not its class's methods; see set_any)
                if kind in (objects.INST, objects.CONE):
                    flow.set_any.add(cls)
                else:
                    self.set_on_class(cls, src)
            elif kind in (objects.INST, objects.CONE):
                flow.engine.flow(src, flow.inst_attr(cls, attr))
                if site is not None:
                    self.setter(value, attr, site, operand)
            else:
                flow.engine.flow(src, flow.class_attr(cls, attr))
        elif kind == objects.MOD and attr is not None:
            if self.patches.kept_apart(file, key[1]):
                flow.engine.flow(src, self.patches.cell(file, ("module", key[1]), attr))
            else:
                flow.engine.flow(src, flow.glob(key[1], attr))
        elif kind in (objects.EXT, objects.EXTINST, objects.BOUND, objects.UNKNOWN):
            self.calls.escape(src)

    def _patched(self, value: int, cls: ClassKey, attr: str | None, src: int, file: int) -> bool:
        """A context file's assignment to a package class (or one of its instances' methods):
        kept in that file's cell; whether it was one."""
        if attr is None:
            return True  # a computed name: the package's classes stay as they are
        instance = self.flow.values.keys[value][0] in (objects.INST, objects.CONE)
        if instance and self.flow.program.owner(cls, attr) is None:
            return False  # plain data on an instance: its own attribute, as anywhere
        self.flow.engine.flow(src, self.patches.cell(file, cls, attr))
        return True

    def setter(self, value: int, attr: str, site: SiteKey, operand: int) -> None:
        """``obj.attr = v`` runs a property's setter when the class has one."""
        flow = self.flow
        for cls in flow.classes_of(value):
            owner = flow.program.owner(cls, attr)
            if owner is None:
                continue
            cell = flow.class_attr(owner, attr)
            once = ("setter", cell, site)
            if once not in flow.once:
                flow.once.add(once)
                flow.engine.on(
                    cell, partial(self._set, receiver=value, attr=attr, site=site, operand=operand)
                )

    def _set(
        self, new: Sequence[int], receiver: int, attr: str, site: SiteKey, operand: int
    ) -> None:
        keys = self.flow.values.keys
        for value in new:
            key = keys[value]
            if key[0] == objects.PROP and key[2] >= 0:
                # (judged on what the attribute may be there, as a getter is)
                self.descriptors.property_at(site, attr, operand)
                self.calls.bind(
                    site,
                    self.flow.values.function(key[2]),
                    receiver,
                    [],
                    [],
                    self.flow.temp(),
                    "property",
                    operand,
                )

    def dynamic(self, site: SiteKey, name: str, args: Args, dst: int, operand: int) -> None:
        """``getattr(obj, name[, default])`` and ``setattr(obj, name, value)``: an attribute
        by name when the name is a known string, else nothing can be said."""
        flow = self.flow
        obj, attr_var = args[0], args[1]
        if not isinstance(obj, int) or not isinstance(attr_var, int):
            flow.engine.add(dst, [objects.UNKNOWN_ID])
            return
        extra = args[2] if len(args) > 2 and isinstance(args[2], int) else None
        if name == "getattr":
            flow.depends.extend((obj, dst))
            self.descriptors.receivers[site] = obj
            if extra is not None:
                flow.engine.flow(extra, dst)
            by_class = self.visitors.at(site) if site[0] >= 0 else None
            if by_class is not None:  # a method named for the node's class (``visitors.py``)
                node = flow.var(site[0], by_class.node)
                flow.depends.extend((node, dst))
                rule = each_value(self._by_class, obj, by_class.prefix, dst, site, operand)
                flow.engine.on(node, rule)
                anything = partial(self._any_prefixed, obj, by_class.prefix, dst, site, operand)
                self.visitors.unvisited(node, anything)
                return
        else:
            flow.engine.add(dst, [objects.LIT_ID])

        def names(new: Sequence[int]) -> None:
            for value in new:
                key = flow.values.keys[value]
                text = key[1] if key[0] == objects.STR else None
                if name == "getattr":
                    if key[0] == objects.PREFIX:
                        self._any_prefixed(obj, key[1], dst, site, operand)
                    elif text is None:
                        flow.engine.add(dst, [objects.UNKNOWN_ID])
                    else:
                        found = partial(
                            self.attribute,
                            attr=text,
                            dst=dst,
                            site=site,
                            operand=operand,
                            file=site[0],
                        )
                        flow.engine.on(obj, each(found))
                elif extra is not None:
                    stored = partial(
                        self.store, attr=text, src=extra, site=site, operand=operand, file=site[0]
                    )
                    flow.engine.on(obj, each(stored))

        flow.engine.on(attr_var, names)

    def _by_class(
        self, value: int, obj: int, prefix: str, dst: int, site: SiteKey, operand: int
    ) -> None:
        """``getattr(obj, prefix + type(node).__name__)`` for the node ``value``: the method
        named for each class it may be; any so prefixed where its class cannot be named."""
        flow = self.flow
        for name in self.visitors.names(value):
            once = ("named by class", site, name)
            if once in flow.once:
                continue
            flow.once.add(once)
            if name is None:
                self._any_prefixed(obj, prefix, dst, site, operand)
            else:
                found = partial(
                    self.attribute,
                    attr=prefix + name,
                    dst=dst,
                    site=site,
                    operand=operand,
                    file=site[0],
                )
                flow.engine.on(obj, each(found))

    def _any_prefixed(self, obj: int, prefix: str, dst: int, site: SiteKey, operand: int) -> None:
        """Any method of ``obj`` so prefixed, or none (a default, AttributeError)."""
        self.flow.engine.add(dst, [objects.UNKNOWN_ID])
        prefixed = partial(self._prefixed, prefix=prefix, dst=dst, site=site, operand=operand)
        self.flow.engine.on(obj, each(prefixed))

    def _prefixed(self, value: int, prefix: str, dst: int, site: SiteKey, operand: int) -> None:
        """``getattr(obj, f"visit_{...}")``: every attribute of obj's classes (or of the module)
        so named."""
        program = self.flow.program
        key = self.flow.values.keys[value]
        seen: set[str] = set()
        if key[0] == objects.MOD:
            seen.update(n for n in program.files[key[1]].binds if n.startswith(prefix))
        for cls in self.flow.classes_of(value):
            for owner in program.mro(cls):
                names = program.files[owner[0]].class_names.get(owner[1], ())
                seen.update(n for n in names if n.startswith(prefix))
        for attr in sorted(seen):
            self.attribute(value, attr, dst, site, operand, site[0])

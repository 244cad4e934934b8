"""What an attribute holds where it is read, before a descriptor among its values is bound.

A descriptor's ``__get__`` runs where ``obj.attr`` finds the descriptor, and only then: when
the attribute may also hold something else (a class attribute set to a descriptor by one call
and to ``str`` by another, an instance's own value shadowing it, a class of the receiver whose
attribute is plain data), it runs on some runs only. So a read that runs a ``__get__`` is
judged on the values the attribute holds there (every class attribute along each of the
receiver's classes' MROs up to the first class that binds it, the instance's own attributes,
what is set by name or patched), not on the receiver: the site's ``__get__`` edge is certain
only where each of those values is an instance whose class finds ``__get__``
(``Certainty.runs_on_all``), and the variable holding them is no choice.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.engine import each_value
from groundkit.codemap.extract.python.values.keys import ClassKey, SiteKey
from groundkit.codemap.extract.python.values.patches import Owner, Patches
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["CLASSY", "Descriptors"]

# Values whose attributes are looked up along a class's MRO (``lookups.py``).
CLASSY = frozenset({objects.INST, objects.CONE, objects.CLASS, objects.CCONE, objects.SUPER})


class Descriptors:
    def __init__(self, flow: Flow, patches: Patches) -> None:
        self.flow = flow
        self.patches = patches
        # (value, attribute) -> what the attribute holds unbound; made only for a lookup that
        # met a descriptor (a cell for every lookup would double django's lookup cells).
        self.raws: dict[tuple[int, str], int] = {}
        self._read: dict[tuple[SiteKey, str], int] = {}
        # ``getattr(obj, "name")``: the site's operand is ``getattr``; the object read is ``obj``
        self.receivers: dict[SiteKey, int] = {}

    def read_at(self, site: SiteKey, attr: str, receiver: int) -> int:
        """The variable holding what ``attr`` may be, unbound, on every value ``receiver`` may
        hold at ``site`` (anything but a class's instance, or a class, counts as unknown)."""
        key = (site, attr)
        found = self._read.get(key)
        if found is None:
            flow = self.flow
            found = self._read[key] = flow.temp()
            var = self.receivers.get(site, receiver)
            flow.engine.on(var, each_value(self._on, attr, found, site[0]))
        return found

    def _on(self, value: int, attr: str, dst: int, file: int) -> None:
        flow = self.flow
        kind = flow.values.keys[value][0]
        if kind not in CLASSY:
            flow.engine.add(dst, [objects.UNKNOWN_ID])
            return
        raw = self.raw(value, attr)
        if kind != objects.SUPER and self.patches.watches(file, attr):
            owners: list[Owner] = []
            for cls in flow.classes_of(value):
                owners += [c for c in flow.program.mro(cls) if c not in owners]
            raw = self.patches.seen_from(file, owners, attr, raw)
        flow.engine.flow(raw, dst)

    def raw(self, value: int, attr: str) -> int:
        """What ``value.attr`` holds before binding (as ``Lookups.result`` finds it)."""
        key = (value, attr)
        found = self.raws.get(key)
        if found is not None:
            return found
        flow = self.flow
        program = flow.program
        found = self.raws[key] = flow.temp()
        entry = flow.values.keys[value]
        if entry[0] == objects.SUPER:
            cls, receiver = entry[1], entry[2]
            for actual in flow.classes_of(receiver):
                mro = program.mro(actual)
                if cls in mro:
                    self._along(mro, mro.index(cls) + 1, attr, found)
            return found
        instance = entry[0] in (objects.INST, objects.CONE)
        for cls in flow.classes_of(value):
            flow.lookups_on.setdefault(cls, []).append(found)  # (set by name, patched)
            mro = program.mro(cls)
            if flow.set_plain:
                for owner in flow.set_plain.intersection(mro):
                    flow.engine.flow(flow.cell(("set by name", owner)), found)
            if instance:
                # (an instance's own value shadows a descriptor without ``__set__``; one with
                # it, written through ``self.attr = v``, is judged as shadowed too: partial)
                for owner in mro:
                    flow.engine.flow(flow.inst_attr(owner, attr), found)
            self._along(mro, 0, attr, found, instance)
        return found

    def _along(
        self, mro: list[ClassKey], start: int, attr: str, dst: int, instance: bool = False
    ) -> None:
        flow = self.flow
        program = flow.program
        for owner in mro[start:]:
            flow.engine.flow(flow.class_attr(owner, attr), dst)
            if program.binds_in_class(owner, attr):
                return
        # bound by no class of the repository: an outside base's, or what ``__getattr__`` gives
        if any(program.classes[c].open for c in mro[max(start - 1, 0) :]) or (
            instance and program.owner(mro[0], "__getattr__") is not None
        ):
            flow.engine.add(dst, [objects.UNKNOWN_ID])

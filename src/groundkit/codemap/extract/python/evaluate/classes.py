"""Classes: attributes found along the C3 MRO of in-repository bases, properties (whose getter
runs), instance attributes, attributes patched from outside the class, and what ``Class()``
runs."""

from __future__ import annotations

from functools import partial
from typing import Any

from groundkit.codemap.extract.python.evaluate.state import (
    NO_HOW,
    EvaluatorState,
    How,
    Result,
    Scope,
)
from groundkit.codemap.extract.python.values import UNKNOWN, Builtin, Def, Ext

__all__ = ["Classes"]


class Classes(EvaluatorState):
    """Class attributes, the MRO and constructors."""

    def _class_attribute(
        self, cls: Def, start: Def, attr: str, how: How, *, instance: bool, skip: int = 0
    ) -> Result:
        mro, open_ended = self.mro(cls)
        for owner in mro[skip:]:
            patched = self.patched(owner)
            if attr in patched or None in patched:
                return UNKNOWN, NO_HOW  # replaced from outside the class: no static target
            names = self.interface(owner.path)["classes"][owner.qual]["names"]
            if attr in names:
                found, _ = self.lookup((owner.path, ("class", owner.qual)), attr)
                inherited = owner != start
                if instance and isinstance(found, Def) and self._is_property(found):
                    if self.depth == 0 and self.properties is not None:
                        self.properties.append((found, (how[0], how[1] or inherited)))
                    return self.returns(found), ("return", False)
                return found, (how[0], how[1] or inherited)
        if instance:
            for owner in mro:
                attrs = self.interface(owner.path)["classes"][owner.qual]["attrs"]
                if attr in attrs:
                    values: list[Any] = attrs[attr]
                    scope: Scope = (owner.path, ("module",))
                    found, _ = self._memoised(
                        (owner.path, ("attrs", owner.qual), attr),
                        partial(self.agree, values, scope),
                    )
                    return found, ("instance", False)
        if open_ended:
            return Ext(f"?.{attr}"), ("", False)  # from a base outside the repository
        return UNKNOWN, NO_HOW

    def patched(self, cls: Def) -> set[str | None]:
        """Attributes of ``cls`` that code in its own module or in the file being resolved
        replaces (``Cls.attr = ...``, ``setattr(Cls, ...)``; None: any attribute)."""
        key = (cls, self.current)
        found = self._patched.get(key)
        if found is None:
            found = self._patched[key] = self._find_patched(cls)
        return found

    def _find_patched(self, cls: Def) -> set[str | None]:
        out: set[str | None] = set()
        for path in {cls.path, self.current}:
            if not path or path not in self.layout.modules:
                continue
            for ref, attr in self.interface(path)["patched"]:
                if ref[-1] != cls.qual.rsplit(".", 1)[-1] and len(ref) == 1:
                    continue  # a cheap filter: the name must be the class's own
                found, _ = self.apply(self.lookup((path, ("module",)), ref[0]), ref[1:], path, -1)
                if found == cls:
                    out.add(attr)
        return out

    def _is_property(self, func: Def) -> bool:
        info = self.interface(func.path)["funcs"].get(func.qual)
        return bool(info) and ("property" in info[1] or "cached_property" in info[1])

    def mro(self, cls: Def) -> tuple[list[Def], bool]:
        """C3 linearisation over the in-repository bases; ``open`` when a base is outside the
        repository or unknown, so that a missing attribute may well exist there."""
        found = self._mro.get(cls)
        if found is not None:
            self.deps.update(found[1])
            return found[0]
        self._mro[cls] = (([cls], True), frozenset())  # a cycle in the bases ends here
        outer, self.deps = self.deps, set()
        try:
            result = self._linearise(cls)
        finally:
            mine, self.deps = self.deps, outer
            self.deps.update(mine)
        self._mro[cls] = (result, frozenset(mine))
        return result

    def _linearise(self, cls: Def) -> tuple[list[Def], bool]:
        self.interface(cls.path)
        bases: list[Def] = []
        open_ended = False
        for ref in self.interface(cls.path)["classes"][cls.qual]["bases"]:
            value, _ = self.apply(
                self.lookup((cls.path, ("module",)), ref[0]), ref[1:], cls.path, -1
            )
            if isinstance(value, Def) and value.kind == "class":
                bases.append(value)
            elif not (isinstance(value, Builtin) and value.name == "object"):
                open_ended = True
        lines = []
        for base in bases:
            base_mro, base_open = self.mro(base)
            lines.append(list(base_mro))
            open_ended = open_ended or base_open
        merged = _c3([cls], [*lines, list(bases)])
        return (merged if merged is not None else [cls, *bases]), open_ended

    def constructor(self, cls: Def) -> Def:
        """What ``cls()`` runs: the first ``__init__`` along the MRO, else the class itself."""
        for owner in self.mro(cls)[0]:
            names = self.interface(owner.path)["classes"][owner.qual]["names"]
            if "__init__" in names:
                found, _ = self.lookup((owner.path, ("class", owner.qual)), "__init__")
                if isinstance(found, Def) and found.kind != "class":
                    return found
        return cls


def _c3(head: list[Def], sequences: list[list[Def]]) -> list[Def] | None:
    result = list(head)
    seqs = [list(s) for s in sequences if s]
    while seqs:
        for seq in seqs:
            candidate = seq[0]
            if not any(candidate in other[1:] for other in seqs):
                break
        else:
            return None  # no consistent order: Python itself would refuse the class
        result.append(candidate)
        seqs = [s[1:] if s[0] == candidate else s for s in seqs]
        seqs = [s for s in seqs if s]
    return result

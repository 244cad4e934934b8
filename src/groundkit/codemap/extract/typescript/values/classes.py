"""Classes across files: what a name defines, a class's in-repository bases, the method a name
finds on a class or its bases, and what ``new`` runs first."""

from __future__ import annotations

from collections.abc import Callable

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import Def, Scope, Value

__all__ = ["Classes"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

_DEPTH = 40


class Classes:
    def __init__(
        self,
        interface: Callable[[str], facts.Module],
        value: Callable[[facts.Expr, Scope], Value],
    ) -> None:
        self._interface = interface
        self._value = value
        self._definitions: dict[tuple[str, str], Def] = {}

    def definition(self, path: str, qual: str) -> Def:
        classes = self._interface(path).classes  # (asked each time: the file is consulted)
        found = self._definitions.get((path, qual))
        if found is None:
            # made once per run: asked tens of thousands of times on express, each a hash
            if qual in classes:
                found = Def(path, qual, "class")
            else:
                owner = qual.rpartition(".")[0]
                found = Def(path, qual, "method" if owner in classes else "function")
            self._definitions[(path, qual)] = found
        return found

    def bases(self, cls: Def) -> list[Def]:
        info = self._interface(cls.path).classes.get(cls.qual)
        out = []
        for base in info.bases if info else []:
            value = self._value(base, (cls.path, -1))
            if type(value) is Def and value.kind == "class":
                out.append(value)
        return out

    def has_bases(self, cls: Def) -> bool:
        """Whether the class names any base at all (in the repository or not)."""
        info = self._interface(cls.path).classes.get(cls.qual)
        return bool(info and info.bases)

    def method(
        self, cls: Def, name: str, seen: frozenset[Def] = frozenset()
    ) -> tuple[Def, bool] | None:
        """``name`` on ``cls`` or its first in-repository base that has it; (def, inherited)."""
        if cls in seen or len(seen) > _DEPTH:
            return None
        info = self._interface(cls.path).classes.get(cls.qual)
        if info and name in info.methods:
            return Def(cls.path, f"{cls.qual}.{name}", "method"), bool(seen)
        for base in self.bases(cls):
            found = self.method(base, name, seen | {cls})
            if found is not None:
                return found[0], True
        return None

    def constructor(self, cls: Def) -> Def:
        """What ``new cls()`` runs first: the nearest ``constructor``, else the class itself."""
        found = self.method(cls, "constructor")
        return found[0] if found is not None else cls

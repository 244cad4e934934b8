"""Modules as values: their names, relative imports made absolute, and what ``mod.name`` is (a
binding, a submodule or a name a star import brings), re-exports included."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.extract.python.evaluate.state import NO_HOW, EvaluatorState, Result
from groundkit.codemap.extract.python.values import UNKNOWN, Ext, Mod, Value

__all__ = ["Modules"]


class Modules(EvaluatorState):
    """Module names, imports and members."""

    def module_name(self, path: str) -> str:
        return self.layout.modules[path].name

    def find_module(self, name: str) -> str | None:
        found = self.layout.find(name, near=self.current)
        if found is None:
            self.deps.add("py:" + name)  # appearing later would change this file's resolution
        return found

    def absolute(self, path: str, module: str, level: int) -> str | None:
        """The absolute name of ``from <level dots><module> import``, seen from ``path``."""
        if level == 0:
            return module
        info = self.layout.modules[path]
        full = info.full_name.split(".")
        package = full if info.is_package else full[:-1]
        if level - 1 > len(package) or (level - 1 == len(package) and not module):
            return None
        base = package[: len(package) - (level - 1)]
        return ".".join([*base, module] if module else base) or None

    def is_internal_top(self, name: str) -> bool:
        return name.split(".", maxsplit=1)[0] in self._tops

    def module_value(self, name: str) -> Value:
        path = self.find_module(name)
        if path is not None:
            return Mod(path, name)
        return UNKNOWN if self.is_internal_top(name) else Ext(name)

    def member(self, mod: Mod, name: str) -> Result:
        """``mod.name``: a module-level binding, a submodule, or a star-imported name."""
        iface = self.interface(mod.path)
        if name in iface["names"]:
            value, how = self.lookup((mod.path, ("module",)), name)
            return value, ("imported", how[1])
        sub = self.find_module(f"{mod.name}.{name}")
        if sub is not None:
            return Mod(sub, f"{mod.name}.{name}"), ("imported", False)
        star = self._from_stars(mod.path, iface, name)
        if star is not None:
            return star[0], ("imported", star[1][1])
        return UNKNOWN, NO_HOW

    def _from_stars(self, path: str, iface: Any, name: str) -> Result | None:
        outside: Value | None = None
        for module, level, _line in reversed(iface["stars"]):
            source = self.absolute(path, module, level)
            if source is None:
                continue
            found = self.module_value(source)
            if isinstance(found, Mod):
                if self._exports(found, name):
                    return self.member(found, name)
            elif isinstance(found, Ext) and outside is None:
                outside = Ext(f"{source}.{name}")
        return (outside, ("imported", False)) if outside is not None else None

    def _exports(self, mod: Mod, name: str) -> bool:
        iface = self.interface(mod.path)
        if iface["all"] is not None:
            return name in iface["all"]
        if name.startswith("_"):
            return False
        return name in iface["names"] or any(True for _ in iface["stars"])

    def imported(self, path: str, module: str, level: int, name: str) -> Result:
        source = self.absolute(path, module, level)
        if source is None:
            return UNKNOWN, NO_HOW
        found = self.module_value(source)
        if isinstance(found, Mod):
            value, how = self.member(found, name)
            reexport = how[1] or (
                self.layout.modules[found.path].is_package and not isinstance(value, Mod)
            )
            return value, ("imported", reexport)
        if isinstance(found, Ext):
            return Ext(f"{source}.{name}"), ("imported", False)
        return UNKNOWN, NO_HOW

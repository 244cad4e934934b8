"""Names looked up as Python does: a function's locals, enclosing functions (class bodies
skipped), the module (a later star import rebinding a name), star imports, builtins; a name
bound several ways is known only when every binding agrees."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.extract.python.evaluate.state import (
    BUILTINS,
    NO_HOW,
    EvaluatorState,
    Result,
    Scope,
)
from groundkit.codemap.extract.python.values import UNKNOWN, Builtin, ExtInst, Inst, Value

__all__ = ["Names"]


class Names(EvaluatorState):
    """Name lookup, memoised."""

    def lookup(self, scope: Scope, name: str) -> Result:
        path, key = scope
        return self._memoised((path, key, name), lambda: self._lookup(path, key, name))

    def _lookup(self, path: str, key: tuple[Any, ...], name: str) -> Result:
        if key[0] == "scope":
            return self._lookup_in_scopes(path, key[1], name)
        if key[0] == "class":
            names = self.interface(path)["classes"][key[1]]["names"]
            if name in names:
                return self.agree(names[name], (path, key))
            return self.lookup((path, ("module",)), name)
        iface = self.interface(path)
        if name in iface["names"]:
            # A star import after the name's last binding rebinds it (when it brings the name).
            last = iface["lines"].get(name, 0)
            later = [s for s in iface["stars"] if s[2] > last]
            if later:
                star = self._from_stars(path, {"stars": later}, name)
                if star is not None:
                    return star
            value, how = self.agree(iface["names"][name], (path, key))
            return _held(value, f"py:{self.module_name(path)}.{name}"), how
        star = self._from_stars(path, iface, name)
        if star is not None:
            return star
        if name in BUILTINS:
            return Builtin(name), ("builtin", False)
        return UNKNOWN, NO_HOW

    def _lookup_in_scopes(self, path: str, index: int, name: str) -> Result:
        body = self.body(path)
        scopes = body["scopes"]
        first = True
        while index > 0:
            qual, kind, parent = scopes[index][0], scopes[index][1], scopes[index][2]
            if name in body["global"].get(str(index), ()):
                break
            if kind == "class":
                if first:
                    return self.lookup((path, ("class", qual)), name)
            else:
                bound = body["bind"].get(str(index), {}).get(name)
                if bound is not None:
                    value, how = self.agree(bound, (path, ("scope", index)))
                    return _held(value, f"py:{self.module_name(path)}.{qual}.{name}"), how
            first = False
            index = parent
        return self.lookup((path, ("module",)), name)

    def agree(self, values: list[Any], scope: Scope) -> Result:
        """The one value every binding gives (``None`` placeholders aside), else unknown."""
        result: Result | None = None
        for value in values:
            if value[0][0] == "none":
                continue
            got = self.evaluate(value, scope)
            if result is None:
                result = got
            elif got[0] != result[0]:
                return UNKNOWN, NO_HOW
        return result if result is not None else (UNKNOWN, NO_HOW)


def _held(value: Value, origin: str) -> Value:
    """An instance as held by a named variable: routers are known by the variable's name."""
    if isinstance(value, ExtInst) and value.origin is None:
        return ExtInst(value.name, origin, value.site)
    if isinstance(value, Inst) and value.origin is None:
        return Inst(value.cls, origin, value.site)
    return value

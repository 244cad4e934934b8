"""Attribute chains and calls applied to a value: ``a.b().c`` step by step, what a call returns
(an instance, a function's return value, an outside object) and what an attribute of a module,
an outside object, a class or an instance is."""

from __future__ import annotations

import builtins

from groundkit.codemap.extract.python.evaluate.state import (
    BUILTINS,
    NO_HOW,
    EvaluatorState,
    How,
    Result,
)
from groundkit.codemap.extract.python.values import (
    UNKNOWN,
    Bound,
    Builtin,
    Def,
    Ext,
    ExtInst,
    Inst,
    Lit,
    Mod,
    Str,
    Super,
    Tmpl,
    Unknown,
    Value,
)

__all__ = ["Attributes"]

# Outside functions whose result is whatever code they load: never an outside value.
_DYNAMIC = frozenset({"importlib.import_module", "importlib.__import__", "sys.modules.get"})
# Built-ins whose result is a value of a built-in type (its methods are built-in too); any other
# built-in's result (getattr, next, max, ...) could be anything.
_PLAIN_RESULTS = frozenset(
    {name for name in BUILTINS if isinstance(getattr(builtins, name), type)}
    | set(
        "len repr abs round hash id format chr ord hex oct bin isinstance issubclass hasattr"
        " callable open print input sum any all divmod pow ascii sorted".split()
    )
) - {"super", "type"}


class Attributes(EvaluatorState):
    """Attributes and calls."""

    def apply(self, result: Result, rest: list[str], path: str, site: int) -> Result:
        value, how = result
        for i, step in enumerate(rest):
            if isinstance(value, Unknown):
                return value, how
            if step == "()":
                last = site if i == len(rest) - 1 else -1
                value, how = self.call(value, how, (path, last) if last >= 0 else None)
            else:
                value, how = self.attribute(value, how, step)
        return value, how

    def call(self, value: Value, how: How, site: tuple[str, int] | None) -> Result:
        if isinstance(value, Def):
            if value.kind == "class":
                return Inst(value, None, site), ("instance", False)
            return self.returns(value), ("return", False)
        if isinstance(value, Ext):
            if value.name in _DYNAMIC:
                return UNKNOWN, NO_HOW
            return ExtInst(value.name, None, site), (how[0], False)
        if isinstance(value, Bound):
            return ExtInst(f"{value.receiver.name}.{value.attr}"), (how[0], False)
        if isinstance(value, Builtin):
            return (
                (Lit(), ("builtin", False)) if value.name in _PLAIN_RESULTS else (UNKNOWN, NO_HOW)
            )
        return UNKNOWN, NO_HOW

    def returns(self, func: Def) -> Value:
        info = self.interface(func.path)["funcs"].get(func.qual)
        if not info or not info[2]:
            return UNKNOWN
        scope = (func.path, ("module",))
        value, _ = self._memoised(
            (func.path, ("returns",), func.qual), lambda: self.agree(info[2], scope)
        )
        return value if isinstance(value, Def | Inst | Mod | ExtInst | Ext) else UNKNOWN

    def attribute(self, value: Value, how: How, attr: str) -> Result:
        if isinstance(value, Mod):
            found, step = self.member(value, attr)
            return found, (how[0] or "imported", how[1] or step[1])
        if isinstance(value, Ext):
            return Ext(f"{value.name}.{attr}"), how
        if isinstance(value, ExtInst):
            return Bound(value, attr), how
        if isinstance(value, Def) and value.kind == "class":
            return self._class_attribute(value, value, attr, how, instance=False)
        if isinstance(value, Inst):
            return self._class_attribute(value.cls, value.cls, attr, how, instance=True)
        if isinstance(value, Super):
            return self._class_attribute(value.cls, value.cls, attr, how, instance=True, skip=1)
        if isinstance(value, Lit | Str | Tmpl | Builtin | Bound):
            return Lit(), ("builtin", False)
        return UNKNOWN, NO_HOW

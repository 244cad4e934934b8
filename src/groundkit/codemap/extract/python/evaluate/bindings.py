"""A binding's fact (``[base, rest of the reference, call site]``, see ``parse/bindings.py``)
evaluated to a value: definitions and what their decorators make of them, ``self``/``cls``,
``super()``, annotations, imports, strings and templates, ``with ... as``."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.extract.python.evaluate.state import NO_HOW, EvaluatorState, Result, Scope
from groundkit.codemap.extract.python.values import (
    UNKNOWN,
    Bound,
    Builtin,
    Def,
    Ext,
    ExtInst,
    Inst,
    Lit,
    Str,
    Super,
    Tmpl,
    Value,
)

__all__ = ["Bindings"]


class Bindings(EvaluatorState):
    """Binding facts to values."""

    def evaluate(self, value: list[Any], scope: Scope) -> Result:
        base, rest = value[0], value[1]
        site = value[2] if len(value) > 2 else -1
        result = self._base(base, scope, site if not rest else -1)
        return self.apply(result, rest, scope[0], site)

    def _base(self, base: list[Any], scope: Scope, site: int) -> Result:
        path = scope[0]
        tag = base[0]
        if tag == "name":
            return self.lookup(scope, base[1])
        if tag == "def":
            return self.definition(path, base[1]), ("local", False)
        if tag in {"self", "cls"}:
            cls = self.definition(path, base[1])
            if not isinstance(cls, Def):
                return UNKNOWN, NO_HOW
            return (Inst(cls) if tag == "self" else cls), ("self", False)
        if tag == "super":
            cls = self.definition(path, base[1])
            return (Super(cls), ("super", False)) if isinstance(cls, Def) else (UNKNOWN, NO_HOW)
        if tag == "ann":
            found, how = self.apply(self.lookup(scope, base[1][0]), base[1][1:], path, -1)
            if isinstance(found, Def) and found.kind == "class":
                return Inst(found), ("annotation", False)
            if isinstance(found, Ext):
                return ExtInst(found.name), ("annotation", False)
            return UNKNOWN, NO_HOW
        if tag == "mod":
            name = self.absolute(path, base[1], base[2])
            return (self.module_value(name), ("imported", False)) if name else (UNKNOWN, NO_HOW)
        if tag == "from":
            return self.imported(path, base[1], base[2], base[3])
        if tag == "decorated":
            return self._decorated(path, base[1], base[2], scope)
        if tag == "str":
            return Str(base[1]), NO_HOW
        if tag == "tmpl":
            return Tmpl(tuple(self.text_pieces(base[1], scope))), NO_HOW
        if tag == "lit":
            return Lit(), ("builtin", False)
        if tag == "with":
            inner, how = self.evaluate(base[1], scope)
            if isinstance(inner, ExtInst):
                return inner, how  # an outside client: taken to return itself
            if isinstance(inner, Inst):
                return self._entered(inner), ("instance", False)
            return UNKNOWN, NO_HOW
        return UNKNOWN, NO_HOW

    def _decorated(self, path: str, qual: str, decorators: list[Any], scope: Scope) -> Result:
        """A definition passed through its decorators, innermost first. An in-repository
        decorator gives what it returns (its argument unchanged, a wrapper, an instance); one
        from outside the repository is taken to keep the function callable as itself."""
        value: Value = self.definition(path, qual)
        for decorator in reversed(decorators):
            found, _ = self.evaluate(decorator, scope)
            value = self.decorate(found, value)
        return value, ("local", False)

    def decorate(self, decorator: Value, value: Value) -> Value:
        if isinstance(decorator, Def):
            if decorator.kind == "class":
                return Inst(decorator)
            info = self.interface(decorator.path)["funcs"].get(decorator.qual)
            rets = [r for r in (info[2] if info else []) if r[0][0] != "none"]
            if rets and all(r[0] == ["arg", 0] and not r[1] for r in rets):
                return value  # returns the function it was given
            returned = self.returns(decorator)
            return returned if isinstance(returned, Def | Inst) else UNKNOWN
        if isinstance(decorator, Ext | ExtInst | Bound | Builtin | Lit):
            return value
        return UNKNOWN

    def _entered(self, inst: Inst) -> Value:
        """What ``with inst as x`` binds: what its ``__enter__`` (or ``__aenter__``) returns."""
        for method in ("__enter__", "__aenter__"):
            found, _ = self._class_attribute(inst.cls, inst.cls, method, NO_HOW, instance=True)
            if isinstance(found, Def):
                return self.returns(found)
        return UNKNOWN

    def definition(self, path: str, qual: str) -> Value:
        iface = self.interface(path)
        module = self.module_name(path)
        if qual in iface["classes"]:
            return Def(path, module, qual, "class")
        func = iface["funcs"].get(qual)
        if func is not None:
            return Def(path, module, qual, func[0])
        return UNKNOWN

    def text_pieces(self, pieces: list[Any], scope: Scope) -> list[str | None]:
        """Literal parts kept; a name that is a string constant becomes its text."""
        out: list[str | None] = []
        for piece in pieces:
            if isinstance(piece, str) or piece is None:
                out.append(piece)
                continue
            ref = piece[1]
            found, _ = self.apply(self.lookup(scope, ref[0]), ref[1:], scope[0], -1)
            if isinstance(found, Str):
                out.append(found.value)
            elif isinstance(found, Tmpl):
                out.extend(found.pieces)
            else:
                out.append(None)
        return out

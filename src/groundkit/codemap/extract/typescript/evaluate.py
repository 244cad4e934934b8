"""What a name or expression holds, across files: imports followed through re-exports (``export
... from``, ``export *``, CommonJS ``module.exports``), classes through their in-repository bases.

Nothing is guessed: a name whose value depends on run time (a parameter, a variable assigned
twice, a member of something unknown) is ``Unknown``, and a call through it is counted as
unresolved by the caller of this module.
"""

from __future__ import annotations

from typing import Any

from groundkit.codemap.extract.base import Project
from groundkit.codemap.extract.typescript.frameworks import ANNOTATED, construct
from groundkit.codemap.extract.typescript.modules import Layout, module_name
from groundkit.codemap.extract.typescript.values import (
    Def,
    Ext,
    Global,
    Inst,
    Lit,
    Mod,
    Obj,
    Str,
    Unknown,
    Value,
    Web,
)

__all__ = ["Evaluator", "Scope"]

Scope = tuple[str, int]  # (path, scope index; 0 the module, -1 a module read from outside)
_DEPTH = 40


class Evaluator:
    def __init__(self, project: Project, layout: Layout) -> None:
        self.project = project
        self.layout = layout
        self.deps: set[str] = set()  # keys of the files consulted (``ts:`` + path)
        self._body: tuple[str, Any] | None = None
        self._depth = 0

    # -- facts ------------------------------------------------------------------------------------
    def interface(self, path: str) -> Any:
        self.deps.add("ts:" + path)
        return self.project.facts(path).interface

    def start(self, path: str) -> Any:
        """Resolve ``path`` next: its body is read (only that file's)."""
        self.deps = set()
        body = self.project.facts(path).body
        self._body = (path, body)
        return body

    def _scopes(self, path: str) -> Any:
        if self._body is not None and self._body[0] == path:
            return self._body[1]
        return None

    def resolve(self, importer: str, spec: str) -> Value:
        found = self.layout.resolve(importer, spec)
        self.deps.update("ts:" + p for p in found.consulted)
        if found.target is not None:
            self.deps.add("ts:" + found.target)
            return Mod(found.target)
        if found.external is not None:
            return Ext(found.external)
        return Unknown()

    # -- names ------------------------------------------------------------------------------------
    def lookup(self, scope: Scope, name: str) -> Value:
        path, index = scope
        body = self._scopes(path)
        while body is not None and index > 0:
            table = body["bind"].get(str(index))
            if table and name in table:
                return self.value(table[name], (path, index), name)
            index = body["scopes"][index][2]
        names = self.interface(path)["names"]
        if name in names:
            return self.value(names[name], (path, 0), name)
        return Global(name)

    def export(self, path: str, name: str, seen: frozenset[tuple[str, str]] = frozenset()) -> Value:
        """What module ``path`` exports as ``name`` (``default``: else ``module.exports``)."""
        if (path, name) in seen or len(seen) > _DEPTH:
            return Unknown()
        seen = seen | {(path, name)}
        iface = self.interface(path)
        found = iface["exports"].get(name)
        if found is None and name == "default":
            found = iface["exports"].get("=")
        if found is not None:
            return self._export_value(path, found, seen)
        for spec in iface["stars"]:
            if name == "default":
                break
            target = self.resolve(path, spec)
            if isinstance(target, Mod):
                value = self.export(target.path, name, seen)
                if not isinstance(value, Unknown):
                    return value
        return Unknown()

    def _export_value(self, path: str, found: list[Any], seen: frozenset[tuple[str, str]]) -> Value:
        tag = found[0]
        if tag == "local":
            names = self.interface(path)["names"]
            if found[1] in names:
                return self.value(names[found[1]], (path, -1), found[1])
            return Unknown()
        if tag == "from":
            target = self.resolve(path, found[1])
            if isinstance(target, Mod):
                return self.export(target.path, found[2], seen)
            return Ext(target.package, (found[2],)) if isinstance(target, Ext) else Unknown()
        if tag == "ns":
            return self.resolve(path, found[1])
        return self.value(found, (path, -1), None)

    # -- expressions ------------------------------------------------------------------------------
    def value(self, summary: list[Any], scope: Scope, name: str | None = None) -> Value:
        if self._depth > _DEPTH:
            return Unknown()
        self._depth += 1
        try:
            return self._value(summary, scope, name)
        finally:
            self._depth -= 1

    def _value(self, summary: list[Any], scope: Scope, name: str | None) -> Value:
        tag, path = summary[0], scope[0]
        if tag == "def":
            return self.definition(path, summary[1])
        if tag == "import":
            target = self.resolve(path, summary[1])
            if isinstance(target, Mod):
                return self.export(target.path, summary[2])
            if isinstance(target, Ext):
                return Ext(target.package, () if summary[2] == "default" else (summary[2],))
            return target
        if tag in ("ns", "req", "dyn"):
            return self.resolve(path, summary[1])
        if tag == "r":
            return self.reference(summary[1], scope)
        if tag in ("c", "n"):
            return self._call(summary, scope, name)
        if tag == "o":
            return Obj(path, summary[1])
        if tag in ("s", "t"):
            return self.text(summary, scope) or Unknown()
        if tag == "param":
            return self._param(summary[1], scope, summary[2] if len(summary) > 2 else 0)
        if tag in ("lit", "a"):
            return Lit()
        return Unknown()

    def reference(self, ref: list[str], scope: Scope) -> Value:
        head = ref[0]
        if head == "this":
            cls = self.this_class(scope)
            value: Value = Inst(cls) if cls is not None else Unknown()
        elif head == "super":
            return Unknown()  # only as a callee (``call.py``)
        else:
            value = self.lookup(scope, head)
        return self.apply(value, ref[1:], scope)

    def apply(self, value: Value, rest: list[str], scope: Scope) -> Value:
        for part in rest:
            if part == "()":
                value = (
                    Ext(value.package, (*value.attrs, "()"))
                    if isinstance(value, Ext)
                    else (value if isinstance(value, Global | Lit) else Unknown())
                )
            elif part == "new":
                value = (
                    Inst(value)
                    if isinstance(value, Def) and value.kind == "class"
                    else (value if isinstance(value, Ext | Global) else Unknown())
                )
            else:
                value = self.attribute(value, part)
        return value

    def attribute(self, value: Value, name: str) -> Value:
        if isinstance(value, Mod):
            return self.export(value.path, name)
        if isinstance(value, Ext):
            return Ext(value.package, (*value.attrs, name))
        if isinstance(value, Web):
            return Ext(value.role, (name,))
        if isinstance(value, Global):
            return Global(f"{value.name}.{name}")  # window.fetch
        if isinstance(value, Lit | Str):
            return Lit()
        if isinstance(value, Obj):
            member = value.fields.get(name)
            return self.value(member, (value.path, -1), name) if member else Unknown()
        if isinstance(value, Inst | Def) and (cls := _class_of(value)) is not None:
            found = self.method(cls, name)
            return found[0] if found is not None else Unknown()
        return Unknown()

    def _call(self, summary: list[Any], scope: Scope, name: str | None) -> Value:
        ref, args = summary[1], summary[2]
        if ref is None:
            return Unknown()
        callee = self.reference(ref, scope)
        router = self.router_id(scope, name)
        web = construct(callee, summary[0], args, router, lambda s: self.text(s, scope))
        if web is not None:
            return web
        if summary[0] == "n":
            return self.apply(callee, ["new"], scope)
        return self.apply(callee, ["()"], scope)

    def _param(self, annotation: list[str] | None, scope: Scope, position: int) -> Value:
        if not annotation:
            return Unknown()
        typed = self.reference(annotation, scope)
        if isinstance(typed, Ext) and (typed.package, typed.attrs) in ANNOTATED:
            role = ANNOTATED[(typed.package, typed.attrs)]
            return Web(role, self.router_id(scope, f"#{position}"))
        return Unknown()

    def text(self, summary: Any, scope: Scope) -> Str | None:
        """A string summary in pieces, names of string constants folded in."""
        if summary is None:
            return None
        if summary[0] == "s":
            return Str((summary[1],))
        if summary[0] == "r":
            value = self.reference(summary[1], scope)
            return value if isinstance(value, Str) else None
        if summary[0] != "t":
            return None
        pieces: list[str | None] = []
        for part in summary[1]:
            if isinstance(part, str):
                pieces.append(part)
                continue
            inner = self.text(part, scope)
            pieces.extend(inner.pieces if inner is not None else (None,))
        return Str(tuple(pieces))

    # -- definitions and classes ------------------------------------------------------------------
    def definition(self, path: str, qual: str) -> Def:
        classes = self.interface(path)["classes"]
        if qual in classes:
            return Def(path, qual, "class")
        owner = qual.rpartition(".")[0]
        return Def(path, qual, "method" if owner in classes else "function")

    def this_class(self, scope: Scope) -> Def | None:
        body = self._scopes(scope[0])
        if body is None or scope[1] < 0:
            return None
        cls = body["scopes"][scope[1]][6]
        return Def(scope[0], cls, "class") if cls else None

    def bases(self, cls: Def) -> list[Def]:
        info = self.interface(cls.path)["classes"].get(cls.qual)
        out = []
        for base in info["bases"] if info else []:
            value = self.value(base, (cls.path, -1))
            if isinstance(value, Def) and value.kind == "class":
                out.append(value)
        return out

    def method(
        self, cls: Def, name: str, seen: frozenset[Def] = frozenset()
    ) -> tuple[Def, bool] | None:
        """``name`` on ``cls`` or its first in-repository base that has it; (def, inherited)."""
        if cls in seen or len(seen) > _DEPTH:
            return None
        info = self.interface(cls.path)["classes"].get(cls.qual)
        if info and name in info["methods"]:
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

    def router_id(self, scope: Scope, name: str | None) -> str:
        """The stable name of the variable an app or router is bound to: ``ts:<module>:<name>``."""
        path, index = scope
        body = self._scopes(path)
        owner = body["scopes"][index][0] if body is not None and index > 0 else ""
        local = f"{owner}.{name}" if owner and name else name or owner
        return f"ts:{module_name(path)}:{local}"


def _class_of(value: Value) -> Def | None:
    if isinstance(value, Inst):
        return value.cls
    if isinstance(value, Def) and value.kind == "class":
        return value
    return None

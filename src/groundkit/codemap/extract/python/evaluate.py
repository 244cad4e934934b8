"""Static evaluation of names and attribute chains across the repository's Python modules.

Python's own lookup rules, as far as they can be followed without running anything: a function's
locals, enclosing functions (class bodies skipped), the module, star imports, then builtins;
attributes through modules (re-exports and submodules), classes and instances (C3 MRO over the
in-repository bases), ``super()``. A name bound several times is known only when every binding
agrees (a ``None`` placeholder aside); anything else is ``Unknown``, never a guess.

Each result carries *how* it was reached (the root binding and the steps since), from which the
edge's provenance follows. Every other module consulted is recorded as a dependency key.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from functools import partial
from typing import Any

from groundkit.codemap.extract.base import Project
from groundkit.codemap.extract.python.layout import Layout
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

__all__ = ["BUILTINS", "Evaluator", "How", "Scope"]

BUILTINS = frozenset(dir(builtins))
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

# How a value was reached: the root binding ("local", "imported", "self", "annotation",
# "instance", "return", "super", "builtin") and whether a class lookup went to a base.
How = tuple[str, bool]
Result = tuple[Value, How]
# Where a name is looked up: (file, ("module",)), (file, ("class", qualname)) or, in the file
# being resolved, (file, ("scope", index)).
Scope = tuple[str, tuple[Any, ...]]

_NO: How = ("", False)
_MAX_DEPTH = 40


class Evaluator:
    def __init__(self, project: Project, layout: Layout) -> None:
        self.project = project
        self.layout = layout
        self._interfaces: dict[str, Any] = {}
        self._bodies: dict[str, Any] = {}
        # Memoised across files, each result with the modules it consulted: a file that reuses a
        # result depends on them as much as the file that first computed it.
        self._memo: dict[tuple[str, tuple[Any, ...], str], tuple[Result, frozenset[str]]] = {}
        self._busy: set[Any] = set()
        self._mro: dict[Def, tuple[tuple[list[Def], bool], frozenset[str]]] = {}
        self._tops = {name.split(".")[0] for name in layout.by_name}
        self._patched: dict[tuple[Def, str], set[str | None]] = {}
        self.deps: set[str] = set()
        # Property getters read while evaluating a call site's own chain (not inside a binding
        # looked up on the way, which belongs to where that binding is).
        self.properties: list[tuple[Def, How]] | None = None
        self.current = ""
        self.depth = 0

    # -- facts ------------------------------------------------------------------------------------
    def interface(self, path: str) -> Any:
        info = self.layout.modules.get(path)
        if info is not None:  # the file's own key is dropped by whoever collects them
            self.deps.add("py:" + info.name)
        found = self._interfaces.get(path)
        if found is None:
            found = self._interfaces[path] = self.project.facts(path).interface
        return found

    def body(self, path: str) -> Any:
        found = self._bodies.get(path)
        if found is None:
            found = self._bodies[path] = self.project.facts(path).body
        return found

    def start(self, path: str) -> None:
        """Begin resolving ``path``: its dependencies are collected afresh; its own function
        scopes (``("scope", i)``) may now be looked up."""
        self.current = path
        self.deps = set()

    def forget_body(self, path: str) -> None:
        self._bodies.pop(path, None)

    # -- modules ----------------------------------------------------------------------------------
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
        return UNKNOWN, _NO

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

    # -- names ------------------------------------------------------------------------------------
    def lookup(self, scope: Scope, name: str) -> Result:
        path, key = scope
        return self._memoised((path, key, name), lambda: self._lookup(path, key, name))

    def _memoised(
        self, memo_key: tuple[str, tuple[Any, ...], str], compute: Callable[[], Result]
    ) -> Result:
        """``compute()`` once per key, cycles cut (to unknown), its dependencies kept with it."""
        found = self._memo.get(memo_key)
        if found is not None:
            self.deps.update(found[1])
            return found[0]
        if memo_key in self._busy or self.depth > _MAX_DEPTH:
            return UNKNOWN, _NO
        self._busy.add(memo_key)
        self.depth += 1
        outer, self.deps = self.deps, set()
        try:
            result = compute()
        finally:
            self.depth -= 1
            self._busy.discard(memo_key)
            mine, self.deps = self.deps, outer
            self.deps.update(mine)
        self._memo[memo_key] = (result, frozenset(mine))
        return result

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
        return UNKNOWN, _NO

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
                return UNKNOWN, _NO
        return result if result is not None else (UNKNOWN, _NO)

    # -- values -----------------------------------------------------------------------------------
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
                return UNKNOWN, _NO
            return (Inst(cls) if tag == "self" else cls), ("self", False)
        if tag == "super":
            cls = self.definition(path, base[1])
            return (Super(cls), ("super", False)) if isinstance(cls, Def) else (UNKNOWN, _NO)
        if tag == "ann":
            found, how = self.apply(self.lookup(scope, base[1][0]), base[1][1:], path, -1)
            if isinstance(found, Def) and found.kind == "class":
                return Inst(found), ("annotation", False)
            if isinstance(found, Ext):
                return ExtInst(found.name), ("annotation", False)
            return UNKNOWN, _NO
        if tag == "mod":
            name = self.absolute(path, base[1], base[2])
            return (self.module_value(name), ("imported", False)) if name else (UNKNOWN, _NO)
        if tag == "from":
            return self.imported(path, base[1], base[2], base[3])
        if tag == "decorated":
            return self._decorated(path, base[1], base[2], scope)
        if tag == "str":
            return Str(base[1]), _NO
        if tag == "tmpl":
            return Tmpl(tuple(self.text_pieces(base[1], scope))), _NO
        if tag == "lit":
            return Lit(), ("builtin", False)
        if tag == "with":
            inner, how = self.evaluate(base[1], scope)
            if isinstance(inner, ExtInst):
                return inner, how  # an outside client: taken to return itself
            if isinstance(inner, Inst):
                return self._entered(inner), ("instance", False)
            return UNKNOWN, _NO
        return UNKNOWN, _NO

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
            found, _ = self._class_attribute(inst.cls, inst.cls, method, _NO, instance=True)
            if isinstance(found, Def):
                return self.returns(found)
        return UNKNOWN

    def imported(self, path: str, module: str, level: int, name: str) -> Result:
        source = self.absolute(path, module, level)
        if source is None:
            return UNKNOWN, _NO
        found = self.module_value(source)
        if isinstance(found, Mod):
            value, how = self.member(found, name)
            reexport = how[1] or (
                self.layout.modules[found.path].is_package and not isinstance(value, Mod)
            )
            return value, ("imported", reexport)
        if isinstance(found, Ext):
            return Ext(f"{source}.{name}"), ("imported", False)
        return UNKNOWN, _NO

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

    # -- attributes and calls ---------------------------------------------------------------------
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
                return UNKNOWN, _NO
            return ExtInst(value.name, None, site), (how[0], False)
        if isinstance(value, Bound):
            return ExtInst(f"{value.receiver.name}.{value.attr}"), (how[0], False)
        if isinstance(value, Builtin):
            return (Lit(), ("builtin", False)) if value.name in _PLAIN_RESULTS else (UNKNOWN, _NO)
        return UNKNOWN, _NO

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
        return UNKNOWN, _NO

    def _class_attribute(
        self, cls: Def, start: Def, attr: str, how: How, *, instance: bool, skip: int = 0
    ) -> Result:
        mro, open_ended = self.mro(cls)
        for owner in mro[skip:]:
            patched = self.patched(owner)
            if attr in patched or None in patched:
                return UNKNOWN, _NO  # replaced from outside the class: no static target
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
        return UNKNOWN, _NO

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


def _held(value: Value, origin: str) -> Value:
    """An instance as held by a named variable: routers are known by the variable's name."""
    if isinstance(value, ExtInst) and value.origin is None:
        return ExtInst(value.name, origin, value.site)
    if isinstance(value, Inst) and value.origin is None:
        return Inst(value.cls, origin, value.site)
    return value


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


Lookup = Callable[[Scope, str], Result]

"""The files of one map linked together: module names, what each module binds, star imports,
and the class hierarchy (bases, C3 MRO, subclasses).

The hierarchy is found before values flow, from what each ``class`` statement names as its
bases, followed through bindings, imports and modules without running anything (a base made by
a call is a base outside the repository, as far as lookups go).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Call, Facts, Kind, Op, SetAttr, SiteKind
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, SiteKey
from groundkit.codemap.extract.python.values.subclassing import (
    is_param_base,
    made_in_body,
    sole_bases,
)

__all__ = ["BUILTINS", "FileInfo", "Numbering", "Program", "Scans"]

BUILTINS = frozenset(dir(builtins))
# What a variable is before values flow, tagged by its first item: a class or a function of the
# repository, a module of it (by file), or a name outside it (dotted, a builtin, or what calling
# an outside name gives).
Static = (
    tuple[Literal["class"], ClassKey]
    | tuple[Literal["func"], FuncKey]
    | tuple[Literal["mod"], int]
    | tuple[Literal["ext", "builtin", "extcall"], str]
    | tuple[Literal["made"], SiteKey]  # an instance of a class of the repository, made there
    # what a class decorator made on a class of the repository (its body's class, that class:
    # ``subclassing.py``)
    | tuple[Literal["wrapped"], tuple[ClassKey, ClassKey]]
)
Module = tuple[Literal["mod"], int] | tuple[Literal["ext"], str]  # what ``import name`` finds
_DEPTH = 40


@dataclass(slots=True)
class Scans:
    """Ops of one file's facts that a whole-program pass looks for in every file, found once
    for those facts and shared by every program that takes them (a continued edit's passes
    would otherwise read every op of every file again: django, 0.08 CPU s of an edit's 0.4)."""

    decorations: list[Call] | None = None  # calls of a decorator, in order
    named: tuple[frozenset[str], list[Call]] | None = None  # (names, ``calls_named(names)``)
    attribute_sets: list[SetAttr] | None = None  # ``obj.attr = ...``, in order
    class_binds: dict[tuple[int, str], list[int]] | None = None  # (class, name) -> what it binds


@dataclass(slots=True)
class FileInfo:
    index: int
    path: str
    module: str  # dotted name
    is_package: bool
    facts: Facts
    base: int  # the first global variable number of this file's variables
    # A file that grew since the solve a continuation takes on (``values/continued.py``) keeps
    # its old variables' numbers; the ``gap`` new ones its edit put from ``gap_at`` on are
    # numbered from ``tail``, after every variable of that solve. A file solved afresh has none.
    gap_at: int = 1 << 62
    gap: int = 0
    tail: int = 0
    binds: set[str] = field(default_factory=set)  # module-level names bound (or set global)
    mod_binds: dict[str, int] = field(default_factory=dict)  # name -> the variable bound last
    global_sets: dict[str, list[int]] = field(default_factory=dict)
    stars: list[tuple[str, int]] = field(default_factory=list)  # star imports, in order
    class_names: dict[int, set[str]] = field(default_factory=dict)  # class scope -> its names
    dunders: set[str] = field(default_factory=set)  # __x__ names its class bodies bind
    # the strings a parameter's flag is compared with (``x == "r"``, ``parse/flags.py``)
    flag_strings: set[str] = field(default_factory=set)
    defining: list[int] | None = None  # variable -> the op that binds it (-1: none)
    _calls: dict[int, Call] | None = None
    scans: Scans = field(default_factory=Scans)

    def take_index(self, other: FileInfo) -> None:
        """What ``other`` (of the same facts) found of them, shared: nothing changes it once
        found (``Program._index``, and the tables ``op_of`` and ``calls_by_site`` make)."""
        self.binds, self.mod_binds, self.global_sets = (
            other.binds,
            other.mod_binds,
            other.global_sets,
        )
        self.stars, self.class_names, self.dunders = other.stars, other.class_names, other.dunders
        self.flag_strings = other.flag_strings
        if other.defining is None:
            other.op_of(-1)  # (made once, for every program that takes it)
        self.defining = other.defining
        self._calls = other.calls_by_site()
        self.scans = other.scans

    def var(self, local: int) -> int:
        """The global number of this file's variable ``local``."""
        if local < self.gap_at:
            return self.base + local
        if local < self.gap_at + self.gap:
            return self.tail + local - self.gap_at
        return self.base + local - self.gap

    def local(self, var: int) -> int:
        """This file's number of global variable ``var`` (-1: not one of this file's)."""
        if self.base <= var < self.base + self.facts.variables - self.gap:
            local = var - self.base
            return local if local < self.gap_at else local + self.gap
        if self.tail <= var < self.tail + self.gap:
            return var - self.tail + self.gap_at
        return -1

    def calls_by_site(self) -> dict[int, Call]:
        """The call op of each call site."""
        if self._calls is None:
            self._calls = {op.site: op for op in self.facts.ops if isinstance(op, Call)}
        return self._calls

    def decorations(self) -> list[Call]:
        """The calls of a decorator, in order."""
        scans = self.scans
        if scans.decorations is None:
            sites = self.facts.sites
            scans.decorations = [
                op
                for op in self.facts.ops
                if isinstance(op, Call) and sites[op.site].kind == SiteKind.DECORATOR
            ]
        return scans.decorations

    def calls_named(self, names: frozenset[str]) -> list[Call]:
        """The calls of a decorator and the calls by one of ``names``, in order (kept for the
        last ``names`` asked)."""
        scans = self.scans
        if scans.named is None or scans.named[0] != names:
            sites = self.facts.sites
            found = [
                op
                for op in self.facts.ops
                if isinstance(op, Call)
                and (sites[op.site].kind == SiteKind.DECORATOR or sites[op.site].name in names)
            ]
            scans.named = (names, found)
        return scans.named[1]

    def attribute_sets(self) -> list[SetAttr]:
        """The ``obj.attr = ...`` of a named attribute, in order."""
        scans = self.scans
        if scans.attribute_sets is None:
            scans.attribute_sets = [
                op for op in self.facts.ops if isinstance(op, SetAttr) and op.attr is not None
            ]
        return scans.attribute_sets

    def class_bound(self, scope: int, name: str) -> list[int]:
        """What the body of class ``scope`` binds ``name`` to, in order."""
        scans = self.scans
        if scans.class_binds is None:
            found: dict[tuple[int, str], list[int]] = {}
            for op in self.facts.ops:
                if isinstance(op, facts.ClassBind):
                    found.setdefault((op.scope, op.name), []).append(op.src)
            scans.class_binds = found
        return scans.class_binds.get((scope, name), [])

    def op_of(self, var: int) -> Op | None:
        if self.defining is None:
            table = [-1] * self.facts.variables
            for i, op in enumerate(self.facts.ops):
                dst = getattr(op, "dst", -1)
                if dst >= 0 and table[dst] < 0:
                    table[dst] = i
            self.defining = table
        index = self.defining[var] if 0 <= var < len(self.defining) else -1
        return self.facts.ops[index] if index >= 0 else None

    def copied_from(self, local: int, depth: int = 8) -> int:
        """The local ``local`` is a plain copy of, followed back at most ``depth`` copies."""
        for _ in range(depth):
            op = self.op_of(local)
            if isinstance(op, facts.Copy):
                local = op.src
            elif isinstance(op, (facts.Phi, facts.Final)) and len(op.srcs) == 1:
                local = op.srcs[0]
            else:
                break
        return local


@dataclass(frozen=True, slots=True)
class Numbering:
    """The numbers of a solved program's variables: each file's (base, variable count), the
    first number no variable of that solve had, and where each file an edit grew has its new
    variables in its own numbering (file -> (first, how many)): those are numbered from the
    free number on, the others keep theirs."""

    files: Sequence[tuple[int, int]]
    free: int
    gaps: Mapping[int, tuple[int, int]] = field(default_factory=dict)


@dataclass(slots=True)
class ClassInfo:
    bases: list[ClassKey]
    open: bool  # a base outside the repository (or not known): an attribute may be there
    mro: list[ClassKey] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)  # its bases from outside, by dotted name
    # its bases from outside, in order: a built-in class, or None for one the map cannot read
    foreign: list[type | None] = field(default_factory=list)
    subclasses: list[ClassKey] = field(default_factory=list)  # direct
    # a base reached through the class a decorator made on it -> that class (``subclassing``)
    wrapped: dict[ClassKey, ClassKey] = field(default_factory=dict)


class Program:
    """Every Python file of the map, with what can be known of it before values flow."""

    def __init__(
        self,
        files: Sequence[tuple[str, facts.Facts]],
        layout: Layout,
        numbering: Numbering | None = None,
        indexed: MutableMapping[int, FileInfo] | None = None,
    ) -> None:
        """``numbering``: the variable numbers of a solve this one continues. ``indexed``:
        what another program found of each file's facts on their own (by ``id`` of the facts
        object, which the entry holds), taken as it is for the same object and filled in for
        others: a continued edit reads every file's, and only the edited ones are new."""
        self.layout = layout
        self.files: list[FileInfo] = []
        self.by_path: dict[str, int] = {}
        self.consulted: set[str] = set()  # modules whose facts a static lookup read
        base = 0
        for path, file_facts in files:
            info = layout.modules[path]
            item = FileInfo(len(self.files), path, info.name, info.is_package, file_facts, base)
            base += file_facts.variables
            if numbering is not None:
                item.base = numbering.files[len(self.files)][0]
                item.gap_at, item.gap = numbering.gaps.get(len(self.files), (1 << 62, 0))
            known = indexed.get(id(file_facts)) if indexed is not None else None
            if known is not None and known.facts is file_facts:
                item.take_index(known)
            else:
                self._index(item)
                if indexed is not None:
                    indexed[id(file_facts)] = item
            self.by_path[path] = item.index
            self.files.append(item)
        if numbering is not None:  # old numbers first, then each grown file's new variables
            base = numbering.free
            for item in self.files:
                item.tail = base
                base += item.gap
        self.variables = base
        # The dunder methods some class of the repository defines: syntax whose dunder no
        # class defines (``x == y`` with no ``__eq__`` anywhere) runs nothing of ours.
        self.dunders: set[str] = set().union(*(item.dunders for item in self.files))
        self._tops = {name.split(".")[0] for name in layout.by_name}
        self._static: dict[tuple[int, int], Static | None] = {}
        self._busy: set[tuple[int, int]] = set()
        self.classes: dict[ClassKey, ClassInfo] = {}
        self._owners: dict[tuple[ClassKey, str], ClassKey | None] = {}
        self._methods: dict[ClassKey, dict[str, list[int]]] = {}
        self._cones: dict[ClassKey, list[ClassKey]] = {}
        self._made_in = made_in_body(self.files)  # decorators making a subclass of their class
        self._hierarchy()

    @staticmethod
    def _index(item: FileInfo) -> None:
        for op in item.facts.ops:
            if isinstance(op, facts.ModBind):
                item.binds.add(op.name)
                item.mod_binds[op.name] = op.src
            elif isinstance(op, facts.GlobalSet):
                item.binds.add(op.name)
                item.global_sets.setdefault(op.name, []).append(op.src)
            elif isinstance(op, facts.StarImport) and op.name == "*":
                item.stars.append((op.module, op.level))
            elif isinstance(op, facts.ClassBind) and not op.field:
                item.class_names.setdefault(op.scope, set()).add(op.name)
                if op.name.startswith("__"):
                    item.dunders.add(op.name)
            elif isinstance(op, facts.Tested) and op.test.startswith(("eq:'", 'eq:"')):
                item.flag_strings.add(ast.literal_eval(op.test[3:]))

    # -- modules ----------------------------------------------------------------------------------
    def find_module(self, name: str, near: str | None = None) -> int | None:
        path = self.layout.find(name, near=near)
        if path is None:
            self.consulted.add(name)
            return None
        return self.by_path.get(path)

    def absolute(self, file: int, module: str, level: int) -> str | None:
        """The absolute name of ``from <level dots><module> import``, seen from ``file``."""
        if level == 0:
            return module
        info = self.layout.modules[self.files[file].path]
        full = info.full_name.split(".")
        package = full if info.is_package else full[:-1]
        if level - 1 > len(package) or (level - 1 == len(package) and not module):
            return None
        base = package[: len(package) - (level - 1)]
        return ".".join([*base, module] if module else base) or None

    def is_internal(self, name: str) -> bool:
        return name.split(".", maxsplit=1)[0] in self._tops

    def module(self, file: int, name: str) -> Module | None:
        """``import name`` seen from ``file``: a module of the repository, one outside it, or
        None (a module of the repository that is not there)."""
        found = self.find_module(name, near=self.files[file].path)
        if found is not None:
            return ("mod", found)
        return None if self.is_internal(name) else ("ext", name)

    def exports(self, file: int, name: str) -> bool:
        """Whether ``from <file> import *`` brings ``name``."""
        all_names = self.files[file].facts.all
        if all_names is not None:
            return name in all_names
        if name.startswith("_"):
            return False
        return name in self.files[file].binds or bool(self.files[file].stars)

    def star_source(self, file: int, name: str) -> int | None:
        """The module a star import of ``file`` brings ``name`` from (the last one wins)."""
        for module, level in reversed(self.files[file].stars):
            absolute = self.absolute(file, module, level)
            found = self.find_module(absolute, near=self.files[file].path) if absolute else None
            if found is not None and self.exports(found, name):
                return found
        return None

    def star_outside(self, file: int, name: str) -> str | None:
        for module, level in reversed(self.files[file].stars):
            absolute = self.absolute(file, module, level)
            if absolute and not self.is_internal(absolute):
                return f"{absolute}.{name}"
        return None

    def submodule(self, file: int, name: str) -> int | None:
        module = self.files[file].module
        return self.find_module(f"{module}.{name}", near=self.files[file].path)

    # -- static values (class bases) --------------------------------------------------------------
    def static(self, file: int, var: int) -> Static | None:
        key = (file, var)
        if key in self._static:
            return self._static[key]
        if key in self._busy or len(self._busy) > _DEPTH:
            return None
        self._busy.add(key)
        try:
            found = self._evaluate(file, var)
        finally:
            self._busy.discard(key)
        self._static[key] = found
        return found

    def _evaluate(self, file: int, var: int) -> Static | None:
        info = self.files[file]
        op = info.op_of(var)
        if isinstance(op, facts.Def):
            scope = info.facts.scopes[op.scope]
            if scope.kind == Kind.CLASS:
                return ("class", ClassKey((file, op.scope)))
            return ("func", FuncKey((file, op.scope)))
        if isinstance(op, facts.Copy | facts.Annot | facts.Narrow) and getattr(op, "src", -1) >= 0:
            return self.static(file, op.src)
        if isinstance(op, facts.Phi | facts.Final):
            agreed = {self.static(file, s) for s in op.srcs if s != facts.NONE_VAR}
            return agreed.pop() if len(agreed) == 1 else None
        if isinstance(op, facts.Global):
            return self.member(file, op.name)
        if isinstance(op, facts.Import):
            return self._imported(file, op)
        if isinstance(op, facts.StarImport):
            absolute = self.absolute(file, op.module, op.level)
            source = self.module(file, absolute) if absolute else None
            if source is not None and source[0] == "mod" and self.exports(source[1], op.name):
                return self.member(source[1], op.name)
            return self.static(file, op.before) if op.before >= 0 else None
        if isinstance(op, facts.Attr) and op.attr is not None:
            owner = self.static(file, op.obj)
            if owner is None:
                return None
            if owner[0] == "mod":
                return self.member(owner[1], op.attr)
            if owner[0] == "ext":
                return ("ext", f"{owner[1]}.{op.attr}")
            if owner[0] == "class":  # a class nested in another: ``Base.Meta``
                return self._class_member(owner[1], op.attr)
        if isinstance(op, facts.Call):
            return self._called(file, op)
        return None

    def _called(self, file: int, op: facts.Call) -> Static | None:
        """What a call gives, as far as a base class needs: a decorated class stays that class
        when the decorator is from outside the repository (taken to keep it) or is one of the
        repository's that returns what it is given. A class of the repository called makes an
        instance known by the site (a router made from a subclass of a framework's is known by
        the variable holding it, like one the framework makes)."""
        callee = self.static(file, op.func)
        site = self.files[file].facts.sites[op.site]
        if site.kind == SiteKind.DECORATOR and site.args:
            keeps = callee is not None and (
                callee[0] in ("ext", "builtin")
                or (callee[0] == "func" and self._identity(callee[1]))
            )
            if keeps:
                return self.static(file, site.args[0])
            made = self._made_in.get(callee[1]) if callee and callee[0] == "func" else None
            given = self.static(file, site.args[0]) if made is not None else None
            if made is not None and given is not None and given[0] == "class":
                return ("wrapped", (made, given[1]))
        if callee is not None and callee[0] == "ext":
            return ("extcall", callee[1])
        if callee is not None and callee[0] == "class" and site.kind == facts.SiteKind.CALL:
            return ("made", SiteKey((file, op.site)))
        return None

    def _identity(self, func: FuncKey) -> bool:
        """A function whose every ``return`` gives back its first parameter unchanged."""
        info = self.files[func[0]]
        returns = [op for op in info.facts.ops if isinstance(op, facts.Ret) and op.scope == func[1]]
        if not returns:
            return False
        for ret in returns:
            given = info.op_of(ret.src)
            if not (
                isinstance(given, facts.ParamIn) and given.scope == func[1] and given.index == 0
            ):
                return False
        return True

    def _class_member(self, cls: ClassKey, name: str) -> Static | None:
        info = self.files[cls[0]]
        sources = info.class_bound(cls[1], name)
        found = {self.static(cls[0], s) for s in sources}
        return found.pop() if len(found) == 1 else None

    def _imported(self, file: int, op: facts.Import) -> Static | None:
        absolute = self.absolute(file, op.module, op.level)
        if absolute is None:
            return None
        found = self.module(file, absolute)
        if op.name is None or found is None:
            return found
        if found[0] == "mod" and found[1] == file:  # ``from . import sub`` in a package
            sub = self.submodule(file, op.name)
            return ("mod", sub) if sub is not None else None
        if found[0] == "mod":
            return self.member(found[1], op.name)
        return ("ext", f"{absolute}.{op.name}")

    def member(self, file: int, name: str) -> Static | None:
        """What ``name`` is at the end of module ``file`` (a binding, a submodule, a name a
        star import brings, a builtin)."""
        info = self.files[file]
        if name in info.binds:
            sources = ([info.mod_binds[name]] if name in info.mod_binds else []) + (
                info.global_sets.get(name, [])
            )
            found = {self.static(file, s) for s in sources}
            return found.pop() if len(found) == 1 else None
        sub = self.submodule(file, name)
        if sub is not None:
            return ("mod", sub)
        source = self.star_source(file, name)
        if source is not None:
            return self.member(source, name)
        outside = self.star_outside(file, name)
        if outside is not None:
            return ("ext", outside)
        if name in BUILTINS:
            return ("builtin", name)
        return None

    # -- classes ----------------------------------------------------------------------------------
    def _hierarchy(self) -> None:
        for info in self.files:
            for index, scope in enumerate(info.facts.scopes):
                if scope.kind == Kind.CLASS:
                    self.classes[ClassKey((info.index, index))] = ClassInfo([], False)
        sole = sole_bases(self, self._made_in) if self._made_in else {}
        for key, cls in self.classes.items():
            scope = self.files[key[0]].facts.scopes[key[1]]
            for var in scope.bases:
                found = self.static(key[0], var)
                if found is not None and found[0] == "class" and found[1] != key:
                    cls.bases.append(found[1])
                elif found is not None and found[0] == "wrapped" and key not in found[1]:
                    wrapper, given = found[1]
                    if given not in cls.wrapped and wrapper not in cls.bases:
                        cls.bases += [wrapper, given]  # the made class's body, then given's MRO
                        cls.wrapped[given] = wrapper
                    else:  # (a second base the same decorator made: one body, two places)
                        cls.open = True
                        cls.foreign.append(None)
                elif key in sole and is_param_base(self.files[key[0]], var, key):
                    cls.bases.append(sole[key])  # the one class its decorator is applied to
                elif found != ("builtin", "object"):
                    cls.open = True
                    if found is not None and found[0] == "ext":
                        cls.outside.append(found[1])
                    made = getattr(builtins, found[1]) if found and found[0] == "builtin" else 0
                    cls.foreign.append(made if isinstance(made, type) else None)
            for base in cls.bases:
                self.classes[base].subclasses.append(key)
        for key in self.classes:
            self.mro(key)

    def mro(self, key: ClassKey) -> list[ClassKey]:
        cls = self.classes[key]
        if cls.mro:
            return cls.mro
        cls.mro = [key]  # a cycle in the bases ends here
        lines, order = [], []
        made = set(cls.wrapped.values())
        for base in cls.bases:
            if base in made:
                continue  # (the line of the base it was made on starts with it)
            wrapper = cls.wrapped.get(base)
            if wrapper is None:
                lines.append(list(self.mro(base)))
                order.append(base)
            else:
                # The made class above the given class's MRO; where that MRO holds the made
                # class already (the decorator applied again below), its body is found first
                # anyway, so it is taken once.
                lines.append([wrapper, *(c for c in self.mro(base) if c != wrapper)])
                order.append(wrapper)
        for base in cls.bases:
            cls.open = cls.open or self.classes[base].open
        merged = _c3([key], [*lines, order])
        cls.mro = merged if merged is not None else [key, *cls.bases]
        return cls.mro

    def owner(self, cls: ClassKey, name: str) -> ClassKey | None:
        """The first class along ``cls``'s MRO whose body binds ``name``."""
        key = (cls, name)
        if key in self._owners:
            return self._owners[key]
        found = next((m for m in self.mro(cls) if self.binds_in_class(m, name)), None)
        self._owners[key] = found
        return found

    def outside_binds(self, cls: ClassKey, name: str) -> bool | None:
        """Whether a base from outside the repository along ``cls``'s MRO binds ``name``:
        True when a built-in base has it (``list`` has ``__iter__``), None when a base the map
        cannot read (a library's class, a name not found) comes first and may, False when none
        does. (The outside bases are taken in the order of the repository's MRO, each class's
        as written: ``class Errors(UserList, list)`` reads ``UserList`` first.)"""
        for key in self.mro(cls):
            for base in self.classes[key].foreign:
                if base is None:
                    return None
                if hasattr(base, name):
                    return True
        return False

    def functions_named(self, cls: ClassKey, name: str) -> list[FuncKey]:
        """The functions a class body defines under ``name`` (a property's getter and
        setter are two)."""
        methods = self._methods.get(cls)
        if methods is None:
            methods = self._methods[cls] = {}
            for index, scope in enumerate(self.files[cls[0]].facts.scopes):
                if scope.parent == cls[1] and scope.kind == Kind.METHOD:
                    methods.setdefault(scope.qual.rsplit(".", 1)[-1], []).append(index)
        return [FuncKey((cls[0], index)) for index in methods.get(name, ())]

    def init_sets(self, cls: ClassKey, attr: str) -> bool:
        """Whether the one ``__init__`` instances of ``cls`` run, undecorated, sets ``attr``
        in its opening assignments (``Scope.sets``)."""
        owner = self.owner(cls, "__init__")
        inits = self.functions_named(owner, "__init__") if owner is not None else []
        if len(inits) != 1:
            return False
        scope = self.scope(inits[0])
        return not scope.decorators and attr in scope.sets

    def cone(self, key: ClassKey) -> list[ClassKey]:
        """The class and every subclass of it in the repository."""
        found = self._cones.get(key)
        if found is not None:
            return found
        out = [key]
        seen = {key}
        i = 0
        while i < len(out):
            for sub in self.classes[out[i]].subclasses:
                if sub not in seen:
                    seen.add(sub)
                    out.append(sub)
            i += 1
        self._cones[key] = out
        return out

    def binds_in_class(self, key: ClassKey, name: str) -> bool:
        return name in self.files[key[0]].class_names.get(key[1], ())

    def scope(self, key: FuncKey | ClassKey) -> facts.Scope:
        return self.files[key[0]].facts.scopes[key[1]]

    def dotted(self, key: FuncKey | ClassKey) -> str:
        info = self.files[key[0]]
        qual = info.facts.scopes[key[1]].qual
        return f"{info.module}.{qual}" if qual else info.module


def _c3(head: list[ClassKey], sequences: list[list[ClassKey]]) -> list[ClassKey] | None:
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

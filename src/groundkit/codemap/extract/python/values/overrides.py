"""Which subclasses a base method runs on.

``self`` in a method ``C.m`` holds any instance of ``C`` or of a subclass (``CONE``), and what
``self.x`` finds is worked out once for that value, wherever it is read. But ``C.m`` runs on an
instance of a subclass ``D`` only when ``D``'s lookup of ``m`` finds ``C``'s (``D`` does not
bind ``m`` again, by a ``def`` or an alias like ``tag = to_json``) or when a class along
``D``'s MRO before ``C`` calls ``C.m`` (``super().m()``, ``C.m(self)``): otherwise ``D`` is
*barred* from ``C.m``. A target that code of ``C.m`` (or of a function nested in it) reaches
through its own ``self`` (or ``cls``) only by way of barred subclasses is not certain: the edge
is drawn partial, whatever else the site reaches.

The proof of a call is cheap and generous: any site in a method of such a class whose targets
include ``C.m`` counts, whatever it passes as ``self``.

``C.m`` is also barred from a class of its cone (``C`` itself included) that it is never seen
sent to, where every site reaching it shows what it is sent to: ``client.head()`` on a
``Client`` made there, never on a ``Counting`` made elsewhere and only sent ``get``. Only a
plain method reached by bound calls alone is so read (not a dunder, a property, ``C.m(obj)``
or a callback), and only when no call of its name goes to an object the map does not know,
nor a ``getattr`` that may read it (either may send it anything); a method nobody is seen
calling stays open to its whole cone (code outside may call it), and so does a class the
repository never makes (a library's users may make it and send it anything). An edit taken on
from the last solve may change what a method is sent to without giving an old variable
anything (a new ``x.head()`` on an unknown ``x``, a first ``Counting()``): the snapshot keeps
these maps (``kept``) and the continuation stops when they would bar otherwise (``continues``).

A placeholder (a method whose code does nothing but raise ``NotImplementedError``) that a
subclass overrides is reached through a method's own ``self`` for certain only when the
repository makes an instance of a class that runs it: dateutil's ``TZContextBase.__exit__``
calls ``self.set_current_tz``, which both subclasses override, and no ``TZContextBase`` is
ever made. Otherwise the edge is partial (code outside may still make the base).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.program import Program
from groundkit.codemap.extract.python.values.state import Flow, Found

__all__ = ["Overrides", "may_unbar", "method_of"]

# Code that runs inside the frame of the scope around it (a comprehension), or later but only
# because that frame ran (a nested function or lambda).
_NESTED = (Kind.FUNCTION, Kind.LAMBDA, Kind.COMP)


class Overrides:
    """Per solved flow: the barred subclasses of each method, found when first asked."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self._methods: dict[tuple[int, int], FuncKey | None] = {}
        self._barred: dict[FuncKey, frozenset[ClassKey]] = {}
        self._callers: dict[FuncKey, set[ClassKey]] | None = None
        self._sent: dict[FuncKey, set[ClassKey] | None] | None = None
        self._blind: dict[int, tuple[set[str], set[str]]] | None = None
        self._blind_union: tuple[set[str], set[str]] | None = None
        self._placeholders: dict[int, frozenset[int]] = {}
        self._unmade_now: list[tuple[int, int, bool]] | None = None

    def only_barred(
        self, site: SiteKey, target: FuncKey | ClassKey, how: How, operand: int
    ) -> bool:
        """Whether ``target`` is reached at ``site`` only through the method's own ``self``
        (or ``cls``) as an instance (or class) of a subclass the method never runs on."""
        if operand < 0 or how not in ("call", "property", "protocol", "constructor"):
            return False
        method = self.method_of(site[0], self.flow.site(site).scope)
        if method is None:
            return False
        barred = self.barred(method) | self.unsent(method)
        if not barred:
            return False
        own = self._own(method)
        if own is None or not self._through(own, target, how, operand):
            return False
        program = self.flow.program
        cls = ClassKey((method[0], program.scope(method).parent))
        explains = [sub for sub in program.cone(cls) if self._finds(sub, target)]
        return bool(explains) and all(sub in barred for sub in explains)

    def only_unmade(
        self, site: SiteKey, target: FuncKey | ClassKey, how: How, operand: int
    ) -> bool:
        """Whether ``target`` is a placeholder a subclass overrides, reached at ``site`` only
        through the method's own ``self`` as an instance of classes the repository never makes."""
        if how != "call" or operand < 0 or target[1] not in self.placeholders(target[0]):
            return False
        method = self.method_of(site[0], self.flow.site(site).scope)
        if method is None:
            return False
        own = self._own(method)
        if own is None or not self._through(own, target, how, operand):
            return False
        program = self.flow.program
        cone = program.cone(ClassKey((method[0], program.scope(method).parent)))
        runs = [sub for sub in cone if self._finds(sub, target)]
        return 0 < len(runs) < len(cone) and not any(self._made(sub) for sub in runs)

    def placeholders(self, file: int) -> frozenset[int]:
        """The scopes of ``file``'s methods whose code does nothing but raise
        ``NotImplementedError`` (made there or not)."""
        found = self._placeholders.get(file)
        if found is None:
            found = self._placeholders[file] = _placeholders(self.flow.program.files[file].facts)
        return found

    def _made(self, cls: ClassKey) -> bool:
        return (objects.INST, cls[0], cls[1]) in self.flow.values.ids

    def method_of(self, file: int, scope: int) -> FuncKey | None:
        """The method (not a staticmethod) in whose frame the code of ``scope`` runs."""
        key = (file, scope)
        if key not in self._methods:
            self._methods[key] = method_of(self.flow.program, file, scope)
        return self._methods[key]

    def barred(self, method: FuncKey) -> frozenset[ClassKey]:
        """The subclasses of ``method``'s class whose instances it never runs on."""
        found = self._barred.get(method)
        if found is not None:
            return found
        program = self.flow.program
        scope = program.scope(method)
        cls = ClassKey((method[0], scope.parent))
        name = scope.qual.rsplit(".", 1)[-1]
        out = []
        for sub in program.cone(cls)[1:]:
            if program.owner(sub, name) == cls:
                continue
            mro = program.mro(sub)
            before = mro[: mro.index(cls)] if cls in mro else mro
            if not self.callers(method).isdisjoint(before):
                continue  # super().m() or C.m(self) on the way
            out.append(sub)
        found = self._barred[method] = frozenset(out)
        return found

    def unsent(self, method: FuncKey) -> frozenset[ClassKey]:
        """The classes of ``method``'s cone (its own class included) whose instances it is
        never seen sent to, when every site that reaches it shows the receiver."""
        sent, blind = self._maps()
        receivers = sent.get(method)
        if receivers is None:
            return frozenset()
        program = self.flow.program
        name = program.scope(method).qual.rsplit(".", 1)[-1]
        names, starts = blind
        if name in names or any(name.startswith(start) for start in starts):
            return frozenset()
        ids = self.flow.values.ids
        cls = ClassKey((method[0], program.scope(method).parent))
        if program.scope(method).flags & facts.CLASSMETHOD:
            # (a classmethod needs no instance: the classes it is called through are all)
            return frozenset(c for c in program.cone(cls) if c not in receivers)
        # (a class the repository never makes is left open: code outside may make it and
        # send it anything, as a library's users do)
        return frozenset(
            c for c in program.cone(cls) if c not in receivers and (objects.INST, c[0], c[1]) in ids
        )

    def kept(self) -> dict[str, Any]:
        """What a continued solve needs to tell whether an edit changes ``unsent`` (for the
        snapshot, builtin types only): what each method is sent to, the names read on unknown
        objects by file, and every method's ``unsent`` as it is now."""
        sent, _ = self._maps()
        assert self._blind is not None
        return {
            "sent": {m: None if c is None else sorted(c) for m, c in sent.items()},
            "blind": {f: (sorted(n), sorted(s)) for f, (n, s) in self._blind.items()},
            "unsent": self._all_unsent(),
            "unmade": self._unmade(),
        }

    def continues(
        self, kept: Mapping[str, Any], changed: Collection[int], old_sites: Mapping[int, int]
    ) -> bool:
        """Whether a continued solve (``continued.py``) leaves every method's ``unsent`` as
        ``kept`` (from the snapshot) has it; the maps are taken on from ``kept``, with the
        sites the edit added and the names its files read on unknown objects. Old sites and
        old variables are as the snapshot has them (the continuation stops otherwise), but a
        new site may send a method to another class, a new call may read its name on an
        unknown object, and a new instance may make a class of its cone (``ids``)."""
        flow = self.flow
        sent: dict[FuncKey, set[ClassKey] | None] = {
            m: None if c is None else set(c) for m, c in kept["sent"].items()
        }
        added = self._find_sent(
            flow.found[site]
            for file in changed
            for index in range(old_sites.get(file, 0), len(flow.program.files[file].facts.sites))
            if (site := SiteKey((file, index))) in flow.found
        )
        for method, classes in added.items():
            before = sent.get(method, set())
            sent[method] = None if classes is None or before is None else before | classes
        blind = {f: (set(n), set(s)) for f, (n, s) in kept["blind"].items()}
        for file in changed:
            blind.pop(file, None)
        blind.update(_blind_names(flow, changed))
        self._sent, self._blind, self._blind_union = sent, blind, None
        # A placeholder's edges are partial while no class running it is made: an edit that
        # makes one, or makes or unmakes a placeholder, redraws them. Only the changed files'
        # facts are read again (the others' placeholders are the snapshot's).
        old = kept.get("unmade")
        if old is None:
            return False
        placeholders = [(f, s) for f, s, _ in old if f not in changed]
        placeholders += [(f, s) for f in changed for s in self.placeholders(f)]
        self._unmade_now = sorted((f, s, self._placeholder_made(f, s)) for f, s in placeholders)
        return bool(self._all_unsent() == kept["unsent"]) and self._unmade_now == [
            tuple(row) for row in old
        ]

    def _maps(
        self,
    ) -> tuple[dict[FuncKey, set[ClassKey] | None], tuple[set[str], set[str]]]:
        """What each method is sent to, and the names (and starts) read on unknown objects."""
        if self._sent is None:
            self._sent = self._find_sent(self.flow.found.values())
        if self._blind is None:
            self._blind = _blind_names(self.flow, range(len(self.flow.program.files)))
        if self._blind_union is None:
            self._blind_union = _union(self._blind)
        return self._sent, self._blind_union

    def _unmade(self) -> list[tuple[int, int, bool]]:
        """Each placeholder method, and whether its own class is made."""
        if self._unmade_now is None:
            self._unmade_now = [
                (file, scope, self._placeholder_made(file, scope))
                for file in range(len(self.flow.program.files))
                for scope in sorted(self.placeholders(file))
            ]
        return self._unmade_now

    def _placeholder_made(self, file: int, scope: int) -> bool:
        return self._made(
            ClassKey((file, self.flow.program.files[file].facts.scopes[scope].parent))
        )

    def _all_unsent(self) -> dict[FuncKey, list[ClassKey]]:
        found = {method: sorted(self.unsent(method)) for method in self._maps()[0]}
        return {method: classes for method, classes in found.items() if classes}

    def _find_sent(self, sites: Iterable[Found]) -> dict[FuncKey, set[ClassKey] | None]:
        """Per method reached at one of ``sites`` (what they found): the classes it is sent to
        (None: not known). Only a plain method (no dunder, nothing syntax or a descriptor runs)
        reached by bound calls alone is read (a name called on an unknown object is seen in
        ``unsent``)."""
        flow = self.flow
        program = flow.program
        keys = flow.values.keys
        out: dict[FuncKey, set[ClassKey] | None] = {}
        for found in sites:
            for target, (how, operand) in found.targets.items():
                scope = program.scope(target)
                if scope.kind != Kind.METHOD or scope.flags & facts.STATIC:
                    continue
                method = FuncKey(target)
                sent = out.setdefault(method, set())
                if sent is None:
                    continue
                name = scope.qual.rsplit(".", 1)[-1]
                if how != "call" or name.startswith("__") or operand < 0:
                    out[method] = None
                    continue
                # (a classmethod is sent the class it is called through: ``Literal.of(...)``,
                # ``cls.of(...)``, ``self.of(...)``; its ``CLSMETH`` holds that class)
                bound, receivers, cones = (
                    (objects.CLSMETH, _CLASSES, (objects.CCONE, objects.CONE))
                    if scope.flags & facts.CLASSMETHOD
                    else (objects.METH, _INSTANCES, (objects.CONE,))
                )
                for value in flow.engine.held(operand):
                    key = keys[value]
                    if key[0] == bound and flow.values.function(value) != method:
                        continue
                    receiver = keys[key[2]] if key[0] == bound else key
                    unbound = key[0] != bound and bound == objects.CLSMETH
                    if unbound or receiver[0] not in receivers:
                        out[method] = None  # (``C.m(obj)``, a callback...)
                        break
                    cls = ClassKey((receiver[1], receiver[2]))
                    sent.update(program.cone(cls) if receiver[0] in cones else [cls])
        return out

    def callers(self, method: FuncKey) -> set[ClassKey]:
        """The classes with a method whose code reaches ``method`` (other than its own)."""
        if self._callers is None:
            self._callers = {}
            program = self.flow.program
            for site, found in self.flow.found.items():
                caller = self.method_of(site[0], self.flow.site(site).scope)
                if caller is None:
                    continue
                home = ClassKey((caller[0], program.scope(caller).parent))
                for target in found.targets:
                    scope = program.scope(target)
                    if scope.kind == Kind.METHOD and (target[0], scope.parent) != home:
                        self._callers.setdefault(FuncKey(target), set()).add(home)
        return self._callers.get(method, set())

    def _own(self, method: FuncKey) -> int | None:
        """The value the method's first parameter holds: its class's cone."""
        flow = self.flow
        scope = flow.program.scope(method)
        kind = objects.CCONE if scope.flags & facts.CLASSMETHOD else objects.CONE
        return flow.values.ids.get((kind, method[0], scope.parent))

    def _through(self, own: int, target: FuncKey | ClassKey, how: How, operand: int) -> bool:
        """Whether ``own`` is the only way ``operand`` has to ``target``: the receiver of every
        bound method it holds that is ``target`` (a call), or all it holds (the rest)."""
        flow = self.flow
        keys = flow.values.keys
        held = flow.engine.held(operand)
        if how != "call":
            # (the parameter also holds what calls pass it, ``Literal`` for
            # ``Literal.using_each(...)``: those are other ways only when they find ``target``)
            return own in held and not any(
                self._reaches(keys[value], target) for value in held if value != own
            )
        receivers = [
            keys[value][2]
            for value in held
            if keys[value][0] in (objects.METH, objects.CLSMETH)
            and flow.values.function(value) == target
        ]
        return bool(receivers) and all(receiver == own for receiver in receivers)

    def _reaches(self, key: tuple[Any, ...], target: FuncKey | ClassKey) -> bool:
        """Whether a class or instance value (``key``) may find ``target``; any other value
        is taken to."""
        if key[0] in (objects.CLASS, objects.INST):
            return self._finds(ClassKey((key[1], key[2])), target)
        if key[0] in (objects.CCONE, objects.CONE):
            cone = self.flow.program.cone(ClassKey((key[1], key[2])))
            return any(self._finds(sub, target) for sub in cone)
        return True

    def _finds(self, cls: ClassKey, target: FuncKey | ClassKey) -> bool:
        """Whether ``target`` is what ``cls`` is, or what its lookup of the name finds."""
        program = self.flow.program
        scope = program.scope(target)
        if scope.kind == Kind.CLASS:
            return target == cls
        if scope.kind != Kind.METHOD:
            return False
        name = scope.qual.rsplit(".", 1)[-1]
        return program.owner(cls, name) == (target[0], scope.parent)


def _blind_names(flow: Flow, files: Iterable[int]) -> dict[int, tuple[set[str], set[str]]]:
    """By file (of ``files``, those with any): the names called on an object the map does not
    know (``x.name()`` where ``x.name`` holds an unknown value, or nothing), and the starts of
    the names ``getattr`` reads on one (``getattr(node, "as_" + vendor)``)."""
    held = flow.engine.held
    keys = flow.values.keys
    out = {}
    for file in files:
        info = flow.program.files[file]
        names: set[str] = set()
        starts: set[str] = set()
        sites = info.facts.sites
        for op in info.facts.ops:
            if not isinstance(op, facts.Call) or sites[op.site].kind != facts.SiteKind.CALL:
                continue
            site = sites[op.site]
            found = held(info.var(op.func))
            if not found or objects.UNKNOWN_ID in found:
                names.add(site.name)
            elif site.name == "getattr" and len(site.args) >= 2 and min(site.args[:2]) >= 0:
                obj = held(info.var(site.args[0]))
                if obj and objects.UNKNOWN_ID not in obj:
                    continue
                # (a name not known at all is taken as no method's: dispatch by a
                # computed name is written with a prefix, as the visitors are)
                for value in held(info.var(site.args[1])):
                    key = keys[value]
                    if key[0] == objects.STR:
                        names.add(key[1])
                    elif key[0] == objects.PREFIX:
                        starts.add(key[1])
        if names or starts:
            out[file] = (names, starts)
    return out


def _placeholders(found: facts.Facts) -> frozenset[int]:
    """The methods of a file's facts that run nothing but a raise of ``NotImplementedError``
    (the name, or a call of it)."""
    named = {op.dst for op in found.ops if isinstance(op, facts.Global) and op.name == _PLACEHOLDER}
    made = {op.dst: op.site for op in found.ops if isinstance(op, facts.Call) and op.func in named}
    raised = {
        op.site for op in found.ops if isinstance(op, facts.Raise) and op.src in named | made.keys()
    }
    allowed = raised | set(made.values())
    methods = {index for index, scope in enumerate(found.scopes) if scope.kind == Kind.METHOD}
    runs_more = {site.scope for index, site in enumerate(found.sites) if index not in allowed}
    raising = {found.sites[site].scope for site in raised}
    return frozenset((methods & raising) - runs_more)


_PLACEHOLDER = "NotImplementedError"
_INSTANCES = (objects.INST, objects.CONE)
_CLASSES = (objects.CLASS, objects.CCONE, objects.INST, objects.CONE)


def _union(blind: Mapping[int, tuple[set[str], set[str]]]) -> tuple[set[str], set[str]]:
    names: set[str] = set()
    starts: set[str] = set()
    for file_names, file_starts in blind.values():
        names |= file_names
        starts |= file_starts
    return names, starts


def method_of(program: Program, file: int, scope: int) -> FuncKey | None:
    """The method (not a staticmethod) in whose frame the code of ``scope`` runs."""
    scopes = program.files[file].facts.scopes
    while scope >= 0 and scopes[scope].kind in _NESTED:
        scope = scopes[scope].parent
    if scope < 0 or scopes[scope].kind != Kind.METHOD or scopes[scope].flags & facts.STATIC:
        return None
    return FuncKey((file, scope))


def may_unbar(program: Program, site: SiteKey, scope: int, target: FuncKey | ClassKey) -> bool:
    """Whether a new call of ``target`` at ``site`` (code of ``scope``) may be the call that
    lets a base method run on a subclass that overrides it (``continued.py`` stops there: the
    base method's own file would have to be drawn again)."""
    found = program.scope(target)
    caller = method_of(program, site[0], scope)
    if found.kind != Kind.METHOD or caller is None:
        return False
    cls = ClassKey((target[0], found.parent))
    home = ClassKey((caller[0], program.scope(caller).parent))
    name = found.qual.rsplit(".", 1)[-1]
    for sub in program.cone(cls)[1:]:
        mro = program.mro(sub)
        if program.owner(sub, name) == cls or home not in mro or cls not in mro:
            continue
        if mro.index(home) < mro.index(cls):
            return True
    return False

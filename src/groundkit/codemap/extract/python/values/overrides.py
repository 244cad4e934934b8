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
repository never makes (a library's users may make it and send it anything).
"""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.program import Program
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Overrides", "may_unbar", "method_of"]

# Code that runs inside the frame of the scope around it (a comprehension), or later but only
# because that frame ran (a nested function or lambda).
_NESTED = (Kind.FUNCTION, Kind.LAMBDA, Kind.COMP)
# What a method may be sent to, known by its class: an instance, or a class (its constructor)


class Overrides:
    """Per solved flow: the barred subclasses of each method, found when first asked."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self._methods: dict[tuple[int, int], FuncKey | None] = {}
        self._barred: dict[FuncKey, frozenset[ClassKey]] = {}
        self._callers: dict[FuncKey, set[ClassKey]] | None = None
        self._receivers: dict[FuncKey, set[ClassKey] | None] | None = None

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
        if self._receivers is None:
            self._receivers = self._find_receivers()
        receivers = self._receivers.get(method)
        if receivers is None:
            return frozenset()
        program = self.flow.program
        ids = self.flow.values.ids
        cls = ClassKey((method[0], program.scope(method).parent))
        # (a class the repository never makes is left open: code outside may make it and
        # send it anything, as a library's users do)
        return frozenset(
            c for c in program.cone(cls) if c not in receivers and (objects.INST, c[0], c[1]) in ids
        )

    def _find_receivers(self) -> dict[FuncKey, set[ClassKey] | None]:
        """Per method reached at some site: the classes it is sent to (None: not known). Only
        a plain method (no dunder, nothing syntax or a descriptor runs) reached by bound calls
        alone is read, and only when no call of that name goes to an object the map does not
        know (``obj.name()`` on an unknown ``obj`` may send it anything)."""
        flow = self.flow
        program = flow.program
        keys = flow.values.keys
        blind, starts = self._blind_names()
        out: dict[FuncKey, set[ClassKey] | None] = {}
        for found in flow.found.values():
            for target, (how, operand) in found.targets.items():
                scope = program.scope(target)
                if scope.kind != Kind.METHOD or scope.flags & (facts.STATIC | facts.CLASSMETHOD):
                    continue
                method = FuncKey(target)
                name = scope.qual.rsplit(".", 1)[-1]
                sent = out.setdefault(method, set())
                if sent is None:
                    continue
                if (
                    how != "call"
                    or name.startswith("__")
                    or name in blind
                    or any(name.startswith(start) for start in starts)
                    or operand < 0
                ):
                    out[method] = None
                    continue
                for value in flow.engine.held(operand):
                    key = keys[value]
                    if key[0] == objects.METH and flow.values.function(value) != method:
                        continue
                    receiver = keys[key[2]] if key[0] == objects.METH else key
                    if receiver[0] not in (objects.INST, objects.CONE):
                        out[method] = None  # (``C.m(obj)``, a callback...)
                        break
                    cls = ClassKey((receiver[1], receiver[2]))
                    sent.update(program.cone(cls) if receiver[0] == objects.CONE else [cls])
        return out

    def _blind_names(self) -> tuple[set[str], set[str]]:
        """The names called on an object the map does not know (``x.name()`` where ``x.name``
        holds an unknown value, or nothing), and the starts of the names ``getattr`` reads on
        one (``getattr(node, "as_" + vendor)``)."""
        flow = self.flow
        held = flow.engine.held
        keys = flow.values.keys
        names: set[str] = set()
        starts: set[str] = set()
        for info in flow.program.files:
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
        return names, starts

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
            return held == {own}
        receivers = [
            keys[value][2]
            for value in held
            if keys[value][0] in (objects.METH, objects.CLSMETH)
            and flow.values.function(value) == target
        ]
        return bool(receivers) and all(receiver == own for receiver in receivers)

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

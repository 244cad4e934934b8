"""What calling a class makes, and which methods no instance runs.

``C(...)`` gives what ``C.__new__`` returns. Where the repository's ``__new__`` only makes an
instance of the class it is called on (``super().__new__(cls)``, ``object.__new__(cls)``,
possibly kept as a singleton in ``cls._instance``), that is an instance of ``C`` (``standard_new``);
any other ``__new__`` (anyio's ``CancelScope`` returns the running backend's object) gives what
it returns, which the map follows or cannot name.

A class whose lookup of a name finds an ``@abstractmethod`` has no instances (``ABCMeta``
refuses to make one), nor has a class that lists ``typing.Protocol`` among its bases (where
every base along its MRO is the repository's or one that binds no method); so a
call on an annotated parameter or on ``self`` (any instance of the class or a subclass) never
runs the abstract method, nor a protocol's own method through the protocol itself
(``never_on_instances``). Its subclasses' lookups find what does run: an override, or the
protocol's method a concrete subclass inherits. ``super().m()`` runs an abstract method's body
as any other and is not asked here.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey
from groundkit.codemap.extract.python.values.program import FileInfo, Program

__all__ = ["Instances", "is_protocol", "standard_new"]

_ABSTRACT = frozenset(
    {"abstractmethod", "abstractproperty", "abstractclassmethod", "abstractstaticmethod"}
)
_PROTOCOL = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
# Bases from outside that bind no method a subclass could take for an abstract one.
_BARE = _PROTOCOL | {"abc.ABC", "typing.Generic", "typing_extensions.Generic"}
_COPIES = (facts.Copy, facts.Narrow, facts.Tested)


class Instances:
    """Which classes of a program have no instances of their own, and which lookups on an
    instance of a class or a subclass (``CONE``) never run for a class of it."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self._none: dict[ClassKey, bool] = {}
        self._abstract: dict[ClassKey, frozenset[str]] = {}

    def never_runs(self, cls: ClassKey, attr: str, cone: list[ClassKey]) -> bool:
        """Whether looking ``attr`` up on an instance of exactly ``cls`` (one class of
        ``cone``) never happens: ``cls`` has no instances, and either the lookup finds an
        abstract method (or a protocol's own) or another class of ``cone`` has instances (what
        runs is found on them). A concrete method of a cone with no class that has
        instances stays (the instances come from outside the repository)."""
        if not self.has_none(cls):
            return False
        owner = self.program.owner(cls, attr)
        if owner is None:
            return False
        if attr in self._abstract_names(owner) or is_protocol(self.program, owner):
            return True
        return any(not self.has_none(other) for other in cone)

    def subclassed_outside(self, cone: list[ClassKey]) -> bool:
        """Whether an instance of ``cone`` (an abstract base and its subclasses, none with
        instances) is of a subclass from outside the repository: what it runs is unknown. A
        protocol's instances are of any class that has its methods, which the values that
        reach the call show, not its cone."""
        return bool(cone) and not is_protocol(self.program, cone[0])

    def has_none(self, cls: ClassKey) -> bool:
        """Whether no instance of exactly ``cls`` can be made: a protocol class, or a class
        whose lookup of some name finds an ``@abstractmethod``."""
        found = self._none.get(cls)
        if found is None:
            program = self.program
            mro = program.mro(cls)
            found = all(self._bases_known(base) for base in mro) and (
                is_protocol(program, cls)
                or any(
                    program.owner(cls, name) == base
                    for base in mro
                    for name in self._abstract_names(base)
                )
            )
            self._none[cls] = found
        return found

    def _bases_known(self, cls: ClassKey) -> bool:
        """Whether every base of ``cls`` from outside the repository is one that binds no
        method (``ABC``, ``Protocol``, ``Generic``) or a built-in class: a library's class or
        a base the map cannot read may implement what the repository leaves abstract."""
        info = self.program.classes[cls]
        unread = sum(1 for made in info.foreign if made is None)
        return unread == len(info.outside) and all(name in _BARE for name in info.outside)

    def _abstract_names(self, cls: ClassKey) -> frozenset[str]:
        """The names ``cls``'s body binds only to ``@abstractmethod`` functions."""
        found = self._abstract.get(cls)
        if found is None:
            scopes = self.program.files[cls[0]].facts.scopes
            names = {
                scope.qual.rsplit(".", 1)[-1]
                for scope in scopes
                if scope.parent == cls[1]
                and scope.kind == facts.Kind.METHOD
                and not _ABSTRACT.isdisjoint(scope.decorators)
            }
            found = self._abstract[cls] = frozenset(
                name
                for name in names
                if all(
                    not _ABSTRACT.isdisjoint(scopes[func[1]].decorators)
                    for func in self.program.functions_named(cls, name)
                )
            )
        return found


def is_protocol(program: Program, cls: ClassKey) -> bool:
    """Whether ``cls`` lists ``typing.Protocol`` among its bases (a protocol class)."""
    return any(name in _PROTOCOL for name in program.classes[cls].outside)


def standard_new(program: Program, func: FuncKey) -> tuple[bool, bool]:
    """Whether some and whether every return of the ``__new__`` ``func`` is an instance it
    made of ``cls`` alone: ``super().__new__(cls)`` or ``object.__new__(cls)``, directly,
    through a local, or kept in an attribute of ``cls`` that only such a call sets (a
    singleton)."""
    info = program.files[func[0]]
    scope = func[1]
    some = every = False
    others = 0
    for op in info.facts.ops:
        if isinstance(op, facts.Ret) and op.scope == scope:
            if _made_here(info, scope, op.src, single=True):
                some = every = True
            else:
                others += 1
                some = some or _made_here(info, scope, op.src, single=True, each=False)
    return some, every and not others


def _source(info: FileInfo, local: int) -> facts.Op | None:
    op = info.op_of(local)
    while isinstance(op, _COPIES):
        op = info.op_of(op.src)
    return op


def _is_cls(info: FileInfo, scope: int, local: int) -> bool:
    op = _source(info, local)
    return isinstance(op, facts.ParamIn) and op.scope == scope and op.index == 0


def _made_here(info: FileInfo, scope: int, local: int, single: bool, each: bool = True) -> bool:
    """Whether ``local`` holds ``super().__new__(cls)`` / ``object.__new__(cls)`` (or, with
    ``single``, ``cls.name`` that only such a call sets in ``scope``): on each branch that
    meets there, or (``each`` false) on one."""
    op = _source(info, local)
    if isinstance(op, facts.Phi):
        found = (_made_here(info, scope, s, single, each) for s in op.srcs)
        return bool(op.srcs) and (all(found) if each else any(found))
    if isinstance(op, facts.Call):
        called = _source(info, op.func)
        if not isinstance(called, facts.Attr) or called.attr != "__new__":
            return False
        maker = _source(info, called.obj)
        if not (
            isinstance(maker, facts.Super)
            or (isinstance(maker, facts.Global) and maker.name == "object")
        ):
            return False
        args = info.facts.sites[op.site].args
        return bool(args) and args[0] >= 0 and _is_cls(info, scope, args[0])
    if single and isinstance(op, facts.Attr) and op.attr is not None:
        if not _is_cls(info, scope, op.obj):
            return False
        sets = [
            s
            for s in info.facts.ops
            if isinstance(s, facts.SetAttr) and s.attr == op.attr and _is_cls(info, scope, s.obj)
        ]
        return bool(sets) and all(_made_here(info, scope, s.src, False) for s in sets)
    return False

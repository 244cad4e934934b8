"""How a call's target reached its site, read from the code around the site: the binding its
callee (or the receiver of its method) comes from. This names the edge's provenance; the
targets themselves come from the value flow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values.keys import ClassKey, How
from groundkit.codemap.extract.python.values.program import FileInfo, Program
from groundkit.codemap.model import Provenance

__all__ = ["Origin", "Origins", "provenance"]

_DEPTH = 12

# The binding a callee comes from: a local name, an import, ``self``, ``super()``, a class's
# instance, an annotated name, a member of what a call gave or a ``with`` target ("return"), a
# call's result itself ("returned"), an unannotated parameter, a container's element.
OriginKind = Literal[
    "local",
    "imported",
    "self",
    "super",
    "instance",
    "annotation",
    "return",
    "returned",
    "argument",
    "container",
]


@dataclass(frozen=True, slots=True)
class Origin:
    how: OriginKind
    package: int = -1  # the package (file) an import went through, for the re-export flag
    method_class: int = -1  # "self": the scope of the class whose method holds the site


_LOCAL = Origin("local")


class Origins:
    """The origin of each variable of one file, memoised."""

    def __init__(self, program: Program, info: FileInfo) -> None:
        self.program = program
        self.info = info
        self._memo: dict[int, Origin] = {}

    def of(self, var: int, depth: int = 0) -> Origin:
        found = self._memo.get(var)
        if found is not None:
            return found
        if depth > _DEPTH:
            return _LOCAL
        found = self._compute(var, depth + 1)
        self._memo[var] = found
        return found

    def _compute(self, var: int, depth: int) -> Origin:
        op = self.info.op_of(var)
        if op is None or isinstance(op, facts.Def | facts.Const | facts.Tmpl | facts.NewContainer):
            return _LOCAL
        if isinstance(op, facts.Import):
            return Origin("imported", self._package(op))
        if isinstance(op, facts.Global):
            return self._global(op.name, depth)
        if isinstance(op, facts.Copy | facts.Narrow | facts.Tested):
            return self.of(op.src, depth)
        if isinstance(op, facts.Annot):
            return self.of(op.src, depth) if op.src >= 0 else Origin("annotation")
        if isinstance(op, facts.Phi | facts.Final):
            for src in op.srcs:
                if src != facts.NONE_VAR:
                    return self.of(src, depth)
            return _LOCAL
        if isinstance(op, facts.ParamIn):
            scope = self.info.facts.scopes[op.scope]
            if op.index == 0 and scope.kind == Kind.METHOD and not scope.flags & facts.STATIC:
                return Origin("self", method_class=scope.parent)
            annotated = (
                scope.params[op.index].annotation >= 0 if op.index < len(scope.params) else False
            )
            return Origin("annotation" if annotated else "argument")
        if isinstance(op, facts.Call):
            made = self.program.static(self.info.index, op.func)
            return Origin("instance" if made is not None and made[0] == "class" else "returned")
        if isinstance(op, facts.Sub | facts.Iter | facts.Unpack):
            return Origin("container")
        if isinstance(op, facts.Super):
            return Origin("super")
        if isinstance(op, facts.With):
            return Origin("return")
        if isinstance(op, facts.Attr):
            return self._attribute(op, depth)
        return _LOCAL

    def _global(self, name: str, depth: int) -> Origin:
        bound = self.info.mod_binds.get(name)
        if bound is not None:
            return self.of(bound, depth)
        return Origin("imported") if name in self.info.binds or self.info.stars else _LOCAL

    def _attribute(self, op: facts.Attr, depth: int) -> Origin:
        owner = self.of(op.obj, depth)
        if owner.how in ("imported", "local") and self._is_module(op.obj):
            return Origin("imported", owner.package)
        if owner.how == "returned":
            return Origin("return")
        if owner.how == "local":
            return Origin("instance")
        return owner

    def _is_module(self, var: int) -> bool:
        op = self.info.op_of(var)
        for _ in range(_DEPTH):
            if (
                isinstance(op, facts.Copy | facts.Annot | facts.Narrow | facts.Tested)
                and op.src >= 0
            ):
                op = self.info.op_of(op.src)
            elif isinstance(op, facts.Global):
                bound = self.info.mod_binds.get(op.name)
                op = self.info.op_of(bound) if bound is not None else None
            else:
                break
        if isinstance(op, facts.Import):
            found = self.program.static(self.info.index, op.dst)
            return found is not None and found[0] in ("mod", "ext")
        return isinstance(op, facts.Attr) and self._is_module(op.obj)

    def _package(self, op: facts.Import) -> int:
        """The package a ``from pkg import name`` took the name from, when it is one."""
        if op.name is None:
            return -1
        absolute = self.program.absolute(self.info.index, op.module, op.level)
        found = self.program.module(self.info.index, absolute) if absolute else None
        if found is None or found[0] != "mod":
            return -1
        return found[1] if self.program.files[found[1]].is_package else -1


def provenance(
    how: How,
    origin: Origin,
    file: int,
    target_class: ClassKey | None,
    program: Program,
) -> Provenance:
    """The provenance of an edge at a site of ``file`` reached ``how`` (``call``,
    ``constructor``, ``decorator``, ``protocol``, ``callback``, ``property``) from a callee of
    this ``origin``; ``target_class``: the class defining the target, for a method."""
    fixed = _FIXED.get(how)
    if fixed is not None:
        return fixed
    kind = origin.how
    if kind == "self":
        if target_class is not None and origin.method_class >= 0:
            own = ClassKey((file, origin.method_class))
            if target_class != own and target_class in program.mro(own)[1:]:
                return Provenance.CALL_INHERITED
        return Provenance.CALL_SELF
    return _BY_ORIGIN.get(kind, Provenance.CALL_LOCAL)


_FIXED: dict[How, Provenance] = {
    "constructor": Provenance.CALL_CONSTRUCTOR,
    "decorator": Provenance.CALL_DECORATOR,
    "protocol": Provenance.CALL_PROTOCOL,
    "callback": Provenance.CALL_CALLBACK,
}
_BY_ORIGIN: dict[OriginKind, Provenance] = {
    "local": Provenance.CALL_LOCAL,
    "imported": Provenance.CALL_IMPORTED,
    "super": Provenance.CALL_SUPER,
    "instance": Provenance.CALL_INSTANCE,
    "annotation": Provenance.CALL_ANNOTATION,
    "return": Provenance.CALL_RETURN,
    "returned": Provenance.CALL_RETURNED,
    "argument": Provenance.CALL_ARGUMENT,
    "container": Provenance.CALL_CONTAINER,
}

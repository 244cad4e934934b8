"""Class decorators that return a subclass of the class they are given, made in their body::

    def abstract_base(cls):
        class Wrapper(cls):
            abstract = True
        return Wrapper

The name such a decorator decorates is bound to ``Wrapper``, so a class that names it as a base
(``class Pipe(ReadWrite)``) has ``Wrapper``'s body and then the decorated class's MRO above it
(``program.py``: the ``wrapped`` bases). ``Wrapper`` itself is one body on as many bases as
the decorator is applied to: it takes the decorated class as its base only when the
repository applies the decorator once, to one class, and calls it no other way; otherwise its
base stays unknown (the class is open), as any base the map cannot read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey

if TYPE_CHECKING:
    from groundkit.codemap.extract.python.values.program import FileInfo, Program

__all__ = ["is_param_base", "made_in_body", "sole_bases"]


def made_in_body(files: list[FileInfo]) -> dict[FuncKey, ClassKey]:
    """The functions whose every ``return`` gives the one class of their body that derives
    from their first parameter: that class, by function."""
    out: dict[FuncKey, ClassKey] = {}
    for info in files:
        scopes = info.facts.scopes
        for index, scope in enumerate(scopes):
            parent = scope.parent
            if scope.kind != Kind.CLASS or parent < 0 or scopes[parent].kind != Kind.FUNCTION:
                continue
            on_param = any(_first_param(info, var, parent) for var in scope.bases)
            if on_param and _returns_only(info, parent, index):
                out[FuncKey((info.index, parent))] = ClassKey((info.index, index))
    return out


def is_param_base(info: FileInfo, var: int, cls: ClassKey) -> bool:
    """Whether the base ``var`` of class ``cls`` is the first parameter of the function the
    class is made in."""
    return _first_param(info, var, info.facts.scopes[cls[1]].parent)


def sole_bases(program: Program, made: dict[FuncKey, ClassKey]) -> dict[ClassKey, ClassKey]:
    """Each class made so whose decorator the repository applies to one class only (and
    calls no other way, by its name): that class. Read before the hierarchy, once."""
    applied: dict[ClassKey, set[ClassKey | None]] = {cls: set() for cls in made.values()}
    names = frozenset(program.scope(func).qual.rsplit(".", 1)[-1] for func in made)
    for info in program.files:
        sites = info.facts.sites
        for op in info.calls_named(names):
            site = sites[op.site]
            decorates = site.kind == facts.SiteKind.DECORATOR
            if not decorates and site.name not in names:
                continue
            callee = program.static(info.index, op.func)
            if callee is None or callee[0] != "func" or callee[1] not in made:
                if not decorates:  # (a name like it: called some way the map cannot follow)
                    for seen in applied.values():
                        seen.add(None)
                continue
            wrapper = made[callee[1]]
            target = info.facts.scopes[site.target] if decorates and site.target >= 0 else None
            given = program.static(info.index, site.args[0]) if site.args else None
            if target is not None and target.kind == Kind.CLASS and given and given[0] == "class":
                applied[wrapper].add(given[1])
            else:
                applied[wrapper].add(None)  # a function, or a class passed some other way
    out = {}
    for cls, given_to in applied.items():
        if len(given_to) == 1:
            (only,) = given_to
            if only is not None:
                out[cls] = only
    return out


def _first_param(info: FileInfo, var: int, func: int) -> bool:
    given = info.op_of(var)
    return isinstance(given, facts.ParamIn) and given.scope == func and given.index == 0


def _returns_only(info: FileInfo, func: int, cls: int) -> bool:
    returns = [op for op in info.facts.ops if isinstance(op, facts.Ret) and op.scope == func]
    if not returns:
        return False
    for ret in returns:
        given = info.op_of(ret.src)
        while isinstance(given, facts.Copy):
            given = info.op_of(given.src)
        if not (isinstance(given, facts.Def) and given.scope == cls):
            return False
    return True

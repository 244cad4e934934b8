"""The accessors a member read or write runs (``ts-accessor``): each member along a reference
(``a.b.c``, a callee's chain included) whose receiver is known is checked against the getters
and setters of the repository. A member that is not an accessor is no edge and not unresolved:
reading a value runs nothing. An accessor's name read on a value known only at run time is
counted as unresolved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import (
    Choice,
    Def,
    Feed,
    Inst,
    Scope,
    Unknown,
    Value,
    node_key,
)
from groundkit.codemap.model import EdgeFlag, EdgeKind, Location, NodeKey, Provenance

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.resolve.calls import CallingFile

__all__ = ["resolve_member", "run_accessors"]

_MARKS = frozenset({"()", "new"})


def resolve_member(file: CallingFile, site: facts.MemberSite) -> None:
    where = file.location(site.line, site.col, site.end_line, site.end_col)
    caller = file.caller(site.scope)
    run_accessors(file, site.ref, (file.path, site.scope), caller, where, site.write)


def run_accessors(
    file: CallingFile,
    ref: list[str],
    context: Scope,
    caller: NodeKey,
    where: Location,
    write: bool = False,
) -> None:
    """The accessors ``ref`` runs, read member by member (its last one written if ``write``)."""
    names = file.flow.accessor_names()
    if not any(part in names for part in ref[1:]):
        return
    ev = file.ev
    for k in range(1, len(ref)):
        part = ref[k]
        if part not in names or part in _MARKS:
            continue
        receiver = _super(file, context) if k == 1 and ref[0] == "super" else None
        receiver = receiver or ev.reference(ref[:k], context)
        held, vague = _held(file, receiver)
        last = write and k == len(ref) - 1
        found = {t for v in held if (t := ev.accessor(v, part, write=last)) is not None}
        # a getter defineProperty put there, which a write of a key not known may replace
        maybe = set() if last else {t for v in held for t in ev.maybe_getters(v, part)} - found
        if vague:
            file.graph.unresolved += 1  # an accessor's name on a value known only at run time
            if not found and not maybe:
                return
        # one of several values, some not known or with accessors of their own: partial
        chosen = vague or (type(receiver) is Choice and len(found) > 1)
        flags = frozenset({EdgeFlag.PARTIAL}) if chosen else frozenset()
        _draw(file, caller, where, maybe, frozenset({EdgeFlag.PARTIAL}))
        _draw(file, caller, where, found, flags)


def _draw(
    file: CallingFile,
    caller: NodeKey,
    where: Location,
    found: set[Def],
    flags: frozenset[EdgeFlag],
) -> None:
    for target in sorted(found, key=lambda d: (d.path, d.qual)):
        file.edge(
            EdgeKind.CALLS,
            caller,
            node_key(target),
            Provenance.TS_ACCESSOR,
            where,
            where.line,
            flags,
        )


def _super(file: CallingFile, context: Scope) -> Value | None:
    """``super`` in a method: an instance of the class's first base of the repository (whose
    accessors ``super.v = 3`` runs, as ``this.v`` would had the class none of its own); None
    with no such base (the runtime's or a package's class: unknown)."""
    cls = file.ev.this_class(context)
    bases = file.ev.classes.bases(cls) if cls is not None else []
    return Inst(bases[0]) if bases and bases[0].kind == "class" else None


def _held(file: CallingFile, receiver: Value) -> tuple[list[Value], bool]:
    """The values ``receiver`` may be (a parameter's: what its callers give, along the known
    paths when some are not known), and whether some are not known."""
    options = receiver.options if type(receiver) is Choice else (receiver,)
    held: list[Value] = []
    vague = False
    for option in options:
        if type(option) is Feed:
            given = file.flow.feeds(option)
            vague = vague or given is None
            option_values = given if given is not None else file.flow.known(option)
            for value in option_values:
                inner = value.options if type(value) is Choice else (value,)
                vague = vague or any(isinstance(v, Unknown | Feed) for v in inner)
                held.extend(v for v in inner if not isinstance(v, Unknown | Feed))
        elif type(option) is Unknown:
            vague = True
        else:
            held.append(option)
    return held, vague

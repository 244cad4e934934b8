"""The accessors a member read or write runs (``ts-accessor``): each member along a reference
(``a.b.c``, a callee's chain included) whose receiver is known is checked against the getters
and setters of the repository. A member that is not an accessor is no edge and not unresolved:
reading a value runs nothing. An accessor's name read on a value known only at run time is
counted as unresolved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import Feed, Scope, Unknown, node_key
from groundkit.codemap.model import EdgeKind, Location, NodeKey, Provenance

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
        receiver = ev.reference(ref[:k], context)
        held = file.flow.feeds(receiver) if isinstance(receiver, Feed) else {receiver}
        if held is None or any(isinstance(v, Unknown | Feed) for v in held):
            file.graph.unresolved += 1  # an accessor's name on a value known only at run time
            return
        last = write and k == len(ref) - 1
        for target in sorted(
            {t for v in held if (t := ev.accessor(v, part, write=last)) is not None},
            key=lambda d: (d.path, d.qual),
        ):
            file.edge(
                EdgeKind.CALLS, caller, node_key(target), Provenance.TS_ACCESSOR, where, where.line
            )

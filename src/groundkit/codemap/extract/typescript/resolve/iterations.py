"""A generator object iterated (``for (const n of source)``, ``[...source]``, ``Array.from``):
the generator's body runs then, from the function that iterates (``ts-call``; ``ts-argument``
when the object came through a parameter); an instance (or object) with a
``[Symbol.iterator]`` method runs that method (``ts-instance``). A value not known to be one is
nothing: iterating an array runs no code of ours, and is not counted as unresolved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import (
    Def,
    Feed,
    Gen,
    Inst,
    Value,
    node_key,
)
from groundkit.codemap.model import EdgeKind, Provenance

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.resolve.calls import CallingFile

__all__ = ["resolve_iteration"]


def resolve_iteration(file: CallingFile, site: facts.IterSite) -> None:
    value = file.ev.value(site.value, (file.path, site.scope))
    through = isinstance(value, Feed)
    held: set[Value] = (file.flow.feeds(value) or set()) if isinstance(value, Feed) else {value}
    found = {v.func: Provenance.TS_CALL for v in held if isinstance(v, Gen)}
    for value in held:
        method = file.ev.attribute(value, "[Symbol.iterator]") if isinstance(value, Inst) else None
        if isinstance(method, Def) and method.kind != "class":
            found[method] = Provenance.TS_INSTANCE
    if not found:
        return
    where = file.location(site.line, site.col, site.end_line, site.end_col)
    caller = file.caller(site.scope)
    for target, how in sorted(found.items(), key=lambda t: (t[0].path, t[0].qual)):
        provenance = Provenance.TS_ARGUMENT if through else how
        file.edge(EdgeKind.CALLS, caller, node_key(target), provenance, where, where.line)

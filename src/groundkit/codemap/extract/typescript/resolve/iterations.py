"""A generator object iterated (``for (const n of source)``, ``[...source]``): the generator's
body runs then, from the function that iterates (``ts-call``; ``ts-argument`` when the object
came through a parameter). A value not known to be one is nothing: iterating an array runs no
code of ours, and is not counted as unresolved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import Feed, Gen, Value, node_key
from groundkit.codemap.model import EdgeKind, Provenance

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.resolve.calls import CallingFile

__all__ = ["resolve_iteration"]


def resolve_iteration(file: CallingFile, site: facts.IterSite) -> None:
    value = file.ev.value(site.value, (file.path, site.scope))
    through = isinstance(value, Feed)
    held: set[Value] = (file.flow.feeds(value) or set()) if isinstance(value, Feed) else {value}
    targets = sorted({v.func for v in held if isinstance(v, Gen)}, key=lambda d: (d.path, d.qual))
    if not targets:
        return
    where = file.location(site.line, site.col, site.end_line, site.end_col)
    caller = file.caller(site.scope)
    provenance = Provenance.TS_ARGUMENT if through else Provenance.TS_CALL
    for target in targets:
        file.edge(EdgeKind.CALLS, caller, node_key(target), provenance, where, where.line)

"""``emit("saved")`` and ``dispatchEvent(new Event("click"))``: the listeners registered for that
literal name on the same emitter run (``ts-event``, from the scope that fires); where either
emitter is not known (``values/events.py``), they run maybe (``partial``, and the site counts
as unresolved)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.events import FIRE, event_name
from groundkit.codemap.extract.typescript.values.objects import Def, Feed, Unknown, Value, node_key
from groundkit.codemap.model import EdgeFlag, EdgeKind, Location, NodeKey, Provenance

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.resolve.calls import CallingFile

__all__ = ["fire"]


def fire(
    file: CallingFile,
    site: facts.CallSite,
    ref: list[str],
    receiver: Value | None,
    caller: NodeKey,
    where: Location,
) -> None:
    if ref[-1] not in FIRE or site.args is None or receiver is None:
        return
    name = event_name(ref[-1], site.args)
    if name is None:
        return
    listeners = file.events.listeners(name)
    if not listeners:
        return
    fired: set[Value] | None = (
        file.flow.feeds(receiver) if isinstance(receiver, Feed) else {receiver}
    )
    emitters = fired if fired is not None else {Unknown()}
    targets: dict[Def, bool] = {}  # -> certain
    for listener in listeners:
        for emitter in emitters:
            same = file.events.same(emitter, listener.emitter)
            if same is not False:
                targets[listener.target] = targets.get(listener.target, False) or bool(same)
    if not all(targets.values()):
        file.graph.unresolved += 1
    for target, certain in sorted(targets.items(), key=lambda t: (t[0].path, t[0].qual)):
        flags = frozenset() if certain else frozenset({EdgeFlag.PARTIAL})
        file.edge(
            EdgeKind.CALLS, caller, node_key(target), Provenance.TS_EVENT, where, where.line, flags
        )

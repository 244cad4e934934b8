"""Which variables hold a run-time choice: where bindings that differ meet (branches, ``x or
y``, several returns, an attribute set in two places, a slot written twice) or a container is
read under a run-time key, and everything computed from such a variable since.

A call whose callee is such a variable may go to any of its targets on a given run, not to
each: its targets are drawn flagged ``partial`` and the call counts as unresolved.
"""

from __future__ import annotations

from collections import deque

from groundkit.codemap.extract.python.values import objects as o
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["choices"]

_MASK = (1 << 32) - 1


def choices(flow: Flow) -> set[int]:
    engine = flow.engine
    keys = flow.values.keys
    pts = engine.pts

    def relevant(var: int) -> frozenset[int]:
        held = pts[var]
        if not held:
            return frozenset()
        return frozenset(v for v in held if keys[v][0] not in o.PLAIN)

    incoming: dict[int, list[int]] = {}
    alt = flow.alt
    for edge in engine.edges:
        dst = edge & _MASK
        if dst in alt:
            incoming.setdefault(dst, []).append(edge >> 32)
    seeds = []
    for dst, sources in incoming.items():
        if len(sources) < 2:
            continue
        found = {relevant(s) for s in sources}
        found.discard(frozenset())
        if len(found) > 1:
            seeds.append(dst)
    seeds += [dst for dst in flow.computed_reads if len(relevant(dst)) > 1]
    following: dict[int, list[int]] = {}
    for operand, result in flow.depends:
        following.setdefault(operand, []).append(result)
    chosen = set(seeds)
    queue = deque(seeds)
    succ = engine.succ
    while queue:
        var = queue.popleft()
        for nxt in (*(succ[var] or ()), *following.get(var, ())):
            if nxt not in chosen:
                chosen.add(nxt)
                queue.append(nxt)
    return chosen

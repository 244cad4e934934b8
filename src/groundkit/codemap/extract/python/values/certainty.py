"""Which variables hold a run-time choice: where bindings that differ meet (branches, ``x or
y``, several returns, an attribute set in two places, a slot written twice) or a container is
read under a run-time key, and everything computed from such a variable since.

A call whose callee is such a variable may go to any of its targets on a given run, not to
each: its targets are drawn flagged ``partial`` and the call counts as unresolved.
"""

from __future__ import annotations

from collections import deque

from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["choices"]


def choices(flow: Flow) -> set[int]:
    engine = flow.engine
    keys = flow.values.keys
    pts = engine.pts
    plain = {v for v in range(len(keys)) if keys[v][0] in objects.PLAIN}
    memo: dict[int, frozenset[int]] = {}

    def relevant(var: int) -> frozenset[int]:
        found = memo.get(var)
        if found is None:
            held = pts[var]
            found = memo[var] = frozenset(held - plain) if held else frozenset()
        return found

    seeds = []
    for dst, sources in engine.incoming.items():
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

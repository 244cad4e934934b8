"""Which variables hold a run-time choice, and which dunders run for certain.

A choice is where bindings that differ meet (branches, ``x or y``, several returns, an
attribute set in two places, a slot written twice), a container read under a run-time key, and
everything computed from such a variable since. A call whose callee is such a variable may go
to any of its targets on a given run, not to each: its targets are drawn flagged ``partial``
and the call counts as unresolved.

A dunder that syntax or a built-in runs (``if x:``, ``x == y``, ``x[k]``, ``for``, ``with``,
``len(x)``) is certain only where it runs on *every* value that may
reach its operand there: each is an instance of a class of the repository whose lookup finds
that method, and the operand is no choice. Anything else the operand may hold (a literal, a
container, an outside object, an unknown value) means the dunder runs on some runs only: the
edge is partial, and what the dunder returned is a choice from there on. This is what keeps a
value set merged through a shared container or return value (flow-insensitively) from drawing
``__len__``/``__eq__`` of every class in the set as certain.
"""

from __future__ import annotations

from collections import deque

from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Certainty", "choices"]

_INSTANCES = (objects.INST, objects.CONE)


class Certainty:
    """The choices of one solved flow, and whether a dunder runs for certain."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self._sure: dict[tuple[int, str], bool] = {}
        seeds = [
            dst
            for operand, dst, method in flow.protocol_results
            if not self.runs_on_all(operand, method)
        ]
        self.choices = choices(flow, seeds)

    def runs_on_all(self, operand: int, method: str) -> bool:
        """Whether every value ``operand`` may hold is an instance whose class finds
        ``method`` (an operand with no values at all runs nothing, so is not sure either)."""
        key = (operand, method)
        found = self._sure.get(key)
        if found is None:
            found = self._sure[key] = self._runs_on_all(operand, method)
        return found

    def _runs_on_all(self, operand: int, method: str) -> bool:
        flow = self.flow
        held = flow.engine.pts[operand]
        if not held:
            return False
        keys = flow.values.keys
        owner = flow.program.owner
        for value in held:
            if keys[value][0] not in _INSTANCES:
                return False
            if any(owner(cls, method) is None for cls in flow.classes_of(value)):
                return False
        return True

    def dunder_is_certain(self, operand: int, method: str) -> bool:
        return operand >= 0 and operand not in self.choices and self.runs_on_all(operand, method)


def choices(flow: Flow, seeds: list[int] | None = None) -> set[int]:
    """The variables that hold a run-time choice (``seeds``: more to start from)."""
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

    starts = list(seeds or ())
    for dst, sources in engine.incoming.items():
        if len(sources) < 2:
            continue
        found = {relevant(s) for s in sources}
        found.discard(frozenset())
        if len(found) > 1:
            starts.append(dst)
    starts += [dst for dst in flow.computed_reads if len(relevant(dst)) > 1]
    following: dict[int, list[int]] = {}
    pairs = flow.depends
    for operand, result in zip(pairs[::2], pairs[1::2], strict=True):
        following.setdefault(operand, []).append(result)
    chosen = set(starts)
    queue = deque(starts)
    succ = engine.succ
    while queue:
        var = queue.popleft()
        for nxt in (*(succ[var] or ()), *following.get(var, ())):
            if nxt not in chosen:
                chosen.add(nxt)
                queue.append(nxt)
    return chosen

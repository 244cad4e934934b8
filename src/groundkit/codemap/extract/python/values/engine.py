"""The fixed point: variables holding sets of values, copy edges between them, and rules that
run on the values a variable gains (a receiver's new class, a callee's new function).

Only what is new is propagated (each variable's delta waits in one queue), so every value
crosses every edge once. Sets are bounded: a variable never holds more than ``MAX_VALUES``
values nor more than ``MAX_STRINGS`` strings; past a bound it holds ``UNKNOWN`` instead (or a
plain literal, for strings), and the bound is counted, so that a call it reaches is unresolved
rather than wrong.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from groundkit.codemap.extract.python.values.objects import LIT_ID, STR, UNKNOWN_ID, Values

__all__ = ["MAX_STRINGS", "MAX_VALUES", "Engine", "Rule"]

MAX_VALUES = 256
MAX_STRINGS = 4
Rule = Callable[[set[int]], None]


class Engine:
    __slots__ = (
        "bounds_hit",
        "edges",
        "pending",
        "pts",
        "queue",
        "rules",
        "strings",
        "succ",
        "values",
    )

    def __init__(self, values: Values, size: int) -> None:
        self.values = values
        self.pts: list[set[int] | None] = [None] * size
        self.succ: list[list[int] | None] = [None] * size
        self.rules: list[list[Rule] | None] = [None] * size
        self.strings: dict[int, int] = {}  # variable -> distinct strings it holds
        self.edges: set[int] = set()  # src << 32 | dst
        self.queue: deque[int] = deque()
        self.pending: dict[int, set[int]] = {}
        self.bounds_hit = 0

    def variable(self) -> int:
        self.pts.append(None)
        self.succ.append(None)
        self.rules.append(None)
        return len(self.pts) - 1

    def add(self, var: int, values: Iterable[int]) -> None:
        held = self.pts[var]
        if held is None:
            held = self.pts[var] = set()
        new = [v for v in values if v not in held]
        if not new:
            return
        keys = self.values.keys
        if len(held) + len(new) > MAX_VALUES:
            new = [UNKNOWN_ID] if UNKNOWN_ID not in held else []
            self.bounds_hit += 1
        strings = [v for v in new if keys[v][0] == STR]
        if strings:
            count = self.strings.get(var, 0) + len(strings)
            self.strings[var] = count
            if count > MAX_STRINGS:
                new = [v for v in new if keys[v][0] != STR]
                if LIT_ID not in held:
                    new.append(LIT_ID)
        if not new:
            return
        held.update(new)
        waiting = self.pending.get(var)
        if waiting is None:
            self.pending[var] = set(new)
            self.queue.append(var)
        else:
            waiting.update(new)

    def flow(self, src: int, dst: int) -> None:
        """Everything ``src`` holds (now and later) is held by ``dst`` too."""
        key = src << 32 | dst
        if src == dst or key in self.edges:
            return
        self.edges.add(key)
        succ = self.succ[src]
        if succ is None:
            self.succ[src] = [dst]
        else:
            succ.append(dst)
        held = self.pts[src]
        if held:
            self.add(dst, held)

    def on(self, var: int, rule: Rule) -> None:
        """Run ``rule`` on what ``var`` holds now, and on every value it gains later."""
        rules = self.rules[var]
        if rules is None:
            self.rules[var] = [rule]
        else:
            rules.append(rule)
        held = self.pts[var]
        if held:
            rule(set(held))

    def held(self, var: int) -> set[int]:
        return self.pts[var] or set()

    def run(self) -> None:
        queue, pending, succ, rules, add = self.queue, self.pending, self.succ, self.rules, self.add
        while queue:
            var = queue.popleft()
            delta = pending.pop(var, None)
            if not delta:
                continue
            targets = succ[var]
            if targets:
                for dst in targets:
                    add(dst, delta)
            found = rules[var]
            if found:
                for rule in list(found):
                    rule(delta)

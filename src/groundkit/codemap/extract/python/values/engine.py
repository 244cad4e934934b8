"""The fixed point: variables holding sets of values, copy edges between them, and rules that
run on the values a variable gains (a receiver's new class, a callee's new function).

Only what is new is propagated (each variable's delta waits in one queue), so every value
crosses every edge once. Sets are bounded, and a bound that is hit is counted:

- a variable never holds more than ``MAX_VALUES`` values: past it, it holds ``UNKNOWN``
  instead (a call it reaches is unresolved rather than wrong);
- nor more than ``MAX_STRINGS`` strings: past it, a plain literal;
- nor more than ``MAX_CONTAINERS`` containers: past it, the ``overflow`` hook gives one
  container that stands for all the others (reads from it are a run-time choice).
"""

from __future__ import annotations

import random
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from groundkit.codemap.extract.python.values.objects import (
    CONTAINERS,
    LIT_ID,
    PREFIX,
    STR,
    UNKNOWN_ID,
    Values,
)

__all__ = [
    "MAX_CONTAINERS",
    "MAX_STRINGS",
    "MAX_VALUES",
    "SHARED_FROM",
    "Engine",
    "Marks",
    "Rule",
    "each",
    "each_value",
    "with_args",
]

MAX_VALUES = 128
MAX_STRINGS = 4
MAX_CONTAINERS = 12
# Sets of more values than this are shared between the variables that hold the same ones
# (``Engine.share``): all of two or more, since small sets repeat too (django: 54,000 sets of
# 2 to 8 values, 7,580 distinct, 13 MB held apart).
SHARED_FROM = 1
# A rule sees the new values in the order of their numbers: the order it runs on them decides
# which cells and values are made first, and so which values a bounded variable keeps; an
# edit that adds code elsewhere shifts numbers but keeps their order, where a set's order
# (by the numbers' hashes) would change and with it what far-away variables keep.
Rule = Callable[[Sequence[int]], object]  # (what a rule returns is not used)
Overflow = Callable[[int, set[int]], int]
# A probe's hook (``benchmarks/codemap_order.py``), never set by the map: a seed that shuffles
# what waits in the queue each time ``run`` starts, to measure how much the fixed point depends
# on arrival order. None: one test a run.
ORDER_SEED: int | None = None
_WIDE = 16  # successors looked up in the list below this many, in a set from there
_SIZED = (list, set, tuple)  # what ``add`` takes the one-value way


def each(function: Callable[[int], object]) -> Rule:
    """A rule that runs ``function`` on every new value."""

    def rule(new: Sequence[int]) -> None:
        for value in new:
            function(value)

    return rule


def each_value(function: Callable[..., object], *args: Any) -> Rule:
    """A rule that runs ``function(value, *args)`` on every new value. Not a closure: a solve
    makes a rule for each operation (430,000 on django), and a closure over its cells took
    three times the memory; nor a partial (its empty keyword dict and argument tuple took
    16 MB more on django)."""
    return _EachValue((function, *args))


def with_args(function: Callable[..., object], *args: Any) -> Rule:
    """A rule that runs ``function(*args, new)`` on the new values at once (where a partial
    took 7 MB more on django's class-attribute rules)."""
    return _WithArgs((function, *args))


class _WithArgs(tuple[Any, ...]):
    """The function and its arguments in one tuple: an object holding the two took 8.7 MB
    more on django (191,000 rules)."""

    __slots__ = ()

    def __call__(self, new: Sequence[int]) -> None:
        self[0](*self[1:], new)


class _EachValue(_WithArgs):
    __slots__ = ()

    def __call__(self, new: Sequence[int]) -> None:
        function, args = self[0], self[1:]
        for value in new:
            function(value, *args)


class Marks:
    """A set of variables as one byte per variable (``Flow.alt``: 223,000 of django's 549,000
    variables, where a set of them took 8 MB)."""

    __slots__ = ("bits",)

    def __init__(self) -> None:
        self.bits = bytearray()

    def add(self, var: int) -> None:
        bits = self.bits
        if var >= len(bits):
            bits.extend(bytes(var + 1 - len(bits) + (len(bits) >> 3)))
        bits[var] = 1

    def __contains__(self, var: object) -> bool:
        return isinstance(var, int) and 0 <= var < len(self.bits) and self.bits[var] == 1


class Engine:
    __slots__ = (
        "alt",
        "bounds_hit",
        "containers",
        "edges",
        "incoming",
        "later",
        "order",
        "overflow",
        "pending",
        "pts",
        "queue",
        "rules",
        "special",
        "strings",
        "succ",
        "values",
        "wide",
    )

    def __init__(self, values: Values, size: int, alt: Marks) -> None:
        self.values = values
        # What each variable holds: nothing yet (None), one value (the int itself: most hold
        # one, and a set of one took 216 bytes, 50 MB on django), a set, or a frozenset shared
        # with the variables that hold the same values (``share``). Read it through
        # ``held``/``holds``.
        self.pts: list[set[int] | frozenset[int] | int | None] = [None] * size
        # Where its values are copied to: none (None), one (the int: most have one, and a list
        # for each took 16 MB on django), or a list.
        self.succ: list[list[int] | int | None] = [None] * size
        # A variable's one rule, or a list of its rules (most have one; a list for each took 17 MB)
        self.rules: list[Rule | list[Rule] | None] = [None] * size
        self.strings: dict[int, int] = {}  # variable -> distinct strings it holds
        self.containers: dict[int, int] = {}  # variable -> containers it holds
        self.special: set[int] = set()  # string and container values (bounded apart)
        self.edges = 0  # copy edges made
        self.wide: dict[int, set[int]] = {}  # the successors of a variable that has many
        self.alt = alt  # variables where bindings meet: their sources are kept
        # The sources of each of those: one as the int (449,000 lists, 29 MB of a 3,000-file
        # SDK's peak, most of one)
        self.incoming: dict[int, list[int] | int] = {}
        self.queue: deque[int] = deque()
        # What each queued variable gained since it was last run: one value as the int, as in
        # ``pts`` (after the install, 443,000 variables of a 3,000-file SDK wait with one value
        # each: a set of one for each raised its peak from 783 to 868 MB).
        self.pending: dict[int, set[int] | int] = {}
        self.overflow: Overflow | None = None
        self.later: list[tuple[int, int]] = []  # edges to add once the current step is done
        self.bounds_hit = 0
        self.order = None if ORDER_SEED is None else random.Random(ORDER_SEED)  # noqa: S311

    def variable(self) -> int:
        self.pts.append(None)
        self.succ.append(None)
        self.rules.append(None)
        return len(self.pts) - 1

    def note(self, value: int) -> None:
        """A new value was interned: strings and containers are counted apart."""
        kind = self.values.keys[value][0]
        if kind in (STR, PREFIX) or kind in CONTAINERS:
            self.special.add(value)

    def add(self, var: int, values: Iterable[int]) -> None:
        if type(values) in _SIZED and len(values) == 1:  # type: ignore[arg-type]
            # (most calls bring one value: 430,000 of django's 510,000)
            for value in values:
                self.add_one(var, value)
            return
        self._add_set(var, self.pts[var], values if isinstance(values, set) else set(values))

    def _add_set(
        self, var: int, stored: set[int] | frozenset[int] | int | None, values: set[int]
    ) -> None:
        held: set[int] = (
            set()
            if stored is None
            else {stored}
            if isinstance(stored, int)
            else stored
            if type(stored) is set
            else set(stored)  # a shared frozenset: this variable's own copy from here on
        )
        new = values - held
        if not new:
            return
        if len(held) + len(new) > MAX_VALUES:
            new = {UNKNOWN_ID} - held
            self.bounds_hit += 1
            if not new:
                return
        if new & self.special:
            new = self._bounded(var, held, new)
            if not new:
                return
        if not held and len(new) == 1:
            (self.pts[var],) = new
        else:
            held |= new
            self.pts[var] = held
        waiting = self.pending.get(var)
        if waiting is None:
            self.pending[var] = next(iter(new)) if len(new) == 1 else new
            self.queue.append(var)
        elif isinstance(waiting, int):
            new.add(waiting)  # (a set of this call's own making)
            self.pending[var] = new
        else:
            waiting |= new

    def add_one(self, var: int, value: int) -> None:
        """``add(var, [value])`` without the sets: what most adds are (``add`` says what
        happens at a bound, and takes the values it applies to)."""
        pts = self.pts
        held = pts[var]
        if value in self.special:
            if held is not None and (held == value if type(held) is int else value in held):  # type: ignore[operator]
                return  # (what ``_add_set`` finds, without copying a shared set to ask)
            self._add_set(var, held, {value})
            return
        if held is None:
            pts[var] = value
        elif type(held) is int:
            if held == value:
                return
            pts[var] = {held, value}
        elif type(held) is set and len(held) < MAX_VALUES:
            if value in held:
                return
            held.add(value)
        else:
            self._add_set(var, held, {value})
            return
        pending = self.pending
        waiting = pending.get(var)
        if waiting is None:
            pending[var] = value
            self.queue.append(var)
        elif isinstance(waiting, int):
            pending[var] = {value, waiting}  # (in the order ``add`` makes it)
        else:
            waiting.add(value)

    def _bounded(self, var: int, held: set[int], new: set[int]) -> set[int]:
        keys = self.values.keys
        # (only the string and container values are looked up: where ``new`` is many plain
        # values and a string, its two passes over all of them were 5% of django's solve)
        special = new & self.special
        strings = {v for v in special if keys[v][0] in (STR, PREFIX)}
        if strings:
            count = self.strings.get(var, 0) + len(strings)
            self.strings[var] = count
            if count > MAX_STRINGS:
                new = (new - strings) | ({LIT_ID} - held)
        if len(strings) == len(special):
            return new
        containers = {v for v in special if keys[v][0] in CONTAINERS}
        if containers and self.overflow is not None:
            count = self.containers.get(var, 0) + len(containers)
            self.containers[var] = count
            if count > MAX_CONTAINERS:
                self.bounds_hit += 1
                summary = self.overflow(var, containers)
                new = (new - containers) | ({summary} - held)
        return new

    def flow(self, src: int, dst: int) -> None:
        """Everything ``src`` holds (now and later) is held by ``dst`` too."""
        if src == dst:
            return
        succ = self.succ[src]
        if succ is None:
            self.succ[src] = dst
        elif isinstance(succ, int):
            if succ == dst:
                return
            self.succ[src] = [succ, dst]
        elif len(succ) < _WIDE:
            if dst in succ:
                return
            succ.append(dst)
        else:  # (a set of every edge took 55 MB on django; most variables have one or two)
            wide = self.wide.get(src)
            if wide is None:
                wide = self.wide[src] = set(succ)
            if dst in wide:
                return
            wide.add(dst)
            succ.append(dst)
        self.edges += 1
        alt = self.alt.bits
        if dst < len(alt) and alt[dst]:
            sources = self.incoming.get(dst)
            if sources is None:
                self.incoming[dst] = src
            elif isinstance(sources, int):
                self.incoming[dst] = [sources, src]
            else:
                sources.append(src)
        held = self.pts[src]
        if isinstance(held, int):
            self.add_one(dst, held)
        elif held is not None:
            self.add(dst, held)

    def on(self, var: int, rule: Rule) -> None:
        """Run ``rule`` on what ``var`` holds now, and on every value it gains later."""
        rules = self.rules[var]
        if rules is None:
            self.rules[var] = rule
        elif isinstance(rules, list):
            rules.append(rule)
        else:
            self.rules[var] = [rules, rule]
        held = self.pts[var]
        if held is not None:
            rule((held,) if isinstance(held, int) else sorted(held))

    def share(self) -> None:
        """Let variables that hold the same many values hold one frozenset. A solve's large
        sets are few distinct ones copied along its edges (django: 15,068 sets of more than
        20 values, 1,542 distinct); a variable that gains a value later
        takes a copy of its own (``add``)."""
        pts, shared = self.pts, dict[frozenset[int], frozenset[int]]()
        for var, held in enumerate(pts):
            if type(held) is frozenset:  # shared after the last round: one object still
                pts[var] = shared.setdefault(held, held)
            elif type(held) is set and len(held) > SHARED_FROM:
                frozen = frozenset(held)
                pts[var] = shared.setdefault(frozen, frozen)

    def held(self, var: int) -> set[int] | frozenset[int]:
        """What ``var`` holds (a set the caller must not change)."""
        held = self.pts[var]
        if held is None:
            return set()
        return {held} if isinstance(held, int) else held

    def sizes(self) -> array[int]:
        """How many values each variable holds (inline: a function called for each of
        django's 355,000 variables took a third of the time)."""
        return array(
            "I",
            [0 if held is None else 1 if type(held) is int else len(held) for held in self.pts],  # type: ignore[arg-type]
        )

    def grown(self, sizes: array[int]) -> set[int]:
        """The variables holding more than ``sizes`` (from ``sizes()``) says, or made since
        (no second array: the end of a solve is the map's peak)."""
        first = len(sizes)
        return {
            var
            for var, held in enumerate(self.pts)
            if var >= first
            or (0 if held is None else 1 if type(held) is int else len(held)) != sizes[var]  # type: ignore[arg-type]
        }

    def holds(self, var: int) -> bool:
        """Whether ``var`` holds anything."""
        return self.pts[var] is not None

    def _send_one(self, targets: Sequence[int], value: int) -> None:
        """``add_one(dst, value)`` for each of ``targets``, inline where nothing is bounded."""
        pts, pending, add_one = self.pts, self.pending, self.add_one
        if value in self.special:
            for dst in targets:
                add_one(dst, value)
            return
        for dst in targets:
            held = pts[dst]
            if held is None:
                pts[dst] = value
            elif type(held) is int:
                if held == value:
                    continue
                pts[dst] = {held, value}
            elif type(held) is set and len(held) < MAX_VALUES:
                if value in held:
                    continue
                held.add(value)
            else:
                add_one(dst, value)
                continue
            waiting = pending.get(dst)
            if waiting is None:
                pending[dst] = value
                self.queue.append(dst)
            elif isinstance(waiting, int):
                pending[dst] = {value, waiting}
            else:
                waiting.add(value)

    def _send(self, targets: Sequence[int], delta: set[int]) -> None:
        """``add(dst, delta)`` for each of ``targets``, inline where nothing is bounded."""
        pts, pending, add = self.pts, self.pending, self.add
        plain = not (delta & self.special)
        for dst in targets:
            held = pts[dst]
            if type(held) is not set or not plain or len(held) + len(delta) > MAX_VALUES:
                add(dst, delta)  # the careful way: bounds to check
                continue
            new = delta - held
            if not new:
                continue
            held |= new
            waiting = pending.get(dst)
            if waiting is None:
                pending[dst] = new
                self.queue.append(dst)
            elif isinstance(waiting, int):
                new.add(waiting)
                pending[dst] = new
            else:
                waiting |= new

    def run(self) -> None:
        queue, pending, succ, rules = self.queue, self.pending, self.succ, self.rules
        send_one, send, later, popleft = self._send_one, self._send, self.later, queue.popleft
        if self.order is not None:
            shuffled = list(queue)
            self.order.shuffle(shuffled)
            queue.clear()
            queue.extend(shuffled)
        while queue or later:
            while later:
                self.flow(*later.pop())
            if not queue:
                break
            var = popleft()
            waited = pending.pop(var, None)
            if waited is None:
                continue
            found_targets = succ[var]
            if found_targets is not None:
                targets = (found_targets,) if isinstance(found_targets, int) else found_targets
                if isinstance(waited, int):  # one value (most: 312,000 of django's 347,000)
                    send_one(targets, waited)
                else:
                    send(targets, waited)
            found = rules[var]
            if found is None:
                continue
            ordered: Sequence[int] = (
                (waited,)
                if type(waited) is int
                else sorted(waited)  # type: ignore[arg-type]
                if len(waited) > 1  # type: ignore[arg-type]
                else tuple(waited)  # type: ignore[arg-type]
            )
            if isinstance(found, list):
                for rule in list(found):
                    rule(ordered)
            else:
                found(ordered)
        # A dict keeps the table of its most entries once they are popped (20 MB after the
        # install of a 3,000-file SDK, held through the drawing): a new one is empty.
        self.pending = {}

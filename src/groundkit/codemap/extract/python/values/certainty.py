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

``None`` is no value of the flow (a method called on it would raise, so where a call runs its
receiver is something else), but a truth test, ``==``/``!=`` and ``str()``/``repr()``/
``hash()`` run on ``None`` without raising, and then run no dunder of the repository: an
operand ``None`` may reach (a parameter whose ``None`` default some call keeps, ``x = None``
on one branch, ``f(None)``) makes those partial. Other dunders (a subscript, ``for``,
``with``, ``len()``) would raise on ``None``, so ``None`` there says nothing against them.
"""

from __future__ import annotations

from array import array
from collections import deque
from itertools import accumulate, islice

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.contexts import Contexts
from groundkit.codemap.extract.python.values.instances import given_by_each_call
from groundkit.codemap.extract.python.values.keys import ClassKey
from groundkit.codemap.extract.python.values.overrides import Overrides
from groundkit.codemap.extract.python.values.registries import handed_the_receiver
from groundkit.codemap.extract.python.values.rejected import Rejected
from groundkit.codemap.extract.python.values.replaced import Replaced
from groundkit.codemap.extract.python.values.shadowed import Shadowed, read_again
from groundkit.codemap.extract.python.values.state import Flow
from groundkit.codemap.extract.python.values.visitors import guessed

__all__ = ["NONE_ANSWERS", "Certainty", "choices"]

_INSTANCES = (objects.INST, objects.CONE)
# What syntax or a built-in asks of a value (the site's name) that ``None`` answers itself.
NONE_ANSWERS = frozenset({"__bool__", "__eq__", "__ne__", "bool", "str", "repr", "format", "hash"})
# The same, by the dunder the repository's class is asked for (a truth test asks ``__len__``
# when the class has no ``__bool__``: ``len(None)`` raises, but the result is only a choice).
_NONE_DUNDERS = frozenset(
    {"__bool__", "__len__", "__eq__", "__ne__", "__str__", "__repr__", "__format__", "__hash__"}
)


class Certainty:
    """The choices of one solved flow, and whether a dunder runs for certain."""

    def __init__(self, flow: Flow, known: tuple[set[int], set[int]] | None = None) -> None:
        """``known``: the (choices, maybe-None) variables of the solve ``flow`` continues; only
        what its new edges reach is worked out (``continued.py``)."""
        self.flow = flow
        self._sure: dict[tuple[int, str], bool] = {}
        self.maybe_none = maybe_none(flow, known[1] if known else None)
        seeds = [
            dst
            for operand, dst, method in flow.protocol_results
            if not self.runs_on_all(operand, method)
            or (method in _NONE_DUNDERS and operand in self.maybe_none)
        ]
        self.hidden = hidden(flow)
        seeds += given_by_each_call(flow)  # (a method runs on one instance: its own value)
        seeds += handed_the_receiver(flow)  # (a handler sees the classes that registered it)
        seeds += guessed(flow)  # (a visitor's method sees the class named for it)
        self.shadowed = Shadowed(flow)  # (an instance's own attribute, on some instances only)
        seeds += self.shadowed.seeds
        seeds += read_again(flow)  # (a caching descriptor's __get__, on a first read only)
        split = [var for var, attrs in flow.by_class.items() if self._splits(var, attrs)]
        self.choices = choices(flow, seeds, known[0] if known else None, split)
        self.overrides = Overrides(flow)
        self.replaced = Replaced(flow, continued=known is not None)
        self.rejected = Rejected(flow)
        self.contexts = Contexts(flow, self.maybe_none)

    def _splits(self, var: int, attrs: set[str]) -> bool:
        """Whether the classes ``var`` may hold (or be) bind one of ``attrs`` in different
        bodies: a branch on ``var.attr`` then depends on the class (``if
        cls.init_every_request:``)."""
        flow = self.flow
        classes = [cls for value in flow.engine.held(var) for cls in flow.classes_of(value)]
        owner = flow.program.owner
        return any(len({owner(cls, attr) for cls in classes}) > 1 for attr in attrs)

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
        held = flow.engine.held(operand)
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

    def dunder_is_certain(self, operand: int, method: str, asked: str) -> bool:
        """Whether ``method`` runs on every value of ``operand`` where syntax or a built-in
        asks ``asked`` of it (the site's name: ``__bool__`` for a truth test, ``len``...)."""
        if operand < 0 or operand in self.choices:
            return False
        if method == "__getattr__" and self.behind_a_decorator(operand):
            return False
        if asked in NONE_ANSWERS and operand in self.maybe_none:
            return False
        lacked = _lacked(asked, method)
        if lacked is not None:
            # ``method`` runs because the class lacks ``lacked``: only where no base from
            # outside the repository may have it (``outside_binds``)
            program = self.flow.program
            classes = (c for v in self.flow.engine.held(operand) for c in self.flow.classes_of(v))
            if any(program.outside_binds(c, lacked) is not False for c in classes):
                return False
        return self.runs_on_all(operand, method)

    def behind_a_decorator(self, operand: int) -> bool:
        """Whether ``operand`` holds ``self`` of a class the map cannot link its subclasses to
        (``hidden``): an attribute missing there may be the subclass's, so ``__getattr__``
        runs on some runs only."""
        return bool(self.hidden) and not self.hidden.isdisjoint(self.flow.engine.held(operand))


def hidden(flow: Flow) -> frozenset[int]:
    """The values ``self`` holds in the methods of a class seen only behind a class decorator
    the map cannot read (its result is something other than the class alone: attrs'
    ``@attr.s(slots=True)`` rebuilds it with ``type()``, one builder for every class) and
    named as a base by a class of its module whose bases the map could not read for that
    (``class AB(A, B)``). What the methods run on may be that subclass, which the class's
    cone does not hold: an attribute missing on the class may be the subclass's."""
    program = flow.program
    ids = flow.values.ids
    classes = program.classes
    out = set()
    for info in program.files:
        scopes = info.facts.scopes
        named = {
            ref[-1]
            for index, scope in enumerate(scopes)
            if scope.kind == facts.Kind.CLASS and classes[ClassKey((info.index, index))].open
            for ref in scope.base_refs
            if ref
        }
        if not named:
            continue
        sites = info.facts.sites
        for op in info.decorations():
            site = sites[op.site]
            if site.target < 0:
                continue
            scope = scopes[site.target]
            if scope.kind != facts.Kind.CLASS or scope.qual.rsplit(".", 1)[-1] not in named:
                continue
            made = ids.get((objects.CLASS, info.index, site.target))
            if made is not None and flow.engine.held(info.var(op.dst)) == {made}:
                continue
            found = ids.get((objects.CONE, info.index, site.target))
            if found is not None:
                out.add(found)
    return frozenset(out)


def _lacked(asked: str, method: str) -> str | None:
    """The dunder a class lacks when syntax that asks ``asked`` runs ``method`` instead: a
    loop's ``__getitem__`` (no ``__iter__``), a truth test's ``__len__`` (no ``__bool__``),
    ``x += y``'s ``__add__`` (no ``__iadd__``)."""
    if asked == "__iter__" and method == "__getitem__":
        return asked
    if asked in ("__bool__", "bool") and method == "__len__":
        return "__bool__"
    if asked.startswith("__i") and method == "__" + asked[3:]:
        return asked
    return None


def maybe_none(flow: Flow, known: set[int] | None = None) -> set[int]:
    """The variables ``None`` may reach: every copy from a file's ``None`` on. ``None`` holds
    no value, so it is followed along the copy edges apart (each carries all its source holds).
    ``known``: those of the solve ``flow`` continues (followed on from where they have edges)."""
    succ = flow.engine.succ
    if known is None:
        starts = [flow.none, *(info.var(facts.NONE_VAR) for info in flow.program.files)]
        reached = set(starts)
    else:
        starts = [var for var in known if succ[var] is not None]
        reached = known
    shut = flow.not_none  # a local where ``x is not None`` held
    queue = deque(starts)
    while queue:
        out = succ[queue.popleft()]
        for nxt in (out,) if isinstance(out, int) else out or ():
            if nxt not in reached and nxt not in shut:
                reached.add(nxt)
                queue.append(nxt)
    return reached


def choices(
    flow: Flow,
    seeds: list[int] | None = None,
    known: set[int] | None = None,
    split: list[int] | None = None,
) -> set[int]:
    """The variables that hold a run-time choice (``seeds``: more to start from; ``known``:
    those of the solve ``flow`` continues, followed on from where they have edges; ``split``:
    copies of a local where a branch on its attribute holds, ``facts.ByClass``: what reads
    that attribute there is no choice for it, only the classes that gave it went in)."""
    engine = flow.engine
    keys = flow.values.keys
    # (every value's kind asked once where most variables are asked, as they are in a whole
    # solve; a continued one asks a few, each value's kind where it is held)
    plain = {v for v in range(len(keys)) if keys[v][0] in objects.PLAIN} if known is None else None
    memo: dict[int, frozenset[int]] = {}
    # Equal ones held once: the sources of a meeting variable hold the same values copied along
    # their edges, and a frozenset for each raised django's map by 29 MB above its solve.
    shared: dict[frozenset[int], frozenset[int]] = {}

    def relevant(var: int) -> frozenset[int]:
        found = memo.get(var)
        if found is None:
            held = engine.held(var)
            made = frozenset(
                held - plain
                if plain is not None
                else (v for v in held if keys[v][0] not in objects.PLAIN)
            )
            found = memo[var] = shared.setdefault(made, made)
        return found

    starts = list(seeds or ())
    for dst, sources in engine.incoming.items():
        if isinstance(sources, int):
            continue
        found = {relevant(s) for s in sources}
        found.discard(frozenset())
        if len(found) > 1:
            starts.append(dst)
    starts += [dst for dst in flow.computed_reads if len(relevant(dst)) > 1]
    following = _following(flow.depends, len(engine.pts))
    succ = engine.succ
    if known is not None:
        starts += [var for var in known if succ[var] is not None or following.has(var)]
    chosen = set(starts) if known is None else known | set(starts)
    _spread(deque(starts), chosen, succ, following)
    split = [var for var in split or () if var not in chosen]
    chosen.update(split)
    # (only through the code around the branch: what leaves it through a parameter, a return
    # or an attribute is one of the classes that took the branch, as anywhere else)
    _spread(deque(split), chosen, succ, following, flow.tested_reads, flow.program.variables)
    return chosen


class _Following:
    """The results computed from each variable: those of ``var`` are
    ``results[first[var]:first[var + 1]]``, in the order they were installed (two int arrays,
    where a dict of lists took 35 MB on django's 310,000 pairs, above the peak of the solve)."""

    __slots__ = ("first", "results")

    def __init__(self, first: array[int], results: array[int]) -> None:
        self.first = first
        self.results = results

    def of(self, var: int) -> array[int]:
        return self.results[self.first[var] : self.first[var + 1]]

    def has(self, var: int) -> bool:
        return self.first[var] != self.first[var + 1]


class _FewFollowing:
    """The same, for a few pairs (a continued solve's: its own operations' only), by a dict:
    two arrays as long as the program's variables would cost more than the pairs."""

    __slots__ = ("by_operand",)

    def __init__(self, pairs: array[int]) -> None:
        self.by_operand: dict[int, array[int]] = {}
        for at in range(0, len(pairs), 2):
            self.by_operand.setdefault(pairs[at], array("i")).append(pairs[at + 1])

    def of(self, var: int) -> array[int]:
        return self.by_operand.get(var, _NONE_FOLLOW)

    def has(self, var: int) -> bool:
        return var in self.by_operand


_NONE_FOLLOW = array("i")


def _following(pairs: array[int], size: int) -> _Following | _FewFollowing:
    """``pairs`` (operand, result, flat; every variable below ``size``) by operand: a counting
    sort, filled from the last pair back so that each operand's results keep their order."""
    if 8 * len(pairs) < size:
        return _FewFollowing(pairs)
    counts = array("i", bytes(4 * (size + 1)))
    for operand in islice(pairs, 0, None, 2):
        counts[operand] += 1
    first = array("i", accumulate(counts))  # for now, where each operand's results end
    del counts
    results = array("i", bytes(2 * len(pairs)))
    for at in range(len(pairs) - 2, -1, -2):
        operand = pairs[at]
        first[operand] -= 1
        results[first[operand]] = pairs[at + 1]
    return _Following(first, results)


def _spread(
    queue: deque[int],
    chosen: set[int],
    succ: list[list[int] | int | None],
    following: _Following | _FewFollowing,
    skip: set[tuple[int, int]] | None = None,
    below: int | None = None,
) -> None:
    """Everything computed from the variables in ``queue`` into ``chosen``, but the pairs in
    ``skip`` and the variables from ``below`` on (cells: parameters, returns, attributes)."""
    while queue:
        var = queue.popleft()
        out = succ[var]
        for nxt in (
            *((out,) if isinstance(out, int) else out or ()),
            *following.of(var),
        ):
            if nxt in chosen or (below is not None and nxt >= below):
                continue
            if not (skip and (var, nxt) in skip):
                chosen.add(nxt)
                queue.append(nxt)

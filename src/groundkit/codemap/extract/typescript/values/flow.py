"""Value flow across the repository: what a parameter is given.

Every file's interface lists its pass sites (calls that hand values to their callee, closed
over local bindings). Read once per run (``Index``), they answer **what a parameter holds**
(``feeds``): the arguments at that position in every call site of the function, and in every
call site of a parameter the function is passed into (``apply(f)`` where ``apply(fn)`` calls
``fn(x)``), positionally or as a member of an options object (``run({onDone: f})`` with
``run({onDone})`` or ``opts.onDone()``).

A parameter is unknown (``None``) when some caller gives it an unknown value (a call's result,
a reassigned name, a parameter that is itself unknown, a value of the runtime or of a package:
``registry.get(key)``, ``window.handler``...), when no call site in the repository hands the
function anything (it is called from outside, if at all), or when the function is handed to
code outside the repository (``app.get("/", handler)``, ``[1].map(f)``, ``setTimeout(f)``) or to
a callee that is not known. Then ``known`` answers what the known paths give it, leaving the
unknown ones out (the targets of ``partial`` edges; a site whose callee is one of several
functions counts for each there). Whether a table's member changed is ``tables.py``'s question.

``arguments`` and its copies are a ``Feed`` whose path starts with ``REST`` or ``ITEM``: any
argument from a position on (``Param`` -1 - k), the items of array literals there included. A
field stored on ``this`` is the evaluator's (``members.py``): its value, a ``Feed`` of the
constructor, is called like any parameter.

An array's elements are ``arrays.py``'s: a function stored into an array of the repository
(``stack.push(f)``) or handed to its ``forEach`` is not handed to unknown code (its callers are
the calls of the elements; the callback is given the elements by a pass site of its own).

Not followed (their calls are missed, never guessed): a function that leaves through a
return value, an array whose identity is not known (a call's result), or a field of an object
that is not an argument; a function's callers outside the repository (an exported function of
a library).
Bounds: ``DEPTH`` nested parameters, ``MAX_VALUES`` values per parameter (``MAX_KNOWN`` along
known paths); a parameter past either holds ``None`` and the bound is counted (``bounds_hit``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.index import (
    DEPTH,
    Index,
    Site,
    Target,
    arguments,
    array_method,
    ask_again,
    build_index,
    callable_of,
    given_value,
    settled_then,
)
from groundkit.codemap.extract.typescript.values.objects import (
    Arr,
    Choice,
    Def,
    Feed,
    Unknown,
    Value,
)
from groundkit.codemap.extract.typescript.values.repository import RepositoryFacts

__all__ = ["DEPTH", "MAX_KNOWN", "MAX_VALUES", "Flow"]

# A value's kind is tested as ``type(v) is C``: no value or fact class is subclassed, and on a
# miss the identity test costs a third of an isinstance call, asked a million times a large map.

MAX_VALUES = 32
MAX_KNOWN = 256  # values per parameter along its known paths (``known()``: partial edges)
# A function and a parameter position; -1 - k for any of the arguments from position k on
# (``arguments``, ``slice.call(arguments, k)``), the items of an array literal there included.
Param = tuple[Def, int]
_REST = (facts.REST, facts.ITEM)
# Read per value a parameter is given (tens of thousands on express): a set of kinds, not an
# isinstance against a union built at each test.
_NOT_KNOWN = frozenset({Unknown, Feed})
_BOUNDED: Param = (Def("", "", ""), -1)  # a cut by the depth bound: never exact
_ReadKey = tuple[tuple[str, ...], str, bool]  # the member, the file asking, lenient


@dataclass(frozen=True, slots=True)
class _Given:
    """An answer of ``_given`` along known paths, with what working it out did: the cuts it
    made, the bounds it hit, and how many answers were kept when it was done."""

    found: frozenset[Value] | None
    cuts: frozenset[Param]
    state: tuple[int, int]
    bounds_hit: int


class Flow:
    def __init__(
        self,
        ev: Evaluator,
        sources: list[str],
        packages: Callable[[], frozenset[str]] = frozenset,
    ) -> None:
        self.ev = ev
        self.sources = sources
        # The package files whose pass sites are read too (``dependencies.py``), asked when the
        # index is first built.
        self.packages = packages
        self._solved: list[str] | None = None
        self._own = frozenset(sources)
        # The named arrays a function or parameter is stored into (``arrays.Arrays`` answers)
        self.stored_in: Callable[[Def | Feed], list[Arr]] = lambda value: []
        self.building = False  # the index is being read: questions that need it cannot wait
        self.bounds_hit = 0
        self._index: Index | None = None
        # functions some parameter of is handed on -> each such parameter's (position, member)
        self._fed: dict[Def, set[tuple[int, tuple[str, ...]]]] | None = None
        self._params: dict[Param, frozenset[Value] | None] = {}
        self._known: dict[Param, frozenset[Value] | None] = {}  # ``known()``'s answers
        self._lenient = False  # ``known()`` is asking: what is unknown is left out
        # Answers that no cut shaped (no parameter on the stack was reached, no bound hit):
        # the same at any depth, so kept for every query (``_exact_known`` for ``known()``)
        self._exact: dict[Param, frozenset[Value] | None] = {}
        self._exact_known: dict[Param, frozenset[Value] | None] = {}
        self._cuts: set[Param] = set()  # the parameters cut while answering the current one
        self._reached_exact: dict[tuple[Def, bool], list[Feed] | None] = {}
        self._repeats: dict[tuple[Param, frozenset[Param]], _Given] = {}  # ``_given_once``
        # A value's member read once per (member, file asking, lenient) and value: the values
        # of one parameter are read for the same member together
        self._read: dict[_ReadKey, dict[Value, Value]] = {}
        self.repository = RepositoryFacts(ev, sources)
        ev.passed = self.passed

    @property
    def consulted(self) -> bool:
        """Whether the whole repository was read for the current file (kept by the
        evaluator, so that an answer worked out once carries it to every asker). This class's
        own methods set the evaluator's directly: they are asked per call site."""
        return self.ev.consulted

    @consulted.setter
    def consulted(self, value: bool) -> None:
        self.ev.consulted = value

    @property
    def settled(self) -> bool:
        """Whether ``feeds`` may be asked now: not while the index is read, nor from inside
        ``known()`` (whose answers leave the unknown out)."""
        return not self.building and not self._lenient

    # -- the repository's classes and accessors (``repository.py``) -----------------------------
    def accessor_names(self) -> frozenset[str]:
        """The member names some getter or setter of the repository has: a member read of any
        other name runs no accessor."""
        return self.repository.accessor_names()

    def subclasses(self, cls: Def) -> list[Def]:
        """Every class of the repository that extends ``cls``, directly or through others."""
        return self.repository.subclasses(cls)

    # -- parameters -------------------------------------------------------------------------------
    def feeds(self, feed: Feed) -> set[Value] | None:
        """What ``feed`` may hold at run time; None when something unknown may reach it."""
        self.ev.consulted = True
        param, path = _param_of(feed)
        given = self._param(param, frozenset())
        if given is None:
            return None
        out: set[Value] = set()
        for value in given:
            reached = self.ev.apply(value, path, (feed.func.path, -1))
            if type(reached) in _NOT_KNOWN:
                return None
            out.add(reached)
        return out

    def passed(self, feed: Feed) -> list[Value] | None:
        """What each call site of ``feed``'s function hands that parameter, as evaluated (a
        package's object kept: ``new Sequelize()``), when the function is only called directly
        by name (never handed on) and some site calls it; else None. ``feeds`` answers what a
        call through the parameter may run; this, what kind of object it is given."""
        if feed.path or feed.position < 0:
            return None
        if not self.settled:
            self.ev.memo.cut()  # (the index being read, or known() asking: not the answer)
        if self.building:
            return None
        self.ev.consulted = True
        if self._reached(feed.func, frozenset()) != []:
            return None
        sites = self.index().calls.get(feed.func, [])
        out: list[Value] = []
        for site in sites:
            args = site.record.args
            if 0 <= site.spread <= feed.position or feed.position >= len(args):
                return None
            out.append(self.ev.value(args[feed.position], (site.path, -1)))
        return out or None

    def known(self, feed: Feed) -> set[Value]:
        """What ``feed`` holds along the paths that are known, when ``feeds`` says something
        unknown may reach it too: the targets of ``partial`` edges."""
        self.ev.consulted = True
        param, path = _param_of(feed)
        self._lenient = True
        try:
            given = self._param(param, frozenset()) or frozenset()
        finally:
            self._lenient = False
        if not path:  # the parameter itself (``apply`` of no member gives each value back)
            return {v for v in given if type(v) not in _NOT_KNOWN}
        out: set[Value] = set()
        member = tuple(path)
        # a value a package's code hands every callback it calls (a request) reaches many
        # parameters, each asked for the same members: each read worked out once
        read = self._read.setdefault((member, feed.func.path, True), {})
        for value in given:
            reached = read.get(value)
            if reached is None:
                reached = read[value] = self.ev.apply(value, path, (feed.func.path, -1))
            if type(reached) not in _NOT_KNOWN:
                out.add(reached)
        return out

    def _param(self, param: Param, stack: frozenset[Param]) -> frozenset[Value] | None:
        top = not stack
        cache = self._known if self._lenient else self._params
        if top and param in cache:
            return cache[param]
        exact = self._exact_known if self._lenient else self._exact
        if param in exact:
            return exact[param]
        if param in stack:
            self._cuts.add(param)
            return frozenset()  # a call of itself adds nothing its other callers do not give
        if len(stack) >= DEPTH:
            self.bounds_hit += 1
            self._cuts.add(_BOUNDED)
            return self._unknown()
        outer, self._cuts = self._cuts, set()
        try:
            found = self._given_once(param, stack | {param})
        finally:
            cuts, self._cuts = self._cuts, outer
            self._cuts.update(cuts - {param})
        bound = MAX_KNOWN if self._lenient else MAX_VALUES
        if found is not None and len(found) > bound:
            self.bounds_hit += 1
            found = self._unknown()
        if cuts <= {param}:
            # nothing on the stack was cut from it: the answer a query of its own would give
            exact[param] = found
        if top:  # a nested answer may lack what the outer query is collecting: not kept
            cache[param] = found
        return found

    def _given_once(self, param: Param, stack: frozenset[Param]) -> frozenset[Value] | None:
        """``_given``; along the known paths (``known()``), an answer for the same parameter
        under the same stack is given again while no answer was kept since it was worked out
        (what it read is then as it was): the depth bound keeps cut answers from being kept,
        so each of express's route handlers walked the ``router`` package's cycle of
        functions again, most of it under stacks already met."""
        if not self._lenient:
            return self._given(param, stack)
        key = (param, stack)
        kept = self._repeats.get(key)
        if kept is not None and kept.state == (len(self._exact_known), len(self._reached_exact)):
            self._cuts.update(kept.cuts)
            self.bounds_hit += kept.bounds_hit
            return kept.found
        hits = self.bounds_hit
        found = self._given(param, stack)
        state = (len(self._exact_known), len(self._reached_exact))
        self._repeats[key] = _Given(found, frozenset(self._cuts), state, self.bounds_hit - hits)
        return found

    def _unknown(self) -> frozenset[Value] | None:
        """What an unknown part adds: nothing to ``known()``; to ``feeds()``, unknown."""
        return frozenset() if self._lenient else None

    def _given(self, param: Param, stack: frozenset[Param]) -> frozenset[Value] | None:
        func, position = param
        reached = self._reached(func, stack)
        if reached is None:
            return None  # handed to code outside the repository, or to a callee not known
        out: set[Value] = set()
        called = False
        targets: list[Target] = [func, *reached]
        index = self.index()
        lenient, own = self._lenient, self._own
        last = max(position, -1 - position)
        for target in targets:
            sites = index.calls.get(target, [])
            if lenient and target in index.maybe:
                sites = [*sites, *index.maybe[target]]
            for site in sites:
                called = True
                if not lenient and site.path not in own:
                    # handed over by a package's code: it may change with the package's
                    # version, so what it gives is known along a path only (``partial``)
                    return None
                if 0 <= site.spread <= last:
                    if lenient:
                        continue
                    return None
                for value in arguments(self.ev, site, position):
                    kind = type(value)
                    if kind is not Feed and kind is not Unknown:
                        out.add(value)  # (what ``_expand`` gives back of a value as it is)
                        continue
                    held = self._expand(value, stack)
                    if held is None:
                        return None
                    out |= held
        default = self._default(func, position)
        if default is not None and (
            self._omitted(func, position) or (self._lenient and not called)
        ):
            held = self._expand(default, stack)  # a caller leaves it out: it holds its default
            if held is None:
                return None
            out |= held
            called = True
        # no call site: called from outside, if at all
        return frozenset(out) if called else self._unknown()

    def _default(self, func: Def, position: int) -> Value | None:
        """What parameter ``position`` of ``func`` holds when a caller leaves it out."""
        written = self.ev.interface(func.path).defaults.get(func.qual, {}).get(position)
        if written is None:
            return None
        return given_value(self.ev, written, func.path)

    def _omitted(self, func: Def, position: int) -> bool:
        """Whether some call of ``func`` by name gives fewer than ``position + 1`` arguments."""
        index = self.index()
        if any(n <= position for n in index.arities.get(func, [])):
            return True
        return any(
            s.spread < 0 and len(s.record.args) <= position for s in index.calls.get(func, [])
        )

    def _expand(self, value: Value, stack: frozenset[Param]) -> frozenset[Value] | None:
        if type(value) is Unknown:
            return self._unknown()
        if type(value) is not Feed:
            return frozenset({value})
        param, path = _param_of(value)
        given = self._param(param, stack)
        if given is None:
            return None
        if not path:  # the parameter itself: what it is given (``apply`` of no member), which
            return given  # holds nothing unknown (each value added went through here)
        out = set()
        member = tuple(path)
        read = self._read.setdefault((member, value.func.path, self._lenient), {})
        for held in given:
            reached = read.get(held)
            if reached is None:
                reached = read[held] = self.ev.apply(held, path, (value.func.path, -1))
            if type(reached) is Unknown:
                if self._lenient:
                    continue
                return None
            out.add(reached)
        return frozenset(out)

    def _reached(self, func: Def, stack: frozenset[Param]) -> list[Feed] | None:
        """The parameters ``func`` is handed into, directly or on through other parameters;
        None when it is handed to something that is not a function of the repository. An
        answer no cut shaped is kept (asked once per parameter of a function otherwise)."""
        key = (func, self._lenient)
        if key in self._reached_exact:
            return self._reached_exact[key]
        outer, self._cuts = self._cuts, set()
        try:
            found = self._reaching(func, stack)
        finally:
            cuts, self._cuts = self._cuts, outer
            self._cuts.update(cuts)
        if not cuts:
            self._reached_exact[key] = found
        return found

    def _reaching(self, func: Def, stack: frozenset[Param]) -> list[Feed] | None:
        out: dict[Feed, None] = {}  # in the order found (a list's membership test was linear)
        todo: list[Target] = [func]
        while todo:
            current = todo.pop()
            for site, position, member in self._handed(current):
                if not self._reach(site, position, member, stack, out, todo):
                    return None
            if type(current) is not Def and type(current) is not Feed:
                continue
            # stored into an array that is handed on (``compose(this.middleware)``): a call
            # of its elements may call it. Where the array goes is not known, nothing is
            # added, as an array's stores were never hand-offs.
            for array in self.stored_in(current):
                for site, position, member in self.index().passed.get(array, []):
                    element = (*member, facts.ELEMENT)
                    self._reach(site, position, element, stack, out, todo, lenient=True)
        return list(out)

    def _reach(
        self,
        site: Site,
        position: int,
        member: tuple[str, ...],
        stack: frozenset[Param],
        out: dict[Feed, None],
        todo: list[Target],
        *,
        lenient: bool = False,
    ) -> bool:
        """Adds the parameters a site hands a value into; False when the site's callee is
        not known to be ours (and that matters: ``feeds``, not ``known``)."""
        callees = self._callees(site, stack) if position >= 0 else None
        if callees is None:
            # handed where it is not known: for known(), the other hand-offs still count
            return self._lenient or lenient
        for callee in callees:
            feed = Feed(callee, position, member)
            if feed not in out and len(out) < MAX_VALUES * 4:
                out[feed] = None
                todo.append(feed)
        return True

    def _handed(self, target: Target) -> Iterable[tuple[Site, int, tuple[str, ...]]]:
        passed = self.index().passed
        if type(target) is not Feed:
            return passed.get(target, [])  # a function: handed where it is named only
        if self._fed is None:
            fed: dict[Def, set[tuple[int, tuple[str, ...]]]] = {}
            for held in passed:
                if type(held) is Feed:
                    fed.setdefault(held.func, set()).add((held.position, held.path))
            self._fed = fed
        handed = self._fed.get(target.func)
        if handed is None:
            return ()  # no parameter of its function is handed on: none of the keys below
        return self._handed_feed(passed, target, handed)

    def _handed_feed(
        self,
        passed: dict[Target, list[tuple[Site, int, tuple[str, ...]]]],
        target: Feed,
        handed: set[tuple[int, tuple[str, ...]]],
    ) -> Iterator[tuple[Site, int, tuple[str, ...]]]:
        # ``handed``: the (position, member) keys of the function's parameters that are handed
        # on, so that a ``Feed`` is made only for a key that is there (most are not)
        yield from passed.get(target, [])
        func = target.func
        if not target.path:  # in ``arguments`` too, and its copies
            for start in range(target.position + 1):
                for head in _REST:
                    if (start, (head,)) in handed:
                        yield from passed[Feed(func, start, (head,))]
        for cut in range(len(target.path)):  # opts.onDone is in opts: where opts goes, it goes
            if (target.position, target.path[:cut]) not in handed:
                continue
            whole = Feed(func, target.position, target.path[:cut])
            for site, position, member in passed[whole]:
                yield site, position, (*member, *target.path[cut:])

    def _callees(self, site: Site, stack: frozenset[Param]) -> list[Def] | None:
        """The functions a site's callee may be; None when it is not known to be ours. An
        array's ``push`` or ``forEach`` calls none: what it stores is read back as its elements
        (``arrays.py``), what it calls back is given them (a pass site of its own)."""
        if array_method(self.ev, site.record.callee, site.path):
            return []
        if settled_then(self.ev, site.record.callee, site.path):
            return []  # load().then(f): f's values are its own pass site's
        callee = callable_of(self.ev, site.callee, site.record.how)
        if type(callee) is Def:
            return [callee]
        if type(site.callee) is Choice and self._lenient:
            options = (callable_of(self.ev, o, site.record.how) for o in site.callee.options)
            return [d for d in options if type(d) is Def]
        if type(callee) is Feed:
            given = self._expand(callee, stack)
            if given is None:
                return None
            out = [callable_of(self.ev, v, site.record.how) for v in given]
            return [d for d in out if type(d) is Def] if all(out) or self._lenient else None
        return None

    # -- the index --------------------------------------------------------------------------------
    def index(self) -> Index:
        assert not self.building, "the index is read once, not from inside its own reading"
        if self._index is None:
            saved, self.ev.deps = self.ev.deps, set()
            self.building = True
            try:
                with self.ev.memo.index(
                    sum(len(self.ev.interface(p).passes) for p in self.solved())
                ):
                    self._index = build_index(self.ev, self.solved(), self.sources)
            finally:
                self.ev.deps = saved
                self.building = False
            ask_again(self.ev, self._index)
        return self._index

    def solved(self) -> list[str]:
        """The files whose pass sites and stores the flow reads: the repository's, then the
        packages' it imports (whose functions are never nodes)."""
        if self._solved is None:
            self._solved = [*self.sources, *sorted(self.packages())]
        return self._solved


def _param_of(feed: Feed) -> tuple[Param, list[str]]:
    """The parameter a value is given at, and the member of it that is meant."""
    if feed.path and feed.path[0] in _REST:
        return (feed.func, -1 - feed.position), list(feed.path[1:])
    return (feed.func, feed.position), list(feed.path)

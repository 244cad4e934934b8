"""An edit taken on from the last solve instead of solving again: the new operations of the
files that changed are installed on the kept solution (``snapshot.py``) and run, and only
those files are drawn again. Anything the shortcut cannot vouch for raises ``Reached``, and
the caller solves the whole program as before.

Why the result is the fresh solve's, exactly: the edit must only *add* operations (every old
operation is still there, under the same numbers), so the new program's least fixed point
contains the old one. The continuation starts from the old one, installs only the added
operations and runs them with the old variables frozen: it stops (``Reached``) as soon as the
new code would give an old variable anything it did not hold, add a copy edge into one, or
record a target at an old site. When it finishes without that, the old variables are a fixed
point of the new program as they stand, so the old solution plus the new variables is the
new program's least fixed point (the old part cannot shrink, since the program only grew).

The solver is not monotone in three places, and each is guarded: the bounds (a new variable
that hits one stops it: which values got in first depends on order); the second round (new
code may not read a variable the second round gave more, ``Snapshot.late``, so its first-round
view is the fresh solve's, and its own second-round entries are then run the same way); and
what is decided before values flow (the class hierarchy, the dunders some class defines, the
names a module binds: a change to any stops it). No new scope (function, class, lambda).

A file whose edit only changed string literals is taken on by renaming the old strings'
values (``relabel.py`` says when that is exact), or, when it changed one of several equal
literals, by giving the changed one's reach a value of its own (``split.py``); other files
may add code in the same edit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Facts
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.alignment import Alignment, Reached, align
from groundkit.codemap.extract.python.values.certainty import Certainty
from groundkit.codemap.extract.python.values.engine import MAX_STRINGS, Engine, Marks, Rule
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.overrides import may_unbar
from groundkit.codemap.extract.python.values.program import Program
from groundkit.codemap.extract.python.values.relabel import Relabel, rekey, relabels, rename
from groundkit.codemap.extract.python.values.snapshot import Snapshot, hierarchy
from groundkit.codemap.extract.python.values.solver import Solver
from groundkit.codemap.extract.python.values.split import Split, apply_split, split
from groundkit.codemap.extract.python.values.state import Flow, Found

__all__ = ["Change", "Reached", "changed", "continue_solve"]

# Operations whose effect reaches other files in ways the guarded engine does not see (a
# function's returns are decided at install, a class body's names steer every lookup).
_REFUSED = (facts.Ret, facts.Yield, facts.ClassBind)


@dataclass(frozen=True, slots=True)
class Change:
    """One file's edit since the snapshot: its facts then, and how the new ones extend them
    (or which string literals they changed, ``relabel.py``, or which one of several equal
    ones, ``split.py``)."""

    old: Facts
    alignment: Alignment
    relabels: tuple[Relabel, ...] = ()
    split: Split | None = None
    rekeyed: tuple[int, ...] = ()  # subscripts given another literal key (their ``obj``)


def changed(old: Facts, new: Facts) -> Change:
    """The change from ``old`` to ``new``; raises ``Reached`` unless it only adds code or
    only changes string literals."""
    try:
        return Change(old, align(old, new))
    except Reached as added:
        try:
            found, rekeyed = relabels(old, new)
        except Reached:
            pass
        else:
            return Change(old, Alignment(old.variables, 0, []), tuple(found), None, tuple(rekeyed))
        try:
            alignment, one = split(old, new)
        except Reached:
            raise added from None
        return Change(old, alignment, split=one)


class _Guarded(Engine):
    """The engine of a continuation: variables below ``old`` are frozen."""

    __slots__ = ("late", "old")

    def __init__(self, values: objects.Values, size: int, old: int, late: set[int]) -> None:
        super().__init__(values, size, Marks())
        self.old = old  # variables below this number are the snapshot's
        self.late = late

    def add(self, var: int, values: Iterable[int]) -> None:
        if var < self.old:
            if var in self.late or not self.held(var).issuperset(values):
                raise Reached("the edit gives an old variable more")
            return
        Engine.add(self, var, values)

    def flow(self, src: int, dst: int) -> None:
        if src == dst:
            return
        if dst < self.old:
            raise Reached("the edit flows into an old variable")
        if src < self.old and src in self.late:
            raise Reached("the edit reads what the second round gave")
        Engine.flow(self, src, dst)

    def on(self, var: int, rule: Rule) -> None:
        if var < self.old and var in self.late:
            raise Reached("the edit reads what the second round gave")
        Engine.on(self, var, rule)


class _Continued(Flow):
    """A flow restored from a snapshot: a target at an old site would change an old edge."""

    old_sites: dict[int, int]  # file -> sites it had when solved

    def record(self, site: SiteKey, target: FuncKey | ClassKey, how: How, operand: int) -> None:
        if 0 <= site[1] < self.old_sites.get(site[0], 0):
            found = self.found.get(site)
            if found is None or target not in found.targets:
                raise Reached("the edit adds a target to an old site")
            return
        if site[0] >= 0 and may_unbar(self.program, site, self.site(site).scope, target):
            raise Reached("the edit calls a base method a subclass overrides")
        Flow.record(self, site, target, how, operand)


def _flags_stay(program: Program, changes: Mapping[int, Change]) -> None:
    """A string a parameter's flag is compared with decided which returns a call passing it
    gets (``values/flags.py``): renaming it changes that, so it is solved afresh. (Renaming
    refuses most such edits already, the string being written twice in one file or reaching
    another; this does not lean on that.)"""
    compared = set().union(*(info.flag_strings for info in program.files))
    for change in changes.values():
        texts = {text for one in change.relabels for text in (one.old, one.new)}
        if change.split is not None:
            texts |= {change.split.old, change.split.new}
        if texts & compared:
            raise Reached("the edit changes a string a parameter's flag is compared with")


def continue_solve(
    program: Program, snapshot: Snapshot, changes: Mapping[int, Change]
) -> tuple[Flow, Certainty]:
    """The solved flow of ``program`` (numbered as ``snapshot``'s, see ``Program``) and its
    certainty, from ``snapshot`` and each changed file's ``Change`` (by file index)."""
    if program.dunders != snapshot.dunders or hierarchy(program) != snapshot.hierarchy:
        raise Reached("the edit changed the class hierarchy or the dunders classes define")
    _names_stay(program, changes)
    _flags_stay(program, changes)
    flow = _restore(program, snapshot, changes)
    for file, change in changes.items():
        # (before the new code runs: it sees the renamed values)
        if change.relabels:
            rename(flow, file, list(change.relabels))
        if change.rekeyed:
            rekey(flow, file, list(change.rekeyed))
        if change.split is not None:
            apply_split(flow, file, change.split, snapshot.late)
    solver = Solver(program, flow)
    for file, change in changes.items():
        for op in change.alignment.added:
            if isinstance(op, _REFUSED):
                raise Reached("the edit changes a function's returns or a class body")
            solver.install_op(file, op)  # (its file's parameters were set up when solved)
    engine = flow.engine
    engine.run()
    # The second round for what the new operations made (the old entries ran when the
    # snapshot was solved, and nothing they read has changed); no new scope, so no defaults.
    solver.second_round_entries()
    engine.run()
    if engine.bounds_hit or any(count > MAX_STRINGS for count in engine.strings.values()):
        raise Reached("the edit hit a bound")
    patched = (flow.patched_any, flow.set_any, flow.set_plain) != (
        snapshot.patched_any,
        snapshot.set_any,
        snapshot.set_plain,
    )
    if set(flow.calls_bound) != snapshot.calls_bound or patched:
        raise Reached("the edit calls a function nothing called, or patches a class")
    solver.close()
    certainty = Certainty(flow, (snapshot.choices, set(snapshot.maybe_none)))
    if not certainty.overrides.continues(snapshot.receivers, changes.keys(), flow.old_sites):
        raise Reached("the edit changes the classes a base method is sent to")
    if not certainty.replaced.continues(changes.keys()):
        raise Reached("the edit reads or sets a method replaced on instances")
    return flow, certainty


def _names_stay(program: Program, changes: Mapping[int, Change]) -> None:
    """A module binding a name it did not is seen by ``from m import *`` and static lookups,
    which were decided when the old program was installed."""
    starred = set()
    for info in program.files:
        for module, level in info.stars:
            absolute = program.absolute(info.index, module, level)
            found = program.find_module(absolute, near=info.path) if absolute else None
            if found is not None:
                starred.add(found)
    for file, change in changes.items():
        added = change.alignment.added
        binds = [op.name for op in added if isinstance(op, facts.ModBind | facts.GlobalSet)]
        old = {op.name for op in change.old.ops if isinstance(op, facts.ModBind | facts.GlobalSet)}
        if any(name in old for name in binds):
            raise Reached("the edit binds a module's name again")
        if binds and file in starred:
            raise Reached("the edit binds a new name in a module imported with *")


@dataclass(frozen=True, slots=True)
class _Derived:
    """What every continuation of one snapshot makes of it alike, made once and copied
    (django: 0.02 s of CPU an edit to make again)."""

    ids: dict[tuple[Any, ...], int]  # each value's key -> its number
    special: set[int]  # the string and container values (``Engine.special``)
    found: dict[SiteKey, Found]  # (a continuation never changes an old site's: ``record``)
    literals: dict[int, list[int]]  # file -> its container literals' values (``_renumbered``)


def _derived(snapshot: Snapshot) -> _Derived:
    if not isinstance(snapshot.derived, _Derived):
        keys = snapshot.keys
        snapshot.derived = _Derived(
            {key: index for index, key in enumerate(keys)},
            {
                value
                for value, key in enumerate(keys)
                if key[0] in (objects.STR, objects.PREFIX) or key[0] in objects.CONTAINERS
            },
            {site: Found(targets) for site, targets in snapshot.found.items()},
            _literals(keys),
        )
    derived: _Derived = snapshot.derived
    return derived


def _restore(program: Program, snapshot: Snapshot, changes: Mapping[int, Change]) -> _Continued:
    flow = _Continued(program)
    values = flow.values
    derived = _derived(snapshot)
    values.keys, moved = _renumbered(snapshot.keys, changes, derived.literals)
    values.ids = ids = derived.ids.copy()
    for index in moved:
        del ids[snapshot.keys[index]]
    if len(derived.ids) != len(snapshot.keys) or any(values.keys[i] in ids for i in moved):
        # (a key held twice, or a moved one now another's: numbered as a whole solve does)
        values.ids = ids = {key: index for index, key in enumerate(values.keys)}
    else:
        ids.update((values.keys[index], index) for index in moved)
    engine = _Guarded(values, program.variables, snapshot.size, snapshot.late)
    engine.pts[: snapshot.size] = snapshot.pts
    engine.special = derived.special.copy()  # (renumbering keeps a key's kind)
    flow.use(engine)
    flow.cells = dict(snapshot.cells)
    flow.lit, flow.none = flow.cells[("lit",)], flow.cells[("none",)]
    flow.slots = {container: dict(slots) for container, slots in snapshot.slots.items()}
    flow.found = derived.found.copy()
    flow.calls_bound = dict.fromkeys(snapshot.calls_bound, 1)
    flow.escaped = set(snapshot.escaped)
    # (``once`` is not kept: a rule the new code installs again runs again, on values the
    # old variables hold already, which changes nothing)
    flow.patched_any = set(snapshot.patched_any)
    flow.set_any = set(snapshot.set_any)
    flow.set_plain = set(snapshot.set_plain)
    flow.dynamic = set(snapshot.dynamic)
    flow.summary = snapshot.summary
    flow.summaries = {snapshot.summary} if snapshot.summary is not None else set()
    flow.old_sites = {info.index: len(info.facts.sites) for info in program.files}
    flow.old_sites.update((file, len(change.old.sites)) for file, change in changes.items())
    return flow


def _literals(keys: list[tuple[Any, ...]]) -> dict[int, list[int]]:
    """The container literals' values (known by the variable that holds them), by file."""
    out: dict[int, list[int]] = {}
    for index, key in enumerate(keys):
        if key[0] == objects.CONT:
            out.setdefault(key[1], []).append(index)
    return out


def _renumbered(
    keys: list[tuple[Any, ...]], changes: Mapping[int, Change], literals: dict[int, list[int]]
) -> tuple[list[Any], list[int]]:
    """The values' keys with a grown file's container literals (``literals``, by file) under
    their variable's new number, and the values whose key that changed."""
    out = list(keys)  # (a copy: the snapshot may serve the next edit too)
    moved = []
    for file, change in changes.items():
        grown = change.alignment
        if not grown.gap:
            continue
        for index in literals.get(file, ()):
            key = keys[index]
            if key[2] >= grown.gap_at:
                out[index] = (key[0], key[1], key[2] + grown.gap, *key[3:])
                moved.append(index)
    return out, moved

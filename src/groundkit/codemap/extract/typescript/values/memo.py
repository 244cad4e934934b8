"""Answers worked out once per run, and the work budget no file may pass.

What a function returns, what a binding holds, what a class's field stores and what an array's
elements are do not depend on who asks: each is worked out once (``Memo.once``) and kept with
the files it read (``deps``) and whether it read the whole repository (``consulted``), which
every later asker takes on.
Without this, a function that calls another twice (``g(xs).map(...)``, ``g(ys).filter(...)``)
is worked out twice per call, and a chain of them costs two to the power of its length.

An answer is kept only when nothing on the stack of questions being answered shaped it, as
``flow.py`` keeps a parameter's values: a question asked again while it is being answered (a
binding read in its own initialiser, a function returning its own call) is unknown there, and
the answers under it are not kept unless the cut was at their own question; an answer shaped
by the evaluator's depth bound, by an index being read or by ``known()``'s leniency (``cut()``)
is never kept.

The budget bounds what no memo can (answers cut at a question on the stack are not kept, and a
cycle through many functions is worked out again under each): ``FILE_WORK`` expressions
evaluated, and ``PER_RECORD`` more for each record read (a file's calls, member reads and
iterations; an index's pass sites or stores), for one file's resolution and for each index of
the whole repository. Past it, every value is unknown for the rest of that file (or index), the
calls through them are unresolved, and the file counts the reason (``SPENT``) once. Only such
a file may map differently by which answers earlier files left kept (workers, incremental runs):
every answer within the budget is the same whoever asked first.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from groundkit.codemap.extract.typescript.values.objects import Value

__all__ = ["DEPTH", "FILE_WORK", "PER_RECORD", "SPENT", "Memo"]

DEPTH = 40  # nested questions the evaluator follows: past it, unknown (and the answer cut)
FILE_WORK = 100_000  # expressions evaluated for one file's resolution (or one index)
PER_RECORD = 1_000  # and for each record it reads
SPENT = "value flow past its work budget: the rest of the file unknown"
_STATE = "#state"  # an answer shaped by what is being asked, not by the program
_SPENT = "#spent"


class _Owner(Protocol):
    deps: set[str]
    consulted: bool


@dataclass(frozen=True, slots=True)
class _Kept:
    value: Value
    deps: frozenset[str]
    consulted: bool


class Memo:
    def __init__(self, owner: _Owner) -> None:
        self._owner = owner
        self._kept: dict[Hashable, _Kept] = {}
        self._open: set[Hashable] = set()  # questions being answered
        self._cuts: set[Hashable] = set()  # where the answer being worked out was cut
        self.cut_count = 0  # cuts so far: an answer asked between two counts that differ was
        self.work = 0
        self.limit = FILE_WORK  # (``start`` sets each file's)
        self.spent = False  # the current file (or an index it read) passed its budget

    def start(self, records: int) -> None:
        """A new file is resolved: its own budget, by the records it reads."""
        self.work, self.limit, self.spent = 0, FILE_WORK + PER_RECORD * records, False

    def spend(self) -> bool:
        """One expression evaluated; False past the budget (the value is then unknown)."""
        self.work += 1
        if self.work <= self.limit:
            return True
        self.spent = True
        self._cuts.add(_SPENT)
        return False

    @contextmanager
    def index(self, records: int) -> Iterator[None]:
        """An index of the whole repository is read: a budget of its own, by the records it
        reads (spent, it is the file's that asked for it)."""
        saved = self.work, self.limit
        self.work, self.limit = 0, FILE_WORK + PER_RECORD * records
        try:
            yield
        finally:
            self.work, self.limit = saved

    def cut(self, at: Hashable = _STATE) -> None:
        """The answer being worked out depends on what is being asked: not kept."""
        self._cuts.add(at)
        self.cut_count += 1

    def hit(self, key: Hashable) -> Value | None:
        """The answer kept for ``key``, as ``once`` gives it back (its files consulted), or None
        when none is: asked first where most questions are asked again, so that neither the
        closure nor the fallback value ``once`` takes is made for them."""
        kept = self._kept.get(key)
        if kept is None:
            return None
        owner = self._owner
        owner.deps.update(kept.deps)
        owner.consulted = owner.consulted or kept.consulted
        return kept.value

    def once(self, key: Hashable, compute: Callable[[], Value], again: Value) -> Value:
        """``compute()``'s answer for ``key``, worked out once; ``again`` when ``key`` is
        asked while it is being answered."""
        kept = self._kept.get(key)
        owner = self._owner
        if kept is not None:
            owner.deps.update(kept.deps)
            owner.consulted = owner.consulted or kept.consulted
            return kept.value
        if key in self._open:
            self._cuts.add(key)
            return again
        outer, self._cuts = self._cuts, set()
        deps, owner.deps = owner.deps, set()
        consulted, owner.consulted = owner.consulted, False
        self._open.add(key)
        try:
            value = compute()
        finally:
            self._open.discard(key)
            cuts, self._cuts = self._cuts, outer
            self._cuts.update(cuts - {key})
            mine, used = owner.deps, owner.consulted
            deps.update(mine)
            owner.deps, owner.consulted = deps, consulted or used
        if cuts <= {key}:
            self._kept[key] = _Kept(value, frozenset(mine), used)
        return value

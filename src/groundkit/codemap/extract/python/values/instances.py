"""Instance attributes that each call gives its own instance: a run-time choice where read.

An instance attribute is one cell for every instance of its class (``Flow.inst_attr``), so
``self.handler = handler`` in ``__init__`` gathers the handler of every constructor call. A
method reading ``self.handler`` runs on one instance, which holds the one handler its own call
gave it: httpx's ``MockTransport(handler)`` is made with a different function by each test,
and the transport a test's async client sends through never runs the sync tests' handlers.
Which instance a method runs on is not followed (values are not told apart by where they were
made), so where different calls store different callables through the same parameter, or one
call passes a variable holding several (``[HookImpl(f) for f in functions]``, pluggy's
``register``: a call run in a loop makes an instance per function), the cell holds a choice
and its calls are partial. A cell every call fills with the same one callable (one instance,
or every instance given the same function) stays certain; bound methods count as the function
they run, whatever they are bound to. ``self.f: Final = f`` stores what it was given.

What a call passes a parameter is found after the solve from the copy edges into the
parameter's cell (one per argument, default or spread that reached it): no state is kept
during the solve for it. A parameter handed on unchanged to the parameter that is stored
(``def make(h): return Transport(h)``) is followed back through its own callers, two levels.
"""

from __future__ import annotations

from collections.abc import Iterable

from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["given_by_each_call"]

# What a call through the attribute runs: the values compared between calls.
_CALLABLE = frozenset(
    {
        objects.FUNC,
        objects.METH,
        objects.CLSMETH,
        objects.STATIC,
        objects.CLASSMETHOD,
        objects.PARTIAL,
        objects.CLASS,
        objects.CCONE,
    }
)

# Those whose key's second item is the function value they run.
_WRAPPING = frozenset(
    {objects.METH, objects.CLSMETH, objects.STATIC, objects.CLASSMETHOD, objects.PARTIAL}
)

# Levels of parameters followed back: the stored one and two callers handing it on. Each level
# is a pass over every copy edge (0.1 CPU s on django's package); on django, following up to
# 32 levels chose the same 32 cells.
_HANDED_ON = 3


def given_by_each_call(flow: Flow) -> list[int]:
    """The instance-attribute cells stored straight from a parameter (or a parameter handed on
    to it) to which different calls pass different callables."""
    engine = flow.engine
    stored: dict[int, list[int]] = {}  # a variable stored into attribute cells -> those cells
    # (``self.function: Final = function`` stores the declared copy: what it was given counts)
    declared = {dst: src for dst, src, _ in flow.annotated}
    for key, var in flow.cells.items():
        if key[0] == "iattr":
            for source in _each(engine.incoming.get(var)):
                stored.setdefault(declared.get(source, source), []).append(var)
    back = _Callers(flow)
    # Back from the stored variables, one level of callers at a time: which are a parameter's
    # local, and what each call passes that parameter. Only what is reached is kept.
    wanted = {source for source in stored if back.callables(source)}
    for _ in range(_HANDED_ON):
        found = _parameters_of(flow, wanted)
        back.local_of.update(found)
        new = {param for param in found.values() if param not in back.fed}
        if not new:
            break
        _feeding(engine.succ, new, back.fed)
        # Followed further only where the calls seen so far agree, by what passes a callable.
        wanted = {
            source
            for param in new
            if not back.disagree(back.fed[param])
            for source in back.fed[param]
            if source not in back.local_of and back.callables(source)
        }
    chosen: set[int] = set()
    for source, cells in stored.items():
        handed = back.local_of.get(source)
        if handed is not None and back.callables(source) and back.differs(handed):
            chosen.update(cells)
    return sorted(chosen)


class _Callers:
    """What the calls of the parameters followed pass them. A class, not nested functions: a
    recursive closure is a cycle, and through it the whole flow would wait for the cyclic
    collector (``test_a_solve_leaves_no_cycle_for_the_collector_to_free``)."""

    def __init__(self, flow: Flow) -> None:
        self.held = flow.engine.held
        self.keys = flow.values.keys
        self.local_of: dict[int, int] = {}  # a parameter's local -> its cell
        self.fed: dict[int, list[int]] = {}  # a parameter's cell -> arguments, defaults, spreads
        self.varies: dict[int, bool] = {}

    def callables(self, var: int) -> frozenset[int]:
        """What a call of the callables ``var`` holds may run: a bound method (or a partial)
        counted as its function, which runs whatever it is bound to."""
        keys = self.keys
        return frozenset(
            keys[v][1] if keys[v][0] in _WRAPPING else v
            for v in self.held(var)
            if keys[v][0] in _CALLABLE
        )

    def disagree(self, sources: list[int]) -> bool:
        """Whether ``sources`` pass different callables (one passing none is not counted), or
        one passes several: a call site run in a loop (``[Impl(f) for f in functions]``) gives
        each instance it makes one of them."""
        seen = {self.callables(source) for source in sources}
        seen.discard(frozenset())
        return len(seen) > 1 or any(len(found) > 1 for found in seen)

    def differs(self, param: int) -> bool:
        """Whether the calls of ``param``, or of a parameter handed on to it, disagree."""
        found = self.varies.get(param)
        if found is not None:
            return found
        self.varies[param] = False  # (a cycle of parameters handing on to one another adds none)
        sources = self.fed.get(param, [])
        local_of = self.local_of
        found = self.disagree(sources) or any(
            source in local_of and self.differs(local_of[source]) for source in sources
        )
        self.varies[param] = found
        return found


def _parameters_of(flow: Flow, wanted: set[int]) -> dict[int, int]:
    """Which of ``wanted`` are a parameter's local (its cell's copy, ``ParamIn``), with that
    parameter's cell."""
    found: dict[int, int] = {}
    if not wanted:
        return found
    succ = flow.engine.succ
    for key, var in flow.cells.items():
        if key[0] == "param":
            for local in _each(succ[var]):
                if local in wanted:
                    found.setdefault(local, var)
    return found


def _feeding(
    succ: list[list[int] | int | None], params: set[int], fed: dict[int, list[int]]
) -> None:
    """What reaches each of ``params``: one pass over the copy edges."""
    for param in params:
        fed[param] = []
    for var, out in enumerate(succ):
        if out is None:
            continue
        if type(out) is int:
            if out in params:
                fed[out].append(var)
        else:
            for dst in out:  # type: ignore[union-attr]
                if dst in params:
                    fed[dst].append(var)


def _each(found: list[int] | int | None) -> Iterable[int]:
    if found is None:
        return ()
    return (found,) if isinstance(found, int) else found

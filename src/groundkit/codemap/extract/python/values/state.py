"""What the solver's rules share: the program, the engine, the named cells values flow through
(a function's parameters and return value, a module's names, a class's and its instances'
attributes, a container's slots), and what was found at each site.

The rules themselves are ``calls.Calls``, which makes and holds ``containers.Containers`` and
``lookups.Lookups`` (each rule calls the others' methods directly); ``solver.Solver`` installs
each file's operations on them.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.engine import Engine, Marks
from groundkit.codemap.extract.python.values.instantiation import Instances
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.program import BUILTINS, Program

__all__ = ["Flow", "Found"]

# The named cells the drawing of a file's graph may read (``Flow.drawing_only``).
# (``property read``: what the attribute a property's getter or setter was found in may be at
# a site, which drawing judges the edge on: ``descriptors.py``)
_DRAWN_CELLS = frozenset({"glob", "every", "lit", "none", "property read"})


@dataclass(slots=True)
class Found:
    """What one site reaches: each target with how, and the variable whose values chose it."""

    # a class is a target when it is constructed and the repository defines no __init__ for it
    targets: dict[FuncKey | ClassKey, tuple[How, int]] = field(default_factory=dict)


class Flow:
    """The solver's shared state."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.instances = Instances(program)  # classes with no instances (``instantiation``)
        self.values = objects.Values()
        self.alt = Marks()  # variables where bindings that may differ meet
        self.engine = Engine(self.values, program.variables, self.alt)
        self.values.listener = self.engine.note
        self.engine.overflow = self._overflow
        self.summaries: set[int] = set()  # containers standing for many (a bound was hit)
        self.summary: int | None = None
        self.cells: dict[tuple[Any, ...], int] = {}
        self.found: dict[SiteKey, Found] = {}
        self.calls_bound: dict[FuncKey, int] = {}
        self.escaped: set[FuncKey] = set()
        self.computed_reads: set[int] = set()  # d[k] with a run-time k
        # (operand, result) pairs, flat: a choice carries over (a tuple each took 19 MB on django).
        # Variables as 4 bytes, as ``certainty._following`` holds them (8 took 2.4 MB more of
        # django's peak); one past 2**31 would raise, never wrap.
        self.depends = array("i")
        # (operand, result, dunder) where syntax or a built-in ran a dunder: the result is a
        # choice when the operand may also be something that does not run it.
        self.protocol_results: set[tuple[int, int, str]] = set()
        self.not_none: set[int] = set()  # copies of a local that None never reaches (NotNone)
        # A branch on a local's attribute (ByClass): its copy -> the attributes tested, and
        # (copy, result) of each read of a tested attribute on the copy.
        self.by_class: dict[int, set[str]] = {}
        self.tested_reads: set[tuple[int, int]] = set()
        self.once: set[tuple[Any, ...]] = set()  # rules installed, not to install twice
        self.patched_any: set[ClassKey] = set()  # classes given an attribute by a computed name
        self.set_any: set[ClassKey] = set()  # classes whose instances are given one so
        # Classes given one so with a value that may be ``None`` or a literal (``lookups.py``,
        # ``set_on_class``); those given anything else are in ``patched_any`` too.
        self.set_plain: set[ClassKey] = set()
        self.second_round = False  # whether the second round's entries have run
        self.lookups_on: dict[ClassKey, list[int]] = {}  # class -> results of lookups on it
        self.dynamic: set[SiteKey] = set()  # eval/exec: code known only at run time
        # Attribute lookups that found nothing on a class (instance, name, result): the second
        # round runs __getattr__ for those still empty.
        self.fallbacks: list[tuple[int, str, int]] = []
        # Functions returning one of their parameters unchanged (``def deco(f): return f``):
        # each call gives back its own argument, not every caller's.
        self.returns_param: dict[FuncKey, set[int]] = {}
        self.returns_other: set[FuncKey] = set()
        # Binary operators with a reflected dunder (site, forward method, dst, left, right):
        # the second round runs the reflected one for a left operand still holding nothing.
        self.reflected: list[tuple[SiteKey, str, int, int, int]] = []
        self.annotated: list[tuple[int, int, int]] = []  # (dst, src, annotation) of Annot ops
        self.slots: dict[int, dict[str | int, int]] = {}  # container -> key -> slot
        self.listeners: dict[int, list[Callable[[str | int, int], None]]] = {}
        self.late: set[int] = set()  # variables the second round gave more (``solve``)
        self.lit = self.cell(("lit",))
        self.engine.add(self.lit, [objects.LIT_ID])
        self.none = self.cell(("none",))  # None a built-in gives (``d.get(k)``): no value

    def solved(self) -> None:
        """Let go of what only the solve and ``Certainty`` read: the copy edges and the sources
        kept at meeting variables, the (operand, result) pairs, the rules installed once and
        the fallbacks (held, writing the solver state and drawing the graphs added to the
        peak). The engine stays whole: a cell made anew (``glob``) still gets what its
        sources hold, and no rule is left to run on it."""
        engine = self.engine
        size = len(engine.succ)
        engine.succ.clear()  # (first: a new list beside it raised the peak by its 4 MB)
        engine.succ.extend(repeat(None, size))
        engine.wide = {}
        engine.incoming = {}
        self.depends = array("i")
        self.once = set()
        self.fallbacks = []
        self.reflected = []

    def drawing_only(self) -> None:
        """Once the solver state is kept (``snapshot.dump``), let go of the named cells but a
        module's names and a container's contents, which ``web/urlconfs.py`` reads while
        drawing."""
        self.cells = {key: var for key, var in self.cells.items() if key[0] in _DRAWN_CELLS}

    def use(self, engine: Engine) -> None:
        """Solve on ``engine`` instead (a continuation's, restored from a snapshot)."""
        self.engine = engine
        self.alt = engine.alt
        self.values.listener = engine.note
        engine.overflow = self._overflow

    # -- variables and cells ----------------------------------------------------------------------
    def var(self, file: int, local: int) -> int:
        return self.program.files[file].var(local)

    def cell(self, key: tuple[Any, ...]) -> int:
        found = self.cells.get(key)
        if found is None:
            found = self.cells[key] = self.engine.variable()
        return found

    def temp(self) -> int:
        return self.engine.variable()

    def param(self, func: FuncKey, index: int) -> int:
        return self.cell(("param", func, index))

    def ret(self, func: FuncKey) -> int:
        key = ("ret", func)
        found = self.cells.get(key)
        if found is None:
            found = self.cell(key)
            self.alt.add(found)
        return found

    def yields(self, func: FuncKey) -> int:
        return self.cell(("yield", func))

    def glob(self, file: int, name: str) -> int:
        """A module-level name as its module ends and as other modules see it."""
        key = ("glob", file, name)
        found = self.cells.get(key)
        if found is not None:
            return found
        found = self.cell(key)
        self.alt.add(found)
        program = self.program
        if name not in program.files[file].binds:
            source = program.star_source(file, name)
            sub = program.submodule(file, name)
            outside = program.star_outside(file, name)
            if source is not None:
                self.engine.flow(self.glob(source, name), found)
            elif sub is not None:
                self.engine.add(found, [self.values.id((objects.MOD, sub))])
            elif outside is not None:
                self.engine.add(found, [self.values.id((objects.EXT, outside))])
            elif name in BUILTINS:
                self.engine.add(found, [self.values.id((objects.BUILTIN, name))])
            else:
                self.engine.add(found, [objects.UNKNOWN_ID])
        return found

    def class_attr(self, cls: ClassKey, name: str) -> int:
        return self._meeting(("cattr", cls, name))

    def inst_attr(self, cls: ClassKey, name: str) -> int:
        return self._meeting(("iattr", cls, name))

    def _meeting(self, key: tuple[str, ClassKey, str]) -> int:
        """An attribute's cell: bindings from several places meet there (their sources kept)."""
        found = self.cells.get(key)
        if found is None:
            found = self.cell(key)
            self.alt.add(found)
        return found

    # -- containers -------------------------------------------------------------------------------
    def _overflow(self, var: int, containers: set[int]) -> int:
        """Past the bound on containers one variable holds: one container stands for the
        rest, of which nothing is known (what is read from it is ``UNKNOWN``)."""
        if self.summary is None:
            self.summary = self.values.id((objects.SYN, "summary"))
            self.summaries.add(self.summary)
            self.engine.add(self.loose(self.summary), [objects.UNKNOWN_ID])
        return self.summary

    def slot(self, container: int, key: str | int) -> int:
        """A container's slot under a literal key (every slot also feeds ``every``)."""
        slots = self.slots.get(container)
        if slots is None:
            slots = self.slots[container] = {}
        found = slots.get(key)
        if found is None:
            found = slots[key] = self.engine.variable()
            self.alt.add(found)
            self.engine.flow(found, self.every(container))
            for listener in self.listeners.get(container, ()):
                listener(key, found)
        return found

    def on_slots(self, container: int, listener: Callable[[str | int, int], None]) -> None:
        """Call ``listener(key, slot)`` for every literal-key slot, now and later."""
        self.listeners.setdefault(container, []).append(listener)
        for key, slot in list(self.slots.get(container, {}).items()):
            listener(key, slot)

    def loose(self, container: int) -> int:
        """What a container holds under keys not known (``append``, ``d[k] = v``)."""
        cell_key = ("loose", container)
        found = self.cells.get(cell_key)
        if found is None:
            found = self.cell(cell_key)
            self.engine.flow(found, self.every(container))
        return found

    def every(self, container: int) -> int:
        """Everything a container holds, under any key."""
        return self.cell(("every", container))

    # -- values -----------------------------------------------------------------------------------
    def value(self, *key: Any) -> int:
        return self.values.id(key)

    def scope(self, func: FuncKey) -> facts.Scope:
        return self.program.files[func[0]].facts.scopes[func[1]]

    def site(self, key: SiteKey) -> facts.Site:
        return self.program.files[key[0]].facts.sites[key[1]]

    def record(self, site: SiteKey, target: FuncKey | ClassKey, how: How, operand: int) -> None:
        if site[0] < 0:
            return  # an implicit step with no place in the code (an element taken for map())
        found = self.found.get(site)
        if found is None:
            found = self.found[site] = Found()
        if target not in found.targets:
            found.targets[target] = (how, operand)

    def is_method(self, func: FuncKey) -> bool:
        scope = self.scope(func)
        return scope.kind == Kind.METHOD and not scope.flags & facts.STATIC

    def classes_of(self, value: int) -> list[ClassKey]:
        """The classes an instance value (or a class value) may be of."""
        key = self.values.keys[value]
        kind = key[0]
        if kind in (objects.INST, objects.CLASS):
            return [ClassKey((key[1], key[2]))]
        if kind in (objects.CONE, objects.CCONE):
            return self.program.cone(ClassKey((key[1], key[2])))
        return []

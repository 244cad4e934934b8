"""What the Python solver's rules are made of: a solve installs one rule or more for nearly
every operation of the program, so each is a tuple (the function and its arguments), not a
closure over cells of its own."""

from __future__ import annotations

import textwrap
from types import FunctionType

from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.parse import parse_python
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey
from groundkit.codemap.extract.python.values.lookups import Lookups
from groundkit.codemap.extract.python.values.program import Program
from groundkit.codemap.extract.python.values.solver import Solver

_SOURCE = """
class Money:
    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        return Money(self.cents + other.cents)

    def __radd__(self, other):
        return self

    def __len__(self):
        return 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def total(items):
    out = Money(0)
    for item in items:
        out = out + item
        out += item
    first, *rest = items
    items[0] = 0 + first
    with out as kept:
        kept.cents = len(kept)
    return out, items[1:], rest


total([Money(1), Money(2)])
"""


def test_the_rules_of_operations_operators_and_dunders_are_no_closures() -> None:
    path = "m.py"
    program = Program([(path, parse_python(path, textwrap.dedent(_SOURCE)))], Layout([path]))
    solver = Solver(program)
    solver.install()
    engine = solver.flow.engine
    engine.run()
    rules = [
        rule
        for held in engine.rules
        if held is not None
        for rule in (held if isinstance(held, list) else [held])
    ]
    closures = sorted({rule.__qualname__ for rule in rules if isinstance(rule, FunctionType)})
    # (a construction's, a ``with``'s and a built-in's rules are closures still: a few per
    # program)
    expected = ["Calls.construct.<locals>.run", "Outside.builtin.<locals>.<lambda>"]
    assert closures == [*expected, "Solver._with.<locals>.run"]
    assert len(rules) > 40


_CONE = """
class Base:
    def greet(self):
        return "hi"


class A(Base):
    pass


class B(Base):
    pass


class C(A):
    pass


def speak(who: Base):
    return who.greet()
"""


def test_a_lookup_on_a_cone_of_classes_watches_each_shared_base_once() -> None:
    """``who.greet`` on any instance of ``Base`` (a cone: Base, A, B, C) walks each class's MRO
    up to ``Base``, which binds ``greet``: ``Base``'s cell is on every walk, and one rule on it
    for the lookup finds what four found; the call still reaches ``Base.greet``."""
    path = "m.py"
    program = Program([(path, parse_python(path, textwrap.dedent(_CONE)))], Layout([path]))
    solver = Solver(program)
    solver.install()
    flow = solver.flow
    flow.engine.run()
    classes = {scope.qual: index for index, scope in enumerate(program.files[0].facts.scopes)}
    names = ("Base", "A", "B", "C")
    cells = {name: flow.class_attr(ClassKey((0, classes[name])), "greet") for name in names}
    watching = {}
    for name, cell in cells.items():
        held = flow.engine.rules[cell]
        rules = [] if held is None else held if isinstance(held, list) else [held]
        watching[name] = sum(1 for rule in rules if rule[0] is Lookups._bound)
    assert watching == {"Base": 1, "A": 1, "B": 1, "C": 1}
    targets = {target for found in flow.found.values() for target in found.targets}
    assert FuncKey((0, classes["Base.greet"])) in targets

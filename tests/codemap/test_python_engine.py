"""The Python solver's fixed point at its own boundary: variables, copy edges and rules."""

from __future__ import annotations

from groundkit.codemap.extract.python.values.engine import Engine, each_value
from groundkit.codemap.extract.python.values.objects import LIT, Values


def _engine(size: int) -> tuple[Engine, Values]:
    values = Values()
    return Engine(values, size, set()), values


def test_a_variable_with_many_successors_makes_each_copy_edge_once() -> None:
    engine, values = _engine(41)
    one, two = values.id((LIT, "one")), values.id((LIT, "two"))
    engine.add(0, [one])
    for _ in range(2):  # past the list's length the edges are looked up in a set
        for dst in range(1, 41):
            engine.flow(0, dst)
    engine.flow(0, 0)
    engine.add(0, [two])
    engine.run()
    assert engine.edges == 40
    assert engine.succ[0] == list(range(1, 41))
    assert all(engine.held(dst) == {one, two} for dst in range(1, 41))


def test_a_rule_for_each_value_runs_on_values_held_and_gained_with_its_arguments() -> None:
    engine, values = _engine(2)
    one, two = values.id((LIT, "one")), values.id((LIT, "two"))
    seen: list[tuple[int, str, int]] = []
    engine.add(0, [one])
    engine.run()
    engine.on(0, each_value(lambda value, name, dst: seen.append((value, name, dst)), "x", 1))
    engine.add(0, [two])
    engine.run()
    assert seen == [(one, "x", 1), (two, "x", 1)]

"""The Python solver's fixed point at its own boundary: variables, copy edges and rules."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from groundkit.codemap.api import open_codemap
from groundkit.codemap.extract.python.values import engine as engine_module
from groundkit.codemap.extract.python.values.engine import (
    MAX_STRINGS,
    MAX_VALUES,
    Engine,
    Marks,
    each_value,
    with_args,
)
from groundkit.codemap.extract.python.values.objects import LIT, LIT_ID, STR, UNKNOWN_ID, Values


def _engine(size: int) -> tuple[Engine, Values]:
    values = Values()
    return Engine(values, size, Marks()), values


def test_marks_hold_the_variables_added_and_no_others() -> None:
    marks = Marks()
    for var in (5, 0, 1000, 7):
        marks.add(var)
    assert [var for var in range(1200) if var in marks] == [0, 5, 7, 1000]
    assert -1 not in marks
    assert "5" not in marks


def test_a_rule_runs_its_function_on_each_new_value_with_its_arguments() -> None:
    seen: list[tuple[int, ...]] = []
    each_value(lambda value, *args: seen.append((value, *args)), 8, 9)([1, 2])
    with_args(lambda *args: seen.append(tuple(args[:-1]) + tuple(args[-1])), 3)([4, 5])
    assert seen == [(1, 8, 9), (2, 8, 9), (3, 4, 5)]


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


def test_a_variable_holding_one_value_even_the_first_numbered_passes_it_on_and_gains_more() -> None:
    engine, values = _engine(3)
    two = values.id((LIT, "two"))
    engine.add(0, [LIT_ID])  # value 0: held alone, it must still count as something
    engine.flow(0, 1)
    engine.run()
    assert engine.holds(1)
    assert engine.held(1) == {LIT_ID}
    assert not engine.holds(2)
    assert engine.held(2) == set()
    seen: list[int] = []
    engine.on(1, each_value(seen.append))
    engine.add(0, [two])
    engine.run()
    assert engine.held(1) == {LIT_ID, two}
    assert sorted(seen) == [LIT_ID, two]


def test_a_solve_leaves_no_cycle_for_the_collector_to_free(tmp_path: Path) -> None:
    """What a solve made is freed as soon as it is done with: a cycle holding the flow kept
    every file's facts and values until the cyclic collector's slow pass over all of them."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("def f(x):\n    return x\n\ny = f(f)\nprint(y(1))\n")
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        with open_codemap("app", index_dir=tmp_path / "index", create=True) as codemap:
            codemap.update(tmp_path / "src", workers=1)
        gc.collect()
        kept = {type(o).__qualname__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert not kept & {"Flow", "Engine", "Program", "Calls", "Facts"}


def test_variables_holding_the_same_many_values_share_them_until_one_gains_more() -> None:
    engine, values = _engine(4)
    many = [values.id((LIT, f"v{i}")) for i in range(12)]
    extra = values.id((LIT, "extra"))
    engine.add(0, many)
    for dst in (1, 2):
        engine.flow(0, dst)
    engine.flow(3, 2)  # what 3 gains later reaches 2 alone
    engine.run()
    engine.share()
    assert engine.held(0) is engine.held(1) is engine.held(2)
    engine.add(3, [extra])
    engine.run()
    assert engine.held(2) == {*many, extra}
    assert engine.held(0) == engine.held(1) == set(many)


def test_values_gained_one_at_a_time_stop_at_the_bounds_and_reach_the_successors() -> None:
    """The one-value way (``add_one``, and the run sending one value along each edge) keeps
    the bounds of the many-value way: past ``MAX_VALUES`` a variable gains ``UNKNOWN`` and
    nothing more, past ``MAX_STRINGS`` a plain literal instead of each string."""
    engine, values = _engine(4)
    many = [values.id((LIT, f"v{i}")) for i in range(MAX_VALUES + 3)]
    texts = [values.id((STR, f"s{i}")) for i in range(MAX_STRINGS + 2)]
    for value in many + texts:
        engine.note(value)
    engine.flow(0, 1)
    engine.flow(2, 3)
    seen: list[int] = []
    engine.on(1, each_value(seen.append))
    for value in many:
        engine.add(0, [value])
        engine.run()
    for value in texts:
        engine.add(2, (value,))
        engine.run()
    bounded = {*many[:MAX_VALUES], UNKNOWN_ID}
    assert engine.held(0) == engine.held(1) == bounded
    assert sorted(seen) == sorted(bounded)
    assert engine.held(2) == engine.held(3) == {*texts[:MAX_STRINGS], LIT_ID}
    # (each value turned away from 0 counts, and UNKNOWN reaching the full 1; strings do not)
    assert engine.bounds_hit == 3 + 1


def test_a_queue_shuffled_by_the_probes_seed_reaches_the_same_values_below_the_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``benchmarks/codemap_order.py`` shuffles the queue to measure what a solve's result
    owes to arrival order: below the bounds it owes nothing, so the hook itself moves no value."""
    reached = []
    for seed in (None, 1, 2):
        monkeypatch.setattr(engine_module, "ORDER_SEED", seed)
        engine, values = _engine(8)
        many = [values.id((LIT, f"v{i}")) for i in range(20)]
        for var in range(4):
            engine.flow(var, var + 4)
            engine.flow(var + 4, (var + 1) % 4 + 4)
            engine.add(var, many[var * 5 : var * 5 + 5])
        engine.run()
        reached.append([set(engine.held(var)) for var in range(8)])
    assert reached[0] == reached[1] == reached[2]
    assert reached[0][4] == set(many)

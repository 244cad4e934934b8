"""How much a cold Python code map depends on the order the value solver's queue runs in: the
same folder mapped once per order (the natural one, and the queue shuffled by a seed each time
the engine starts running, ``values/engine.py`` ``ORDER_SEED``), then the call edges and the
program variables' value counts compared with the first order's.

    python benchmarks/codemap_order.py PATH [--seeds none 1 2] [--show 10]

A fixed point that did not depend on order would print 0 everywhere. Prints, for each order
after the first: certain call edges in one map and not certain in the other (each way), the
same for partial ones, and how many program variables hold a different number of values.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from array import array
from pathlib import Path
from typing import Any

import groundkit.codemap.extract.python as python_extractor
from groundkit.codemap.api import open_codemap
from groundkit.codemap.extract.python.values import engine as engine_module
from groundkit.codemap.extract.python.values import solver as solver_module
from groundkit.codemap.extract.python.values.objects import UNKNOWN_ID

Edges = dict[tuple[str, str], bool]  # (source, target) -> certain


class _Solved:
    """What the last solve left: each program variable's count, and whether it holds UNKNOWN."""

    def __init__(self) -> None:
        self.sizes = array("I")
        self.unknown: set[int] = set()
        self.bounds_hit = 0
        self.solves = 0


def _mapped(path: str, seed: int | None, solved: _Solved) -> Edges:
    real_solve = python_extractor.solve

    def solve(program: Any) -> Any:
        flow = real_solve(program)
        engine = flow.engine
        solved.sizes = engine.sizes()[: program.variables]
        solved.unknown = {var for var in range(program.variables) if UNKNOWN_ID in engine.held(var)}
        solved.bounds_hit = engine.bounds_hit
        return flow

    real_once = getattr(solver_module, "_solve_once", None)

    def once(*args: Any) -> Any:
        solved.solves += 1
        return real_once(*args)  # type: ignore[misc]

    engine_module.ORDER_SEED = seed
    python_extractor.solve = solve  # type: ignore[assignment]
    if real_once is not None:  # (a solve that pins overflowing variables solves again)
        solver_module._solve_once = once  # type: ignore[attr-defined]
    try:
        with (
            tempfile.TemporaryDirectory() as index,
            open_codemap("order", index_dir=index, create=True) as codemap,
        ):
            codemap.update(path)
            database = next(Path(index).rglob("map.sqlite"))
            with sqlite3.connect(database) as connection:
                rows = connection.execute(
                    "SELECT s.path || ':' || s.name, t.path || ':' || t.name, e.flags"
                    " FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
                    " WHERE e.kind = 'calls'"
                ).fetchall()
    finally:
        python_extractor.solve = real_solve
        if real_once is not None:
            solver_module._solve_once = real_once  # type: ignore[attr-defined]
        engine_module.ORDER_SEED = None
    return {(source, target): "partial" not in flags for source, target, flags in rows}


def _differ(first: Edges, other: Edges, certain: bool) -> tuple[list[Any], list[Any]]:
    one = {edge for edge, how in first.items() if how is certain}
    two = {edge for edge, how in other.items() if how is certain}
    return sorted(one - two), sorted(two - one)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path")
    parser.add_argument("--seeds", nargs="+", default=["none", "1"])
    parser.add_argument("--show", type=int, default=0, help="edges to list of each difference")
    args = parser.parse_args()
    seeds = [None if s == "none" else int(s) for s in args.seeds]
    maps: list[tuple[int | None, Edges, _Solved]] = []
    for seed in seeds:
        solved = _Solved()
        started, cpu = time.perf_counter(), time.process_time()
        edges = _mapped(args.path, seed, solved)
        certain = sum(edges.values())
        print(
            f"order {seed}: {certain} certain and {len(edges) - certain} partial call edges,"
            f" {len(solved.sizes)} program variables ({len(solved.unknown)} hold UNKNOWN),"
            f" {solved.bounds_hit} bounds hit in the last of {solved.solves or 1} solves;"
            f" {time.perf_counter() - started:.1f} s wall, {time.process_time() - cpu:.1f} s CPU"
        )
        maps.append((seed, edges, solved))
    first_seed, first, first_solved = maps[0]
    for seed, edges, solved in maps[1:]:
        print(f"\norder {seed} against order {first_seed}:")
        for certain in (True, False):
            out, new = _differ(first, edges, certain)
            kind = "certain" if certain else "partial"
            print(
                f"  {kind} call edges: {len(out)} only in {first_seed}, {len(new)} only in {seed}"
            )
            for label, listed in ((first_seed, out), (seed, new)):
                for source, target in listed[: args.show]:
                    print(f"    only in {label}: {source} -> {target}")
        counts = sum(1 for a, b in zip(first_solved.sizes, solved.sizes, strict=True) if a != b)
        unknown = len(first_solved.unknown ^ solved.unknown)
        print(
            f"  program variables holding a different count: {counts};"
            f" holding UNKNOWN in one order only: {unknown}"
        )


if __name__ == "__main__":
    main()

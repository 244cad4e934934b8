"""Where a cold code map's memory goes: the process's resident size, now and at its peak, at
each phase boundary of one ``grk map build`` (parse, facts decoded into the program, solve,
certainty, the kept solver state, drawing, the data pass, the writes).

    python benchmarks/codemap_memory.py PATH [--owners] [--trace] [--top N]

After the solve it counts the variables that hold more than 20 values, the set objects they
hold them in (equal ones are shared), their distinct contents, and the CPU the sharing took.

``--owners``: at the end of the solve, before its rules are let go, the bytes each of the
solver's structures holds (``sys.getsizeof`` of it and of what it holds, each object counted
once, in the order listed; rules with their closures' cells).

``--trace``: also what ``tracemalloc`` counts (several times slower, and its own bookkeeping
raises the resident size) and, after the solve, the ``--top`` lines that allocated what is
still held. Run it in a fresh process per folder: the peak is the process's.
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from groundkit.cli.main import main as grk
from groundkit.codemap import build
from groundkit.codemap.extract import python
from groundkit.codemap.extract.python.values import engine, snapshot, solver

STARTED = time.perf_counter()


def _resident_mb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 2**20


def mark(name: str, top: int = 0) -> None:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    cpu = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = f"{time.perf_counter() - STARTED:7.1f} s  {cpu:7.1f} CPU s"
    line += f" (+{children.ru_utime + children.ru_stime:.1f} in workers)"
    line += f"  {name:26s} now {_resident_mb():6,} MB  peak {peak:6,} MB"
    if tracemalloc.is_tracing():
        current, _ = tracemalloc.get_traced_memory()
        line += f"  traced {current / 2**20:6.0f} MB"
    print(line, flush=True)
    if top and tracemalloc.is_tracing():
        for stat in tracemalloc.take_snapshot().statistics("lineno")[:top]:
            where = stat.traceback.format()[-1].strip()
            print(f"{stat.size / 2**20:10.1f} MB {stat.count:10,}  {where}", flush=True)


def after(module: Any, name: str, label: str, top: int = 0) -> None:
    """Mark ``label`` each time ``module.name`` returns."""
    function: Callable[..., Any] = getattr(module, name)

    def marked(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        mark(label, top)
        return result

    setattr(module, name, marked)


def value_sets(module: Any) -> None:
    """After each solve, how many variables hold a set of more than 20 values, in how many
    set objects (``Engine.share`` lets equal ones be one), with how many distinct contents."""
    function: Callable[..., Any] = module.solve
    share: Callable[[Any], None] = engine.Engine.share
    spent: list[float] = []

    def timed_share(self: Any) -> None:
        started = time.process_time()
        share(self)
        spent.append(time.process_time() - started)

    engine.Engine.share = timed_share  # type: ignore[method-assign]

    def counted(*args: Any, **kwargs: Any) -> Any:
        flow = function(*args, **kwargs)
        large = [held for held in flow.engine.pts if not isinstance(held, int | None)]
        large = [held for held in large if len(held) > 20]
        objects, distinct = len({id(held) for held in large}), len(set(map(frozenset, large)))
        print(f"value sets of 20+ values: {len(large):,} held, {objects:,} objects,", end=" ")
        print(
            f"{distinct:,} distinct; sharing them took",
            "+".join(f"{s:.2f}" for s in spent),
            "CPU s",
        )
        return flow

    module.solve = counted


def _held(obj: Any, seen: set[int]) -> int:
    """The bytes of ``obj`` and of what it holds (containers followed), each object once."""
    if id(obj) in seen or (type(obj) is int and -5 <= obj <= 256):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(_held(k, seen) + _held(v, seen) for k, v in obj.items())
    elif isinstance(obj, list | tuple | set | frozenset):
        size += sum(_held(item, seen) for item in obj)
    elif type(obj).__name__ in ("_WithArgs", "_EachValue"):  # a rule as it was before 8e5fc99
        size += _held(obj.function, seen) + _held(obj.args, seen)
    elif hasattr(obj, "__code__"):  # a closure: its defaults and cells
        size += _held(obj.__defaults__ or (), seen)
        size += sum(_held(cell, seen) for cell in obj.__closure__ or ())
    return size


def owners() -> None:
    """Before the solver lets its rules go: the bytes each of its structures holds."""
    close: Callable[[Any], Any] = solver.Solver.close

    def counted(self: Any) -> Any:
        flow, seen = self.flow, set[int]()
        parts = {
            "rules": flow.engine.rules,
            "value sets (pts)": flow.engine.pts,
            "successors (succ, wide)": (flow.engine.succ, flow.engine.wide),
            "sources kept (incoming)": flow.engine.incoming,
            "bounds (strings, containers, special)": (
                flow.engine.strings,
                flow.engine.containers,
                flow.engine.special,
            ),
            "meeting variables (alt)": getattr(flow.alt, "bits", flow.alt),
            "named cells": flow.cells,
            "container slots": flow.slots,
            "found per site": {site: found.targets for site, found in flow.found.items()},
            "rules installed (once)": flow.once,
            "lookups (results, runs, sites)": vars(self.lookups),
            "values (keys, ids)": (flow.values.keys, flow.values.ids),
            "depends, fallbacks, protocol results": (
                flow.depends,
                flow.fallbacks,
                flow.protocol_results,
            ),
        }
        sizes = {name: _held(part, seen) for name, part in parts.items()}
        for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
            print(f"{size / 2**20:8.1f} MB  {name}")
        return close(self)

    solver.Solver.close = counted  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path")
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--owners", action="store_true")
    args = parser.parse_args()
    if args.owners:
        owners()
    if args.trace:
        tracemalloc.start()
    after(build, "read_and_parse", "parsed")
    after(python, "Program", "facts decoded (program)")
    after(solver.Solver, "install", "rules installed")
    after(engine.Engine, "run", "a round run")  # (the first round's end is the peak)
    after(engine.Engine, "share", "equal sets shared")
    value_sets(python)
    after(python, "solve", "solved", args.top if args.trace else 0)
    after(python, "Certainty", "certainty")
    after(snapshot, "dump", "solver state packed")
    after(build, "resolve_languages", "drawn (every file's graph)")
    after(build, "collect_data", "data facts")
    after(build, "unchanged", "digests")
    with tempfile.TemporaryDirectory() as index:
        sys.argv = ["grk", "map", "build", args.path, "--index-dir", index, "-q"]
        with contextlib.suppress(SystemExit):  # (the CLI exits with the map's status)
            grk()
        mark("written")


if __name__ == "__main__":
    main()

"""Where a cold code map's memory goes: the process's resident size, now and at its peak, at
each phase boundary of one ``grk map build`` (parse, facts decoded into the program, solve,
certainty, the kept solver state, drawing, the data pass, the writes).

    python benchmarks/codemap_memory.py PATH [--trace] [--top N]

After the solve it counts the variables that hold more than 20 values, the set objects they
hold them in (equal ones are shared), their distinct contents, and the CPU the sharing took.

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
from groundkit.codemap.extract.python.values import engine, snapshot

STARTED = time.perf_counter()


def _resident_mb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 2**20


def mark(name: str, top: int = 0) -> None:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    line = f"{time.perf_counter() - STARTED:7.1f} s  {name:26s} now {_resident_mb():6,} MB"
    line += f"  peak {peak:6,} MB"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path")
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    if args.trace:
        tracemalloc.start()
    after(build, "read_and_parse", "parsed")
    after(python, "Program", "facts decoded (program)")
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

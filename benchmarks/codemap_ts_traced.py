"""Recall of the TypeScript/JavaScript call graph on calls observed by running real test suites.

Usage (from the repository root; the traces come from ``benchmarks/codemap/ts_traced/collect.py``):
    python benchmarks/codemap_ts_traced.py WORK_DIR [PACKAGE ...]

``WORK_DIR/<package>/`` is the package's source as tested and ``WORK_DIR/<package>.jsonl`` the
calls its test suite made between two of its own functions (``ts_traced/trace.mjs``). The
package is mapped; each observed call is named by the map's nodes (a function is the node that
starts on the line V8 says it starts on; a module's own code is the module) and looked up among
the map's ``calls`` edges: found certain (an edge not flagged ``partial``), found with partial,
or missed. A callee that starts on a line where no node starts is missed ("no node"). When
several nodes start on one line (``xs.map((x) => ...).filter((y) => ...)``), the call is found
when any of them has the edge (the trace knows columns, the map's nodes only lines): counted
as "shared line". Prints one row per package and the total.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from groundkit.codemap.api import open_codemap
from groundkit.codemap.model import EdgeFlag

Pair = tuple[str, str]


def map_package(
    folder: Path,
) -> tuple[dict[tuple[str, int], list[str]], dict[str, str], dict[Pair, bool]]:
    """Nodes by (path, first line), modules by path, and calls edges -> certain."""
    starts: dict[tuple[str, int], list[str]] = defaultdict(list)
    modules: dict[str, str] = {}
    edges: dict[Pair, bool] = {}
    with tempfile.TemporaryDirectory() as index:
        codemap = open_codemap("traced", index_dir=index, create=True)
        try:
            codemap.update(folder, workers=1)
            for node in codemap.nodes():
                if node.kind == "module" and node.path:
                    modules[node.path] = node.qualname
                elif node.kind in ("function", "method", "class") and node.path:
                    starts[(node.path, node.line)].append(node.qualname)
            for edge in codemap.edges(["calls"]):
                pair = (edge.source.qualname, edge.target.qualname)
                edges[pair] = edges.get(pair, False) or EdgeFlag.PARTIAL not in edge.flags
        finally:
            codemap.close()
    return starts, modules, edges


def score(folder: Path, trace: Path, misses: list[str] | None = None) -> dict[str, int]:
    starts, modules, edges = map_package(folder)
    observed: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for line in trace.read_text().splitlines():
        call = json.loads(line)
        callee_path, callee_line, _ = call["callee"]
        caller_path, caller_line, caller_col, _scope = call["caller"]
        if callee_path not in modules or caller_path not in modules:
            continue  # not mapped (a .json, a file the map skipped)
        callees = starts.get((callee_path, callee_line + 1), [])
        if (caller_line, caller_col) == (0, 0):
            callers = [modules[caller_path]]  # a module's own code (CommonJS: its wrapper)
        else:
            callers = starts.get((caller_path, caller_line + 1), [])
        if not callees or not callers:
            observed.add(
                (("?", caller_path, str(caller_line)), ("?", callee_path, str(callee_line)))
            )
            continue
        observed.add((tuple(sorted(callers)), tuple(sorted(callees))))
    counts = {"observed": len(observed), "certain": 0, "partial": 0, "no_node": 0, "shared": 0}
    for sources, targets in observed:
        if sources[0] == "?" or targets[0] == "?":
            counts["no_node"] += 1
            continue
        if len(sources) > 1 or len(targets) > 1:
            counts["shared"] += 1
        found = [edges[(a, b)] for a in sources for b in targets if (a, b) in edges]
        if any(found):
            counts["certain"] += 1
        elif found:
            counts["partial"] += 1
        elif misses is not None:
            misses.append(f"{' | '.join(sources)} -> {' | '.join(targets)}")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("work", type=Path)
    parser.add_argument("packages", nargs="*")
    parser.add_argument("--misses", action="store_true", help="list the pairs not found")
    args = parser.parse_args()
    names = args.packages or sorted(p.stem for p in args.work.glob("*.jsonl"))
    total: dict[str, int] = defaultdict(int)
    head = ("observed", "certain", "+partial", "no node", "shared")
    print(f"{'package':<14} " + " ".join(f"{h:>8}" for h in head))
    for name in names:
        misses: list[str] | None = [] if args.misses else None
        counts = score(args.work / name, args.work / f"{name}.jsonl", misses)
        for miss in sorted(misses or []):
            print(f"  missed {miss}")
        for key, value in counts.items():
            total[key] += value
        _row(name, counts)
    _row("all", total)
    return 0


def _row(name: str, c: dict[str, int]) -> None:
    n = max(1, c["observed"])
    certain = c["certain"] / n
    either = (c["certain"] + c["partial"]) / n
    cells = (
        f"{c['observed']}",
        f"{certain:.3f}",
        f"{either:.3f}",
        f"{c['no_node']}",
        f"{c['shared']}",
    )
    print(f"{name:<14} " + " ".join(f"{x:>8}" for x in cells))


if __name__ == "__main__":
    sys.exit(main())

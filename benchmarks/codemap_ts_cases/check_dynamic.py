"""Run the runnable TypeScript/JavaScript cases with node and check their expected call edges
against what really happens.

Usage (from the repository root; needs ``node`` 18 or later on PATH):
    python benchmarks/codemap_ts_cases/check_dynamic.py [CASE_DIR ...] [--verbose]

A case is run when its ``expected.json`` names its entry point (``"run": "main.mjs"``); the
others are TypeScript, or import packages that are not installed: they are skipped and counted.
``trace.mjs``
runs it under node's inspector and reports every call between two functions of the case (see
there). A function is named as the map names it: by the map's node that starts on the line V8
says the function starts on; a function no node starts on is anonymous, and its calls belong to
the innermost node around it, as in the map (the map's nodes give names only; which calls happen
comes from node). ``new C()`` runs ``C.constructor``.

Checks, per case (as ``benchmarks/codemap/calls/check_dynamic.py`` does for Python):
1. every expected ``calls`` edge happens at run time, from a line not marked ``// unresolved``
   (an edge expected ``partial``: from any line, marked ones included);
2. every call between functions of the case that happens at run time is expected, or is made
   only from lines marked ``// unresolved`` (the call sites a static analysis cannot resolve);
3. the number of lines marked ``// unresolved`` equals ``unresolved_min``, and each of them made
   at least one call into the case at run time.
Exit status 0 when every runnable case passes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from urllib.parse import unquote, urlparse

from groundkit.codemap.api import open_codemap

HERE = Path(__file__).resolve().parent
TRACE = HERE / "trace.mjs"
MARK = "// unresolved"
SOURCES = (".mjs", ".js", ".cjs")

Span = tuple[int, int, str]  # first line, last line, qualified name


def nodes_of(folder: Path) -> tuple[dict[str, list[Span]], dict[str, str]]:
    """Per file: its function, method and class nodes; and each file's module name."""
    spans: dict[str, list[Span]] = defaultdict(list)
    modules: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as index:
        codemap = open_codemap("case", index_dir=index, create=True)
        try:
            codemap.update(folder, workers=1)
            for node in codemap.nodes():
                if node.kind == "module":
                    modules[node.path] = node.qualname
                elif node.kind in ("function", "method", "class") and node.path:
                    spans[node.path].append((node.line, node.end_line, node.qualname))
        finally:
            codemap.close()
    return spans, modules


class Names:
    def __init__(self, folder: Path) -> None:
        self.folder = folder.resolve()
        self.spans, self.modules = nodes_of(folder)

    def file(self, url: str) -> str:
        return Path(unquote(urlparse(url).path)).resolve().relative_to(self.folder).as_posix()

    def starting(self, path: str, line: int) -> str | None:
        """The node that starts on ``line`` (a class: its constructor, which is what runs)."""
        found = [q for first, _, q in self.spans[path] if first == line]
        if len(found) > 1:
            constructors = [q for q in found if q.endswith(".constructor")]
            if len(constructors) == 1:
                return constructors[0]
            raise SystemExit(f"{path}:{line} starts {found}: give each function its own line")
        return found[0] if found else None

    def enclosing(self, path: str, line: int) -> str:
        inside = [(last - first, q) for first, last, q in self.spans[path] if first <= line <= last]
        return min(inside)[1] if inside else self.modules[path]

    def caller(self, where: list[object]) -> str:
        url, line, col, scope = where
        path = self.file(str(url))
        if (line, col) == (0, 0) and scope in ("module", "local", "global"):
            return self.modules[path]  # a module's own code (CommonJS: its wrapper function)
        assert isinstance(line, int)
        return self.starting(path, line + 1) or self.enclosing(path, line + 1)

    def callee(self, where: list[object]) -> str | None:
        url, line, _ = where
        assert isinstance(line, int)
        return self.starting(self.file(str(url)), line + 1)


def marked_lines(folder: Path) -> set[tuple[str, int]]:
    out = set()
    for path in folder.rglob("*"):
        if path.suffix in SOURCES:
            for number, text in enumerate(path.read_text().splitlines(), start=1):
                if MARK in text:
                    out.add((path.relative_to(folder).as_posix(), number))
    return out


def check(folder: Path, verbose: bool) -> list[str]:
    spec = json.loads((folder / "expected.json").read_text())
    entry = folder / spec["run"]
    expected = {(e["source"], e["target"]) for e in spec["edges"] if e["kind"] == "calls"}
    names = Names(folder)
    run = subprocess.run(
        ["node", str(TRACE), str(entry)], capture_output=True, text=True, timeout=120, check=False
    )
    if run.returncode != 0 or not run.stdout.strip():
        return [f"node failed ({run.returncode}): {run.stderr.strip()[-400:]}"]
    seen: dict[tuple[str, str], set[tuple[str, int]]] = defaultdict(set)
    for call in json.loads(run.stdout):
        files = (names.file(call["callee"][0]), names.file(call["caller"][0]))
        if any(f not in names.modules for f in files):
            continue  # a package's code (node_modules): read for the value flow, never mapped
        callee = names.callee(call["callee"])
        if callee is None:
            continue  # an anonymous function: part of the function around it
        caller = names.caller(call["caller"])
        seen[(caller, callee)].add((names.file(call["caller"][0]), call["at"] + 1))
    marks = marked_lines(folder)
    problems = []
    partial = {(e["source"], e["target"]) for e in spec["edges"] if e.get("partial")}
    for edge in sorted(expected):
        if edge in partial and not seen.get(edge):
            problems.append(f"expected partial {edge[0]} -> {edge[1]} does not happen")
        elif edge not in partial and not seen.get(edge, set()) - marks:
            problems.append(f"expected {edge[0]} -> {edge[1]} does not happen (unmarked)")
    for edge, lines in sorted(seen.items()):
        if edge not in expected and lines - marks:
            problems.append(f"{edge[0]} -> {edge[1]} happens at {sorted(lines - marks)}")
    if len(marks) != spec["unresolved_min"]:
        problems.append(
            f"{len(marks)} lines marked unresolved, unresolved_min is {spec['unresolved_min']}"
        )
    calling = {line for lines in seen.values() for line in lines}
    for mark in sorted(marks - calling):
        problems.append(f"{mark[0]}:{mark[1]} is marked unresolved but calls nothing of the case")
    if verbose:
        for edge, lines in sorted(seen.items()):
            print(f"    {edge[0]} -> {edge[1]} at {sorted(lines)}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("cases", nargs="*", type=Path)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    folders = args.cases or sorted(p.parent for p in HERE.glob("*/*/expected.json"))
    runnable = [f for f in folders if "run" in json.loads((f / "expected.json").read_text())]
    failed = 0
    for folder in runnable:
        problems = check(folder, args.verbose)
        name = f"{folder.parent.name}/{folder.name}"
        print(f"{'ok  ' if not problems else 'FAIL'} {name}")
        for problem in problems:
            print(f"     {problem}")
        failed += bool(problems)
    print(
        f"\n{len(runnable) - failed} of {len(runnable)} runnable cases pass;"
        f" {len(folders) - len(runnable)} not runnable (TypeScript or packages), skipped"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Reference module import graphs from grimp, for the code map's import edges.

Usage (from the repository root, any Python 3.11; the script makes its own venv):
    python benchmarks/codemap/imports/collect.py [--projects django,fastapi,httpx,groundkit]
        [--runs 5]

For each project it downloads the pinned sdist with pip into /tmp/codemap-bench, unpacks it,
builds grimp's graph of the top-level package (internal imports only) and writes
`benchmarks/codemap/imports/<project>.json`:

    {"project", "version", "root", "packages", "modules", "edges": [[importer, imported]],
     "type_checking_only": [[importer, imported]], "in_try_except": [...],
     "in_function": [...], "grimp": {...}, "build_seconds": {...}}

`root` is the folder, relative to the unpacked sdist (or to the groundkit repository), that
holds the package: a static analyser maps that folder and compares its module import edges
with `edges`. groundkit itself is read from this working tree's `src/`.
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from _venv import WORK, ensure_venv, fetch_sdist  # noqa: E402

GRIMP = "grimp==3.20"
PROJECTS = {
    "django": ("django", "5.2.19"),
    "fastapi": ("fastapi", "0.165.0"),
    "httpx": ("httpx", "0.28.1"),
}
REPO = HERE.parents[2]


def build(package: str, root: Path, *, exclude_tc: bool = False, cache: bool = False):  # type: ignore[no-untyped-def]
    import grimp

    sys.path.insert(0, str(root))
    try:
        cache_dir = str(WORK / "grimp-cache") if cache else None
        return grimp.build_graph(
            package, exclude_type_checking_imports=exclude_tc, cache_dir=cache_dir
        )
    finally:
        sys.path.remove(str(root))


def edges_of(graph) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    out = set()
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            out.add((importer, imported))
    return out


def module_file(root: Path, module: str) -> Path:
    base = root / Path(*module.split("."))
    return base / "__init__.py" if (base / "__init__.py").is_file() else base.with_suffix(".py")


class _Where(ast.NodeVisitor):
    """Line numbers of import statements inside try/except ImportError and inside functions."""

    def __init__(self) -> None:
        self.in_try: set[int] = set()
        self.in_func: set[int] = set()
        self._try = 0
        self._func = 0

    def visit_Try(self, node: ast.Try) -> None:
        names = set()
        for handler in node.handlers:
            for n in ast.walk(handler.type) if handler.type else []:
                if isinstance(n, ast.Name):
                    names.add(n.id)
        guards = bool(names & {"ImportError", "ModuleNotFoundError"})
        self._try += guards
        for stmt in node.body:
            self.visit(stmt)
        self._try -= guards
        for part in (node.handlers, node.orelse, node.finalbody):
            for stmt in part:
                self.visit(stmt)

    def _function(self, node: ast.AST) -> None:
        self._func += 1
        self.generic_visit(node)
        self._func -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if self._try:
            self.in_try.add(node.lineno)
        if self._func:
            self.in_func.add(node.lineno)

    visit_Import = visit_ImportFrom = _import


def classify(graph, root: Path, edges: set[tuple[str, str]]):  # type: ignore[no-untyped-def]
    """Edges whose every import statement sits in try/except ImportError, or in a function."""
    cache: dict[str, _Where] = {}
    in_try, in_func = set(), set()
    for importer, imported in edges:
        if importer not in cache:
            where = _Where()
            where.visit(ast.parse(module_file(root, importer).read_bytes()))
            cache[importer] = where
        lines = {
            d["line_number"] for d in graph.get_import_details(importer=importer, imported=imported)
        }
        if lines and lines <= cache[importer].in_try:
            in_try.add((importer, imported))
        if lines and lines <= cache[importer].in_func:
            in_func.add((importer, imported))
    return in_try, in_func


def collect(project: str, runs: int) -> dict[str, object]:
    if project == "groundkit":
        src = REPO / "src"
        # The last commit that changed src/: stable while only other folders change.
        commit = subprocess.run(
            ["git", "-C", str(REPO), "log", "-1", "--format=%H", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        package, version, root, rel = "groundkit", f"git:{commit}", src, "src"
        source = "this repository's working tree, src/groundkit"
    else:
        name, version = PROJECTS[project]
        unpacked = fetch_sdist(name, version)
        package, root, rel = name, unpacked, "."
        source = (
            f"pip download --no-deps --no-binary :all: {name}=={version}; unpack; "
            f"package folder {name}/"
        )
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        graph = build(package, root)
        times.append(time.perf_counter() - start)
    edges = edges_of(graph)
    without_tc = edges_of(build(package, root, exclude_tc=True))
    in_try, in_func = classify(graph, root, edges)
    return {
        "project": project,
        "version": version,
        "source": source,
        "root": rel,
        "packages": [package],
        "modules": sorted(graph.modules),
        "edges": sorted(map(list, edges)),
        "type_checking_only": sorted(map(list, edges - without_tc)),
        "in_try_except": sorted(map(list, in_try)),
        "in_function": sorted(map(list, in_func)),
        "grimp": {
            "version": GRIMP.split("==")[1],
            "include_external_packages": False,
            "exclude_type_checking_imports": False,
        },
        "build_seconds": {
            "runs": runs,
            "median": round(statistics.median(times), 4),
            "all": [round(t, 4) for t in times],
            "cache": False,
        },
    }


def main() -> int:
    ensure_venv("grimp", [GRIMP])
    parser = argparse.ArgumentParser()
    parser.add_argument("--projects", default="django,fastapi,httpx,groundkit")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{'project':<10}{'version':>12}{'modules':>9}{'edges':>7}{'tc-only':>9}"
        f"{'try':>6}{'in-fn':>7}{'median s':>10}"
    )
    for project in args.projects.split(","):
        data = collect(project, args.runs)
        (HERE / f"{project}.json").write_text(json.dumps(data, indent=1) + "\n")
        version = str(data["version"])[:11]
        print(
            f"{project:<10}{version:>12}{len(data['modules']):>9}{len(data['edges']):>7}"
            f"{len(data['type_checking_only']):>9}{len(data['in_try_except']):>6}"
            f"{len(data['in_function']):>7}{data['build_seconds']['median']:>10}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

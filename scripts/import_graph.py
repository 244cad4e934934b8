"""The package's import graph between its units (top-level modules and subpackages), as Mermaid.

    .venv/bin/python scripts/import_graph.py [--with-lazy] > graph.mmd

Every `import` and `from ... import` at any depth counts (lazy ones and TYPE_CHECKING ones too
with --with-lazy; without it, only those at module level). Edges are labelled with how many
import statements make them; tests/test_layers.py checks that they all point down the layers.
Comment lines (``%%``) after the graph list the import circles between modules at run time and
the calls a surface (cli, serve) makes that only the operations layer (``ops``) may make: both
are what tests/test_layers.py holds at none (but the circles it declares).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "groundkit"


def _unit(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "groundkit":
        return None
    return parts[1] if len(parts) > 1 else "groundkit"


def edges(with_lazy: bool) -> Counter[tuple[str, str]]:
    found: Counter[tuple[str, str]] = Counter()
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC.parent).with_suffix("").parts
        source = rel[1] if len(rel) > 1 and rel[1] != "__init__" else "groundkit"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes = ast.walk(tree) if with_lazy else iter(tree.body)
        for node in nodes:
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [node.module]
                if node.module == "groundkit":
                    targets = [f"groundkit.{alias.name}" for alias in node.names]
            for target in targets:
                unit = _unit(target)
                if (
                    unit
                    and unit != source
                    and (SRC / unit).exists() | (SRC / f"{unit}.py").exists()
                ):
                    found[(source, unit)] += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--with-lazy", action="store_true", help="count lazy imports too")
    args = parser.parse_args()
    print("graph TD")
    for (source, target), count in sorted(edges(args.with_lazy).items()):
        print(f"  {source} -->|{count}| {target}")
    sys.path.insert(0, str(SRC.parents[1] / "tests"))
    from test_layers import import_circles, surface_calls

    circles = import_circles(SRC)
    print(f"%% import circles between modules at run time: {len(circles)}")
    for circle in circles:
        print(f"%%   {' <-> '.join(sorted(circle))}")
    bypass = surface_calls(SRC)
    print(f"%% surface calls that bypass the operations layer: {len(bypass)}")
    for call in bypass:
        print(f"%%   {call}")


if __name__ == "__main__":
    main()

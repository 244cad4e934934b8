"""Each module of the answer path imports in one direction (issue 35): no circle among them, not
even through imports made only for type checking (``bundle -> passages -> spans -> bundle`` was
one). tests/test_layers.py holds run-time circles across the package at none; this holds the
answer path to none of any kind."""

from __future__ import annotations

import ast
from pathlib import Path

import groundkit

ANSWER = Path(groundkit.__file__).parent / "answer"


def _imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every groundkit.answer module ``path`` imports, at any depth (type checking too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                found.add(whole if whole in modules else node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found & modules


def _graph() -> dict[str, set[str]]:
    paths = {}
    for path in ANSWER.rglob("*.py"):
        parts = path.relative_to(ANSWER.parent.parent).with_suffix("").parts
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return {m: _imports_of(p, set(paths)) - {m} for m, p in paths.items()}


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            here = todo.pop()
            if here not in seen:
                seen.add(here)
                todo.extend(graph.get(here, ()))
        return seen

    circles: list[set[str]] = []
    for module in sorted(graph):
        if module in reach(module):
            circle = {m for m in reach(module) if module in reach(m)} | {module}
            if circle not in circles:
                circles.append(circle)
    return circles


def test_no_module_of_the_answer_path_imports_itself_round_a_circle() -> None:
    assert _circles(_graph()) == []


def test_the_check_finds_a_circle_made_only_of_type_checking_imports() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [{"a", "b", "c"}]

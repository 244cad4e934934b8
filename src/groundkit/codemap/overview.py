"""``grk map show``: the shape of a repository from its map.

Areas are top-level packages or folders (the subpackages of a package that holds most of the
code, so that a one-package repository still has parts); boundaries count the edges between
areas; hubs are the nodes most depended on and most depending; import cycles are the strongly
connected groups of modules (``TYPE_CHECKING`` imports left out, as they never run); entry points
are routes and the console scripts ``pyproject.toml`` / ``package.json`` declare. Every list is
sorted, so the same map always shows the same bytes.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundkit.codemap.graph import MapGraph
from groundkit.codemap.model import Edge, EdgeFlag, EdgeKind, Node, NodeKind
from groundkit.source_files import read_manifest

__all__ = ["Areas", "Overview", "entry_scripts", "overview"]

_HUBS = 10
_MODULES = (NodeKind.MODULE, NodeKind.PACKAGE)


class Areas:
    """Which area each in-repository node belongs to."""

    def __init__(self, nodes: Sequence[Node]) -> None:
        modules = [n for n in nodes if n.kind in _MODULES]
        tops = Counter(self._top(n) for n in modules)
        self.split: str | None = None
        if tops:
            top, count = tops.most_common(1)[0]
            nested = any(n.qualname.startswith(top + ".") for n in modules if n.path)
            if count * 2 > len(modules) and nested and not top.startswith("("):
                self.split = top
        self._by_module = {n.qualname: self._area(n) for n in modules}
        self._by_path = {n.path: self._area(n) for n in modules}

    @staticmethod
    def _top(node: Node) -> str:
        if node.kind == NodeKind.PACKAGE or "." in node.qualname:
            return node.qualname.split(".")[0]
        folder = node.path.rpartition("/")[0]
        return folder.split("/")[0] if folder else "(root)"

    def _area(self, node: Node) -> str:
        top = self._top(node)
        if top == self.split:
            parts = node.qualname.split(".")
            return ".".join(parts[:2])
        return top

    def of(self, node: Node) -> str | None:
        if node.kind == NodeKind.EXTERNAL:
            return None
        if node.kind == NodeKind.ROUTE:
            return "(routes)"
        return self._by_path.get(node.path)

    def of_module(self, name: str) -> str | None:
        return self._by_module.get(name)


@dataclass(frozen=True, slots=True)
class Overview:
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return self.data


def overview(graph: MapGraph, scripts: Sequence[dict[str, str]]) -> Overview:
    nodes = graph.nodes()
    by_id = {n.key.id: n for n in nodes}
    edges = graph.edges()
    areas = Areas(nodes)
    area_rows: dict[str, Counter[str]] = {}
    for node in nodes:
        area = areas.of(node)
        if area is not None:
            area_rows.setdefault(area, Counter())[str(node.kind)] += 1
    boundaries: Counter[tuple[str, str, str]] = Counter()
    for edge in edges:
        a, b = by_id.get(edge.source.id), by_id.get(edge.target.id)
        if a is None or b is None or edge.kind == EdgeKind.DEFINES:
            continue
        area_a, area_b = areas.of(a), areas.of(b)
        if area_a and area_b and area_a != area_b:
            boundaries[(area_a, area_b, str(edge.kind))] += 1
    counts = graph.counts()
    data = {
        "files": counts["files"],
        "nodes": dict(sorted(counts["nodes"].items())),
        "edges": dict(sorted(counts["edges"].items())),
        "unresolved_calls": counts["unresolved_calls"],
        "areas": [
            {"area": area, "nodes": dict(sorted(kinds.items()))}
            for area, kinds in sorted(area_rows.items())
        ],
        "boundaries": [
            {"from": a, "to": b, "kind": kind, "edges": count}
            for (a, b, kind), count in sorted(boundaries.items(), key=lambda i: (-i[1], i[0]))
        ],
        "hubs": _hubs(edges, by_id),
        "import_cycles": import_cycles(edges),
        "entry_points": {
            "routes": [
                {"route": n.qualname, "path": n.path, "line": n.line}
                for n in nodes
                if n.kind == NodeKind.ROUTE
            ],
            "scripts": list(scripts),
        },
        "skipped": [{"path": p, "reason": r} for p, r in graph.skipped()],
    }
    return Overview(data)


def _hubs(edges: Sequence[Edge], by_id: dict[str, Node]) -> dict[str, Any]:
    fan_in: Counter[str] = Counter()
    fan_out: Counter[str] = Counter()
    imported: Counter[str] = Counter()
    for edge in edges:
        if edge.kind == EdgeKind.CALLS:
            fan_in[edge.target.id] += 1
            fan_out[edge.source.id] += 1
        elif edge.kind == EdgeKind.IMPORTS and edge.target.kind != NodeKind.EXTERNAL:
            imported[edge.target.id] += 1

    def top(counter: Counter[str]) -> list[dict[str, Any]]:
        ranked = sorted(counter.items(), key=lambda i: (-i[1], by_id[i[0]].qualname, i[0]))
        return [
            {
                "name": by_id[i].qualname,
                "kind": str(by_id[i].kind),
                "path": by_id[i].path,
                "edges": c,
            }
            for i, c in ranked[:_HUBS]
            if i in by_id
        ]

    return {"fan_in": top(fan_in), "fan_out": top(fan_out), "most_imported": top(imported)}


def import_cycles(edges: Iterable[Edge]) -> list[list[str]]:
    """Strongly connected groups of in-repository modules, each sorted, largest first."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        if edge.kind != EdgeKind.IMPORTS or EdgeFlag.TYPE_CHECKING in edge.flags:
            continue
        if edge.target.kind == NodeKind.EXTERNAL:
            continue
        graph.setdefault(edge.source.qualname, set()).add(edge.target.qualname)
        graph.setdefault(edge.target.qualname, set())
    groups = [sorted(g) for g in _strongly_connected(graph) if len(g) > 1]
    return sorted(groups, key=lambda g: (-len(g), g))


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (a deep import chain would overflow the recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                out.append(group)
    return out


def entry_scripts(root: Path) -> list[dict[str, str]]:
    """Console scripts declared at the top of the repository: ``[project.scripts]`` (and
    Poetry's) in ``pyproject.toml``, ``bin`` in ``package.json``."""
    out: list[dict[str, str]] = []
    # Read by name, never listed: a FIFO or a device there must not be waited on.
    try:
        data = tomllib.loads(read_manifest(root / "pyproject.toml") or "")
    except tomllib.TOMLDecodeError:
        data = {}
    tables = [
        data.get("project", {}).get("scripts", {}),
        data.get("project", {}).get("gui-scripts", {}),
        data.get("tool", {}).get("poetry", {}).get("scripts", {}),
    ]
    for table in tables:
        if isinstance(table, dict):
            for name, target in table.items():
                if isinstance(target, str):
                    out.append({"name": name, "target": target, "from": "pyproject.toml"})
    try:
        package = json.loads(read_manifest(root / "package.json") or "{}")
    except json.JSONDecodeError:
        package = {}
    bins = package.get("bin") if isinstance(package, dict) else None
    if isinstance(bins, str):
        bins = {str(package.get("name", "bin")): bins}
    if isinstance(bins, dict):
        for name, target in bins.items():
            if isinstance(target, str):
                out.append({"name": name, "target": target, "from": "package.json"})
    return sorted(out, key=lambda s: (s["from"], s["name"]))

"""The map drawn for people: Mermaid (READMEs, pull requests), DOT (Graphviz), or JSON.

``module`` level: the repository's modules and the imports between them. ``area`` level: areas
(see ``overview.Areas``) and how many edges cross from one to another. Outside modules are left
out: they would crowd every picture.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, Literal

from groundkit.codemap.graph import MapGraph
from groundkit.codemap.model import EdgeKind, NodeKind
from groundkit.codemap.overview import Areas

__all__ = ["Format", "Level", "graph_of", "render"]

Format = Literal["mermaid", "dot", "json"]
Level = Literal["module", "area"]
_MODULES = (NodeKind.MODULE, NodeKind.PACKAGE)


def graph_of(graph: MapGraph, level: Level) -> tuple[list[str], list[tuple[str, str, int]]]:
    """(sorted node names, sorted (from, to, edge count))."""
    nodes = graph.nodes()
    if level == "module":
        names = sorted({n.qualname for n in nodes if n.kind in _MODULES})
        pairs: Counter[tuple[str, str]] = Counter()
        for edge in graph.edges([str(EdgeKind.IMPORTS)]):
            if edge.target.kind in _MODULES and edge.source.qualname != edge.target.qualname:
                pairs[(edge.source.qualname, edge.target.qualname)] += 1
        return names, sorted((a, b, c) for (a, b), c in pairs.items())
    areas = Areas(nodes)
    by_id = {n.key.id: n for n in nodes}
    names = sorted({area for n in nodes if (area := areas.of(n)) is not None})
    crossings: Counter[tuple[str, str]] = Counter()
    for edge in graph.edges():
        if edge.kind == EdgeKind.DEFINES:
            continue
        source, target = by_id.get(edge.source.id), by_id.get(edge.target.id)
        if source is None or target is None:
            continue
        area_a, area_b = areas.of(source), areas.of(target)
        if area_a and area_b and area_a != area_b:
            crossings[(area_a, area_b)] += 1
    return names, sorted((a, b, c) for (a, b), c in crossings.items())


def render(graph: MapGraph, fmt: Format, level: Level, envelope: dict[str, Any]) -> str:
    names, edges = graph_of(graph, level)
    if fmt == "json":
        body = {
            **envelope,
            "level": level,
            "nodes": names,
            "edges": [{"from": a, "to": b, "count": c} for a, b, c in edges],
        }
        return json.dumps(body, sort_keys=True, ensure_ascii=False)
    if fmt == "dot":
        return _dot(names, edges, level)
    return _mermaid(names, edges, level)


def _mermaid(names: list[str], edges: list[tuple[str, str, int]], level: Level) -> str:
    ids = {name: f"n{i}" for i, name in enumerate(names)}
    lines = ["graph LR"]
    lines.extend(f'  {ids[name]}["{_mermaid_text(name)}"]' for name in names)
    for a, b, count in edges:
        label = f"|{count}|" if level == "area" else ""
        lines.append(f"  {ids[a]} -->{label} {ids[b]}")
    return "\n".join(lines)


def _mermaid_text(text: str) -> str:
    return re.sub(r'["<>]', "_", text)


def _dot(names: list[str], edges: list[tuple[str, str, int]], level: Level) -> str:
    lines = ["digraph codemap {", "  rankdir=LR;", "  node [shape=box];"]
    lines.extend(f"  {_dot_id(name)};" for name in names)
    for a, b, count in edges:
        label = f' [label="{count}"]' if level == "area" else ""
        lines.append(f"  {_dot_id(a)} -> {_dot_id(b)}{label};")
    lines.append("}")
    return "\n".join(lines)


def _dot_id(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

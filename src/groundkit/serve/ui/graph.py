"""The code map drawn for the page: areas, or modules, and the edges between them by kind.

An edge of the drawing stands for every edge of the map whose two ends lie in those two areas
(or modules) and that has that kind: a call from ``a.f`` to ``b.g`` is drawn between module
``a`` and module ``b``. ``defines`` (containment) is never drawn, nor are outside modules and
hosts (they would crowd every picture, as in ``grk map show --format mermaid``). Clicking a
drawn edge lists the edges it stands for (``members``), each with its evidence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from groundkit.codemap.model import Edge, EdgeKind, Node, NodeKind
from groundkit.codemap.overview import Areas

__all__ = ["AREA_PREFIX", "Drawing", "Level", "Places", "drawing", "members"]

Level = Literal["area", "module"]
AREA_PREFIX = "area:"
_MODULES = (NodeKind.MODULE, NodeKind.PACKAGE)


class Places:
    """Which area, and which module, each node of a map lies in."""

    def __init__(self, nodes: Sequence[Node]) -> None:
        self.areas = Areas(nodes)
        self.by_id = {n.key.id: n for n in nodes}
        self.module_by_path = {n.path: n for n in nodes if n.kind in _MODULES and n.path}

    def area(self, node_id: str) -> str | None:
        node = self.by_id.get(node_id)
        return self.areas.of(node) if node is not None else None

    def module(self, node_id: str) -> Node | None:
        """The module (or package) whose file holds the node; a route, its declaring file's."""
        node = self.by_id.get(node_id)
        if node is None or node.kind == NodeKind.EXTERNAL:
            return None
        return self.module_by_path.get(node.path)

    def end(self, node_id: str, level: Level) -> str | None:
        """The id of the drawn node that stands for ``node_id`` at ``level``."""
        if level == "area":
            area = self.area(node_id)
            return AREA_PREFIX + area if area is not None else None
        module = self.module(node_id)
        return module.key.id if module is not None else None


@dataclass(frozen=True, slots=True)
class Drawing:
    level: Level
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "nodes": self.nodes, "edges": self.edges}


def drawing(
    nodes: Sequence[Node], edges: Sequence[Edge], level: Level, area: str | None = None
) -> Drawing:
    """Nodes and counted edges at ``level``; at module level, only ``area``'s modules when one
    is named."""
    places = Places(nodes)
    members: Counter[str] = Counter()
    for node in nodes:
        drawn = places.end(node.key.id, level)
        if drawn is not None:
            members[drawn] += 1
    shown: dict[str, dict[str, Any]] = {}
    if level == "area":
        for name in sorted({a for n in nodes if (a := places.areas.of(n)) is not None}):
            key = AREA_PREFIX + name
            shown[key] = {"id": key, "label": name, "kind": "area", "area": name}
    else:
        for node in sorted(places.module_by_path.values(), key=lambda n: n.qualname):
            home = places.area(node.key.id)
            if area is None or home == area:
                shown[node.key.id] = {
                    "id": node.key.id,
                    "label": node.qualname,
                    "kind": str(node.kind),
                    "area": home,
                    "path": node.path,
                }
    for key, entry in shown.items():
        entry["size"] = members[key]
    counted: Counter[tuple[str, str, str]] = Counter()
    for edge in edges:
        if edge.kind == EdgeKind.DEFINES:
            continue
        a, b = places.end(edge.source.id, level), places.end(edge.target.id, level)
        if a is not None and b is not None and a != b and a in shown and b in shown:
            counted[(a, str(edge.kind), b)] += 1
    drawn_edges = [
        {"id": f"{a}|{kind}|{b}", "source": a, "target": b, "kind": kind, "count": count}
        for (a, kind, b), count in sorted(counted.items())
    ]
    return Drawing(level, list(shown.values()), drawn_edges)


def members(
    nodes: Sequence[Node], edges: Sequence[Edge], level: Level, source: str, kind: str, target: str
) -> list[Edge]:
    """The map's edges that the drawn edge ``source -kind-> target`` stands for."""
    places = Places(nodes)
    return [
        e
        for e in edges
        if str(e.kind) == kind
        and places.end(e.source.id, level) == source
        and places.end(e.target.id, level) == target
    ]

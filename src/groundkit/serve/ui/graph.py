"""The code map drawn for the page: areas, or areas holding packages holding modules, and the
edges between them by kind, each level counted on its own.

An edge of the drawing stands for every edge of the map whose two ends lie in those two areas
(or packages, or modules) and that has that kind: a call from ``a.f`` to ``b.g`` is drawn
between module ``a`` and module ``b``, between their packages and between their areas, and the
page shows the level whose labels can be read at its zoom. ``defines`` (containment) is never
drawn, nor are outside modules and hosts (they would crowd every picture, as in ``grk map show
--format mermaid``). Clicking a drawn edge lists the edges it stands for (``members``), each
with its evidence. Where each box stands is computed here (``layout.pack``): the same drawing
on every load, and nothing for the browser to lay out. An ``EdgeFilter`` leaves edges out of
the counts, and the drawing says how many it hid.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from groundkit.codemap.filters import NO_FILTER, EdgeFilter
from groundkit.codemap.model import Edge, EdgeFlag, EdgeKind, Node, NodeKey, NodeKind
from groundkit.codemap.overview import Areas
from groundkit.serve.ui.layout import Box, Item, pack

__all__ = [
    "AREA_PREFIX",
    "PACKAGE_PREFIX",
    "Drawing",
    "Ends",
    "Hierarchy",
    "Level",
    "Places",
    "drawing",
    "ends_of",
    "members",
]

Level = Literal["area", "package", "module"]
AREA_PREFIX = "area:"
PACKAGE_PREFIX = "pkg:"
_MODULES = (NodeKind.MODULE, NodeKind.PACKAGE)
_LEVELS: tuple[Level, ...] = ("area", "package", "module")


class Places:
    """Which area, package (the folder of its file) and module each node of a map lies in."""

    def __init__(self, nodes: Sequence[Node]) -> None:
        self.areas = Areas(nodes)
        self.by_id = {n.key.id: n for n in nodes}
        self.module_by_path = {n.path: n for n in nodes if n.kind in _MODULES and n.path}
        # A folder's package is named by its package node, when it has one (src/shop -> shop).
        self.package_names = {
            _folder(n.path): n.qualname
            for n in self.module_by_path.values()
            if n.kind == NodeKind.PACKAGE
        }

    def area(self, node_id: str) -> str | None:
        node = self.by_id.get(node_id)
        return self.areas.of(node) if node is not None else None

    def module(self, node_id: str) -> Node | None:
        """The module (or package) whose file holds the node; a route, its declaring file's."""
        node = self.by_id.get(node_id)
        if node is None or node.kind == NodeKind.EXTERNAL:
            return None
        return self.module_by_path.get(node.path)

    def package(self, node_id: str) -> str | None:
        """The package (folder) of the module that holds the node, by its name."""
        module = self.module(node_id)
        if module is None:
            return None
        folder = _folder(module.path)
        return self.package_names.get(folder, folder or "(root)")


class Hierarchy:
    """What the module view draws: areas holding packages holding modules, as ``Item``s for
    the layout, and which drawn node stands for each node of the map at each level.

    A package of one module is not drawn (the module stands in the area itself), nor is the
    one package of an area (its modules stand in the area): a box around a single thing, or
    around all of its box's content, says nothing."""

    def __init__(self, nodes: Sequence[Node], only: str | None = None) -> None:
        self.places = places = Places(nodes)
        grouped: dict[str, dict[str, list[Node]]] = defaultdict(lambda: defaultdict(list))
        for module in sorted(places.module_by_path.values(), key=lambda n: n.qualname):
            home = places.area(module.key.id) or "(root)"
            if only in (None, home):
                grouped[home][places.package(module.key.id) or "(root)"].append(module)
        # An area with no module of its own (the routes') is drawn too, as an empty box.
        for node in places.by_id.values():
            routes = places.areas.of(node) if node.kind == NodeKind.ROUTE else None
            if routes is not None and only in (None, routes):
                grouped.setdefault(routes, defaultdict(list))
        self.package_of: dict[str, str] = {}  # module id -> its drawn package (or itself)
        self.packages: dict[str, list[Node]] = {}  # drawn package id -> its modules
        self.tree: list[Item] = []
        for home in sorted(grouped):
            children: list[Item] = []
            groups = grouped[home]
            for package in sorted(groups):
                cells = [Item(m.key.id, _short(m)) for m in groups[package]]
                if len(cells) == 1 or len(groups) == 1:
                    children.extend(cells)
                    self.package_of.update((c.id, c.id) for c in cells)
                    continue
                key = f"{PACKAGE_PREFIX}{home}::{package}"
                label = package.removeprefix(home + ".") if package != home else package
                children.append(Item(key, label, cells))
                self.package_of.update((c.id, key) for c in cells)
                self.packages[key] = groups[package]
            self.tree.append(Item(AREA_PREFIX + home, home, children))

    def end(self, node_id: str, level: Level) -> str | None:
        """The id of the drawn node that stands for ``node_id`` at ``level``."""
        if level == "area":
            area = self.places.area(node_id)
            return AREA_PREFIX + area if area is not None else None
        module = self.places.module(node_id)
        if module is None:
            return None
        if level == "package":
            return self.package_of.get(module.key.id)
        return module.key.id


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


@dataclass(frozen=True, slots=True)
class Drawing:
    level: Level
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]
    filter: EdgeFilter = NO_FILTER
    hidden: int = 0  # edges of the map the filter left out of the counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "nodes": self.nodes,
            "edges": self.edges,
            "filter": self.filter.to_dict(),
            "hidden": self.hidden,
        }


@dataclass(frozen=True, slots=True)
class Ends:
    """An edge as a drawing counts it (``EdgeFilter`` reads it as it reads an ``Edge``)."""

    kind: str
    source_id: str
    target_id: str
    source: NodeKey
    target: NodeKey
    confidence: float
    flags: frozenset[EdgeFlag]


def ends_of(nodes: Sequence[Node], rows: Sequence[tuple[str, str, str, float, str]]) -> list[Ends]:
    """The rows ``MapStore.edge_ends`` reads, with their ends' keys (an edge whose end is no
    node of the map is left out, as ``MapGraph`` leaves it out)."""
    keys = {n.key.id: n.key for n in nodes}
    out = []
    for kind, source, target, confidence, flags in rows:
        a, b = keys.get(source), keys.get(target)
        if a is not None and b is not None:
            marks = frozenset(EdgeFlag(f) for f in flags.split(",") if f)
            out.append(Ends(kind, source, target, a, b, confidence, marks))
    return out


def drawing(
    nodes: Sequence[Node],
    edges: Sequence[Ends],
    level: Level,
    area: str | None = None,
    edge_filter: EdgeFilter = NO_FILTER,
) -> Drawing:
    """At ``area`` level, the areas and the edges between them; at ``module`` level, areas
    holding packages holding modules (only ``area``'s when one is named), with the edges of
    each level (an edge's ``level`` says which)."""
    drawn = Hierarchy(nodes, area)
    boxes = {box.id: box for box in pack(drawn.tree)}
    shown: dict[str, dict[str, Any]] = {}
    sizes = Counter(e for n in nodes if (e := drawn.end(n.key.id, "module")) is not None)
    for item in drawn.tree:
        shown[item.id] = _entry(item.id, "area", item.label, item.id[len(AREA_PREFIX) :], boxes)
        if level == "area":
            shown[item.id].update(label_y=shown[item.id]["y"], size=_count(item, sizes))
            continue
        for child in item.children:
            cells = child.children or [child]
            if child.children:
                name = child.id[len(PACKAGE_PREFIX) :].split("::", 1)[1]
                shown[child.id] = _entry(child.id, "pkg", child.label, name, boxes)
                shown[child.id]["size"] = len(child.children)
            for cell in cells:
                module = drawn.places.by_id[cell.id]
                shown[cell.id] = {
                    **_entry(cell.id, str(module.kind), cell.label, module.qualname, boxes),
                    "area": item.label,
                    "path": module.path,
                    "size": sizes[cell.id],
                }
    edges_drawn, hidden = _edges(drawn, edges, level, shown, edge_filter)
    return Drawing(level, list(shown.values()), edges_drawn, edge_filter, hidden)


def _short(module: Node) -> str:
    """A module's name inside its package: its last dotted part, or its file's name."""
    name = module.qualname.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1] if "/" not in module.qualname else name


def _entry(key: str, kind: str, label: str, name: str, boxes: dict[str, Box]) -> dict[str, Any]:
    box = boxes[key]
    return {
        "id": key,
        "kind": kind,
        "label": label,
        "name": name,
        "x": round(box.x, 1),
        "y": round(box.y, 1),
        "w": round(box.width, 1),
        "h": round(box.height, 1),
        "font": round(box.font, 2),
        "label_y": round(box.label_y, 1),
    }


def _count(item: Item, sizes: Counter[str]) -> int:
    return sum(sizes[cell.id] for child in item.children for cell in child.children or [child])


def _edges(
    places: Hierarchy,
    edges: Sequence[Ends],
    level: Level,
    shown: dict[str, Any],
    edge_filter: EdgeFilter,
) -> tuple[list[dict[str, Any]], int]:
    levels = ("area",) if level == "area" else _LEVELS
    counted: Counter[tuple[Level, str, str, str]] = Counter()
    hidden = 0
    drawn_at: dict[str, list[str | None]] = {}  # a node's drawn node at each level, once

    def ends(node_id: str) -> list[str | None]:
        found = drawn_at.get(node_id)
        if found is None:
            found = drawn_at[node_id] = [places.end(node_id, at) for at in levels]
        return found

    for edge in edges:
        if edge.kind == EdgeKind.DEFINES:
            continue
        pairs = zip(levels, ends(edge.source_id), ends(edge.target_id), strict=True)
        drawn = [(at, a, b) for at, a, b in pairs if a != b and a in shown and b in shown]
        if not drawn:
            continue
        if not edge_filter.admits(edge):
            hidden += 1
            continue
        for at, a, b in drawn:
            counted[(at, str(a), str(edge.kind), str(b))] += 1
    out = []
    for (at, a, kind, b), count in sorted(counted.items()):
        lane = _endpoints(shown[a], shown[b], _LANES.get(kind, 0) * _LANE)
        out.append(
            {
                # A module alone in its area stands for itself at the package level too.
                "id": f"{a}|{kind}|{b}" + ("|package" if at == "package" else ""),
                "source": a,
                "target": b,
                "kind": kind,
                "count": count,
                "level": at,
                "source_end": lane[0],
                "target_end": lane[1],
            }
        )
    return out, hidden


# Edges of different kinds between the same two boxes run apart, each in a lane of its own: a
# line parallel to the one between the boxes' centres, from where it leaves the source box to
# where it enters the target's (so each can be seen, clicked, and its arrow stays outside).
_LANE = 5.0
_LANES = {"imports": -1, "calls": 1, "inherits": -2, "handles": 2, "http_call": 0}


def _endpoints(source: dict[str, Any], target: dict[str, Any], offset: float) -> tuple[str, str]:
    """Where an edge leaves ``source`` and enters ``target`` (each relative to its box's centre,
    as Cytoscape's ``source-endpoint``/``target-endpoint`` take it), ``offset`` units to the
    side of the line between the centres."""
    dx, dy = target["x"] - source["x"], target["y"] - source["y"]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    nx, ny = -uy * offset, ux * offset
    return (
        _exit(nx, ny, ux, uy, source["w"] / 2, source["h"] / 2),
        _exit(nx, ny, -ux, -uy, target["w"] / 2, target["h"] / 2),
    )


def _exit(x: float, y: float, ux: float, uy: float, half_w: float, half_h: float) -> str:
    """Where the ray from (x, y) along (ux, uy) leaves the box of half sizes ``half_w`` by
    ``half_h`` around 0, 0, as ``"Xpx Ypx"``."""
    steps = [
        (bound - start) / step
        for start, step, half in ((x, ux, half_w), (y, uy, half_h))
        if step
        for bound in (half if step > 0 else -half,)
    ]
    t = max(0.0, min(steps)) if steps else 0.0
    return f"{x + t * ux:.1f}px {y + t * uy:.1f}px"


def members(
    nodes: Sequence[Node],
    edges: Sequence[Edge],
    level: Level,
    source: str,
    kind: str,
    target: str,
    edge_filter: EdgeFilter = NO_FILTER,
) -> list[Edge]:
    """The map's edges that the drawn edge ``source -kind-> target`` stands for."""
    places = Hierarchy(nodes)
    return [
        e
        for e in edges
        if str(e.kind) == kind
        and places.end(e.source.id, level) == source
        and places.end(e.target.id, level) == target
        and edge_filter.admits(e)
    ]

"""What changed between two maps, by identity: nodes (kind + name + file) and edges (kind +
source + target). An edge is changed when its provenance, confidence or location differ."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from groundkit.codemap.model import Edge, Node, NodeKey
from groundkit.codemap.store import MapStore

__all__ = ["MapDiff", "diff_stores"]


@dataclass(frozen=True, slots=True)
class MapDiff:
    nodes_added: tuple[Node, ...]
    nodes_removed: tuple[Node, ...]
    edges_added: tuple[Edge, ...]
    edges_removed: tuple[Edge, ...]
    edges_changed: tuple[tuple[Edge, Edge], ...]  # (before, after)

    @property
    def empty(self) -> bool:
        return not (
            self.nodes_added
            or self.nodes_removed
            or self.edges_added
            or self.edges_removed
            or self.edges_changed
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodes": {
                "added": [n.to_dict() for n in self.nodes_added],
                "removed": [n.to_dict() for n in self.nodes_removed],
            },
            "edges": {
                "added": [e.to_dict() for e in self.edges_added],
                "removed": [e.to_dict() for e in self.edges_removed],
                "changed": [
                    {"before": a.to_dict(), "after": b.to_dict(), "fields": changed_fields(a, b)}
                    for a, b in self.edges_changed
                ],
            },
        }


def changed_fields(a: Edge, b: Edge) -> list[str]:
    return [
        name
        for name, x, y in (
            ("provenance", a.provenance, b.provenance),
            ("confidence", a.confidence, b.confidence),
            ("location", a.location, b.location),
        )
        if x != y
    ]


def diff_stores(before: MapStore, after: MapStore) -> MapDiff:
    old_nodes: dict[NodeKey, Node] = {n.key: n for n in before.nodes()}
    new_nodes: dict[NodeKey, Node] = {n.key: n for n in after.nodes()}
    old_edges = {e.key: e for e in before.edges()}
    new_edges = {e.key: e for e in after.edges()}
    changed = [
        (old_edges[k], new_edges[k])
        for k in sorted(old_edges.keys() & new_edges.keys())
        if changed_fields(old_edges[k], new_edges[k])
    ]
    return MapDiff(
        tuple(new_nodes[k] for k in sorted(new_nodes.keys() - old_nodes.keys())),
        tuple(old_nodes[k] for k in sorted(old_nodes.keys() - new_nodes.keys())),
        tuple(new_edges[k] for k in sorted(new_edges.keys() - old_edges.keys())),
        tuple(old_edges[k] for k in sorted(old_edges.keys() - new_edges.keys())),
        tuple(changed),
    )

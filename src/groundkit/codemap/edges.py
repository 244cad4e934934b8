"""Collecting one file's edges: one per (kind, source, target), the first site kept."""

from __future__ import annotations

from groundkit.codemap.model import (
    Edge,
    EdgeFlag,
    EdgeKind,
    Location,
    NodeKey,
    Provenance,
    evidence_line,
    shorten,
)
from groundkit.codemap.priors import prior

__all__ = ["QUOTE_MAX", "EdgeSet"]

QUOTE_MAX = 160  # characters of the source line kept as an edge's quote


class EdgeSet:
    def __init__(self) -> None:
        self._edges: dict[tuple[EdgeKind, NodeKey, NodeKey], Edge] = {}

    def add(
        self,
        kind: EdgeKind,
        source: NodeKey,
        target: NodeKey,
        provenance: Provenance,
        location: Location,
        line_text: str,
        flags: frozenset[EdgeFlag] = frozenset(),
    ) -> None:
        key = (kind, source, target)
        found = self._edges.get(key)
        if found is not None:
            # Another site of the same edge: counted; a flag holds only if it holds at every site.
            kept = found.flags & flags
            self._edges[key] = Edge(
                found.kind,
                found.source,
                found.target,
                found.provenance,
                prior(found.provenance, partial=EdgeFlag.PARTIAL in kept),
                found.location,
                found.quote,
                found.evidence,
                kept,
                found.sites + 1,
            )
            return
        quote = shorten(line_text.strip(), QUOTE_MAX)
        evidence = evidence_line(source, kind, target, location, quote)
        confidence = prior(provenance, partial=EdgeFlag.PARTIAL in flags)
        self._edges[key] = Edge(
            kind, source, target, provenance, confidence, location, quote, evidence, flags
        )

    def edges(self) -> list[Edge]:
        return list(self._edges.values())

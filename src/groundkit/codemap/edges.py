"""Collecting one file's edges: one per (kind, source, target), counting its sites. The site an
edge shows (place, quote, provenance) is the first one at which it is as certain as it says: a
call partial at one site and certain at another is certain, and shows where it is certain."""

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
        if found is None:
            self._edges[key] = _edge(kind, source, target, provenance, location, line_text, flags)
            return
        # Another site of the same edge: counted; a flag holds only if it holds at every site.
        kept = found.flags & flags
        if EdgeFlag.PARTIAL in found.flags and EdgeFlag.PARTIAL not in kept:
            # The first site where the edge is certain: the one it shows from now on.
            sites = found.sites + 1
            self._edges[key] = _edge(
                kind, source, target, provenance, location, line_text, kept, sites
            )
            return
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

    def edges(self) -> list[Edge]:
        return list(self._edges.values())


def _edge(
    kind: EdgeKind,
    source: NodeKey,
    target: NodeKey,
    provenance: Provenance,
    location: Location,
    line_text: str,
    flags: frozenset[EdgeFlag],
    sites: int = 1,
) -> Edge:
    quote = shorten(line_text.strip(), QUOTE_MAX)
    evidence = evidence_line(source, kind, target, location, quote)
    confidence = prior(provenance, partial=EdgeFlag.PARTIAL in flags)
    return Edge(
        kind, source, target, provenance, confidence, location, quote, evidence, flags, sites
    )

"""Code-map edges as evidence: an edge's one-line evidence, and a quote of it resolved in the map.

The model is shown the edge's evidence line and nothing else (``a.f calls b.g at src/a.py:12:
g(x)``): names, a repository-relative place and the statement as written, never an absolute
path or more of the file. A validated quote is resolved against the edge as the map holds it
now, and the edge's statement is re-read from the working tree (verified / drifted / missing).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from groundkit.answer.evidence import Origins, refuse

if TYPE_CHECKING:
    from groundkit.codemap.model import Edge

__all__ = ["CitedEdge", "EdgeItem", "edge_parts"]

_WORD = re.compile(r"\w")


def edge_parts(edge: Edge) -> tuple[str, str, str]:
    """``(claim, place, statement)`` of the evidence line, each a substring of it: ``a.f calls
    b.g``, ``src/a.py:12``, ``g(x)``. A line too long to keep its shape gives ``(line, "", "")``."""
    place = str(edge.location)
    joint = f" at {place}: "
    at = edge.evidence.find(joint)
    if at < 0:
        return edge.evidence, "", ""
    return edge.evidence[:at], place, edge.evidence[at + len(joint) :]


@dataclass(frozen=True, slots=True)
class EdgeItem:
    """One numbered edge. ``role`` says why it was sent: ``trace`` (it leads from the symbol),
    ``blast`` (it leads to it), ``chain`` (a hop on a path to the goal: path number ``chain``,
    hop ``depth``) or ``search`` (it matched the question); ``depth`` and ``path_confidence``
    are those of its path from the symbol (the weakest edge on it)."""

    number: int
    edge: Edge
    role: str
    depth: int
    path_confidence: float
    chain: int = 0  # a chain hop's path number (`grk trace --to`'s), 0 for any other role

    @property
    def kind(self) -> str:
        return "edge"

    @property
    def text(self) -> str:
        return self.edge.evidence

    def prompt_block(self) -> str:
        return f'<source id="{self.number}">\n{self.text}\n</source>\n'

    def spans(self, min_chars: int) -> list[str]:
        """The whole evidence line, its claim (``a.f calls b.g``) and its statement."""
        claim, _, statement = edge_parts(self.edge)
        out: list[str] = []
        for part in (self.text, claim, statement):
            span = part.strip()
            if len(span) >= min_chars and _WORD.search(span) and span not in out:
                out.append(span)
        return out

    def scope_row(self) -> list[Any]:
        digest = hashlib.sha256(self.text.encode("utf-8", "surrogatepass")).hexdigest()
        return ["edge", self.edge.id, digest]

    def cite(self, quote: str, marker: int, origins: Origins) -> CitedEdge:
        """The edge re-read from the map (refused if it is gone or its evidence changed), the
        quote's offsets in its evidence, and its statement re-checked against the files."""
        stored = origins.edge(self.edge.id, self.number)
        if stored.evidence != self.text:
            refuse(f"source {self.number} changed in the code map since it was sent")
        at = stored.evidence.index(quote)  # present: the contract checked the same text
        return CitedEdge(
            marker,
            self.number,
            stored,
            at,
            at + len(quote),
            stored.evidence[at : at + len(quote)],
            origins.verify(stored),
            stored.evidence.find(quote, at + 1) >= 0,
        )

    def to_dict(self) -> dict[str, Any]:
        out = {
            "number": self.number,
            "kind": self.kind,
            "role": self.role,
            "depth": self.depth,
            "path_confidence": round(self.path_confidence, 4),
            "edge": self.edge.to_dict(),
            "text": self.text,
        }
        return out if not self.chain else {**out, "chain": self.chain}


@dataclass(frozen=True, slots=True)
class CitedEdge:
    """One citation of an edge, resolved: ``cited_text`` is ``edge.evidence[start:end]`` as
    the map holds it; ``verification`` is the edge's statement re-read from the working tree."""

    marker: int
    source: int
    edge: Edge
    start: int  # offsets into the evidence line
    end: int
    cited_text: str
    verification: str
    ambiguous: bool  # the quote occurs more than once in the evidence line

    @property
    def kind(self) -> str:
        return "edge"

    @property
    def location(self) -> str:
        """``path:line``, repository-relative."""
        return str(self.edge.location)

    def to_dict(self) -> dict[str, Any]:
        e = self.edge
        return {
            "marker": self.marker,
            "source": self.source,
            "kind": self.kind,
            "edge_id": e.id,
            "edge_kind": str(e.kind),
            "source_name": e.source.qualname,
            "target_name": e.target.qualname,
            "provenance": str(e.provenance),
            "confidence": e.confidence,
            "location": e.location.to_dict(),
            "evidence": e.evidence,
            "start": self.start,
            "end": self.end,
            "cited_text": self.cited_text,
            "verification": self.verification,
            "ambiguous": self.ambiguous,
        }

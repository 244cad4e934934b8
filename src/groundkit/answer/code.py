"""Which code-map edges a question about code sends: the trace and/or blast of a symbol, the
hops of the paths from a symbol to a goal (``grk ask X Q --to table:user``), or the edges that
best match a question.

Order is deterministic. For a walk: path confidence (the weakest edge on the path from the
symbol, highest first), then depth (nearest first), then the edge's identity. ``defines`` edges
are not sent: they say where code lives, not what depends on what (a class or module is still
traced through its members). For chains: the paths as `grk trace --to` lists them (shortest
first, then the most confident), hop by hop, each edge once, at the first path that holds it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from groundkit.answer.bundle import CodeEvidence
from groundkit.codemap.model import EdgeKind
from groundkit.codemap.search import search_edges

if TYPE_CHECKING:
    from groundkit.codemap.api import CodeMap
    from groundkit.codemap.traverse import Blast, Trace

__all__ = ["CHAIN_DEPTH", "CodeScope", "chain_edges", "matching_edges", "scope_for", "symbol_edges"]

CodeScope = Literal["trace", "blast", "both"]
SCOPES: tuple[CodeScope, ...] = ("trace", "blast", "both")
CHAIN_DEPTH = 10  # how far a chain may run when no depth is given: `grk trace --to`'s default

# A question about who depends on a symbol is answered from the edges coming in (its blast);
# one about what it depends on, from those going out (its trace). "Who calls this?" drew the
# symbol's own calls when both walks were sent: the words match every "X calls Y" line.
_INCOMING = re.compile(
    r"\b(?:who|what|which\b.{0,40})\s+(?:calls?|uses?|imports?|depends? on|needs?|invokes?)\b"
    r"|\b(?:callers?|dependents?|importers?|impact|blast|breaks?|affected)\b"
    r"|\b(?:called|used|imported|invoked|reached)\s+(?:by|from|where)\b"
    r"|\bwhere\b.{0,60}\b(?:called|used|imported|invoked)\b",
    re.IGNORECASE,
)
_OUTGOING = re.compile(
    r"\b(?:what|which)\b.{0,40}\b(?:does|do|did)\b.{0,60}"
    r"\b(?:call|use|import|depend on|need|invoke|reach|lead to)\b"
    r"|\b(?:callees?|dependencies|leads? to|calls? into)\b",
    re.IGNORECASE,
)


def scope_for(question: str) -> CodeScope:
    """The walk a question is about: ``blast`` for who depends on the symbol ("who calls
    this?"), ``trace`` for what it depends on ("what does it call?"), ``both`` otherwise."""
    outgoing = bool(_OUTGOING.search(question))
    incoming = bool(_INCOMING.search(_OUTGOING.sub(" ", question)))
    if incoming and not outgoing:
        return "blast"
    if outgoing and not incoming:
        return "trace"
    return "both"


def symbol_edges(
    codemap: CodeMap, symbol: str, *, scope: CodeScope = "both", depth: int = 2
) -> tuple[str, list[CodeEvidence]]:
    """The resolved symbol's qualified name and its edges, ordered. Raises the same errors as
    `grk trace` (``codemap.symbol_not_found`` / ``codemap.symbol_ambiguous``) before anything
    could be sent."""
    node = codemap.find(symbol)
    found: dict[str, CodeEvidence] = {}
    if scope in ("trace", "both"):
        _keep(found, _from_trace(codemap.trace(symbol, depth=depth)))
    if scope in ("blast", "both"):
        _keep(found, _from_blast(codemap.blast(symbol, depth=depth)))
    return node.qualname, sorted(found.values(), key=_order)


def chain_edges(
    codemap: CodeMap, symbol: str, goal: str, *, depth: int = CHAIN_DEPTH
) -> tuple[str, str, list[CodeEvidence]]:
    """The resolved symbol's and goal's qualified names and the hops of the paths between them,
    in `grk trace --to`'s order. Symbol errors are those of `grk trace` (either end not found or
    ambiguous), raised before anything could be sent."""
    found = codemap.chains(symbol, goal, depth=depth)
    hops: dict[str, CodeEvidence] = {}
    for number, path in enumerate(found.paths, start=1):
        weakest = min(e.confidence for e in path)
        for hop, edge in enumerate(path, start=1):
            hops.setdefault(edge.id, CodeEvidence(edge, "chain", hop, weakest, chain=number))
    return found.start.qualname, found.goal.qualname, list(hops.values())


def matching_edges(codemap: CodeMap, query: str, *, top_k: int = 5) -> list[CodeEvidence]:
    """The ``top_k`` edges whose evidence and end names best match ``query`` (BM25)."""
    hits = search_edges(codemap.edges(), query, top_k=top_k)
    return [CodeEvidence(h.edge, "search", 0, h.edge.confidence) for h in hits]


def _order(item: CodeEvidence) -> tuple[float, int, str]:
    return (-round(item.path_confidence, 4), item.depth, item.edge.id)


def _keep(found: dict[str, CodeEvidence], candidates: list[CodeEvidence]) -> None:
    """One entry per edge: the one that orders first (an edge can be on both walks)."""
    for item in candidates:
        held = found.get(item.edge.id)
        if held is None or _order(item) < _order(held):
            found[item.edge.id] = item


def _from_trace(result: Trace) -> list[CodeEvidence]:
    """Each step with its path's confidence. Steps come depth first, so a step's parent is the
    last step seen one level up."""
    out: list[CodeEvidence] = []
    above: list[float] = [1.0]  # above[d]: the confidence of the path down to depth d
    for step in result.steps:
        del above[step.depth :]
        confidence = min(above[-1], step.edge.confidence)
        above.append(confidence)
        if step.edge.kind != EdgeKind.DEFINES:
            out.append(CodeEvidence(step.edge, "trace", step.depth, confidence))
    return out


def _from_blast(result: Blast) -> list[CodeEvidence]:
    return [
        CodeEvidence(d.via, "blast", d.depth, d.confidence)
        for d in result.dependents
        if d.via.kind != EdgeKind.DEFINES
    ]

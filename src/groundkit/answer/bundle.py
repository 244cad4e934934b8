"""The evidence bundle: the items a model may explain, numbered, capped and hashed.

Items are document passages in the search's rank order, code-map edges in the order their
builder gives (``answer.code``), or passages then edges; they are numbered from 1. The cap counts
the bytes of each item as it is serialised into the prompt; items are taken in order until the
next one would not fit (in a mixed bundle, the passages stop where the edges' room begins), and
how many were left out is part of the bundle, so truncation is always reported.

A passage the chunk boundary cut inside the code one of its sentences introduces is sent up to
the end of that code, and one that begins with an API entry's description from the entry's name,
read from the stored document (``answer.overrun``): its offsets are then wider than its chunk's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from groundkit.answer.edges import EdgeItem
from groundkit.answer.evidence import StoredText
from groundkit.answer.overrun import read_back, read_on
from groundkit.answer.passages import BundleItem
from groundkit.errors import NotFoundError

if TYPE_CHECKING:
    from groundkit.codemap.model import Edge
    from groundkit.types import Hit

__all__ = [
    "BundleItem",
    "CodeEvidence",
    "EdgeItem",
    "EvidenceBundle",
    "Item",
    "StoredText",
    "build_bundle",
]

Item = BundleItem | EdgeItem  # every kind of evidence item (answer.evidence.EvidenceItem)


@dataclass(frozen=True, slots=True)
class CodeEvidence:
    """An edge chosen to be sent, before it is numbered: why (``role``), and how far and how
    firmly it stands from the symbol (``depth``, ``path_confidence``). A hop of a chain
    (``role`` ``chain``) has its path's number in ``chain`` and its place on it in ``depth``."""

    edge: Edge
    role: str
    depth: int
    path_confidence: float
    chain: int = 0


@dataclass(frozen=True, slots=True)
class EvidenceBundle:
    """What was sent, for which query, and what the size cap left out.

    ``collection`` and ``code_map`` name where the items came from (either may be None);
    ``symbol`` and ``code_scope`` say which walk of the map chose the edges (``grk ask``);
    ``code_found`` counts the edges the walk found before ``--top-k`` and the cap (``grk ask``);
    ``goal`` is where the chains sent lead (``grk ask --to``), None for a walk.
    ``capped_by`` names the setting that set ``max_bytes``: ``answer.max_bundle_bytes``, or
    ``n_ctx`` when an in-process model's context holds less.
    """

    collection: str | None
    query: str
    items: tuple[Item, ...]
    omitted: int
    max_bytes: int
    scope_hash: str
    code_map: str | None = None
    symbol: str | None = None
    code_scope: str | None = None
    code_found: int | None = None
    capped_by: str = "answer.max_bundle_bytes"
    goal: str | None = None

    @property
    def truncated(self) -> bool:
        return self.omitted > 0

    @property
    def passages(self) -> tuple[BundleItem, ...]:
        return tuple(i for i in self.items if isinstance(i, BundleItem))

    @property
    def edges(self) -> tuple[EdgeItem, ...]:
        return tuple(i for i in self.items if isinstance(i, EdgeItem))

    def item(self, number: int) -> Item | None:
        return self.items[number - 1] if 1 <= number <= len(self.items) else None

    def prompt_text(self) -> str:
        return "".join(item.prompt_block() for item in self.items)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "collection": self.collection,
            "query": self.query,
            "scope_hash": self.scope_hash,
            "max_bytes": self.max_bytes,
            "capped_by": self.capped_by,
            "truncated": self.truncated,
            "omitted": self.omitted,
            "items": [item.to_dict() for item in self.items],
        }
        if self.code_map is not None:
            out.update(map=self.code_map, symbol=self.symbol, code_scope=self.code_scope)
            out.update(code_found=self.code_found)
        if self.goal is not None:
            out.update(to=self.goal)
        return out


def build_bundle(
    hits: Sequence[Hit],
    *,
    collection: str | None,
    query: str,
    max_bytes: int,
    capped_by: str = "answer.max_bundle_bytes",
    edges: Sequence[CodeEvidence] = (),
    code_map: str | None = None,
    symbol: str | None = None,
    code_scope: str | None = None,
    code_found: int | None = None,
    goal: str | None = None,
    documents: StoredText | None = None,
) -> EvidenceBundle:
    """Number ``hits`` in rank order, then ``edges`` in the order given, and keep the longest
    prefix of each whose prompt fits ``max_bytes``. When both are given, room for the edges is
    kept first: the passages give way, so that asking for code always sends some. With
    ``documents`` (a document's stored text by its id), a passage cut inside its example is
    sent to the example's end, and one cut from the API name it describes from that name."""
    passages = [_passage(h, documents) for h in sorted(hits, key=lambda h: h.rank)]
    coded = [_edge(e) for e in edges]
    room = sum(_size(make(len(passages) + 1)) for make in coded) if passages and coded else 0
    items: list[Item] = []
    used = 0
    for makers, limit in ((passages, max(max_bytes - room, 0)), (coded, max_bytes)):
        for make in makers:
            item = make(len(items) + 1)
            if used + _size(item) > limit:
                break
            items.append(item)
            used += _size(item)
    omitted = len(passages) + len(coded) - len(items)
    scope = _scope(collection, code_map, query, items)
    return EvidenceBundle(
        collection,
        query,
        tuple(items),
        omitted,
        max_bytes,
        scope,
        code_map,
        symbol,
        code_scope,
        code_found,
        capped_by,
        goal,
    )


def _size(item: Item) -> int:
    return len(item.prompt_block().encode("utf-8", "surrogatepass"))


def _passage(hit: Hit, documents: StoredText | None) -> Callable[[int], Item]:
    c = hit.citation
    dense = hit.ranks.get("dense")
    text, start, end, line = hit.text, c.start, c.end, c.line
    if documents is not None:
        text, start, end, line = _widened(hit, documents)
    return lambda n: BundleItem(
        n, c.chunk_id, c.document_id, c.source, start, end, text, line, dense
    )


def _widened(hit: Hit, documents: StoredText) -> tuple[str, int, int, int | None]:
    """The passage's text, offsets and first line, read back to the API name it describes and
    on to the end of the code it introduces (``answer.overrun``)."""
    c = hit.citation
    as_found = hit.text, c.start, c.end, c.line
    try:
        document = documents(c.document_id)
    except NotFoundError:  # deleted since the search: it is sent as found, and refused if cited
        return as_found
    if document[c.start : c.end] != hit.text:  # changed since the search: as found
        return as_found
    start = read_back(document, c.start, c.end)
    end = read_on(document, c.start, c.end)
    line = None if c.line is None else c.line - document.count("\n", start, c.start)
    return document[start:end], start, end, line


def _edge(found: CodeEvidence) -> Callable[[int], Item]:
    return lambda n: EdgeItem(
        n, found.edge, found.role, found.depth, found.path_confidence, found.chain
    )


def _scope(collection: str | None, code_map: str | None, query: str, items: Sequence[Item]) -> str:
    """A hash over the canonical JSON of what was sent: same sources, query and items (each by
    its identity and a digest of its text), same hash. A bundle of passages alone hashes as it
    always has."""
    rows = [item.scope_row() for item in items]
    head: list[Any] = [collection] if code_map is None else [collection, {"map": code_map}]
    canon = json.dumps([*head, query, rows], ensure_ascii=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canon.encode("ascii")).hexdigest()

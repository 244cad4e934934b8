"""The evidence bundle: the ranked hits a model may explain, numbered, capped and hashed.

Items keep the search's rank order and are numbered from 1. The cap counts the bytes of each item
as it is serialised into the prompt; items are taken in order until the next one would not fit,
and how many were left out is part of the bundle, so truncation is always reported.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from groundkit.types import Hit

__all__ = ["BundleItem", "EvidenceBundle", "build_bundle"]


@dataclass(frozen=True, slots=True)
class BundleItem:
    """One numbered passage. ``text`` is exactly what the model is shown."""

    number: int
    chunk_id: str
    document_id: str
    source: str
    start: int
    end: int
    text: str

    def prompt_block(self) -> str:
        # Only the number and the text go to a model, never the source path or ids. The text is
        # raw, not JSON-escaped: redaction then sees values as the store holds them.
        return f'<source id="{self.number}">\n{self.text}\n</source>\n'

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "chunk_id": self.chunk_id,
            "document_id": self.document_id,
            "source": self.source,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class EvidenceBundle:
    """What was sent, for which query, and what the size cap left out."""

    collection: str
    query: str
    items: tuple[BundleItem, ...]
    omitted: int
    max_bytes: int
    scope_hash: str

    @property
    def truncated(self) -> bool:
        return self.omitted > 0

    def item(self, number: int) -> BundleItem | None:
        return self.items[number - 1] if 1 <= number <= len(self.items) else None

    def prompt_text(self) -> str:
        return "".join(item.prompt_block() for item in self.items)

    def to_dict(self) -> dict[str, Any]:
        return {
            "collection": self.collection,
            "query": self.query,
            "scope_hash": self.scope_hash,
            "max_bytes": self.max_bytes,
            "truncated": self.truncated,
            "omitted": self.omitted,
            "items": [item.to_dict() for item in self.items],
        }


def build_bundle(
    hits: Sequence[Hit], *, collection: str, query: str, max_bytes: int
) -> EvidenceBundle:
    """Number ``hits`` in rank order and keep the longest prefix whose prompt fits ``max_bytes``."""
    items: list[BundleItem] = []
    used = 0
    for hit in sorted(hits, key=lambda h: h.rank):
        c = hit.citation
        item = BundleItem(
            len(items) + 1, c.chunk_id, c.document_id, c.source, c.start, c.end, hit.text
        )
        size = len(item.prompt_block().encode("utf-8", "surrogatepass"))
        if used + size > max_bytes:
            break
        items.append(item)
        used += size
    return EvidenceBundle(
        collection,
        query,
        tuple(items),
        len(hits) - len(items),
        max_bytes,
        _scope(collection, query, items),
    )


def _scope(collection: str, query: str, items: Sequence[BundleItem]) -> str:
    """A hash naming exactly this evidence: same collection, query and passages, same hash."""
    rows = [
        [
            i.chunk_id,
            i.start,
            i.end,
            hashlib.sha256(i.text.encode("utf-8", "surrogatepass")).hexdigest(),
        ]
        for i in items
    ]
    canon = json.dumps([collection, query, rows], ensure_ascii=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canon.encode("ascii")).hexdigest()

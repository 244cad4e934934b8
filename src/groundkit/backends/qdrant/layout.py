"""How a groundkit collection lies in a Qdrant collection: points, payload fields, versions.

One Qdrant collection holds everything, each point marked by ``kind``:

* ``chunk``: a chunk, with its sparse BM25 vector (``bm25``) and, once embedded, its dense vector
  (``dense``); its payload is what a hit shows (text, offsets, lines, document id, metadata,
  near-duplicate fingerprint, and under ``shown`` its document's source, path and external id)
  and what filters read (``meta``: the document's metadata overlaid with the chunk's,
  ``document_id``, ``doc``);
* ``doc``: a document with its whole normalised text (every citation cuts ``cited_text`` from
  it) and what an incremental ingest compares (origin, content hash, fingerprint);
* ``file``: a file's size and time when it was last read whole (a re-ingest passes it unread);
* ``meta`` (id 1): the schema version, the embedder, the analyzer, the frozen avgdl, and the
  last committed version ``committed``; ``lock`` (id 2): the one writer's lease.

Versions make an ingest visible all at once, without transactions. A write run takes version
``S = committed + 1``: it writes new points with ``born = S`` (invisible), then marks the points
it replaces or deletes with ``died = S``, then sets ``committed = S`` on the meta point, one
point's update, which Qdrant applies whole. Every read keeps the points with
``born <= committed < died``, so it sees the collection before the run or after it, never a
document half-written or twice. Points with ``died <= committed`` are collected afterwards.
Point ids are hashes of what the point is (a chunk id already names its document's content),
so writing a point again is the same write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundkit.backends.qdrant import vocab as models

__all__ = [
    "DENSE",
    "LOCK_ID",
    "META_ID",
    "NEVER",
    "PAYLOAD_INDEXES",
    "SCHEMA",
    "SHOWN",
    "SPARSE",
    "born_at",
    "chunk_point_id",
    "chunk_shown",
    "doc_point_id",
    "file_point_id",
    "shown_field",
    "visible",
]

SCHEMA = 1  # the layout's version; a collection of another is refused (backend.schema_mismatch)
META_ID = 1
LOCK_ID = 2
_FIRST_HASHED = 16  # ids below are kept for records like the two above
NEVER = 2**53  # "died" of a current point: exact as a float, as Qdrant's range filters compare
DENSE = "dense"
SPARSE = "bm25"
# The payload fields filters read, each with the one index its filters need: ``keyword`` (match
# a text), ``range`` (compare an integer), ``lookup`` (match an integer). No other field has one:
# a search opens every index (qdrant-edge rebuilds an appendable segment's indexes each time a
# process opens the shard), so an index no filter reads only slows every search (``origin``
# and ``chunk_id`` are read only from points found by id or by another field).
PAYLOAD_INDEXES: dict[str, str] = {
    "kind": "keyword",
    "born": "range",
    "died": "range",
    "doc": "lookup",
    "document_id": "keyword",
    "source": "keyword",
    "path": "keyword",
    "external_id": "keyword",
}
# A chunk keeps its document's source, path and external id (what its hits show) under this key,
# where no index reaches them: only documents are looked up by them, and an index of a field
# holds every point that has it (in a SciFact shard, two chunks for each document), which each
# opening of a `path` shard rebuilds. A chunk written before keeps them at the top level.
SHOWN = "shown"
_SHOWN_FIELDS = ("source", "path", "external_id")


def chunk_shown(document: Mapping[str, Any]) -> dict[str, Any]:
    """What a chunk's payload keeps of its ``document``'s fields (``document_id``, ``source``,
    ``path``, ``external_id``): the id at the top level, where a filter reads it, and the rest
    under ``SHOWN``."""
    return {
        "document_id": document["document_id"],
        SHOWN: {field: document[field] for field in _SHOWN_FIELDS},
    }


def shown_field(payload: Mapping[str, Any], field: str) -> Any:
    """A shown field of a chunk point's ``payload``, wherever the writer that made it put it."""
    nested = payload.get(SHOWN)
    if isinstance(nested, Mapping) and field in nested:
        return nested[field]
    return payload.get(field)


def _hashed(kind: str, key: str) -> int:
    digest = hashlib.blake2b(f"{kind}\0{key}".encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "big") >> 1  # 63 bits: a signed 64-bit payload holds it
    return value if value >= _FIRST_HASHED else value + _FIRST_HASHED


def chunk_point_id(chunk_id: str) -> int:
    return _hashed("chunk", chunk_id)


def doc_point_id(document_id: str, fingerprint: str) -> int:
    """A document's point: one per content (its fingerprint), so a new version is a new
    point beside the old until the old one dies."""
    return _hashed("doc", f"{document_id}\0{fingerprint}")


def file_point_id(origin: str, size: int, mtime_ns: int, settings: str) -> int:
    return _hashed("file", f"{origin}\0{size}\0{mtime_ns}\0{settings}")


def visible(committed: int, kind: str, *more: Any) -> models.Filter:
    """Points of ``kind`` current at version ``committed`` (and matching ``more`` conditions)."""
    from groundkit.backends.qdrant import vocab as models

    return models.Filter(
        must=[
            models.FieldCondition(key="kind", match=models.MatchValue(value=kind)),
            models.FieldCondition(key="born", range=models.Range(lte=committed)),
            models.FieldCondition(key="died", range=models.Range(gt=committed)),
            *more,
        ]
    )


def born_at(version: int) -> models.Filter:
    """Points a run of ``version`` wrote (whatever their kind)."""
    from groundkit.backends.qdrant import vocab as models

    return models.Filter(
        must=[models.FieldCondition(key="born", range=models.Range(gte=version, lte=version))]
    )

"""The meta point of a Qdrant collection (``layout.META_ID``): its schema, analyzer, frozen avgdl,
embedder, dense size, and the last committed version. Read fresh by every search and read
(``committed``), so that what another process committed is seen at once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from groundkit.backends.qdrant.layout import META_ID, SCHEMA
from groundkit.backends.qdrant.sparse import SPARSE_BUILD
from groundkit.backends.qdrant.transport import Transport
from groundkit.errors import BackendError, ErrorCode

__all__ = ["Meta", "new_meta", "read_meta"]


@dataclass(frozen=True, slots=True)
class Meta:
    committed: int
    analyzer: str
    avgdl: float | None
    embedder: str | None
    dense: int | None  # the dense vector's size, once it exists
    commits: dict[str, float]  # recent versions -> when each was committed (unix time)
    # Counted by the writer as it commits (vectors: kept as it adds them), so reads scan nothing.
    documents: int = 0
    chunks: int = 0
    vectors: int = 0

    @classmethod
    def of(cls, payload: dict[str, Any]) -> Meta:
        avgdl = payload.get("avgdl")
        dense = payload.get("dense")
        return cls(
            int(payload.get("committed", 0)),
            str(payload.get("analyzer", "")),
            None if avgdl is None else float(avgdl),
            payload.get("embedder"),
            None if dense is None else int(dense),
            {str(k): float(v) for k, v in (payload.get("commits") or {}).items()},
            int(payload.get("documents") or 0),
            int(payload.get("chunks") or 0),
            int(payload.get("vectors") or 0),
        )


def new_meta() -> dict[str, Any]:
    return {
        "kind": "meta",
        "schema": SCHEMA,
        "committed": 0,
        "analyzer": SPARSE_BUILD,
        "avgdl": None,
        "embedder": None,
        "dense": None,
        "commits": {},
        "documents": 0,
        "chunks": 0,
        "vectors": 0,
    }


def read_meta(transport: Transport) -> Meta:
    """The meta point; ``backend.schema_mismatch`` for a collection groundkit did not lay out,
    or laid out by another version of this layout."""
    found = transport.retrieve([META_ID])
    payload = found[0].payload if found else {}
    if payload.get("kind") != "meta":
        raise BackendError(
            ErrorCode.BACKEND_SCHEMA,
            f"the Qdrant collection {transport.name!r} was not made by groundkit",
            hint="name another collection in remote_name, or delete that one first",
        )
    if payload.get("schema") != SCHEMA:
        raise BackendError(
            ErrorCode.BACKEND_SCHEMA,
            f"the Qdrant collection {transport.name!r} has layout {payload.get('schema')!r};"
            f" this groundkit reads layout {SCHEMA}",
            hint="use the groundkit version that made it, or migrate into a new collection",
        )
    return Meta.of(payload)

"""The part of Qdrant's request vocabulary the backend uses, as plain frozen values.

Names and fields are ``qdrant_client.models``'s, so a request reads the same either way; but
importing qdrant-client builds ~600 pydantic models (1-2 s of a CLI command), and Qdrant's engine
in the process (``edge.EdgeTransport``) never needs them. ``ClientTransport`` turns these values
into qdrant-client's with ``to_client`` as a request leaves; ``EdgeTransport`` into the engine's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Condition",
    "FieldCondition",
    "Filter",
    "HasIdCondition",
    "HasVectorCondition",
    "IdfCorpusParams",
    "IsEmptyCondition",
    "MatchAny",
    "MatchValue",
    "PayloadField",
    "PointStruct",
    "PointVectors",
    "Prefetch",
    "QueryRequest",
    "Range",
    "Rrf",
    "RrfQuery",
    "SearchParams",
    "SparseVector",
    "to_client",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchValue:
    value: str | int | bool


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchAny:
    any: list[str] | list[int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Range:
    gt: float | None = None
    gte: float | None = None
    lt: float | None = None
    lte: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldCondition:
    key: str
    match: MatchValue | MatchAny | None = None
    range: Range | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PayloadField:
    key: str


@dataclass(frozen=True, slots=True, kw_only=True)
class IsEmptyCondition:
    is_empty: PayloadField


@dataclass(frozen=True, slots=True, kw_only=True)
class HasIdCondition:
    has_id: list[int]


@dataclass(frozen=True, slots=True, kw_only=True)
class HasVectorCondition:
    has_vector: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Filter:
    must: list[Condition] | None = None
    should: list[Condition] | None = None
    must_not: list[Condition] | None = None


Condition = FieldCondition | IsEmptyCondition | HasIdCondition | HasVectorCondition | Filter


@dataclass(frozen=True, slots=True, kw_only=True)
class SparseVector:
    indices: list[int]
    values: list[float]


@dataclass(frozen=True, slots=True, kw_only=True)
class PointStruct:
    id: int
    vector: Mapping[str, SparseVector | list[float]]
    payload: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PointVectors:
    id: int
    vector: Mapping[str, SparseVector | list[float]]


@dataclass(frozen=True, slots=True, kw_only=True)
class IdfCorpusParams:
    corpus: Filter


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchParams:
    idf: IdfCorpusParams | None = None
    exact: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Rrf:
    k: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RrfQuery:
    rrf: Rrf


@dataclass(frozen=True, slots=True, kw_only=True)
class Prefetch:
    query: SparseVector | list[float] | RrfQuery
    using: str | None = None
    limit: int | None = None
    filter: Filter | None = None
    params: SearchParams | None = None
    prefetch: list[Prefetch] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class QueryRequest(Prefetch):
    with_payload: bool | list[str] | None = None


def to_client(value: Any) -> Any:
    """``value`` with every value of this module made the ``qdrant_client.models`` class of the
    same name (fields unset here are left unset there)."""
    if isinstance(value, list):
        return [to_client(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_client(v) for k, v in value.items()}
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    from qdrant_client import models

    given = {
        f.name: to_client(getattr(value, f.name))
        for f in dataclasses.fields(value)
        if getattr(value, f.name) is not None or f.default is dataclasses.MISSING
    }
    return getattr(models, type(value).__name__)(**given)

"""The part of Qdrant's request vocabulary the backend uses, as plain frozen values.

Names and fields are ``qdrant_client.models``'s, so a request reads the same either way; but
importing qdrant-client builds ~600 pydantic models (1-2 s of a CLI command), and Qdrant's engine
in the process (``edge.EdgeTransport``) never needs them. (msgspec structs, not dataclasses:
defining twenty dataclasses took 55 ms of each command.) ``ClientTransport`` turns these values
into qdrant-client's with ``to_client`` as a request leaves; ``EdgeTransport`` into the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

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


class _Value(msgspec.Struct, frozen=True, kw_only=True):
    """A request value: immutable, built by keyword, as qdrant-client's are."""


class MatchValue(_Value, frozen=True, kw_only=True):
    value: str | int | bool


class MatchAny(_Value, frozen=True, kw_only=True):
    any: list[str] | list[int]


class Range(_Value, frozen=True, kw_only=True):
    gt: float | None = None
    gte: float | None = None
    lt: float | None = None
    lte: float | None = None


class FieldCondition(_Value, frozen=True, kw_only=True):
    key: str
    match: MatchValue | MatchAny | None = None
    range: Range | None = None


class PayloadField(_Value, frozen=True, kw_only=True):
    key: str


class IsEmptyCondition(_Value, frozen=True, kw_only=True):
    is_empty: PayloadField


class HasIdCondition(_Value, frozen=True, kw_only=True):
    has_id: list[int]


class HasVectorCondition(_Value, frozen=True, kw_only=True):
    has_vector: str


class Filter(_Value, frozen=True, kw_only=True):
    must: list[Condition] | None = None
    should: list[Condition] | None = None
    must_not: list[Condition] | None = None


Condition = FieldCondition | IsEmptyCondition | HasIdCondition | HasVectorCondition | Filter


class SparseVector(_Value, frozen=True, kw_only=True):
    indices: list[int]
    values: list[float]


class PointStruct(_Value, frozen=True, kw_only=True):
    id: int
    vector: Mapping[str, SparseVector | list[float]]
    payload: dict[str, Any] | None = None


class PointVectors(_Value, frozen=True, kw_only=True):
    id: int
    vector: Mapping[str, SparseVector | list[float]]


class IdfCorpusParams(_Value, frozen=True, kw_only=True):
    corpus: Filter


class SearchParams(_Value, frozen=True, kw_only=True):
    idf: IdfCorpusParams | None = None
    exact: bool | None = None


class Rrf(_Value, frozen=True, kw_only=True):
    k: int | None = None


class RrfQuery(_Value, frozen=True, kw_only=True):
    rrf: Rrf


class Prefetch(_Value, frozen=True, kw_only=True):
    query: SparseVector | list[float] | RrfQuery
    using: str | None = None
    limit: int | None = None
    filter: Filter | None = None
    params: SearchParams | None = None
    prefetch: list[Prefetch] | None = None


class QueryRequest(Prefetch, frozen=True, kw_only=True):
    with_payload: bool | list[str] | None = None


def to_client(value: Any) -> Any:
    """``value`` with every value of this module made the ``qdrant_client.models`` class of the
    same name (fields unset here are left unset there)."""
    if isinstance(value, list):
        return [to_client(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_client(v) for k, v in value.items()}
    if not isinstance(value, _Value):
        return value
    from qdrant_client import models

    given = {
        name: to_client(getattr(value, name))
        for name in value.__struct_fields__
        if getattr(value, name) is not None
    }
    return getattr(models, type(value).__name__)(**given)

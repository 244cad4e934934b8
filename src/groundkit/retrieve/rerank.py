"""The optional cross-encoder stage: rescore the fused top-N with a (query, passage) model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from groundkit.config import RerankConfig
from groundkit.errors import ErrorCode, UsageError

__all__ = ["Reranker", "load_reranker"]


@runtime_checkable
class Reranker(Protocol):
    @property
    def name(self) -> str: ...

    def score(self, query: str, passages: Sequence[str]) -> Sequence[float]:
        """One relevance score per passage; higher is more relevant."""
        ...


def load_reranker(config: RerankConfig) -> Reranker:
    """The configured cross-encoder. Asking to rerank with none configured is an error, never a
    silent no-op."""
    if not config.model:
        raise UsageError(
            ErrorCode.RERANK_NOT_CONFIGURED,
            "reranking was asked for, but no rerank.model is configured",
            hint="set rerank.model (a local path or an installed package) or drop --rerank",
        )
    # Loaded here: the cross-encoder needs numpy, which a bm25 search never loads.
    from groundkit.retrieve.cross_encoder import load_cross_encoder

    return load_cross_encoder(config.model)

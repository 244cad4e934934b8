"""Ranking metrics, as pure functions over one query's ranked ids and its judgments.

``ranked`` is a system's ids in rank order (chunk ids, or document ids after ``collapse``);
``qrels`` maps an id to its graded relevance, where only a grade above zero counts as relevant.
Every ``@k`` metric reads the first ``k`` ids and nothing after them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "collapse",
    "hit_rate_at",
    "mrr_at",
    "ndcg_at",
    "percentile",
    "set_recall_at",
]

Qrels = Mapping[str, int]


def collapse(ids: Iterable[str]) -> list[str]:
    """Ids in rank order, each kept at its first (best) rank: how chunk hits become a document
    ranking, as BEIR scores it."""
    return list(dict.fromkeys(ids))


def _relevant(qrels: Qrels) -> set[str]:
    return {key for key, grade in qrels.items() if grade > 0}


def hit_rate_at(ranked: Sequence[str], qrels: Qrels, k: int) -> float:
    """1.0 when any of the first ``k`` is relevant, else 0.0 (averaged over queries: hit rate)."""
    relevant = _relevant(qrels)
    return 1.0 if any(key in relevant for key in ranked[:k]) else 0.0


def set_recall_at(ranked: Sequence[str], qrels: Qrels, k: int) -> float:
    """The share of all relevant ids found in the first ``k``; a query with several valid
    answers scores 1.0 only when every one of them is there."""
    relevant = _relevant(qrels)
    if not relevant:
        raise ValueError("set recall is undefined for a query with nothing relevant")
    return len(relevant.intersection(ranked[:k])) / len(relevant)


def mrr_at(ranked: Sequence[str], qrels: Qrels, k: int = 10) -> float:
    """Reciprocal rank of the first relevant id, 0.0 when none is in the first ``k``."""
    relevant = _relevant(qrels)
    return next((1.0 / rank for rank, key in enumerate(ranked[:k], 1) if key in relevant), 0.0)


def ndcg_at(ranked: Sequence[str], qrels: Qrels, k: int = 10, *, graded: bool = True) -> float:
    """nDCG@k with linear gain (the grade, or 1 per relevant id when not ``graded``) and a
    log2(rank + 1) discount; the ideal ranking is built from ``qrels``, as trec_eval does."""

    def gain(grade: int) -> float:
        return float(grade if graded else 1) if grade > 0 else 0.0

    dcg = sum(
        gain(qrels.get(key, 0)) / math.log2(rank + 1) for rank, key in enumerate(ranked[:k], 1)
    )
    ideal = sorted((gain(g) for g in qrels.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(rank + 1) for rank, g in enumerate(ideal, 1))
    if idcg == 0:
        raise ValueError("nDCG is undefined for a query with nothing relevant")
    return dcg / idcg


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile: a value that was really observed, never an interpolation."""
    if not values:
        raise ValueError("no values")
    if not 0 < p <= 100:
        raise ValueError("p must be in (0, 100]")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]

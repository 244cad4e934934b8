"""Reciprocal-rank fusion: a pure function over ranked lists."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["rrf"]


def rrf(arms: Mapping[str, Sequence[int]], k: int = 60) -> list[tuple[int, float]]:
    """Fuse ranked id lists: each id scores the sum of ``1 / (k + rank)`` over the arms holding it.

    Ties keep the order of first appearance, arm by arm, so the result is deterministic.
    """
    scores: dict[int, float] = {}
    for ranked in arms.values():
        for rank, item in enumerate(ranked, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])

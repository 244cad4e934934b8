from __future__ import annotations

import pytest

from groundkit.retrieve.fusion import rrf


def test_rrf_sums_reciprocal_ranks_across_arms() -> None:
    fused = rrf({"bm25": [1, 2, 3], "dense": [3, 1]}, k=60)
    scores = dict(fused)
    assert scores[1] == pytest.approx(1 / 61 + 1 / 62)
    assert scores[3] == pytest.approx(1 / 63 + 1 / 61)
    assert scores[2] == pytest.approx(1 / 62)
    assert [item for item, _ in fused] == [1, 3, 2]


def test_rrf_breaks_ties_by_first_appearance() -> None:
    assert [item for item, _ in rrf({"a": [7, 8], "b": [8, 7]}, k=1)] == [7, 8]


def test_rrf_of_nothing_is_nothing() -> None:
    assert rrf({"bm25": [], "dense": []}) == []

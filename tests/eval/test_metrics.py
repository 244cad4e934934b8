"""The ranking metrics, against cases worked by hand and against trec_eval (pytrec_eval)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundkit.eval.metrics import (
    collapse,
    hit_rate_at,
    mrr_at,
    ndcg_at,
    percentile,
    set_recall_at,
)

pytrec_eval = pytest.importorskip("pytrec_eval")

# Ranking x, a, y, b; a is graded 2, b graded 1, z relevant but never retrieved... (z: grade 0)
RANKED = ["x", "a", "y", "b"]
QRELS = {"a": 2, "b": 1, "z": 0}


def test_graded_ndcg_matches_the_hand_computed_value() -> None:
    # DCG = 2/log2(3) + 1/log2(5) = 1.692536; IDCG = 2/log2(2) + 1/log2(3) = 2.630930.
    assert ndcg_at(RANKED, QRELS, 10) == pytest.approx(1.692536 / 2.630930, abs=1e-6)


def test_binary_ndcg_counts_every_relevant_id_as_one() -> None:
    # DCG = 1/log2(3) + 1/log2(5) = 1.061606; IDCG = 1 + 1/log2(3) = 1.630930.
    assert ndcg_at(RANKED, QRELS, 10, graded=False) == pytest.approx(1.061606 / 1.630930, abs=1e-6)


def test_ndcg_reads_only_the_first_k() -> None:
    # At k = 2 only a is seen: DCG = 2/log2(3); IDCG = 2 + 1/log2(3).
    assert ndcg_at(RANKED, QRELS, 2) == pytest.approx((2 / math.log2(3)) / (2 + 1 / math.log2(3)))


def test_hit_rate_and_set_recall_differ_when_a_query_has_two_answers() -> None:
    assert hit_rate_at(RANKED, QRELS, 2) == 1.0
    assert set_recall_at(RANKED, QRELS, 2) == 0.5
    assert set_recall_at(RANKED, QRELS, 4) == 1.0
    assert hit_rate_at(RANKED, QRELS, 1) == 0.0


def test_mrr_is_cut_at_ten() -> None:
    ranked = [f"n{i}" for i in range(10)] + ["a"]
    assert mrr_at(ranked, QRELS, 10) == 0.0
    assert mrr_at(ranked, QRELS, 11) == pytest.approx(1 / 11)
    assert mrr_at(RANKED, QRELS) == 0.5


def test_grade_zero_is_not_relevant() -> None:
    assert hit_rate_at(["z"], QRELS, 1) == 0.0
    assert mrr_at(["z"], QRELS) == 0.0


def test_metrics_refuse_a_query_with_nothing_relevant() -> None:
    with pytest.raises(ValueError, match="undefined"):
        ndcg_at(["a"], {"a": 0}, 10)
    with pytest.raises(ValueError, match="undefined"):
        set_recall_at(["a"], {}, 10)


def test_collapse_keeps_each_document_at_its_best_rank() -> None:
    assert collapse(["d2", "d1", "d2", "d3", "d1"]) == ["d2", "d1", "d3"]


def test_percentile_is_an_observed_value() -> None:
    values = [5.0, 1.0, 3.0, 2.0, 4.0]
    assert percentile(values, 50) == 3.0
    assert percentile(values, 95) == 5.0
    assert percentile(values, 20) == 1.0
    with pytest.raises(ValueError, match="no values"):
        percentile([], 50)


def trec(ranked: list[str], qrels: dict[str, int], measures: set[str]) -> dict[str, float]:
    """pytrec_eval's scores for one ranking; scores fall with rank so trec_eval keeps our order."""
    run = {"q": {doc: float(len(ranked) - i) for i, doc in enumerate(ranked)}}
    scores: dict[str, float] = pytrec_eval.RelevanceEvaluator({"q": qrels}, measures).evaluate(run)
    return scores["q"]  # type: ignore[return-value]


def assert_agrees_with_trec_eval(ranked: list[str], qrels: dict[str, int]) -> None:
    got = trec(ranked[:10], qrels, {"ndcg_cut.10", "recall.1,5,10", "recip_rank", "success.1,5,10"})
    assert ndcg_at(ranked, qrels, 10) == pytest.approx(got["ndcg_cut_10"], abs=1e-9)
    assert mrr_at(ranked, qrels, 10) == pytest.approx(got["recip_rank"], abs=1e-9)
    for k in (1, 5, 10):
        assert set_recall_at(ranked, qrels, k) == pytest.approx(got[f"recall_{k}"], abs=1e-9)
        assert hit_rate_at(ranked, qrels, k) == pytest.approx(got[f"success_{k}"], abs=1e-9)
    binary = {d: 1 if g > 0 else 0 for d, g in qrels.items()}
    got = trec(ranked[:10], binary, {"ndcg_cut.10"})
    assert ndcg_at(ranked, qrels, 10, graded=False) == pytest.approx(got["ndcg_cut_10"], abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(
    ranked=st.lists(st.sampled_from([f"d{i}" for i in range(25)]), max_size=30, unique=True),
    qrels=st.dictionaries(
        st.sampled_from([f"d{i}" for i in range(25)]), st.integers(0, 3), min_size=1
    ).filter(lambda q: any(g > 0 for g in q.values())),
)
def test_every_metric_agrees_with_trec_eval_on_random_rankings(
    ranked: list[str], qrels: dict[str, int]
) -> None:
    assert_agrees_with_trec_eval(ranked, qrels)

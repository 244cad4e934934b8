"""The stage runner on real collections, its scores re-checked by trec_eval."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundkit.config import RerankConfig, Settings
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.eval.datasets import golden_corpus, load_golden
from groundkit.eval.runner import run_eval
from groundkit.testing import FakeEmbedder, write_tiny_cross_encoder

pytrec_eval = pytest.importorskip("pytrec_eval")
GOLDEN = golden_corpus()


def test_every_score_of_a_real_golden_run_agrees_with_trec_eval(tmp_path: Path) -> None:
    dataset = load_golden(GOLDEN)
    run = run_eval(dataset, Settings(), tmp_path / "work", embedder=FakeEmbedder())
    assert [s.stage for s in run.stages] == ["bm25", "dense", "hybrid"]
    measures = {"ndcg_cut.10", "recall.1,5,10", "recip_rank", "success.1,5,10"}
    checked = 0
    for stage in run.stages:
        for level in dataset.levels:
            qrels = run.judgments.qrels[level]
            trec_run = {
                q.query_id: {key: 10.0 - i for i, key in enumerate(q.ranked[level])}
                for q in stage.queries
                if q.query_id in qrels
            }
            expected = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(trec_run)
            for q in stage.queries:
                if q.query_id not in qrels:
                    assert level not in q.metrics
                    continue
                want, got = expected[q.query_id], q.metrics[level]
                assert got["ndcg@10"] == pytest.approx(want["ndcg_cut_10"], abs=1e-9)
                assert got["mrr@10"] == pytest.approx(want["recip_rank"], abs=1e-9)
                for k in (1, 5, 10):
                    assert got[f"set_recall@{k}"] == pytest.approx(want[f"recall_{k}"], abs=1e-9)
                    assert got[f"hit_rate@{k}"] == pytest.approx(want[f"success_{k}"], abs=1e-9)
                checked += 1
    assert checked > 3 * 2 * 60


def test_without_an_embedder_only_bm25_runs(small_golden: Path, tmp_path: Path) -> None:
    run = run_eval(load_golden(small_golden), Settings(), tmp_path / "work")
    assert [s.stage for s in run.stages] == ["bm25"]
    assert set(run.skipped) == {"dense", "hybrid", "rerank"}


def test_asking_for_one_stage_still_runs_the_baseline(small_golden: Path, tmp_path: Path) -> None:
    run = run_eval(
        load_golden(small_golden),
        Settings(),
        tmp_path / "w",
        embedder=FakeEmbedder(),
        stages=["dense"],
    )
    assert [s.stage for s in run.stages] == ["bm25", "dense"]


def test_the_rerank_stage_runs_with_a_configured_cross_encoder(
    small_golden: Path, tmp_path: Path
) -> None:
    model = write_tiny_cross_encoder(tmp_path / "ce")
    settings = Settings(rerank=RerankConfig(model=str(model)))
    run = run_eval(load_golden(small_golden), settings, tmp_path / "w", embedder=FakeEmbedder())
    assert [s.stage for s in run.stages] == ["bm25", "dense", "hybrid", "rerank"]


def test_an_unknown_stage_is_refused(small_golden: Path, tmp_path: Path) -> None:
    with pytest.raises(GroundkitError) as caught:
        run_eval(load_golden(small_golden), Settings(), tmp_path / "w", stages=["magic"])
    assert caught.value.code == ErrorCode.USAGE


def test_a_kept_work_dir_is_reused_without_reingesting(small_golden: Path, tmp_path: Path) -> None:
    dataset = load_golden(small_golden)
    first = run_eval(dataset, Settings(), tmp_path / "w")
    second = run_eval(dataset, Settings(), tmp_path / "w")
    assert first.status.documents == second.status.documents == 3
    assert [q.ranked for q in first.stages[0].queries] == [
        q.ranked for q in second.stages[0].queries
    ]

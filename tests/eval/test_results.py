"""The run report and the regression gate."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from groundkit.config import Settings
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.eval.datasets import load_golden
from groundkit.eval.results import GATED, SCHEMA, build_report, compare, read_report, write_report
from groundkit.eval.runner import run_eval
from groundkit.testing import FakeEmbedder


@pytest.fixture
def report(small_golden: Path, tmp_path: Path) -> dict[str, Any]:
    run = run_eval(
        load_golden(small_golden), Settings(), tmp_path / "work", embedder=FakeEmbedder()
    )
    return build_report(run, Settings())


def sabotage(report: dict[str, Any], stage: str) -> dict[str, Any]:
    """The same run, but with every answerable query of ``stage`` scoring zero."""
    worse = copy.deepcopy(report)
    for query in worse["queries"]:
        for scores in query["stages"][stage]["metrics"].values():
            for metric in scores:
                scores[metric] = 0.0
    return worse


def test_the_report_names_its_data_code_and_config(report: dict[str, Any]) -> None:
    assert report["schema"] == SCHEMA
    assert report["dataset"]["kind"] == "golden"
    assert len(report["dataset"]["hash"]) == 64
    assert report["code"]["groundkit"]
    assert report["config"]["stages"] == ["bm25", "dense", "hybrid"]
    assert report["config"]["skipped"] == {"rerank": "rerank.model is not configured"}
    assert report["dataset"]["categories"] == {"factual": 4, "paraphrase": 2, "no_answer": 1}


def test_each_stage_but_the_baseline_is_compared_with_bm25(report: dict[str, Any]) -> None:
    assert "versus_baseline" not in report["stages"]["bm25"]
    delta = report["stages"]["dense"]["versus_baseline"]["chunk"]["ndcg@10"]
    dense = report["stages"]["dense"]["metrics"]["chunk"]["ndcg@10"]
    bm25 = report["stages"]["bm25"]["metrics"]["chunk"]["ndcg@10"]
    assert delta["delta"] == pytest.approx(dense - bm25)
    assert delta["low"] <= delta["delta"] <= delta["high"]
    assert report["stages"]["dense"]["verdict"] == delta["verdict"]


def test_no_answer_queries_count_towards_abstention_not_ranking(report: dict[str, Any]) -> None:
    q7 = next(q for q in report["queries"] if q["id"] == "q7")
    assert q7["stages"]["bm25"]["metrics"] == {}
    abstention = report["stages"]["bm25"]["abstention"]
    assert abstention["no_answer_queries"] == 1
    assert abstention["abstention_rate"] == float(q7["stages"]["bm25"]["abstained"])


def test_a_run_compared_with_itself_has_no_regression(report: dict[str, Any]) -> None:
    rows = compare(report, report)
    assert len(rows) == 3 * 2 * len(GATED)  # stages x levels x gated metrics
    assert not any(r.regressed for r in rows)


def test_a_metric_below_the_baseline_beyond_its_interval_is_a_regression(
    report: dict[str, Any],
) -> None:
    rows = compare(sabotage(report, "dense"), report)
    regressed = {(r.stage, r.metric) for r in rows if r.regressed}
    assert ("dense", "ndcg@10") in regressed
    assert not any(stage == "bm25" for stage, _ in regressed)


def test_a_better_run_is_not_a_regression(report: dict[str, Any]) -> None:
    assert not any(r.regressed for r in compare(report, sabotage(report, "dense")))


def test_a_stage_missing_from_the_new_run_is_a_regression(report: dict[str, Any]) -> None:
    current = copy.deepcopy(report)
    del current["stages"]["hybrid"]
    missing = [r for r in compare(current, report) if r.stage == "hybrid"]
    assert missing
    assert all(r.regressed and r.delta is None for r in missing)


def test_runs_of_different_data_cannot_be_compared(report: dict[str, Any]) -> None:
    other = copy.deepcopy(report)
    other["dataset"]["hash"] = "0" * 64
    with pytest.raises(GroundkitError) as caught:
        compare(report, other)
    assert caught.value.code == ErrorCode.EVAL_INCOMPARABLE


def test_the_report_survives_a_round_trip_through_its_file(
    report: dict[str, Any], tmp_path: Path
) -> None:
    path = write_report(report, tmp_path / "results")
    assert path.name == f"{report['run_id']}.json"
    assert read_report(path) == report


def test_a_file_that_is_not_an_eval_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"schema": "something/else"}')
    (tmp_path / "y.json").write_text("not json")
    for name in ("x.json", "y.json", "missing.json"):
        with pytest.raises(GroundkitError) as caught:
            read_report(tmp_path / name)
        assert caught.value.code == ErrorCode.EVAL_RESULTS

"""The run report, its file, and the regression gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from groundkit.config import Settings
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.eval.datasets import load_golden
from groundkit.eval.record import encode
from groundkit.eval.results import (
    GATED,
    SCHEMA,
    EvalReport,
    build_report,
    compare,
    read_report,
    write_report,
)
from groundkit.eval.runner import run_eval
from groundkit.testing import FakeEmbedder

BASELINE = Path(__file__).resolve().parents[2] / "evals" / "baselines" / "golden-fake-embedder.json"


@pytest.fixture
def report(small_golden: Path, tmp_path: Path) -> EvalReport:
    run = run_eval(
        load_golden(small_golden), Settings(), tmp_path / "work", embedder=FakeEmbedder()
    )
    return build_report(run, Settings())


def sabotage(report: EvalReport, stage: str) -> EvalReport:
    """The same run, but with every answerable query of ``stage`` scoring zero."""
    replace = msgspec.structs.replace
    queries = []
    for query in report.queries:
        mine = query.stages[stage]
        zero = {level: dict.fromkeys(scores, 0.0) for level, scores in mine.metrics.items()}
        stages = {**query.stages, stage: replace(mine, metrics=zero)}
        queries.append(replace(query, stages=stages))
    return replace(report, queries=tuple(queries))


def test_the_report_names_its_data_code_and_config(report: EvalReport) -> None:
    assert report.schema == SCHEMA
    assert report.dataset.kind == "golden"
    assert len(report.dataset.hash) == 64
    assert report.code.groundkit
    assert report.config.stages == ("bm25", "dense", "hybrid")
    assert report.config.skipped == {"rerank": "rerank.model is not configured"}
    assert report.dataset.categories == {"factual": 4, "paraphrase": 2, "no_answer": 1}


def test_each_stage_but_the_baseline_is_compared_with_bm25(report: EvalReport) -> None:
    assert report.stages["bm25"].versus_baseline is None
    dense = report.stages["dense"]
    assert dense.versus_baseline is not None
    delta = dense.versus_baseline["chunk"]["ndcg@10"]
    assert delta is not None
    dense_ndcg = dense.metrics["chunk"]["ndcg@10"]
    bm25_ndcg = report.stages["bm25"].metrics["chunk"]["ndcg@10"]
    assert dense_ndcg is not None
    assert bm25_ndcg is not None
    assert delta.delta == pytest.approx(dense_ndcg - bm25_ndcg)
    assert delta.low <= delta.delta <= delta.high
    assert dense.verdict == delta.verdict


def test_no_answer_queries_count_towards_abstention_not_ranking(report: EvalReport) -> None:
    q7 = next(q for q in report.queries if q.id == "q7")
    assert q7.stages["bm25"].metrics == {}
    abstention = report.stages["bm25"].abstention
    assert abstention.no_answer_queries == 1
    assert abstention.abstention_rate == float(q7.stages["bm25"].abstained)


def test_a_run_compared_with_itself_has_no_regression(report: EvalReport) -> None:
    rows = compare(report, report)
    assert len(rows) == 3 * 2 * len(GATED)  # stages x levels x gated metrics
    assert not any(r.regressed for r in rows)


def test_a_metric_below_the_baseline_beyond_its_interval_is_a_regression(
    report: EvalReport,
) -> None:
    rows = compare(sabotage(report, "dense"), report)
    regressed = {(r.stage, r.metric) for r in rows if r.regressed}
    assert ("dense", "ndcg@10") in regressed
    assert not any(stage == "bm25" for stage, _ in regressed)


def test_a_better_run_is_not_a_regression(report: EvalReport) -> None:
    assert not any(r.regressed for r in compare(report, sabotage(report, "dense")))


def test_a_stage_missing_from_the_new_run_is_a_regression(report: EvalReport) -> None:
    stages = {name: s for name, s in report.stages.items() if name != "hybrid"}
    current = msgspec.structs.replace(report, stages=stages)
    missing = [r for r in compare(current, report) if r.stage == "hybrid"]
    assert missing
    assert all(r.regressed and r.delta is None for r in missing)


def test_runs_of_different_data_cannot_be_compared(report: EvalReport) -> None:
    dataset = msgspec.structs.replace(report.dataset, hash="0" * 64)
    other = msgspec.structs.replace(report, dataset=dataset)
    with pytest.raises(GroundkitError) as caught:
        compare(report, other)
    assert caught.value.code == ErrorCode.EVAL_INCOMPARABLE


def test_the_report_survives_a_round_trip_through_its_file(
    report: EvalReport, tmp_path: Path
) -> None:
    path = write_report(report, tmp_path / "results")
    assert path.name == f"{report.run_id}.json"
    assert read_report(path) == report
    written = json.loads(path.read_text(encoding="utf-8"))
    assert list(written) == [
        "schema",
        "run_id",
        "created_at",
        "code",
        "dataset",
        "config",
        "ingest_s",
        "stages",
        "queries",
    ]
    assert "versus_baseline" not in written["stages"]["bm25"]  # the baseline has no delta
    assert "verdict" not in written["stages"]["bm25"]
    assert written["queries"][0]["gold"][0][0] == "pumps.md"  # [source, start, end, grade]


def test_the_committed_baseline_reads_back_to_the_same_bytes() -> None:
    baseline = read_report(BASELINE)
    assert baseline.dataset.name == "golden"
    assert set(baseline.stages) == {"bm25", "dense", "hybrid"}
    assert encode(baseline) + "\n" == BASELINE.read_text(encoding="utf-8")


def test_a_file_that_is_not_an_eval_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"schema": "something/else"}')
    (tmp_path / "y.json").write_text("not json")
    (tmp_path / "z.json").write_text("[]")
    for name in ("x.json", "y.json", "z.json", "missing.json"):
        with pytest.raises(GroundkitError) as caught:
            read_report(tmp_path / name)
        assert caught.value.code == ErrorCode.EVAL_RESULTS
        assert name in caught.value.message


def _damaged(tmp_path: Path, damage: Any) -> Path:
    """The committed baseline, changed in one place by ``damage(data)``."""
    data = json.loads(BASELINE.read_text(encoding="utf-8"))
    damage(data)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda d: d["dataset"].update(documents="13"), "$.dataset.documents"),
        (lambda d: d["stages"]["dense"]["latency_ms"].update(p50=None), "$.stages[...].latency_ms"),
        (lambda d: d["queries"][0]["gold"][0].pop(), "$.queries[0].gold[0]"),
        (lambda d: d["stages"]["dense"].update(verdict="great"), "$.stages[...].verdict"),
        (lambda d: d["config"].update(primary_level="page"), "$.config.primary_level"),
    ],
    ids=["count-as-text", "null-latency", "short-gold-span", "unknown-verdict", "unknown-level"],
)
def test_a_report_with_a_value_of_the_wrong_type_is_refused_where_it_is(
    tmp_path: Path, damage: Any, where: str
) -> None:
    path = _damaged(tmp_path, damage)
    with pytest.raises(GroundkitError) as caught:
        read_report(path)
    assert caught.value.code == ErrorCode.EVAL_RESULTS
    assert str(path) in caught.value.message
    assert where in caught.value.message


@pytest.mark.parametrize(
    ("damage", "missing"),
    [
        (lambda d: d.pop("schema"), "schema"),
        (lambda d: d["dataset"].pop("hash"), "hash"),
        (lambda d: d["stages"]["bm25"]["by_category"]["factual"].pop("ndcg@10"), "ndcg@10"),
        (lambda d: d["queries"][0]["stages"]["dense"].pop("ranked"), "ranked"),
    ],
    ids=["schema", "dataset-hash", "category-metric", "query-ranking"],
)
def test_a_report_with_a_missing_key_is_refused(tmp_path: Path, damage: Any, missing: str) -> None:
    path = _damaged(tmp_path, damage)
    with pytest.raises(GroundkitError) as caught:
        read_report(path)
    assert caught.value.code == ErrorCode.EVAL_RESULTS
    assert f"missing required field `{missing}`" in caught.value.message


def test_a_report_with_an_unknown_key_is_refused(tmp_path: Path) -> None:
    path = _damaged(tmp_path, lambda d: d["stages"]["bm25"]["latency_ms"].update(p99=3.0))
    with pytest.raises(GroundkitError) as caught:
        read_report(path)
    assert caught.value.code == ErrorCode.EVAL_RESULTS
    assert "unknown field `p99`" in caught.value.message

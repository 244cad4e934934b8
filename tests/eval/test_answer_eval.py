"""Answer-quality scoring: outcomes, refusal rules without numbers, the report and its gate."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from groundkit.errors import ErrorCode, GroundkitError, UsageError
from groundkit.eval.answer_report import (
    AnswerEvalReport,
    build_answer_report,
    compare_answers,
    read_answer_report,
    render_answer_html,
    summary_rows,
    write_answer_report,
)
from groundkit.eval.answers import AnswerOutcome, AnswerRun, Outcome, SystemInfo, refusal_rule
from groundkit.eval.datasets import Dataset

SYSTEM = "m/constrained"


def test_a_refusal_is_counted_by_its_rule_without_item_or_source_numbers() -> None:
    message = (
        "the model's answer was refused: item 2, citation 1: the quote is not in source 3"
        " exactly as written"
    )
    assert refusal_rule(message) == (
        "item N, citation N: the quote is not in source N exactly as written"
    )


def _outcome(query_id: str, outcome: Outcome, cites: bool | None) -> AnswerOutcome:
    answered = outcome == "answered"
    return AnswerOutcome(
        query_id=query_id,
        system=SYSTEM,
        outcome=outcome,
        reason="item N, citation N: the quote is not in source N" if outcome == "refused" else None,
        seconds=2.5,
        relevant_in_evidence=True,
        cites_relevant=cites if answered else None,
        items=2 if answered else 0,
        items_all_relevant=1 if answered else 0,
        cut_off=False,
        completion_tokens=40,
        tokens_per_second=30.0,
        prompt_tokens=600,
        enum_bytes=1500,
        spans_omitted=0,
    )


def _run(outcomes: list[tuple[str, Outcome, bool]], dataset_hash: str = "h") -> AnswerEvalReport:
    dataset = Dataset(
        name="tiny",
        kind="golden",
        split=None,
        root=Path("tiny"),
        inputs=(),
        queries=(),
        hash=dataset_hash,
    )
    run = AnswerRun(
        dataset,
        {SYSTEM: SystemInfo("llamacpp", "m.gguf", "constrained", load_seconds=0.5)},
        [_outcome(q, o, c) for q, o, c in outcomes],
        top_k=3,
        ingest_s=0.25,
        questions=[q for q, _, _ in outcomes],
    )
    return build_answer_report(run)


def test_a_system_is_summarised_by_outcome_rate_and_refusal_rule() -> None:
    report = _run([("q1", "answered", True), ("q2", "answered", False), ("q3", "refused", False)])
    summary = report.systems[SYSTEM]
    assert (summary.provider, summary.quotes, summary.load_seconds) == (
        "llamacpp",
        "constrained",
        0.5,
    )
    assert (summary.counts.answered, summary.counts.refused, summary.counts.failed) == (2, 1, 0)
    assert summary.refusals == {"item N, citation N: the quote is not in source N": 1}
    assert summary.rates.validated.mean == pytest.approx(2 / 3)
    assert summary.rates.cites_relevant_of_answered == 0.5
    assert summary.rates.items_all_relevant == 0.5  # 1 of 2 items, in each answer
    (row,) = summary_rows(report)
    assert row[:7] == [SYSTEM, "3", row[2], "2", "0", "1", "0"]
    assert "item N, citation N" in render_answer_html(report)


def test_a_run_that_validates_fewer_answers_than_its_baseline_is_a_regression() -> None:
    before = _run([(f"q{i}", "answered", True) for i in range(20)])
    after = _run([(f"q{i}", "refused", False) for i in range(20)])
    rows = {r.metric: r for r in compare_answers(after, before)}
    assert rows["validated"].regressed
    assert rows["cites_relevant"].regressed
    assert not any(r.regressed for r in compare_answers(before, before))


def test_runs_on_different_datasets_are_not_compared() -> None:
    with pytest.raises(UsageError) as caught:
        compare_answers(
            _run([("q1", "answered", True)], "a"), _run([("q1", "answered", True)], "b")
        )
    assert caught.value.code == ErrorCode.EVAL_INCOMPARABLE


def test_the_answer_report_survives_a_round_trip_through_its_file(tmp_path: Path) -> None:
    report = _run([("q1", "answered", True), ("q2", "abstained", False)])
    path = write_answer_report(report, tmp_path)
    assert read_answer_report(path) == report
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["schema"] == "groundkit.eval.answers/1"
    assert written["config"] == {"top_k": 3, "ingest_s": 0.25, "retrieval": "bm25"}
    assert list(written["outcomes"][0])[:3] == ["query_id", "system", "outcome"]
    assert path.with_suffix(".html").is_file()


def test_the_settings_a_benchmark_adds_to_the_config_are_kept(tmp_path: Path) -> None:
    """benchmarks/answer_quality.py records how its in-process model ran."""
    report = _run([("q1", "answered", True)])
    config = msgspec.structs.replace(
        report.config, threads=1, n_ctx=4096, system="default", grammar={"max_grammar_bytes": 3836}
    )
    report = msgspec.structs.replace(report, config=config)
    again = read_answer_report(write_answer_report(report, tmp_path))
    assert again.config == config
    assert again.config.grammar == {"max_grammar_bytes": 3836}


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"outcome": "maybe"}, "$.outcomes[0].outcome"),
        ({"items": "2"}, "$.outcomes[0].items"),
        ({"seconds": None}, "$.outcomes[0].seconds"),
    ],
)
def test_an_answer_report_with_a_wrong_value_is_refused(
    tmp_path: Path, change: dict[str, object], where: str
) -> None:
    path = write_answer_report(_run([("q1", "answered", True)]), tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["outcomes"][0].update(change)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GroundkitError) as caught:
        read_answer_report(path)
    assert caught.value.code == ErrorCode.EVAL_RESULTS
    assert str(path) in caught.value.message
    assert where in caught.value.message


def test_an_answer_report_with_a_missing_key_or_another_schema_is_refused(tmp_path: Path) -> None:
    path = write_answer_report(_run([("q1", "answered", True)]), tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["systems"][SYSTEM]["rates"]
    path.write_text(json.dumps(data), encoding="utf-8")
    retrieval_run = (
        Path(__file__).resolve().parents[2] / "evals/baselines/golden-fake-embedder.json"
    )
    for bad in (path, retrieval_run):
        with pytest.raises(GroundkitError) as caught:
            read_answer_report(bad)
        assert caught.value.code == ErrorCode.EVAL_RESULTS

"""Answer-quality scoring: outcomes, refusal rules without numbers, and the regression gate."""

from __future__ import annotations

from typing import Any

import pytest

from groundkit.errors import ErrorCode, UsageError
from groundkit.eval.answer_report import compare_answers
from groundkit.eval.answers import refusal_rule


def test_a_refusal_is_counted_by_its_rule_without_item_or_source_numbers() -> None:
    message = (
        "the model's answer was refused: item 2, citation 1: the quote is not in source 3"
        " exactly as written"
    )
    assert refusal_rule(message) == (
        "item N, citation N: the quote is not in source N exactly as written"
    )


def _run(outcomes: list[tuple[str, str, bool]], dataset_hash: str = "h") -> dict[str, Any]:
    return {
        "dataset": {"hash": dataset_hash},
        "systems": {"m/constrained": {}},
        "outcomes": [
            {"query_id": q, "system": "m/constrained", "outcome": o, "cites_relevant": c}
            for q, o, c in outcomes
        ],
    }


def test_a_run_that_validates_fewer_answers_than_its_baseline_is_a_regression() -> None:
    before = _run([(f"q{i}", "answered", True) for i in range(20)])
    after = _run([(f"q{i}", "refused", False) for i in range(20)])
    rows = {r.metric: r for r in compare_answers(after, before)}
    assert rows["validated"].regressed
    assert rows["cites_relevant"].regressed
    assert not any(r.regressed for r in compare_answers(before, before))


def test_runs_on_different_datasets_are_not_compared() -> None:
    with pytest.raises(UsageError) as caught:
        compare_answers(_run([], "a"), _run([], "b"))
    assert caught.value.code == ErrorCode.EVAL_INCOMPARABLE

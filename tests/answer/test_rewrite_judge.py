"""--rewrite gives one query or a typed error; --judge is advisory, schema-checked, never fatal."""

from __future__ import annotations

import json

import pytest
from answer_helpers import item, reply

from groundkit import Collection
from groundkit.answer.report import AIState
from groundkit.answer.rewrite import MAX_QUERY_CHARS, rewrite_query
from groundkit.answer.service import answer_question
from groundkit.errors import AIError, ErrorCode
from groundkit.testing.chat import ScriptedChat

GOOD = reply(item("Wombats dig burrows.", (1, "digs long burrows")))
VERDICT = json.dumps({"faithful": True, "unsupported_claims": [], "reasoning": "quoted"})


def test_a_rewritten_query_is_searched_and_both_queries_are_reported(col: Collection) -> None:
    chat = ScriptedChat(["wombat burrows", GOOD])
    report = answer_question(col, "What do those diggers make?", chat, rewrite=True)
    assert report.query == "What do those diggers make?"
    assert report.rewritten_query == "wombat burrows"
    assert report.bundle.query == "wombat burrows"
    assert report.ai.state == AIState.ANSWERED
    assert report.to_dict()["rewritten_query"] == "wombat burrows"


@pytest.mark.parametrize(
    "output",
    ["", "   \n ", "x" * (MAX_QUERY_CHARS + 1), "one\ntwo", "one\rtwo", "\ud800", "a\x1b[2Jb"],
)
def test_blank_over_long_or_unprintable_rewrites_are_typed_errors(output: str) -> None:
    with pytest.raises(AIError) as caught:
        rewrite_query(ScriptedChat([output]), "question")
    assert caught.value.code == ErrorCode.AI_REWRITE_INVALID


def test_a_failed_rewrite_is_reported_never_silently_replaced(col: Collection) -> None:
    chat = ScriptedChat([""])
    report = answer_question(col, "wombat", chat, rewrite=True)
    assert report.ai.state == AIState.FAILED
    assert report.ai.error is not None
    assert report.ai.error.code == ErrorCode.AI_REWRITE_INVALID
    assert report.rewritten_query is None
    assert report.answer is None
    assert len(chat.calls) == 1  # no answer was asked for on a query nobody chose


def test_the_judge_verdict_is_reported_as_advisory(col: Collection) -> None:
    report = answer_question(col, "wombat burrows", ScriptedChat([GOOD, VERDICT]), judge=True)
    assert report.to_dict()["judge"] == {
        "advisory": True,
        "faithful": True,
        "unsupported_claims": [],
        "reasoning": "quoted",
    }


@pytest.mark.parametrize(
    "output",
    [
        "not json",
        json.dumps({"faithful": "yes", "unsupported_claims": [], "reasoning": ""}),
        json.dumps({"faithful": True, "unsupported_claims": [1], "reasoning": ""}),
        json.dumps({"faithful": True, "unsupported_claims": [], "reasoning": "", "score": 9}),
        json.dumps({"faithful": True, "reasoning": ""}),
        '{"faithful": true, "faithful": false, "unsupported_claims": [], "reasoning": ""}',
        '{"faithful": true, "unsupported_claims": [], "reasoning": NaN}',
        '{"faithful": true, "unsupported_claims": ["\\ud800"], "reasoning": ""}',
        '{"faithful": true, "unsupported_claims": [], "reasoning": "\\u001b[2J"}',
    ],
)
def test_an_invalid_verdict_is_a_typed_error_that_leaves_the_answer_standing(
    col: Collection, output: str
) -> None:
    report = answer_question(col, "wombat burrows", ScriptedChat([GOOD, output]), judge=True)
    assert report.answer is not None
    assert report.ai.state == AIState.ANSWERED
    assert report.judge is None
    assert report.judge_error is not None
    assert report.judge_error.code == ErrorCode.AI_JUDGE_INVALID


def test_an_unfaithful_verdict_changes_nothing_but_its_own_field(col: Collection) -> None:
    verdict = json.dumps({"faithful": False, "unsupported_claims": ["x"], "reasoning": "r"})
    report = answer_question(col, "wombat burrows", ScriptedChat([GOOD, verdict]), judge=True)
    assert report.answer is not None
    assert report.ai.state == AIState.ANSWERED


def test_the_scripted_model_fails_closed_when_its_replies_run_out(col: Collection) -> None:
    report = answer_question(col, "wombat burrows", ScriptedChat([]))
    assert report.ai.state == AIState.FAILED
    assert report.bundle.items


def test_a_secret_echoed_in_the_judge_verdict_is_scrubbed(col: Collection) -> None:
    key = "gsk_" + "Zx9" * 14
    verdict = json.dumps(
        {"faithful": False, "unsupported_claims": [f"key {key}"], "reasoning": f"Bearer {key}"}
    )
    report = answer_question(col, "wombat burrows", ScriptedChat([GOOD, verdict]), judge=True)
    shown = json.dumps(report.to_dict())
    assert key not in shown
    assert report.judge is not None
    assert report.judge.unsupported_claims == ("key <redacted>",)

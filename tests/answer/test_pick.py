"""Models choose, the boundary composes: with ``quotes = "pick"`` a model names sentences by
number, and the answer is those sentences, written by groundkit and checked by the one gate."""

from __future__ import annotations

import json
from typing import Any

import pytest

from groundkit import Collection
from groundkit.answer.pick import PICK_SYSTEM
from groundkit.answer.report import AIState
from groundkit.answer.service import answer_question, quote_mode
from groundkit.errors import ErrorCode
from groundkit.testing.chat import ScriptedChat

QUESTION = "what does the wombat eat?"


def _offered(chat: ScriptedChat) -> list[str]:
    """The sentences the model was sent, by number (from the request it got)."""
    (call,) = chat.calls
    user = call.user
    blocks = user.split('<source id="')[1:]
    return [b.split(">\n", 1)[1].split("\n</source>")[0] for b in blocks]


def test_the_answer_is_the_picked_sentences_in_the_models_order(col: Collection) -> None:
    chat = ScriptedChat(['{"sentences": [2, 1]}'])
    report = answer_question(col, QUESTION, chat, quotes="pick")
    assert report.ai.state == AIState.ANSWERED, report.ai.error
    offered = _offered(chat)
    assert report.answer is not None
    assert report.answer.composed == "picked"
    assert [i.text for i in report.answer.items] == [offered[1], offered[0]]
    assert [c.cited_text for c in report.answer.citations] == [offered[1], offered[0]]
    assert chat.calls[0].system == PICK_SYSTEM


def test_a_model_that_picks_is_sent_numbered_sentences_and_a_schema_of_their_numbers_only(
    col: Collection,
) -> None:
    chat = ScriptedChat(['{"sentences": []}'])
    report = answer_question(col, QUESTION, chat, quotes="pick")
    offered = _offered(chat)
    assert 1 <= len(offered) <= 8
    picks = chat.calls[0].response_schema["properties"]["sentences"]["enum"]
    assert [] in picks
    assert {n for pick in picks for n in pick} == set(range(1, len(offered) + 1))
    assert all(len(set(pick)) == len(pick) <= 3 for pick in picks)
    assert report.answer is not None
    assert report.answer.abstained  # none of them answers: a valid abstention


@pytest.mark.parametrize(
    ("reply", "rule"),
    [
        ('{"sentences": [99]}', "a sentence number was not among those sent"),
        ('{"sentences": [1, 1]}', "a sentence was picked twice"),
        ('{"sentences": [1], "text": "x"}', 'not exactly {"sentences": [...]}'),
        ('{"sentences": [1, 2, 3, 4]}', "at most 3"),
        ('{"sentences": [true]}', "a sentence number was not among those sent"),
        ("Sentence 1.", "not a single JSON object"),
    ],
)
def test_a_pick_outside_the_schema_is_refused_and_the_reply_kept_for_show_reply(
    col: Collection, reply: str, rule: str
) -> None:
    report = answer_question(col, QUESTION, ScriptedChat([reply]), quotes="pick")
    assert report.ai.state == AIState.REFUSED
    assert report.ai.error is not None
    assert report.ai.error.code == ErrorCode.AI_INVALID_OUTPUT
    assert rule in report.ai.error.message
    assert report.refused_reply == reply
    assert report.extracted is not None  # the reader still gets the extracted sentences


class _Local(ScriptedChat):
    def __init__(self, provider: str, local: bool) -> None:
        super().__init__([], provider=provider, local=local)


@pytest.mark.parametrize(
    ("provider", "local", "mode"),
    [("llamacpp", True, "pick"), ("ollama", True, "constrained"), ("groq", False, "free")],
)
def test_an_in_process_model_picks_by_default_and_others_write(
    provider: str, local: bool, mode: str
) -> None:
    assert quote_mode(_Local(provider, local), None) == mode
    assert quote_mode(_Local(provider, local), "constrained") == "constrained"


def test_the_pick_prompt_holds_no_path_or_id(col: Collection) -> None:
    chat = ScriptedChat(['{"sentences": [1]}'])
    report = answer_question(col, QUESTION, chat, quotes="pick")
    sent: dict[str, Any] = {"system": chat.calls[0].system, "user": chat.calls[0].user}
    blob = json.dumps(sent)
    for item in report.bundle.passages:
        assert item.source not in blob
        assert item.chunk_id not in blob

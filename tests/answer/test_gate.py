"""The gate on useless prose: an answer whose quotes check out but whose prose tells a reader
nothing is refused as ``ai.unhelpful``, with the evidence (and the extracted answer) shown.

The rules are tried on replies written for the purpose, on the replies SmolLM2-135M gave to
golden corpus questions (``fixtures/small_model_replies.json``: each judged by a person as a
reader would), and on answers a person wrote in their own words to 24 golden questions: the
gate refuses every reply judged degenerate, and at most one in twenty of the good answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from answer_helpers import item, reply

from groundkit import Collection
from groundkit.answer.gate import item_problem
from groundkit.answer.report import AIState
from groundkit.answer.service import answer_question
from groundkit.errors import OUTCOMES, ErrorCode
from groundkit.testing.chat import ScriptedChat

FIXTURES = Path(__file__).parent / "fixtures" / "small_model_replies.json"
# Replies the gate was not tuned on (SciFact claims and questions over docs/), judged the same way.
HELD_OUT = Path(__file__).parent / "fixtures" / "small_model_replies_heldout.json"
DIG = "The wombat digs long burrows with its strong claws."
LAY = "the echidna lays an egg, like the platypus."


def _ask(col: Collection, question: str, raw: str, quotes: Any = "free") -> Any:
    return answer_question(col, question, ScriptedChat([raw]), quotes=quotes)


@pytest.mark.parametrize(
    ("question", "text", "quote", "rule"),
    [
        ("what does the wombat dig?", "a: a: a: a:", DIG, "repeats itself"),
        ("what does the wombat dig?", "Burrows 1.1.1.1.1", DIG, "repeats itself"),
        ("what does the wombat dig?", "It digs. It digs burrows. It digs burrows.", DIG, "repeats"),
        (
            "what does the wombat dig?",
            "The 1st burrow is long, which is a start. The 2nd burrow is deep, which is a plus."
            " The 3rd burrow is wide, which is a gift. The 4th burrow is dry, which is a joy.",
            DIG,
            "repeats itself",
        ),
        ("what does the wombat dig?", 'E"),', DIG, "has no words"),
        ("what does the wombat dig?", DIG, DIG, "only copies its quote"),
        ("what does the wombat dig?", f"The source says: {DIG}", DIG, "only copies its quote"),
        ("which odd crumb?", "It digs burrows.", DIG, "shares no word with the question"),
    ],
)
def test_degenerate_prose_is_refused_as_unhelpful_and_the_reader_gets_the_extract(
    col: Collection, question: str, text: str, quote: str, rule: str
) -> None:
    raw = reply(item(text, (1 if quote in _first(col, question) else 2, quote)))
    report = _ask(col, question, raw)
    assert report.ai.state == AIState.REFUSED, report.ai
    assert report.ai.error.code == ErrorCode.AI_UNHELPFUL
    assert rule in report.ai.error.message
    assert text not in report.ai.error.message  # a refusal never echoes the model's text
    assert report.refused_reply == raw  # for --show-reply
    assert report.extracted is not None
    assert report.bundle.items  # the evidence, always


def _first(col: Collection, question: str) -> str:
    return col.search(question)[0].text


@pytest.mark.parametrize(
    ("question", "text", "quote"),
    [
        ("what does the wombat dig?", "Long burrows, with its claws.", DIG),
        ("what does the wombat dig?", "Wombats dig long burrows.", DIG),
        ("does the echidna lay eggs?", "Yes: it lays an egg.", LAY),
        ("does the echidna lay eggs?", "Yes.", LAY),
    ],
)
def test_short_prose_in_the_models_own_words_passes_the_gate(
    col: Collection, question: str, text: str, quote: str
) -> None:
    raw = reply(item(text, (1 if quote in _first(col, question) else 2, quote)))
    report = _ask(col, question, raw)
    assert report.ai.state == AIState.ANSWERED, report.ai.error


def test_sentences_a_model_picked_are_not_prose_and_the_gate_leaves_them_alone(
    col: Collection,
) -> None:
    # The answer's text is its quote, word for word: for prose that is "only a copy"; for a
    # pick it is the whole point.
    report = _ask(col, "what does the wombat dig?", '{"sentences": [1]}', quotes="pick")
    assert report.ai.state == AIState.ANSWERED, report.ai.error
    assert report.answer.items[0].text == report.answer.citations[0].cited_text


def test_unhelpful_is_a_refusal_in_the_error_table() -> None:
    assert OUTCOMES[ErrorCode.AI_UNHELPFUL].answer_state == "refused"


def _judged(path: Path = FIXTURES) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["replies"]


def _refused(entry: dict[str, Any]) -> bool:
    return any(_problem(entry, i) is not None for i in entry["items"])


def _problem(entry: dict[str, Any], item: dict[str, Any]) -> str | None:
    # The cosines all-MiniLM-L6-v2 gave each quote and the text, stored beside the reply.
    cosine = dict(zip([*item["quotes"], item["text"]], item["near"], strict=True))

    def near(texts: Sequence[str]) -> float:
        return max(cosine[t] for t in texts)

    return item_problem(
        item["text"], item["quotes"], entry["evidence"], entry["question"], near=near
    )


def test_the_fixture_set_holds_real_degenerate_replies_and_good_answers() -> None:
    small = [e for e in _judged() if e["model"].startswith("SmolLM2")]
    assert sum(e["judged"] == "degenerate" for e in small) >= 30
    assert sum(e["judged"] == "good" for e in _judged()) >= 20


def test_the_gate_refuses_every_degenerate_reply_the_small_model_gave() -> None:
    missed = [e["id"] for e in _judged() if e["judged"] == "degenerate" and not _refused(e)]
    assert missed == []


def test_the_gate_refuses_at_most_one_in_twenty_good_answers() -> None:
    good = [e for e in _judged() if e["judged"] == "good"]
    refused = [e["id"] for e in good if _refused(e)]
    assert len(refused) <= 0.05 * len(good), refused


def test_on_held_out_replies_the_gate_refuses_every_degenerate_one_and_no_good_one() -> None:
    held = _judged(HELD_OUT)
    assert sum(e["judged"] == "degenerate" for e in held) >= 20
    missed = [e["id"] for e in held if e["judged"] == "degenerate" and not _refused(e)]
    refused = [e["id"] for e in held if e["judged"] == "good" and _refused(e)]
    assert (missed, refused) == ([], [])


def test_a_paraphrase_sharing_no_word_with_the_question_passes_when_the_embedder_says_near() -> (
    None
):
    quote = "the screen must lock after no more than 5 minutes of inactivity"
    question = "How long can my computer sit idle before it demands a password again?"
    text = "Five minutes at most: the screen has to lock by then."
    assert item_problem(text, [quote], [quote], question) is not None  # words alone
    assert item_problem(text, [quote], [quote], question, near=lambda _: 0.55) is None
    assert item_problem(text, [quote], [quote], question, near=lambda _: 0.1) is not None

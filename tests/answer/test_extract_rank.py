"""The extractive ranking weighs a sentence's form and context, not only its words.

Between sentences the signals (embedder, BM25) score alike, the one that reads as prose wins over
a line of code, a question or a title; the one whose neighbours in its passage are close to the
question wins over one that stands alone; and for a question asking how long or how many, the
one holding a number wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from answer_helpers import bundle_for

from groundkit import Collection
from groundkit.answer.contract import QuoteRules
from groundkit.answer.extract import EMBEDDED, Sentence, candidates, rank
from groundkit.answer.priors import asks_quantity, prose
from groundkit.embed.base import EmbedderIdentity, InputType

KEYS = """# Signing keys

Do the team's signing keys rotate every 90 days?

```sh
keys rotate --team's signing every 90 days
```

The team's signing keys rotate every 90 days.
"""


def test_prose_outranks_a_code_line_and_a_question_with_the_same_words(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    (tmp_path / "keys.md").write_text(KEYS, encoding="utf-8")
    collection = open_col()
    collection.ingest([tmp_path / "keys.md"])
    question = "how often do signing keys rotate?"
    bundle = bundle_for(collection, question)
    ranked = rank(question, candidates(bundle, QuoteRules.of(16, question)))
    assert ranked[0].text == "The team's signing keys rotate every 90 days."


class Topic:
    """An embedder double: a text is near the question exactly when it says ``idle``."""

    identity = EmbedderIdentity("test", "topic", 2, True, "1")

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        return np.array([[1.0, 0.0] if "idle" in t else [0.0, 1.0] for t in texts], np.float32)


def _sentences(*placed: tuple[int, str]) -> list[Sentence]:
    return [Sentence(n, 0, len(t), t, (0, n, i, 0)) for i, (n, t) in enumerate(placed)]


def test_a_sentence_whose_neighbour_is_on_the_question_outranks_one_that_stands_alone() -> None:
    alone = "The printer goes dark after a while."
    beside = "The display goes dark after a while."
    sentences = _sentences((2, alone), (1, "Laptops that sit idle lock themselves."), (1, beside))
    ranked = [s.text for s in rank("what happens to an idle laptop?", sentences, Topic())]
    assert ranked.index(beside) < ranked.index(alone)


def test_a_question_asking_how_long_prefers_the_sentence_that_holds_a_number() -> None:
    words = "The screen locks after five minutes."
    number = "The screen locks after 5 minutes."
    ranked = rank("how long until my display is locked?", _sentences((1, words), (2, number)))
    assert ranked[0].text == number


@pytest.mark.parametrize(
    ("text", "block", "expected"),
    [
        ("Rotate the keys every 90 days.", "prose", 1.0),
        ("- Retries honour the `Retry-After` header.", "prose", 1.0),
        ("| Annual | 149.00 | Same as Monthly |", "table", 0.7),
        ("TIDEPOOL UPGRADE", "prose", 0.3),
        ("which environment),", "prose", 0.3),
        ("How often are the keys rotated?", "prose", 0.0),
        ('grk search "how are citations verified"', "code", 0.0),
    ],
)
def test_prose_scores_how_much_a_sentence_reads_as_a_statement(
    text: str, block: str, expected: float
) -> None:
    assert prose(text, block) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("How long can my computer sit idle?", True),
        ("When was the decision made?", True),
        ("What does the Annual plan cost?", True),
        ("Who approves refunds?", False),
        ("How do I rotate the keys?", False),
    ],
)
def test_a_question_for_an_amount_or_a_time_is_told_apart(question: str, asks: bool) -> None:
    assert asks_quantity(question) is asks


def test_the_best_worded_sentence_is_weighed_by_meaning_when_nearest_passages_are_long() -> None:
    # The passages the search ranked nearest in meaning hold more sentences than the budget
    # (an API reference's list): the sentence of another passage that the words rank first
    # is still embedded, so one nearer sentence cannot win only because it was embedded.
    answer = "An idle laptop locks itself after five minutes."
    filler = [(1, f"Printer tray {i} holds paper of size A{i}.") for i in range(EMBEDDED + 6)]
    near = [replace(s, near=True) for s in _sentences((1, "Screens dim when idle."), *filler)]
    ranked = rank("what does an idle laptop do?", [*near, *_sentences((2, answer))], Topic())
    assert ranked[0].text == answer

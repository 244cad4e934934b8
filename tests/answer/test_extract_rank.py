"""The extractive ranking weighs a sentence's form and context, not only its words.

Between sentences the signals (embedder, BM25) score alike, the one that reads as prose wins over
a line of code, a question or a title; the one whose neighbours in its passage are close to the
question wins over one that stands alone; the one that names the question's term (its words side
by side) wins over one holding them apart; and for a question asking how long or how many, the
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
from groundkit.answer.bundle import build_bundle
from groundkit.answer.contract import QuoteRules
from groundkit.answer.extract import EMBEDDED, Sentence, candidates, rank
from groundkit.answer.priors import asks_quantity, names_term, prose, word_pairs
from groundkit.answer.sentence_vectors import PADDING
from groundkit.embed.base import EmbedderIdentity, InputType
from groundkit.types import Hit

KEYS = """# Signing keys

Do the team's signing keys rotate every 90 days?

```sh
keys rotate --team's signing every 90 days
```

The team's signing keys rotate every 90 days.
"""


def _ranked(
    collection: Collection, folder: Path, text: str, question: str, topic: Topic | None = None
) -> list[Sentence]:
    """``text`` ingested as a Markdown file, and its candidates for ``question`` ranked."""
    (folder / "doc.md").write_text(text, encoding="utf-8")
    collection.ingest([folder / "doc.md"])
    bundle = bundle_for(collection, question)
    return rank(question, candidates(bundle, QuoteRules.of(16, question), question), topic)


def test_prose_outranks_a_code_line_and_a_question_with_the_same_words(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    ranked = _ranked(open_col(), tmp_path, KEYS, "how often do signing keys rotate?")
    assert ranked[0].text == "The team's signing keys rotate every 90 days."


class Topic:
    """An embedder double: a text is near the question exactly when it says ``word``."""

    identity = EmbedderIdentity("test", "topic", 2, True, "1")

    def __init__(self, word: str = "idle") -> None:
        self.word = word

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        near = [self.word in t.casefold() for t in texts]
        return np.array([[1.0, 0.0] if n else [0.0, 1.0] for n in near], np.float32)


class Meaning(Topic):
    """A text is near the question (whatever its words) exactly when it says ``word``."""

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if input_type == "query":
            return np.array([[1.0, 0.0]] * len(texts), np.float32)
        return super().embed(texts, input_type)


def _sentences(*placed: tuple[int, str]) -> list[Sentence]:
    return [Sentence(n, 0, len(t), t, (0, n, i, 0)) for i, (n, t) in enumerate(placed)]


def test_a_sentence_whose_neighbour_is_on_the_question_outranks_one_that_stands_alone() -> None:
    alone = "The printer goes dark after a while."
    beside = "The display goes dark after a while."
    sentences = _sentences((2, alone), (1, "Laptops that sit idle lock themselves."), (1, beside))
    ranked = [s.text for s in rank("what happens to an idle laptop?", sentences, Topic())]
    assert ranked.index(beside) < ranked.index(alone)


def test_a_sentence_naming_the_asked_term_outranks_one_holding_its_words_apart() -> None:
    # The same words, so BM25 scores them alike and reading order would put ``apart`` first;
    # only ``named`` writes "chief security officer".
    apart = "The officer in chief reviews security."
    named = "The chief security officer reviews it."
    ranked = rank("who is the chief security officer?", _sentences((1, apart), (2, named)))
    assert ranked[0].text == named


def test_a_term_every_sentence_names_counts_less_than_one_a_single_sentence_names() -> None:
    texts = [
        "Environment variables are used by default.",
        "To ignore environment variables, set trust_env to False.",
        "Here is a list of environment variables it reads.",
        "HTTPS_PROXY names the proxy server for https requests.",
        "Requests are retried twice.",
    ]
    topic, topic2, topic3, rare, none = names_term(
        "which proxy server do environment variables set", texts
    )
    assert rare == 1.0
    assert 0 < topic == topic2 == topic3 < rare
    assert none == 0.0


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("HTTP status codes", {(("http",), ("statu",)), (("statu",), ("cod",))}),
        ("a copy of an object", set()),
        ("the status, codes and", set()),
        ("Mix it with reagent B.", {(("reagent",), ("b",))}),
        ("BrightKettle", set()),
        ("Replace `tidepool.Pool` now.", {(("replac",), ("tidepool", "pool")),
                                         (("tidepool", "pool"), ("now",))}),
    ],
)  # fmt: skip
def test_only_words_written_side_by_side_name_a_term(text: str, pairs: set[object]) -> None:
    assert word_pairs(text) == pairs


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
        ("For how long, and how hot, are the wells warmed?", True),
        ("By what time must the reconciliation finish?", True),
        ("Ignore that. When is the next meeting?", True),
        ("how do I retry when a connection fails", False),
        ("What should agents do when a customer pastes an instruction?", False),
        ("Which address does it take when no server replies?", False),
    ],
)
def test_a_question_for_an_amount_or_a_time_is_told_apart(question: str, asks: bool) -> None:
    assert asks_quantity(question) is asks


def test_a_when_clause_in_a_how_to_question_does_not_prefer_a_sentence_with_a_number() -> None:
    # "when a connection fails" is the question's condition, not what it asks: a number in a
    # sentence says no more about the way to retry (the two score alike, reading order decides).
    words = "The client retries a failed connection three times."
    number = "The client retries a failed connection 3 times."
    ranked = rank("how do I retry when a connection fails?", _sentences((1, words), (2, number)))
    assert ranked[0].text == words


def test_the_best_worded_sentence_is_weighed_by_meaning_when_nearest_passages_are_long() -> None:
    # The passages the search ranked nearest in meaning hold more sentences than the budget
    # (an API reference's list): the sentence of another passage that the words rank first
    # is still embedded, so one nearer sentence cannot win only because it was embedded.
    answer = "An idle laptop locks itself after five minutes."
    filler = [(1, f"Printer tray {i} holds paper of size A{i}.") for i in range(EMBEDDED + 6)]
    near = [replace(s, near=True) for s in _sentences((1, "Screens dim when idle."), *filler)]
    ranked = rank("what does an idle laptop do?", [*near, *_sentences((2, answer))], Topic())
    assert ranked[0].text == answer


THROTTLE_MD = """# throttle

Useful for rate-limiting scroll events that arrive too fast.

Pass `{trailing: false}` to turn the last call off.

```js
var throttled = _.throttle(updatePosition, 100);
```
"""


def test_a_clause_that_does_not_announce_the_example_after_it_is_weighed_with_the_example(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    # "Pass `{trailing: false}` ..." says nothing of what the code under it does: the unit it
    # makes with the code is weighed by meaning as a whole, so the example is not lost to it.
    question = "how do I throttle scroll events that arrive too fast"
    ranked = _ranked(open_col(), tmp_path, THROTTLE_MD, question, Topic("throttle"))
    assert "_.throttle(updatePosition, 100)" in ranked[0].text


class Counting(Topic):
    """``Topic``, counting the texts it is given."""

    identity = EmbedderIdentity("test", "counting", 2, True, "1")

    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        self.texts += len(texts)
        return super().embed(texts, input_type)


def test_no_more_than_twice_the_budget_is_embedded_however_long_the_nearest_passages() -> None:
    placed = [(n, f"Printer {n} tray {i} holds A{i} paper.") for n in (1, 2) for i in range(40)]
    near = [replace(s, near=s.source == 1) for s in _sentences(*placed)]
    counting = Counting()
    rank("which printer tray holds A4 paper?", near, counting)
    assert counting.texts <= 2 * EMBEDDED + 1  # the sentences, and the question


class Runs(Topic):
    """``Topic``, keeping the documents of each call it is given (one run each)."""

    identity = EmbedderIdentity("test", "runs", 2, True, "1")

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[list[str]] = []

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if input_type == "document":
            self.runs.append(list(texts))
        return super().embed(texts, input_type)


def test_sentences_of_very_different_lengths_are_embedded_in_runs_that_pad_little() -> None:
    # A run pads each text to its longest: a short sentence run beside a long one costs as
    # much as the long one (a cold answer's sentences took 1.9x as long in runs of 24).
    short = [f"Tray {i} holds A{i} paper." for i in range(8)]
    long = [f"Printer {i} keeps its trays full of A{i} paper, {'and more ' * 12}each day."
            for i in range(8)]  # fmt: skip
    runs = Runs()
    rank("which printer tray holds A4 paper?", _sentences(*enumerate(short + long)), runs)
    assert sorted(t for run in runs.runs for t in run) == sorted(short + long)
    for run in runs.runs:
        assert len(run) * max(map(len, run)) <= PADDING * sum(map(len, run))


def test_the_most_sentences_an_answer_weighs_keep_to_the_embedders_quiet_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A full batch of documents opens a second session made for ingest's throughput (~0.25 s to
    # open, threads spinning while it runs): an answer is a short wait and must not pay for it.
    import onnxruntime

    from groundkit.config import EmbedConfig
    from groundkit.embed.local import load_local_embedder

    opened: list[str] = []
    real = onnxruntime.InferenceSession

    def recording(model: str, options: object, **kwargs: object) -> object:
        opened.append(model)
        return real(model, options, **kwargs)

    monkeypatch.setattr(onnxruntime, "InferenceSession", recording)
    embedder = load_local_embedder(EmbedConfig())
    said = "Trial {} found that salt raised blood pressure by {} points."
    placed = [(i, said.format(i, i)) for i in range(2 * EMBEDDED)]
    sentences = [replace(s, near=s.source < EMBEDDED) for s in _sentences(*placed)]
    ranked = rank("does salt raise blood pressure", sentences, embedder)
    assert len(ranked) == 2 * EMBEDDED
    assert len(opened) == 1


def test_a_paraphrase_in_the_passage_third_nearest_in_meaning_is_weighed_by_meaning(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    # The answer shares no word with the question, and the passages around it hold more
    # sentences sharing words than the budget for the rest embeds: only being among the
    # passages the search ranked nearest by meaning gets it weighed by meaning at all.
    collection = open_col()
    sizes = [2, 2, 2, EMBEDDED // 2 + 2, EMBEDDED // 2 + 2]  # the last two: more than the budget
    for n, size in enumerate(sizes):
        lines = [f"Printer tray {n}{i} holds laptop paper." for i in range(size)]
        if n == 2:
            lines = ["Screens go dark once nobody has touched them for a while.", *lines]
        (tmp_path / f"doc{n}.md").write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    collection.ingest(sorted(tmp_path.glob("doc*.md")))
    question = "what does an idle laptop do?"
    found = sorted(collection.search(question, top_k=10), key=lambda h: h.citation.source)
    hits = [Hit(i + 1, 1.0, h.citation, h.text, h.snippet, ranks={"dense": i + 1})
            for i, h in enumerate(found)]  # fmt: skip
    bundle = build_bundle(hits, collection=collection.name, query=question, max_bytes=60_000)
    assert len(bundle.items) == len(sizes)  # one passage each, ranked third by meaning: doc2
    sentences = candidates(bundle, QuoteRules.of(16, question), question)
    ranked = rank(question, sentences, Meaning("dark"))
    assert ranked[0].text == "Screens go dark once nobody has touched them for a while."

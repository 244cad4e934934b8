"""The extractive answer: the evidence's best sentences, with no model, through the one gate.

It needs no opt-in and sends nothing anywhere; its reply passes ``validate_answer`` by
construction (the property is checked on the project's own documents and generated questions);
sentences come at exact offsets, in reading order, near-duplicates folded; the collection's
embedder ranks them first, BM25 second; code-map edges are grouped by file.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from answer_helpers import bundle_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_code_evidence import shop

from groundkit import Collection
from groundkit.answer.contract import QuoteRules, validate_answer
from groundkit.answer.evidence import Origins
from groundkit.answer.extract import Sentence, candidates, choose, rank
from groundkit.answer.extractive import Extractive
from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.service import answer_question, ask_code
from groundkit.answer.spans import sentence_offsets
from groundkit.codemap.api import CodeMap
from groundkit.embed.base import EmbedderIdentity, InputType

ROOT = Path(__file__).parents[2]
OFF = AIStatus(AIState.DISABLED)
SHARED_FIXTURES = (shop,)  # the code map of test_code_evidence, used here by name


@pytest.fixture(scope="module")
def project_docs(tmp_path_factory: pytest.TempPathFactory) -> Collection:
    """The project's own sample documents and the golden corpus, in one bm25 collection."""
    import groundkit

    where = tmp_path_factory.mktemp("extractive")
    collection = groundkit.open_collection("docs", index_dir=where / "index", create=True)
    collection.ingest([ROOT / "docs" / "samples", ROOT / "src/groundkit/eval/golden/docs"])
    return collection


WORDS = st.sampled_from(
    "the a wombat kettle refund password timeout tidepool how what when does is of to band"
    " hotel cap nurses study rollback region quote citation verified search chunk"
    ' E"), 1.1 a: ### | 260 EUR'.split()
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(WORDS, min_size=1, max_size=8).map(" ".join))
def test_an_extractive_reply_passes_validate_answer_by_construction(
    project_docs: Collection, question: str
) -> None:
    bundle = bundle_for(project_docs, question)
    raw = Extractive().compose(question, bundle, embedder=None, min_quote_chars=16)
    answer = validate_answer(raw, bundle, Origins(project_docs.show), question=question)
    assert len(answer.items) == min(3, len(json.loads(raw)["items"]))
    for item in answer.items:
        own = answer.citations[item.markers[-1] - 1]  # a heading it is read under comes first
        assert item.text == own.cited_text  # the text is the evidence's own sentence
        assert 1 <= len(item.markers) <= 2
    if bundle.items:
        assert answer.items or not candidates(bundle, QuoteRules.of(16, question))


def test_with_ai_off_the_report_carries_the_extracted_answer_and_asks_no_model(
    col: Collection,
) -> None:
    report = answer_question(col, "what does the wombat dig?", OFF)
    assert report.ai.state == AIState.DISABLED
    assert report.answer is None
    assert report.extracted is not None
    assert report.extracted.composed == "extracted"
    texts = [c.cited_text for c in report.extracted.citations]
    assert "The wombat digs long burrows with its strong claws." in texts
    assert report.to_dict()["extracted"]["composed"] == "extracted"


def test_the_extractive_profile_answers_and_says_no_model_wrote_it(col: Collection) -> None:
    report = answer_question(col, "what does the wombat dig?", Extractive(), profile="plain")
    assert report.ai.state == AIState.ANSWERED
    assert (report.ai.provider, report.ai.model) == ("extractive", "sentences")
    assert report.answer is not None
    assert report.answer.composed == "extracted"
    assert report.extracted is None  # the answer is the extract: it is not shown twice
    first = report.answer.citations[0]
    assert first.cited_text == "The wombat digs long burrows with its strong claws."
    assert (first.source_name, first.line) == ("wombat.md", 1)


def test_sentences_are_exact_slices_and_a_wrapped_paragraph_is_one_sentence() -> None:
    text = (
        "# Keys\n\nRotate the keys every 90 days, or at\nonce after a leak. Then restart.\n\n"
        "| plan | price |\n|---|---|\n| annual | 149.00 |\n\n- one item that\n  runs on\n"
        "```sh\ngrk rotate --all\n```\n"
    )
    spans = sentence_offsets(text, min_chars=5)
    assert [text[a:b] for a, b in spans] == [
        "# Keys",
        "Rotate the keys every 90 days, or at\nonce after a leak.",
        "Then restart.",
        "| plan | price |\n|---|---|\n| annual | 149.00 |",
        "- one item that\n  runs on",
        "grk rotate --all",
    ]


def test_chosen_sentences_come_in_reading_order_with_near_duplicates_folded() -> None:
    def sentence(n: int, start: int, text: str, doc: int) -> Sentence:
        return Sentence(n, start, start + len(text), text, (0, doc, start, 0))

    ranked = [
        sentence(2, 50, "The kettle boils in four minutes.", 1),
        sentence(1, 90, "Descale the kettle every month.", 0),
        sentence(3, 10, "The kettle boils in four minutes!", 2),  # the first one, again
        sentence(1, 5, "Fill the kettle to the line.", 0),
    ]
    chosen = choose(ranked, 3)
    assert [s.text for s in chosen] == [
        "Fill the kettle to the line.",
        "Descale the kettle every month.",
        "The kettle boils in four minutes.",
    ]


class Meaning:
    """An embedder double that knows which sentence means what the question asks."""

    identity = EmbedderIdentity("test", "meaning", 2, True, "1")

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        return np.array(
            [[1.0, 0.0] if "idle" in t or "inactivity" in t else [0.0, 1.0] for t in texts],
            dtype=np.float32,
        )


def test_the_collections_embedder_ranks_first_and_bm25_second() -> None:
    question = "How long can my computer sit idle before it locks?"
    texts = [
        "Your computer must have a password of 14 characters.",
        "The screen locks after no more than 5 minutes of inactivity.",
    ]
    sentences = [Sentence(i + 1, 0, len(t), t, (0, i, 0, 0)) for i, t in enumerate(texts)]
    assert rank(question, sentences)[0].text == texts[0]  # BM25 alone: "computer"
    assert rank(question, sentences, Meaning())[0].text == texts[1]


def test_grk_ask_extracts_the_edges_that_best_match_the_question_grouped_by_path(
    shop: CodeMap,
) -> None:
    report = ask_code(shop, "shop.db.Store.put", "who saves a typed row?", OFF)
    assert report.extracted is not None
    places = [(c.edge.location.path, c.edge.location.line) for c in report.extracted.citations]
    assert places == sorted(places)
    assert any("save_typed" in c.cited_text for c in report.extracted.citations)
    assert all(c.cited_text == c.edge.evidence for c in report.extracted.citations)


def test_a_question_of_punctuation_still_extracts_only_quotable_sentences(
    col: Collection,
) -> None:
    report = answer_question(col, string.punctuation, OFF, mode="bm25")
    assert report.extracted is None or all(
        len(c.cited_text) >= 16 for c in report.extracted.citations
    )

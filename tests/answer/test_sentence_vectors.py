"""Sentence vectors are kept per process: asking again about the same evidence embeds nothing.

The vectors are kept by embedder identity, input type and text, so two embedders never share a
vector, and the least recently used go first past the store's capacity.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import groundkit
from groundkit import Collection
from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.sentence_vectors import SentenceVectors
from groundkit.answer.service import answer_question
from groundkit.testing.embedder import FakeEmbedder


def test_asking_again_about_the_same_evidence_embeds_no_sentence_again(
    tmp_path: Path, docs: Path
) -> None:
    embedder = FakeEmbedder(model="kept-vectors-test")
    with groundkit.open_collection("kept", index_dir=tmp_path / "index", embedder=embedder) as c:
        c.ingest([docs], dense=True)
        _ask_twice(c, embedder)


def _ask_twice(collection: Collection, embedder: FakeEmbedder) -> None:
    off = AIStatus(AIState.DISABLED)
    first = answer_question(collection, "what does the wombat dig?", off)
    after_first = embedder.calls["document"]
    again = answer_question(collection, "what does the wombat dig?", off)
    assert embedder.calls["document"] == after_first
    assert first.extracted is not None
    assert again.extracted is not None
    assert [c.cited_text for c in again.extracted.citations] == [
        c.cited_text for c in first.extracted.citations
    ]


def test_two_embedders_never_share_a_kept_vector_and_the_oldest_goes_first() -> None:
    store = SentenceVectors(capacity=2)
    one, other = FakeEmbedder(model="one"), FakeEmbedder(model="other", dimensions=8)
    store.embed(one, ["a wombat", "a wombat", "an echidna"], "document")
    assert one.calls["document"] == 2  # a text given twice is embedded once
    assert store.embed(other, ["a wombat"], "document").shape == (1, 8)
    assert other.calls["document"] == 1
    store.embed(one, ["an echidna"], "document")  # kept: "a wombat" of `one` went first
    assert one.calls["document"] == 2
    again = store.embed(one, ["a wombat"], "document")
    assert one.calls["document"] == 3
    assert np.allclose(again, one.embed(["a wombat"], "document"))

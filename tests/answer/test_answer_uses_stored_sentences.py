"""An answer weighs the sentences ingest stored: it embeds none of them while the reader waits,
and extracts what it extracts when it embeds them itself."""

from __future__ import annotations

from pathlib import Path

import groundkit
from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.service import answer_question
from groundkit.answer.shown import ShownSentences
from groundkit.testing.embedder import FakeEmbedder

QUESTION = "what does the wombat eat?"


def _extract(index_dir: Path, docs: Path, model: str, *, stored: bool) -> tuple[list[str], int]:
    split = ShownSentences(min_quote_chars=12) if stored else None
    with groundkit.open_collection(
        "c", index_dir=index_dir, embedder=FakeEmbedder(model=model)
    ) as c:
        c.ingest([docs], dense=True, sentences=split)
    # A fresh process's embedder: it has embedded nothing yet.
    fresh = FakeEmbedder(model=model)
    with groundkit.open_collection("c", index_dir=index_dir, embedder=fresh) as c:
        report = answer_question(c, QUESTION, AIStatus(AIState.DISABLED))
    assert report.extracted is not None
    return [q.cited_text for q in report.extracted.citations], fresh.calls["document"]


def test_an_answer_over_stored_sentences_embeds_none_and_extracts_the_same(
    tmp_path: Path, docs: Path
) -> None:
    live, embedded_live = _extract(tmp_path / "a", docs, "sentences-live", stored=False)
    kept, embedded_kept = _extract(tmp_path / "b", docs, "sentences-kept", stored=True)
    assert embedded_live > 0
    assert embedded_kept == 0
    assert kept == live
    assert any("grasses, roots and bark" in text for text in kept)

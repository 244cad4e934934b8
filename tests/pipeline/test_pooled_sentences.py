"""With the local model, an ingest's sentence vectors come from the chunk's own run (pooled from
its token states), whether made with the chunk's vector or later for a chunk that had one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import groundkit
from groundkit import Collection
from groundkit.answer.shown import ShownSentences
from groundkit.config import EmbedConfig
from groundkit.embed.local import OnnxEmbedder, load_local_embedder

SPLIT = ShownSentences(min_quote_chars=12)
KETTLE = (
    "# Kettle\n\nDescale the kettle once a month with white vinegar.\n\n"
    "Pour the first boil away after descaling, then rinse it twice.\n"
)


@pytest.fixture(scope="module")
def minilm() -> OnnxEmbedder:
    found = load_local_embedder(EmbedConfig())
    assert isinstance(found, OnnxEmbedder)
    return found


def _open(index_dir: Path, embedder: OnnxEmbedder) -> Collection:
    return groundkit.open_collection("notes", index_dir=index_dir, embedder=embedder)


def _docs(root: Path) -> Path:
    root.mkdir()
    (root / "kettle.md").write_text(KETTLE, encoding="utf-8")
    return root


def _stored(c: Collection) -> tuple[str, list[str], np.ndarray]:
    (chunk,) = c.chunks()
    found = c.sentences_of([chunk.chunk_id])[chunk.chunk_id]
    return chunk.text, found.texts, found.vectors


def test_an_ingests_sentence_vectors_are_pooled_from_the_chunks_own_run(
    tmp_path: Path, minilm: OnnxEmbedder
) -> None:
    with _open(tmp_path / "index", minilm) as c:
        report = c.ingest([_docs(tmp_path / "docs")], dense=True, sentences=SPLIT)
        text, texts, vectors = _stored(c)
    # The document's one chunk, from its start and with its heading: read by the embedder as is.
    assert text.startswith("# Kettle")
    spans = [(text.index(t), text.index(t) + len(t)) for t in texts]
    assert len(spans) == 2
    pooled = minilm.embed_spans([text], [spans], "document").spans[0]
    assert np.allclose(vectors, pooled, atol=1e-4)
    assert not np.allclose(vectors, minilm.embed(texts, "document"), atol=1e-2)
    assert report.chunks_split == 1


def test_sentences_made_later_for_chunks_with_vectors_are_pooled_the_same_way(
    tmp_path: Path, minilm: OnnxEmbedder
) -> None:
    docs = _docs(tmp_path / "docs")
    with _open(tmp_path / "at-once", minilm) as c:
        c.ingest([docs], dense=True, sentences=SPLIT)
        at_once = _stored(c)
    with _open(tmp_path / "later", minilm) as c:
        c.ingest([docs], dense=True)  # sentences off
        assert c.sentences_of([c.chunks()[0].chunk_id]) == {}
        report = c.ingest([docs], sentences=SPLIT)
        later = _stored(c)
    assert later[1] == at_once[1]
    assert np.allclose(later[2], at_once[2], atol=1e-4)
    assert (report.chunks_written, report.chunks_embedded, report.chunks_split) == (0, 0, 1)

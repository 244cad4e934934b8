"""Split each chunk into the sentences an answer may show, once, and store their vectors.

An extractive answer weighs the evidence's sentences against the question by meaning; embedding
them while the reader waits was most of a cold ``grk answer`` (issue 35). So ingest does it,
after the chunk vectors and by the same embedder: every chunk with a vector and no stored
sentences is split by ``split`` (the answer's own splitter, handed down: this layer does not know
what a sentence is) and its sentences embedded, committed ``COMMIT_EVERY`` chunks at a time as
the chunk vectors are, so a run stopped mid-way keeps what it committed and the next resumes.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from groundkit.checkpoints import checkpoint
from groundkit.embed.base import Embedder
from groundkit.index.sentences import Unsplit
from groundkit.pipeline.progress import Progress
from groundkit.pipeline.vectors import COMMIT_EVERY, embed_checked

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["SentenceStore", "Splitter", "Stored", "embed_sentences"]


class Splitter(Protocol):
    def __call__(self, text: str, source: str) -> Sequence[tuple[int, int]]:
        """The ``(start, end)`` in ``text`` of each sentence worth embedding (``source``: the
        document's name as shown)."""
        ...


@dataclass(frozen=True, slots=True)
class Stored:
    """What a pass stored: the chunks whose sentences it stored, and how many sentences."""

    chunks: int = 0
    sentences: int = 0


class SentenceStore(Protocol):
    def transaction(self) -> AbstractContextManager[None]: ...

    def unsplit_chunks(self) -> list[Unsplit]: ...

    def put_sentences(self, rows: Sequence[tuple[int, bytes, bytes]]) -> None: ...


def embed_sentences(
    store: SentenceStore,
    embedder: Embedder,
    split: Splitter,
    *,
    batch_size: int,
    progress: Progress | None = None,
) -> Stored:
    """Split and embed the sentences of every chunk that has a vector and none stored."""
    import numpy as np

    embedded = 0
    pending = store.unsplit_chunks()
    if progress:
        progress("sentences", 0, len(pending))
    for first in range(0, len(pending), COMMIT_EVERY):
        group = pending[first : first + COMMIT_EVERY]
        found = [[(a, b) for a, b in split(c.text, c.source) if 0 <= a < b <= len(c.text)]
                 for c in group]  # fmt: skip
        texts = [c.text[a:b] for c, pairs in zip(group, found, strict=True) for a, b in pairs]
        vectors = _embed(embedder, texts, batch_size)
        rows, at = [], 0
        for chunk, pairs in zip(group, found, strict=True):
            offsets = np.asarray(pairs, dtype=np.int32).reshape(-1, 2)
            rows.append((chunk.rowid, offsets.tobytes(), vectors[at : at + len(pairs)].tobytes()))
            at += len(pairs)
        with store.transaction():
            store.put_sentences(rows)
        embedded += len(texts)
        checkpoint("sentences-batch-committed")
        if progress:
            progress("sentences", first + len(group), len(pending))
    return Stored(len(pending), embedded)


def _embed(embedder: Embedder, texts: list[str], batch_size: int) -> npt.NDArray[np.float32]:
    """The vectors of ``texts`` in their order, embedded in batches of like length (a batch is
    padded to its longest)."""
    import numpy as np

    out = np.empty((len(texts), embedder.identity.dimensions), np.float32)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    for first in range(0, len(order), batch_size):
        part = order[first : first + batch_size]
        out[part] = embed_checked(embedder, [texts[i] for i in part])
    return out

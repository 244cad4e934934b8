"""The vectors of the sentences embedded lately, kept so that asking again costs no embedding.

Embedding the evidence's sentences is nearly all of the extractive answer's time (measured:
``benchmarks/extract_speed.py``). A process that answers more than once (``grk serve``, the web
UI, an evaluation, ``grk answer --with-code``) meets the same passages again, and a sentence's
vector depends only on the embedder and the text. So vectors are kept by (embedder identity,
input type, text), the least recently used dropped past ``capacity``; a text given twice in one
call is embedded once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from groundkit.embed.base import Embedder, InputType

__all__ = ["CAPACITY", "PADDING", "SentenceVectors", "like_length"]

CAPACITY = 8192  # ~12 MB of 384-dimension vectors: the sentences of a few hundred passages
# A run pads each text to its longest, and padded tokens cost as much as real ones (more, on the
# answer's session without a memory arena: bigger buffers allocated afresh). Sentences share a
# run only while that padding stays within a tenth of their own length: the same sentences took
# 1.9x as long in runs of 24 (measured: ``benchmarks/answer_runs.py``); a run per text costs more
# again, in the runs' own overhead.
PADDING = 1.1


class SentenceVectors:
    """A least-recently-used store of vectors in front of any embedder; safe across threads."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._kept: OrderedDict[tuple[str, str, str], npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()
        self.embedded = 0  # texts sent to an embedder so far (what the store could not give)

    def embed(
        self, embedder: Embedder, texts: Sequence[str], input_type: InputType
    ) -> npt.NDArray[np.float32]:
        """``embedder.embed(texts, input_type)``, asking it only for texts not kept."""
        import numpy as np

        model = embedder.identity.key()
        with self._lock:
            found = {t: v for t in texts if (v := self._get((model, input_type, t))) is not None}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            found.update(zip(missing, embedder.embed(missing, input_type), strict=True))
            with self._lock:
                self.embedded += len(missing)
                for text in missing:
                    self._put((model, input_type, text), found[text])
        if not texts:
            return embedder.embed([], input_type)
        return np.stack([found[t] for t in texts])

    def keep(
        self,
        model: str,
        input_type: InputType,
        texts: Sequence[str],
        vectors: Iterable[npt.NDArray[np.float32]],
    ) -> None:
        """Keep vectors made elsewhere by the embedder whose identity key is ``model`` (the
        sentences ingest stored, ``answer.shown``): asking for those texts then embeds nothing."""
        with self._lock:
            for text, vector in zip(texts, vectors, strict=True):
                self._put((model, input_type, text), vector)

    def clear(self) -> None:
        """Forget every kept vector (a benchmark measuring a cold answer)."""
        with self._lock:
            self._kept.clear()

    def _get(self, key: tuple[str, str, str]) -> npt.NDArray[np.float32] | None:
        vector = self._kept.get(key)
        if vector is not None:
            self._kept.move_to_end(key)
        return vector

    def _put(self, key: tuple[str, str, str], vector: npt.NDArray[np.float32]) -> None:
        self._kept[key] = vector
        self._kept.move_to_end(key)
        while len(self._kept) > self._capacity:
            self._kept.popitem(last=False)


def like_length(texts: Sequence[str], most: int) -> list[list[int]]:
    """Positions of ``texts`` in runs of like length, shortest first: a text joins the run
    before it while every text padded to it is at most ``PADDING`` times their own length
    (characters standing in for tokens), and a run holds at most ``most``."""
    runs: list[list[int]] = []
    chars = 0
    for i in sorted(range(len(texts)), key=lambda i: len(texts[i])):
        size = len(texts[i])
        run = runs[-1] if runs else []
        if run and len(run) < most and (len(run) + 1) * size <= PADDING * (chars + size):
            run.append(i)
            chars += size
        else:
            runs.append([i])
            chars = size
    return runs

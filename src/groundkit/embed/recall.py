"""An embedder that remembers the last few questions it embedded.

A search embeds its query; `grk answer` then weighs the evidence's sentences against the same
question, by the same embedder, in the same process. Kept here, the question is embedded once
(issue 35: reuse the search's query vector). Only single texts of input type ``query`` are
kept: documents go through as they are.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from groundkit.embed.base import Embedder, EmbedderIdentity, InputType

__all__ = ["RecallsQueries"]

_KEPT = 8


class RecallsQueries:
    """``inner``, with the vectors of its last ``_KEPT`` single queries kept."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._queries: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()  # a served collection searches on several threads

    @property
    def identity(self) -> EmbedderIdentity:
        return self.inner.identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if input_type != "query" or len(texts) != 1:
            return self.inner.embed(texts, input_type)
        with self._lock:
            kept = self._queries.get(texts[0])
        if kept is None:
            kept = self.inner.embed(texts, input_type)
        with self._lock:
            self._queries[texts[0]] = kept
            self._queries.move_to_end(texts[0])
            while len(self._queries) > _KEPT:
                self._queries.popitem(last=False)
        return kept.copy()

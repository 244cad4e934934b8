"""A deterministic, dependency-light embedder for tests: hashed bag of words, L2-normalised."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from groundkit.embed.base import EmbedderIdentity, InputType

__all__ = ["FakeEmbedder"]

_WORD = re.compile(r"\w+")


class FakeEmbedder:
    """Texts sharing words get similar vectors, so dense search behaves plausibly in tests.

    ``calls`` counts the texts embedded per input type, so tests can prove nothing is re-embedded.
    """

    def __init__(self, dimensions: int = 64, *, model: str = "fake-bow") -> None:
        self._identity = EmbedderIdentity("fake", model, dimensions, True, "1")
        self.calls: dict[str, int] = {"query": 0, "document": 0}

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        self.calls[input_type] += len(texts)
        dims = self._identity.dimensions
        out = np.zeros((len(texts), dims), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % dims] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return (out / np.where(norms == 0, 1.0, norms)).astype(np.float32)

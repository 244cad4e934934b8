"""The embedder seam.

An embedder turns texts into float32 row vectors. Its ``identity`` names everything that decides
what a vector means (provider, model, dimensions, normalisation, revision); a collection records
the identity it was built with and refuses any other, so vectors of two models never mix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Embedder",
    "EmbedderIdentity",
    "InputType",
    "SpanEmbedder",
    "SpanVectors",
    "Wrapper",
    "span_embedder",
]

InputType = Literal["query", "document"]


@dataclass(frozen=True, slots=True)
class EmbedderIdentity:
    provider: str
    model: str
    dimensions: int
    normalized: bool
    revision: str  # a content hash of the weights, or the provider's model version

    def key(self) -> str:
        """One line that changes whenever a vector's meaning could."""
        norm = "norm" if self.normalized else "raw"
        return f"{self.provider}:{self.model}@{self.revision}/{self.dimensions}/{norm}"

    @classmethod
    def parse(cls, key: str) -> EmbedderIdentity:
        head, dims, norm = key.rsplit("/", 2)
        provider_model, revision = head.rsplit("@", 1)
        provider, model = provider_model.split(":", 1)
        return cls(provider, model, int(dims), norm == "norm", revision)


@runtime_checkable
class Embedder(Protocol):
    @property
    def identity(self) -> EmbedderIdentity: ...

    def embed(
        self, texts: Sequence[str], input_type: InputType
    ) -> npt.NDArray[np.float32]:  # shape (len(texts), identity.dimensions)
        ...


@dataclass(frozen=True, slots=True)
class SpanVectors:
    """What one model run over some texts gives: each text's vector (``texts``, one row each),
    and for each text a vector per span of it asked for (``spans[i]``, in the order asked).
    ``alone``: how many spans lay past what the model reads of its text and were embedded on
    their own instead."""

    texts: npt.NDArray[np.float32]
    spans: tuple[npt.NDArray[np.float32], ...]
    alone: int


@runtime_checkable
class SpanEmbedder(Embedder, Protocol):
    """An embedder that also gives vectors of spans of each text from the same run (an
    optional capability: ingest's sentence vectors cost no second run where it is had)."""

    def embed_spans(
        self,
        texts: Sequence[str],
        spans: Sequence[Sequence[tuple[int, int]]],
        input_type: InputType,
    ) -> SpanVectors:
        """``texts``' vectors, as ``embed`` gives them, and a vector of each ``(start, end)``
        character span of ``spans[i]`` in ``texts[i]``, normalised as the text's is."""
        ...


@runtime_checkable
class Wrapper(Protocol):
    """An embedder in front of another (a cache, a lazy loader): ``inner`` is the one inside."""

    @property
    def inner(self) -> Embedder: ...


def span_embedder(embedder: Embedder) -> SpanEmbedder | None:
    """``embedder``, or the one inside its wrappers, if it can embed spans; else None."""
    while not isinstance(embedder, SpanEmbedder):
        if not isinstance(embedder, Wrapper):
            return None
        embedder = embedder.inner
    return embedder

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

__all__ = ["Embedder", "EmbedderIdentity", "InputType"]

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

"""A search's question is embedded once, however often the same process weighs it again."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from groundkit.embed.base import EmbedderIdentity, InputType
from groundkit.embed.recall import RecallsQueries


class Counting:
    identity = EmbedderIdentity("test", "count", 2, True, "1")

    def __init__(self) -> None:
        self.calls: list[tuple[tuple[str, ...], str]] = []

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        self.calls.append((tuple(texts), input_type))
        return np.array([[float(len(t)), 1.0] for t in texts], np.float32)


def test_the_same_question_is_embedded_once_and_documents_every_time() -> None:
    inner = Counting()
    kept = RecallsQueries(inner)
    first = kept.embed(["how do I set a timeout"], "query")
    first[0, 0] = -1.0  # a caller's change to its copy changes nothing kept
    again = kept.embed(["how do I set a timeout"], "query")
    kept.embed(["a sentence"], "document")
    kept.embed(["a sentence"], "document")
    assert again[0, 0] == len("how do I set a timeout")
    assert inner.calls == [
        (("how do I set a timeout",), "query"),
        (("a sentence",), "document"),
        (("a sentence",), "document"),
    ]
    assert kept.identity == inner.identity

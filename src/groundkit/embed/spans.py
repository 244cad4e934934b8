"""Vectors of spans of a text, pooled from the token states of the model's run over the whole text.

A BERT-style sentence vector is the mean of its tokens' last hidden states, normalised. The
states of a longer text's run hold a vector for every token too, each placed in the text by the
tokenizer's character offsets; so a span's vector is the mean of the states of the tokens that
overlap it, normalised the same way, and costs no second run. Its tokens have read the rest of
the text (attention spans the whole run), so it is not the very vector the span embedded alone
would get: ``benchmarks/reader_questions.py`` and ``answer_quality.py`` weigh what that does.

A text longer than the model's window is cut (truncated) at it: a span that reaches past the
last token the model read has no states, or only some of its own, and is left to the caller
(``pool`` says which), who embeds it on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["pool"]


def pool(
    encoding: Any, hidden: npt.NDArray[np.float32], spans: Sequence[tuple[int, int]], shift: int
) -> tuple[npt.NDArray[np.float32], list[int]]:
    """The normalised mean state of the tokens of each span, and the indexes of the spans the
    run did not read whole (their rows are zero).

    ``encoding``: the tokenizer's ``Encoding`` of the text (offsets, masks, overflow);
    ``hidden``: its run's states, one row per token; ``spans``: ``(start, end)`` characters in
    the caller's text, which begins ``shift`` characters into the encoded one (a prefix).
    """
    offsets = np.asarray(encoding.offsets, dtype=np.int64).reshape(-1, 2)
    # [CLS], [SEP] and padding carry no text: never part of a span.
    real = (np.asarray(encoding.special_tokens_mask) == 0) & (
        np.asarray(encoding.attention_mask) == 1
    )
    starts, ends = offsets[:, 0], offsets[:, 1]
    read_to = int(ends[real].max()) if real.any() else 0
    cut = len(encoding.overflowing) > 0  # the text went on past the model's window
    out = np.zeros((len(spans), hidden.shape[-1]), np.float32)
    left: list[int] = []
    for i, (start, end) in enumerate(spans):
        a, b = start + shift, end + shift
        inside = real & (starts < b) & (ends > a)
        if (cut and b > read_to) or not inside.any():
            left.append(i)
            continue
        mean = hidden[inside].mean(axis=0)
        out[i] = mean / max(float(np.linalg.norm(mean)), 1e-12)
    return out, left

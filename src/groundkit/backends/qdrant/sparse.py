"""BM25 as Qdrant sparse vectors, made here by groundkit's own analyzer.

Each chunk's vector holds, for every term the analyzer makes of its indexed text (tokenizer,
lowercasing, stop words, stemmer: ``index.lexical.analyzer``), BM25's term-frequency part::

    (k1 + 1) * tf / (tf + k1 * (1 - b + b * dl / avgdl))

with tantivy's constants (k1 = 1.2, b = 0.75) and its lossy document length (``dl`` is the
token count rounded down to one of 256 field-norm steps, as tantivy stores it). The collection's
sparse vector has Qdrant's IDF modifier, so the server multiplies each query term by
``ln(1 + (N - n + 0.5) / (n + 0.5))`` over the points it counts, which is tantivy's idf: a query
vector of ones then scores exactly what the embedded index does, and adding documents never
re-weights a stored point.

What a stored point cannot follow is ``avgdl``: it is frozen in the collection's manifest when
the first chunks are written (the mean over the first ``AVGDL_SAMPLE`` of them) and kept until
``grk reindex`` re-weights every chunk with the mean of the collection as it is then
(docs/decisions/0015-qdrant-backend.md measures what the frozen value costs).

Terms map to sparse indices by a 32-bit hash (blake2b): no vocabulary to keep in step across
writers. Two terms that collide share an index; at 2^32 indices that is about one pair in a
vocabulary of 90,000 terms, and it costs only that pair's ranking.
"""

from __future__ import annotations

import bisect
import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from groundkit.index.lexical import ANALYZER, analyzer

__all__ = [
    "AVGDL_SAMPLE",
    "K1",
    "SPARSE_BUILD",
    "B",
    "Encoder",
    "Terms",
    "mean_length",
    "quantized_length",
    "weights",
]

K1 = 1.2
B = 0.75
AVGDL_SAMPLE = 1000  # chunks whose mean length freezes avgdl in a new collection
# What the stored sparse vectors depend on: the analyzer, the hashing and the formula.
SPARSE_BUILD = f"{ANALYZER}+blake2b32+bm25-k1.2-b0.75"
_CACHE_LIMIT = 500_000  # term -> index entries kept


def _field_norms() -> list[int]:
    """tantivy's 256 document lengths (Lucene's ``SmallFloat.byte4ToInt``, 24 exact values)."""
    table = []
    for code in range(256):
        if code < 24:
            table.append(code)
            continue
        i = code - 24
        bits, shift = i & 7, (i >> 3) - 1
        table.append(24 + (bits if shift == -1 else (bits | 8) << shift))
    return table


_NORMS = _field_norms()


def quantized_length(tokens: int) -> int:
    """The length tantivy keeps of a document of ``tokens`` tokens."""
    return _NORMS[bisect.bisect_right(_NORMS, tokens) - 1]


@dataclass(frozen=True, slots=True)
class Terms:
    """One chunk's analyzed text: term index -> frequency, and its token count."""

    counts: dict[int, int]
    length: int


class Encoder:
    """The analyzer and the term hashing of one process (not thread-safe: one per writer)."""

    def __init__(self) -> None:
        self._analyzer = analyzer()
        self._ids: dict[str, int] = {}

    def tokens(self, text: str) -> list[str]:
        return self._analyzer.analyze(text)

    def term_id(self, term: str) -> int:
        found = self._ids.get(term)
        if found is None:
            if len(self._ids) >= _CACHE_LIMIT:
                self._ids.clear()
            digest = hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest()
            found = self._ids[term] = int.from_bytes(digest, "big")
        return found

    def terms(self, text: str) -> Terms:
        tokens = self.tokens(text)
        return Terms(dict(Counter(self.term_id(t) for t in tokens)), len(tokens))

    def query(self, terms: Iterable[str]) -> tuple[list[int], list[float]]:
        """A query's sparse vector: each distinct term once, weight 1 (the server adds idf)."""
        ids = sorted({self.term_id(t) for t in terms})
        return ids, [1.0] * len(ids)


def weights(terms: Terms, avgdl: float) -> tuple[list[int], list[float]]:
    """The sparse vector of one chunk (indices sorted)."""
    norm = K1 * (1 - B + B * quantized_length(terms.length) / avgdl)
    indices = sorted(terms.counts)
    return indices, [(K1 + 1) * terms.counts[i] / (terms.counts[i] + norm) for i in indices]


def mean_length(lengths: Sequence[int]) -> float:
    """avgdl of some chunks (1.0 for none, so that a first vector is still defined)."""
    return sum(lengths) / len(lengths) if lengths else 1.0

"""Finding the edges a question is about: BM25 over each edge's evidence and the names of its
ends, in memory.

Identifiers are split the way people say them (``put_document``, ``putDocument`` and
``Store.put`` give ``put``, ``document``, ``store``), words are folded to a crude stem so that
"stored" finds ``store``, and a few question words are dropped. Scoring is pure and apart from
tokenising; ties are broken by confidence, then by the edge's id, so the same map and the same
question always give the same edges.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from groundkit.codemap.model import Edge, EdgeKind

__all__ = ["SEARCH_KINDS", "EdgeHit", "bm25_scores", "search_edges", "tokens"]

# Containment says where code lives, not what depends on what: it is not searched.
SEARCH_KINDS = frozenset(
    {EdgeKind.CALLS, EdgeKind.IMPORTS, EdgeKind.INHERITS, EdgeKind.HANDLES, EdgeKind.HTTP_CALL}
)
_K1 = 1.2
_B = 0.75
_PIECE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_STOP = frozenset(
    "a an and are as at be by can do does for from how i in is it of on or so that the this"
    " to was what when where which who why will with".split()
)
_SUFFIXES = ("ings", "ing", "ies", "es", "ed", "s", "e")
# Stems of the verbs every evidence line of a kind holds: scored, but no use to narrow the pool.
_VERBS = frozenset({"call", "import", "inherit", "defin", "handl"})


@dataclass(frozen=True, slots=True)
class EdgeHit:
    edge: Edge
    score: float


def tokens(text: str) -> list[str]:
    """Lower-case stems of the words in ``text``, identifiers split at ``_``, ``.`` and case."""
    out = []
    for piece in _PIECE.findall(text):
        word = piece.lower()
        if word not in _STOP:
            out.append(_stem(word))
    return out


@functools.cache  # a map repeats the same few thousand words (its names) many times over
def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if suffix == "s" and word.endswith("ss"):  # class, process: not plurals
            continue
        if len(word) - len(suffix) >= 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def bm25_scores(
    query: Sequence[str], docs: Sequence[Sequence[str]], *, total: int | None = None
) -> list[float]:
    """Okapi BM25 of each tokenised document for the tokenised query (each term once).

    ``total`` is the size of the whole collection when ``docs`` are only the documents holding
    some query term (the others score 0 and add nothing to a term's document frequency)."""
    n = len(docs) if total is None else total
    if not docs:
        return []
    lengths = [len(d) for d in docs]
    average = sum(lengths) / n or 1.0
    counts = [Counter(d) for d in docs]
    terms = list(dict.fromkeys(query))
    frequency = {t: sum(1 for c in counts if t in c) for t in terms}
    scores = []
    for count, length in zip(counts, lengths, strict=True):
        score = 0.0
        for term in terms:
            tf = count.get(term, 0)
            if tf:
                idf = math.log(1 + (n - frequency[term] + 0.5) / (frequency[term] + 0.5))
                score += idf * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / average))
        scores.append(score)
    return scores


def search_edges(
    edges: Iterable[Edge], query: str, *, top_k: int = 5, kinds: frozenset[EdgeKind] = SEARCH_KINDS
) -> list[EdgeHit]:
    """The ``top_k`` edges that best match ``query``; none when no word of it occurs.

    Only edges whose text holds a query stem as a substring are tokenised (a stem is a prefix of
    the lower-cased word it came from, so none is missed), leaving out the verbs every line of a
    kind holds when the query has other words; the average length BM25 normalises by is theirs.
    """
    wanted = tokens(query)
    pool = [e for e in edges if e.kind in kinds]
    texts = [f"{e.evidence} {e.source.qualname} {e.target.qualname}" for e in pool]
    narrow = [w for w in wanted if w not in _VERBS] or wanted
    near = [i for i, t in enumerate(texts) if any(w in t.lower() for w in narrow)]
    docs = [tokens(texts[i]) for i in near]
    scores = bm25_scores(wanted, docs, total=len(pool))
    scored = [EdgeHit(pool[i], score) for i, score in zip(near, scores, strict=True) if score > 0]
    scored.sort(key=lambda h: (-round(h.score, 9), -h.edge.confidence, h.edge.id))
    return scored[: max(top_k, 0)]

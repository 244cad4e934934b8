"""Sentences of the evidence that best match a question, with no model: the extractive answer.

Each passage of a bundle is cut into sentences at exact offsets (``spans.sentence_parts``: a
hard-wrapped paragraph's lines run on, a heading or a list item starts anew); each code-map edge
is one sentence, its evidence line. Only sentences the citation contract accepts as quotes are
candidates (long enough, more than the question's words), and no heading (a title answers
nothing), so an answer made of them validates by construction.

Ranking sums, over the candidates: the cosine similarity of each sentence to the question under
the collection's embedder (when it has one), and BM25 over the sentences (words stemmed,
identifiers split: ``codemap.search``) at ``BM25_WEIGHT``, each scaled to [0, 1] over the
candidates; then three smaller terms, each at most ``PRIOR_WEIGHT``: how much the sentence reads
as prose (``priors.prose``: not a title, a fragment, a question or a line of code), how close its
neighbours in the same passage are to the question (a sentence is read in its context: "Incubate
at 37 °C" answers a question about the assay its neighbours name), and, for a question asking
how many, how long or when, whether it holds a number. Ties go to the passage that ranked
higher, then to the earlier sentence. ``choose`` keeps the best few, folds near-duplicates (the
same sentence stored twice) into the better one, and returns them in reading order: documents in
the order their best passage ranked, each document's sentences in the order it has them; edges
grouped by file, by line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundkit.answer.contract import QuoteRules
from groundkit.answer.edges import EdgeItem
from groundkit.answer.priors import asks_quantity, holds_quantity, prose
from groundkit.answer.sentence_vectors import SentenceVectors
from groundkit.answer.spans import sentence_parts
from groundkit.codemap.search import bm25_scores, tokens

if TYPE_CHECKING:
    from groundkit.answer.bundle import EvidenceBundle
    from groundkit.embed.base import Embedder

__all__ = [
    "BM25_WEIGHT",
    "PRIOR_WEIGHT",
    "VECTORS",
    "Sentence",
    "candidates",
    "choose",
    "closeness",
    "rank",
    "reply_of",
]

# The embedder is the first signal and BM25 the second: each is scaled to [0, 1] over the
# candidates, and BM25 counts half. (Reciprocal-rank fusion, as hybrid search uses, let two
# middling ranks beat a sentence the embedder alone put far ahead.)
BM25_WEIGHT = 0.5
# The priors (prose, context, quantity) each move a sentence by at most a fifth of the embedder's
# range: enough to break near-ties between sentences of similar meaning, never to put a sentence
# the signals rank low first (measured: benchmarks/answer_quality.py, docs/answer.md).
PRIOR_WEIGHT = 0.2
VECTORS = SentenceVectors()  # one per process: every answer it gives meets the same passages
_FOLD = 0.8  # word overlap (Jaccard) at which two sentences are one
_WORD = re.compile(r"\w+")
_HEADING = re.compile(r"#{1,6}\s")


@dataclass(frozen=True, slots=True)
class Sentence:
    """One quotable sentence of bundle item ``source``: ``text == item.text[start:end]``."""

    source: int
    start: int
    end: int
    text: str
    # Reading order: (0, the rank of its document's best passage, offset in the document) for a
    # passage's sentence; (1, file, line, number) for an edge.
    order: tuple[int, int | str, int, int] = (0, 0, 0, 0)
    prose: float = 1.0  # how much it reads as a statement on its own (``priors.prose``)


def candidates(bundle: EvidenceBundle, rules: QuoteRules) -> list[Sentence]:
    """Every sentence of the bundle the contract would accept as a quote, in bundle order."""
    out: list[Sentence] = []
    documents: dict[str, int] = {}
    for item in bundle.items:
        if isinstance(item, EdgeItem):
            where = item.edge.location
            place = (1, where.path, where.line, item.number)
            if rules.problem(item.text) is None:
                out.append(Sentence(item.number, 0, len(item.text), item.text, place))
            continue
        rank = documents.setdefault(item.document_id, len(documents))
        for start, end, block in sentence_parts(item.text, min_chars=rules.min_chars):
            text = item.text[start:end]
            if rules.problem(text) is None and not _HEADING.match(text):
                order = (0, rank, item.start + start, 0)
                out.append(Sentence(item.number, start, end, text, order, prose(text, block)))
    return out


def rank(
    question: str, sentences: Sequence[Sentence], embedder: Embedder | None = None
) -> list[Sentence]:
    """``sentences``, best match for ``question`` first."""
    if not sentences:
        return []
    lexical = _scaled(bm25_scores(tokens(question), [tokens(s.text) for s in sentences]))
    fused = [BM25_WEIGHT * x for x in lexical]
    if embedder is not None:
        meaning = _scaled(_cosines(embedder, question, [s.text for s in sentences]))
        for i, context in enumerate(_neighbours(sentences, meaning)):
            fused[i] += meaning[i] + PRIOR_WEIGHT * context
    quantity = asks_quantity(question)
    for i, s in enumerate(sentences):
        fused[i] += PRIOR_WEIGHT * (s.prose + (quantity and holds_quantity(s.text)))
    best = sorted(range(len(sentences)), key=lambda i: (-round(fused[i], 9), i))
    return [sentences[i] for i in best]


def _scaled(scores: Sequence[float]) -> list[float]:
    low, high = min(scores), max(scores)
    return [(x - low) / (high - low) if high > low else 0.0 for x in scores]


def _neighbours(sentences: Sequence[Sentence], scores: Sequence[float]) -> list[float]:
    """For each sentence, the better score of the one before and the one after it in the same
    evidence item (0 for a sentence alone in its item)."""
    out = []
    for i, s in enumerate(sentences):
        around = range(max(i - 1, 0), min(i + 2, len(sentences)))
        near = [scores[j] for j in around if j != i and sentences[j].source == s.source]
        out.append(max(near, default=0.0))
    return out


def choose(ranked: Sequence[Sentence], count: int) -> list[Sentence]:
    """The first ``count`` of ``ranked`` that are not near-duplicates of one already chosen,
    in reading order."""
    chosen: list[Sentence] = []
    words: list[set[str]] = []
    for sentence in ranked:
        if len(chosen) >= count:
            break
        mine = set(_WORD.findall(sentence.text.casefold()))
        if any(_same(mine, other) for other in words):
            continue
        chosen.append(sentence)
        words.append(mine)
    return sorted(chosen, key=lambda s: s.order)


def reply_of(sentences: Sequence[Sentence]) -> str:
    """The reply a model would have to write to give exactly these sentences: one item each,
    its text the sentence, citing itself. It goes through ``validate_answer`` like any other."""
    items = [
        {"text": s.text, "citations": [{"source": s.source, "quote": s.text}]} for s in sentences
    ]
    return json.dumps({"items": items}, ensure_ascii=False)


def _same(a: set[str], b: set[str]) -> bool:
    if not a or not b:
        return a == b
    return len(a & b) / len(a | b) >= _FOLD or a <= b or b <= a


def closeness(embedder: Embedder, question: str, texts: Sequence[str]) -> float:
    """The best cosine similarity of any of ``texts`` to ``question`` (0 for none)."""
    return max(_cosines(embedder, question, list(texts)), default=0.0) if texts else 0.0


def _cosines(embedder: Embedder, question: str, texts: list[str]) -> list[float]:
    import numpy as np

    asked = VECTORS.embed(embedder, [question], "query")
    found = VECTORS.embed(embedder, texts, "document")
    norms = np.linalg.norm(found, axis=1) * float(np.linalg.norm(asked[0])) + 1e-12
    return [float(x) for x in (found @ asked[0]) / norms]

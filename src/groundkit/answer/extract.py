"""Sentences of the evidence that best match a question, with no model: the extractive answer.

Each passage of a bundle is cut into units at exact offsets (``answer.units``): its sentences,
each with what it needs to be read (a sentence that introduces code with the code, one that
refers back with what it refers to, the first sentence under an API heading or a release-notes
bullet with its heading as a ``lead``), code blocks no sentence introduced, and tables; each
code-map edge is one unit, its evidence line. Only units the citation contract accepts as quotes
are candidates, and only of kinds that can answer the question asked (``offered``): a how-to
question is never answered by a table, a line of imports or release notes, and only a question
about a change ("when did ...", "which version ...") by release notes.

Ranking sums, over the candidates: the cosine similarity of each unit's sentence to the question
under the collection's embedder (when it has one), and BM25 over the units (words stemmed,
identifiers split: ``codemap.search``) at ``BM25_WEIGHT``, each scaled to [0, 1] over the
candidates; then smaller terms, each at most ``PRIOR_WEIGHT``: how much the sentence reads as
prose (``priors.prose``), how close its neighbours in the same passage are to the question,
whether it names a term of the question that few others name (``priors.names_term``),
for a question asking how many, how long or when whether it holds a number, the rank of its
passage in the search (``RANK_WEIGHT``), and for a how-to question whether it shows code. Only
the ``EMBEDDED`` best by the other terms of the ``NEAREST`` passages by meaning, and as many of
the other passages, are embedded (embedding is nearly all of the cost); the rest keep their
lexical score. ``choose`` keeps the best few, folds near-duplicates into the
better one, and returns them in reading order: documents in the order their best passage
ranked, each document's units in the order it has them; edges grouped by file, by line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from groundkit.answer.contract import QuoteRules
from groundkit.answer.edges import EdgeItem
from groundkit.answer.priors import asks_quantity, holds_quantity, names_term, prose
from groundkit.answer.question import Asks, asks
from groundkit.answer.sentence_vectors import SentenceVectors, like_length
from groundkit.answer.units import Unit, UnitKind, is_release_notes, units
from groundkit.codemap.search import bm25_scores, tokens

if TYPE_CHECKING:
    from groundkit.answer.bundle import EvidenceBundle
    from groundkit.answer.spans import Block
    from groundkit.embed.base import Embedder

__all__ = [
    "BM25_WEIGHT",
    "EMBEDDED",
    "NEAREST",
    "PRIOR_WEIGHT",
    "RANK_WEIGHT",
    "VECTORS",
    "Sentence",
    "candidates",
    "choose",
    "closeness",
    "offered",
    "rank",
    "reply_of",
]

# The embedder is the first signal and BM25 the second: each is scaled to [0, 1] over the
# candidates, and BM25 counts half. (Reciprocal-rank fusion, as hybrid search uses, let two
# middling ranks beat a sentence the embedder alone put far ahead.)
BM25_WEIGHT = 0.5
# The priors (prose, context, a term named, quantity, code for a how-to question) each move a
# sentence by at most a fifth of the embedder's range: enough to break near-ties between
# sentences of similar meaning, never to put a sentence the signals rank low first (measured:
# docs/answer.md).
PRIOR_WEIGHT = 0.2
# The search ranked the passages already, with the whole passage to go on: a sentence of the
# first passage gets this much more than one of the last.
RANK_WEIGHT = 0.2
# Sentences embedded per answer besides the nearest passages', the best by every other term:
# embedding is nearly all of an answer's time, and one that ranks below these on words, form and
# place rarely wins on meaning. The nearest passages never take this budget: a long one (an API
# reference's list) left the sentence the words ranked first unweighed (measured:
# benchmarks/README.md, ``reader_questions.py``).
EMBEDDED = 24
# ...and every sentence of the passages the search ranked best by meaning, however few words
# they share with the question: a paraphrase's answer shares none (measured: docs/answer.md).
# Three: the dense arm's third passage held the answer ("Python 3.9 is no longer supported"
# for "which interpreter release lost compatibility") that no word of the question found; a
# fourth cost a question whose answer the extra sentences outranked (benchmarks/README.md).
NEAREST = 3
VECTORS = SentenceVectors()  # one per process: every answer it gives meets the same passages
_FOLD = 0.8  # word overlap (Jaccard) at which two sentences are one
_WORD = re.compile(r"\w+")
# What each kind of question may be answered with (a passage's sentences and code always).
_ANSWERS: dict[Asks, frozenset[UnitKind]] = {
    "how": frozenset({"prose", "item", "code"}),
    "when": frozenset({"prose", "item", "code", "table", "release"}),
    "other": frozenset({"prose", "item", "code", "table", "release"}),
}


@dataclass(frozen=True, slots=True)
class Sentence:
    """One quotable unit of bundle item ``source``: ``text == item.text[start:end]``; ``lead``
    (a heading it is read under) is cited before it when there is one."""

    source: int
    start: int
    end: int
    text: str
    # Reading order: (0, the rank of its document's best passage, offset in the document) for a
    # passage's sentence; (1, file, line, number) for an edge.
    order: tuple[int, int | str, int, int] = (0, 0, 0, 0)
    prose: float = 1.0  # how much it reads as a statement on its own (``priors.prose``)
    core: str | None = None  # the sentence it is weighed by meaning on (None: ``text``)
    lead: str | None = None  # a heading cited before it: an API name, a version
    place: float = 1.0  # 1 for the first passage of the bundle, down towards 0 for the last
    code: bool = False  # it shows code (or is code)
    near: bool = False  # its passage is among the ``NEAREST`` the search ranked by meaning

    @property
    def meaning(self) -> str:
        return self.core if self.core is not None else self.text


def offered(kind: UnitKind, question: str) -> bool:
    """Whether a unit of ``kind`` may answer ``question``."""
    return kind in _ANSWERS[asks(question)]


def candidates(
    bundle: EvidenceBundle, rules: QuoteRules, question: str | None = None
) -> list[Sentence]:
    """Every unit of the bundle the contract would accept as a quote and that can answer
    ``question`` (None: any question), in bundle order."""
    out: list[Sentence] = []
    documents: dict[str, int] = {}
    passages = max(len(bundle.items), 1)
    for position, item in enumerate(bundle.items):
        if isinstance(item, EdgeItem):
            where = item.edge.location
            at = (1, where.path, where.line, item.number)
            if rules.problem(item.text) is None:
                out.append(Sentence(item.number, 0, len(item.text), item.text, at))
            continue
        rank = documents.setdefault(item.document_id, len(documents))
        release = is_release_notes(item.source, item.text)
        near = item.dense_rank is not None and item.dense_rank <= NEAREST
        for unit in units(item.text, release=release):
            if question is not None and not offered(unit.kind, question):
                continue
            sentence = _sentence(item.number, item.text, unit, rules)
            if sentence is not None:
                order = (0, rank, item.start + unit.start, 0)
                out.append(replace(sentence, order=order, place=1 - position / passages, near=near))
    return out


def _sentence(number: int, text: str, unit: Unit, rules: QuoteRules) -> Sentence | None:
    start = unit.start
    core = text[unit.core[0] : unit.core[1]]
    lead = text[unit.lead[0] : unit.lead[1]] if unit.lead else None
    if lead is not None and rules.problem(lead) is not None:
        # Too short to quote alone (``## app.keys=``): the name is quoted with the sentence it
        # heads when nothing stands between them, for without it "Set signed cookie keys." does
        # not say what sets them.
        if unit.lead is not None and not text[unit.lead[1] : start].strip():
            start = unit.lead[0]
        lead = None
    quote = text[start : unit.end]
    if rules.problem(quote) is not None or (core != quote and rules.problem(core) is not None):
        return None
    code = unit.brings_code or unit.kind in ("code", "imports")
    return Sentence(
        number, start, unit.end, quote, prose=prose(core, _block(unit.kind)),
        core=None if core == quote or unit.whole else core, lead=lead, code=code,
    )  # fmt: skip


def _block(kind: UnitKind) -> Block:
    return "code" if kind in ("code", "imports") else "table" if kind == "table" else "prose"


def rank(
    question: str, sentences: Sequence[Sentence], embedder: Embedder | None = None
) -> list[Sentence]:
    """``sentences``, best match for ``question`` first."""
    if not sentences:
        return []
    texts = [f"{s.lead}\n{s.text}" if s.lead else s.text for s in sentences]
    lexical = _scaled(bm25_scores(tokens(question), [tokens(t) for t in texts]))
    fused = [BM25_WEIGHT * x for x in lexical]
    quantity, how = asks_quantity(question), asks(question) == "how"
    named = names_term(question, texts)
    for i, s in enumerate(sentences):
        form = s.prose + (quantity and holds_quantity(s.text)) + (how and s.code) + named[i]
        fused[i] += PRIOR_WEIGHT * form + RANK_WEIGHT * s.place
    if embedder is not None:
        best = _to_embed(sentences, fused)
        scores = _cosines(embedder, question, [sentences[i].meaning for i in best])
        meaning = [0.0] * len(sentences)
        for i, score in zip(best, _scaled(scores), strict=True):
            meaning[i] = score
        for i, context in enumerate(_neighbours(sentences, meaning)):
            fused[i] += meaning[i] + PRIOR_WEIGHT * context
    order = sorted(range(len(sentences)), key=lambda i: (-round(fused[i], 9), i))
    return [sentences[i] for i in order]


def _to_embed(sentences: Sequence[Sentence], fused: Sequence[float]) -> list[int]:
    """Which sentences to embed: the ``EMBEDDED`` best by every other term of the passages
    nearest in meaning, and as many of the rest (so never more than twice ``EMBEDDED``)."""
    near = sorted((i for i, s in enumerate(sentences) if s.near), key=lambda i: -fused[i])
    rest = sorted((i for i, s in enumerate(sentences) if not s.near), key=lambda i: -fused[i])
    return near[:EMBEDDED] + rest[:EMBEDDED]


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
    in reading order. A unit that holds one already chosen (the sentence with the example it
    refers to, or the code it introduces) takes its place: it says more."""
    chosen: list[Sentence] = []
    words: list[set[str]] = []
    for sentence in ranked:
        mine = set(_WORD.findall(sentence.text.casefold()))
        held = [i for i, c in enumerate(chosen) if _holds(sentence, c)]
        if held:
            chosen[held[0]], words[held[0]] = sentence, mine
            continue
        if len(chosen) >= count:
            break
        if any(_same(mine, other) for other in words):
            continue
        chosen.append(sentence)
        words.append(mine)
    return sorted(dict.fromkeys(chosen), key=lambda s: s.order)


def _holds(bigger: Sentence, smaller: Sentence) -> bool:
    return (
        bigger.source == smaller.source
        and bigger.start <= smaller.start
        and smaller.end <= bigger.end
        and (bigger.start, bigger.end) != (smaller.start, smaller.end)
    )


def reply_of(sentences: Sequence[Sentence]) -> str:
    """The reply a model would have to write to give exactly these sentences: one item each,
    its text the sentence, citing its lead (when it has one) and itself. It goes through
    ``validate_answer`` like any other."""
    items = []
    for s in sentences:
        quotes = [s.lead, s.text] if s.lead else [s.text]
        cited = [{"source": s.source, "quote": q} for q in quotes]
        items.append({"text": s.text, "citations": cited})
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
    # At most EMBEDDED texts a call: a full batch of documents is ingest's, for which a local
    # embedder opens a session made for throughput (~0.25 s to open, threads spinning while it
    # runs), and an answer is a short wait that must not pay for it.
    found = np.empty((len(texts), embedder.identity.dimensions), np.float32)
    for part in like_length(texts, EMBEDDED):
        found[part] = VECTORS.embed(embedder, [texts[i] for i in part], "document")
    norms = np.linalg.norm(found, axis=1) * float(np.linalg.norm(asked[0])) + 1e-12
    return [float(x) for x in (found @ asked[0]) / norms]

"""What a sentence's form says about it as an answer, before its meaning is scored.

Three priors for the extractive ranking (``answer.extract``), all from the text alone:

- ``prose``: how much a sentence reads as a statement a reader can take on its own. A whole
  sentence of prose reads best; a table row holds answers but reads less well; a title, a label
  or a clause cut out of a longer line (no closing punctuation, or starting in lower case) tells
  little on its own; a question answers nothing, and a line of fenced code is an example, not
  an explanation. (Measured on the golden corpus: without this, titles such as
  ``TIDEPOOL UPGRADE`` and questions from a FAQ were among the three sentences shown.)
- ``quantity``: a question asking how many, how long, when or what it costs is answered by a
  sentence holding a number: the answer-type check of factoid question answering. Only what the
  question asks counts, at its head: "how do I retry when a connection fails" asks for a way.
- ``names_term``: a sentence that writes two of the question's words side by side, in its
  order (``word_pairs``), names a term the question asks about ("the Chief Information Security
  Officer, Priya Ramaswamy" for "who is the Chief Information Security Officer"), where one
  holding the same words apart ("security", "information" in a byline) may be about something
  else: the term proximity that bag-of-words BM25 cannot see. It counts as much as the term is
  rare among the candidates: the term of a page's topic, which all its sentences name, little.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from groundkit.answer.spans import Block
from groundkit.codemap.search import tokens

__all__ = ["asks_quantity", "holds_quantity", "names_term", "prose", "word_pairs"]

# Phrasings that ask for an amount, a duration, a time or a price, where a question says what
# it asks: at the head of one of its sentences, after at most one word ("For how long", "By what
# time"). Further on they belong to a condition, not to what is asked: "how do I retry when a
# connection fails" asks for a way, and a sentence holding a number answers it no better. What
# something costs is asked wherever the word stands ("What does the annual plan cost?").
_QUANTITY = re.compile(
    r"(?:^|[.?!:;]\s+)\W*(?:\w+\s+)?"
    r"(?:how\s+(?:many|much|long|often|far|hot|old|big|large|fast|soon)"
    r"|what\s+(?:time|date|percentage|price|size)|which\s+(?:version|year|port)|when)\b"
    r"|\bcosts?\b",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"\d")
# Marks that part the words on either side of them (a full stop only where a sentence ends:
# ``tidepool.Pool`` is one name).
_BREAK = re.compile(r"[,;:!?()\[\]{}\"\u2014]|\.(?=\s|$)")
# A statement ends on a full stop, a colon introducing what follows, or the closing mark of
# code, a quote or a bracket that ends one.
_CLOSED = re.compile(r"[.!:;)\]`\"']\s*$")
_LEAD = "-*+>#\u2022 \t0123456789.)["  # list markers and numbering before the first word


def prose(text: str, block: Block) -> float:
    """1 for a sentence of prose, down to 0 for a question or a line of code."""
    if block == "code" or text.rstrip().endswith("?"):
        return 0.0
    if text.lstrip(_LEAD)[:1].islower():  # a clause cut from a longer line, or a cell
        return 0.3
    if block == "table":
        return 0.7
    return 1.0 if _CLOSED.search(text) else 0.3  # no closing mark: a title or a cut line


def asks_quantity(question: str) -> bool:
    """Whether ``question`` asks for an amount, a duration, a time or a price."""
    return _QUANTITY.search(question) is not None


def holds_quantity(text: str) -> bool:
    return _DIGIT.search(text) is not None


Word = tuple[str, ...]  # the stems of one written word: ``BrightKettle`` is one word of two


def word_pairs(text: str) -> frozenset[tuple[Word, Word]]:
    """Each two words ``text`` writes side by side, each as ``codemap.search.tokens`` stems it:
    "HTTP status codes" gives ``(("http",), ("statu",))`` and ``(("statu",), ("cod",))``. A stop
    word or a punctuation mark between two words parts them ("a copy of an object" names no
    term); the pieces of one word are not two ("BrightKettle" names the product, not a term
    of the question about it). A single letter is a word: "reagent B" is a term."""
    pairs: set[tuple[Word, Word]] = set()
    for clause in _BREAK.split(text):
        run: list[Word] = []
        for written in clause.split():
            word = tuple(tokens(written))
            if not word:  # a stop word: what follows is not written beside what came before
                pairs.update(pairwise(run))
                run = []
            else:
                run.append(word)
        pairs.update(pairwise(run))
    return frozenset(pairs)


def names_term(question: str, texts: Sequence[str]) -> list[float]:
    """For each of ``texts``, how rare among them is the rarest term of ``question`` it names
    (``word_pairs``): 1 for a term only it names, less as more of them name it, 0 for none. A
    term every sentence of a page names ("environment variables" on the page about them) is
    its topic and tells them apart no more than a common word does: weighed as BM25 weighs a
    word (its inverse document frequency over ``texts``), scaled by a term only one names."""
    asked = word_pairs(question)
    named = [asked & word_pairs(t) for t in texts]
    frequency = Counter(term for terms in named for term in terms)
    n = len(texts)

    def rarity(df: int) -> float:
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    return [max((rarity(frequency[t]) for t in terms), default=0.0) / rarity(1) for terms in named]

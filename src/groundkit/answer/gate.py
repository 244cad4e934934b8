"""The gate on useless prose: a model's answer that checks out but tells a reader nothing.

``validate_answer`` proves every quote is genuine; it cannot see that the prose around them is
``a: a: a:``, or ``E"),``, or the quote copied out again, or about something the question never
mentioned. Small models write all four (``tests/answer/fixtures/small_model_replies.json``
holds the ones collected from SmolLM2-135M). ``check_helpful`` refuses such an answer with
``ai.unhelpful``: the evidence (and the sentences groundkit extracts from it) are shown instead.

It judges prose only. An answer whose text is groundkit's own choice of sentences (picked by a
model by number, or extracted with none) has no prose to judge. The rules, each on one item:

- **repeats**: a run of one to four tokens, holding a word, repeated three times in a row
  (``a: a: a:``, ``1.1.1.1``), or one sentence written twice;
- **no words**: no run of two letters, or more punctuation than letters and digits (``E"),``);
- **a copy**: every word it adds to what it copied (runs of four or more words found in its own
  quotes or in the sources it cites) is a function word: the quote printed twice says nothing;
- **off the question**: neither its quotes nor its text share a content word (stemmed,
  identifiers split) with the question (a claim may cite a detail in support: "They dig with
  claws" for "what does the wombat dig?").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from groundkit.codemap.search import tokens as content_words
from groundkit.errors import AIError, ErrorCode

if TYPE_CHECKING:
    from groundkit.answer.bundle import EvidenceBundle
    from groundkit.answer.contract import Answer

__all__ = ["check_helpful", "item_problem", "unhelpful_reason"]

_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"\w+")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_SENTENCE = re.compile(r"[^.!?\n]+")
_COPIED_RUN = 4  # words in a row that count as copied rather than written
_REPEATS = 3
# Words that carry no claim of their own: a copy with only these added is still a copy.
_FUNCTION = frozenset(
    """a about above after again all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each either few for from
    further had has have having he her here hers him his how i if in into is it its itself just
    may me might more most must my neither no nor not now of off on once only or other our ours
    out over own per please same says said she should so some source sources states such than
    that the their theirs them then there these they this those through thus to too under until
    up upon us very was we were what when where which while who whom why will with would yes
    you your yours""".split()
)


def check_helpful(answer: Answer, bundle: EvidenceBundle, *asked: str | None) -> None:
    """Refuse ``answer`` (an ``AIError`` with ``ai.unhelpful``) when an item's prose breaks a
    rule of the gate; ``asked`` is the question (and the query searched, when it was rewritten).
    An abstention and an answer whose text groundkit composed pass untouched."""
    reason = unhelpful_reason(answer, bundle, *asked)
    if reason is not None:
        raise AIError(
            ErrorCode.AI_UNHELPFUL,
            f"the model's answer was refused as unhelpful: {reason}",
            hint="the evidence is shown instead; a small local model does better picking"
            ' sentences (quotes = "pick") than writing prose (docs/answer.md)',
        )


def unhelpful_reason(answer: Answer, bundle: EvidenceBundle, *asked: str | None) -> str | None:
    """Which rule ``answer`` breaks first, naming the item (never quoting it), or None."""
    if answer.composed != "prose":
        return None
    for i, item in enumerate(answer.items, start=1):
        cited = [answer.citations[m - 1] for m in item.markers]
        sources = [bundle.items[c.source - 1].text for c in cited]
        problem = item_problem(item.text, [c.cited_text for c in cited], sources, *asked)
        if problem is not None:
            return f"item {i} {problem}"
    return None


def item_problem(
    text: str, quotes: Sequence[str], sources: Sequence[str], *asked: str | None
) -> str | None:
    """The rule one item's prose ``text`` breaks (``repeats itself``...), or None. ``quotes`` are
    its citations' quotes, ``sources`` the texts of the evidence items they cite."""
    question = {w for q in asked if q for w in content_words(q)}
    return (
        _repeats(text)
        or _no_words(text)
        or _copy(text, [*quotes, *sources])
        or _off_question([*quotes, text], question)
    )


def _repeats(text: str) -> str | None:
    tokens = _TOKEN.findall(text.casefold())
    for n in range(1, 5):
        for start in range(len(tokens) - n * _REPEATS + 1):
            gram = tokens[start : start + n]
            if not any(_WORD.fullmatch(t) for t in gram):
                continue  # "..." or "!!!": punctuation, not a loop
            if all(tokens[start + k * n : start + (k + 1) * n] == gram for k in range(_REPEATS)):
                return "repeats itself"
    sentences = [" ".join(_WORD.findall(s.casefold())) for s in _SENTENCE.findall(text)]
    said = [s for s in sentences if len(s.split()) >= 3]
    if len(said) != len(set(said)):
        return "repeats itself"
    return None


def _no_words(text: str) -> str | None:
    visible = [ch for ch in text if not ch.isspace()]
    wordy = sum(ch.isalnum() for ch in visible)
    if not _LETTERS.search(text) or wordy * 2 < len(visible):
        return "has no words"
    return None


def _copy(text: str, sources: Sequence[str]) -> str | None:
    words = _WORD.findall(text.casefold())
    if len(words) < _COPIED_RUN:
        return None
    known = [_WORD.findall(s.casefold()) for s in sources]
    copied = [False] * len(words)
    for i in range(len(words)):
        run = max((_run(words, i, other) for other in known), default=0)
        if run >= _COPIED_RUN:
            copied[i : i + run] = [True] * run
    added = [w for w, c in zip(words, copied, strict=True) if not c and w not in _FUNCTION]
    return "only copies its quote" if any(copied) and not added else None


def _run(words: list[str], i: int, other: list[str]) -> int:
    """The longest run of ``words`` from ``i`` on that ``other`` holds, word for word."""
    best = 0
    for j, word in enumerate(other):
        if word != words[i]:
            continue
        n = 0
        while i + n < len(words) and j + n < len(other) and words[i + n] == other[j + n]:
            n += 1
        best = max(best, n)
    return best


def _off_question(said: Sequence[str], question: set[str]) -> str | None:
    if not question:
        return None  # a question of function words only: nothing to compare
    if any(question & set(content_words(s)) for s in said):
        return None
    return "cites a quote that shares no word with the question"

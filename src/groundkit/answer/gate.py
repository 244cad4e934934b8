"""The gate on useless prose: a model's answer that checks out but tells a reader nothing.

``validate_answer`` proves every quote is genuine; it cannot see that the prose around them is
``a: a: a:``, or ``E"),``, or the quote copied out again, or about something the question never
mentioned. Small models write all four (``tests/answer/fixtures/small_model_replies.json``
holds the ones collected from SmolLM2-135M). ``check_helpful`` refuses such an answer with
``ai.unhelpful``: the evidence (and the sentences groundkit extracts from it) are shown instead.

It judges prose only. An answer whose text is groundkit's own choice of sentences (picked by a
model by number, or extracted with none) has no prose to judge. The rules, each on one item:

- **repeats**: a run of one to four tokens, holding a word, repeated three times in a row
  (``a: a: a:``, ``1.1.1.1``); one sentence, or any six words in a row, written twice; four
  words in a row written three times (``The new feature is 1. The new feature is 2. ...``), or
  three words in a row written four times;
- **no words**: no run of two letters, or more punctuation than letters and digits (``E"),``);
- **a copy**: it is one of its quotes, word for word, or what it adds to what it copied (runs of
  four or more words found in its quotes or anywhere in the evidence it was sent) is function
  words, and in a text of fifteen words or more at most one word in eight: the quote printed
  twice, or evidence lines glued together with a word changed, say nothing;
- **off the question**: neither its quotes nor its text share a content word with the question
  (stemmed, identifiers split, the first five letters of longer words: "absorbs" meets
  "absorbance"), nor, where the collection has an embedder, come within ``NEAR`` cosine of it
  (``near``: a paraphrase shares no word). A claim may cite a detail in support: "They dig with
  claws" for "what does the wombat dig?".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from groundkit.codemap.search import tokens as content_words
from groundkit.errors import AIError, ErrorCode

if TYPE_CHECKING:
    from groundkit.answer.bundle import EvidenceBundle
    from groundkit.answer.contract import Answer

Near = Callable[[Sequence[str]], float]  # the best cosine of these texts to the question

__all__ = ["NEAR", "Near", "check_helpful", "item_problem", "unhelpful_reason"]

_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"\w+")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_SENTENCE = re.compile(r"[^.!?\n]+")
_COPIED_RUN = 4  # words in a row that count as copied rather than written
_REPEATS = 3
_SAID_TWICE = 6  # words in a row that, written twice, are a loop rather than emphasis
# The share of a long copy's words that may be changed and leave it a copy, and what counts as
# long. One in ten of twenty missed two held-out SciFact replies (a 17-word quote with one name
# garbled; 27 words of evidence glued, a clause changed); one in eight of fifteen refuses them
# and no good answer more (tests/answer/fixtures/small_model_replies_heldout.json).
_CHANGED = 0.125
_LONG_COPY = 15  # words: a short answer may reuse the evidence's phrasing and add one word
_SAID_THRICE = 4  # words in a row that, written three times, are a template being filled
# Three words in a row written four times: a template whose slot changes every time ("The 2nd
# exit status is 2, which is a ... The 3rd exit status is 3, which is a ..."), which held-out
# docs/ replies showed and the rules above let through.
_SAID_FOUR_TIMES = 3
# Cosine (question to quote or text, the collection's embedder) at which a claim that shares no
# word with the question is still about it. Set on the replies of
# tests/answer/fixtures/small_model_replies.json: the off-question replies came within at most
# 0.39 of their question, the good answers' quotes or text within 0.25 to 0.85, and only one
# good answer fell under 0.3. Held out (small_model_replies_heldout.json): no good answer refused.
NEAR = 0.3
_PREFIX = 5  # letters of a long word that meet its other forms (absorbs, absorbance)
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


def check_helpful(
    answer: Answer,
    bundle: EvidenceBundle,
    *asked: str | None,
    near: Near | None = None,
) -> None:
    """Refuse ``answer`` (an ``AIError`` with ``ai.unhelpful``) when an item's prose breaks a
    rule of the gate; ``asked`` is the question (and the query searched, when it was rewritten);
    ``near`` scores texts against the question with the collection's embedder (None: none).
    An abstention and an answer whose text groundkit composed pass untouched."""
    reason = unhelpful_reason(answer, bundle, *asked, near=near)
    if reason is not None:
        raise AIError(
            ErrorCode.AI_UNHELPFUL,
            f"the model's answer was refused as unhelpful: {reason}",
            hint="the evidence is shown instead; a small local model does better picking"
            ' sentences (quotes = "pick") than writing prose (docs/answer.md)',
        )


def unhelpful_reason(
    answer: Answer, bundle: EvidenceBundle, *asked: str | None, near: Near | None = None
) -> str | None:
    """Which rule ``answer`` breaks first, naming the item (never quoting it), or None."""
    if answer.composed != "prose":
        return None
    evidence = [i.text for i in bundle.items]
    for i, item in enumerate(answer.items, start=1):
        quotes = [answer.citations[m - 1].cited_text for m in item.markers]
        problem = item_problem(item.text, quotes, evidence, *asked, near=near)
        if problem is not None:
            return f"item {i} {problem}"
    return None


def item_problem(
    text: str,
    quotes: Sequence[str],
    sources: Sequence[str],
    *asked: str | None,
    near: Near | None = None,
) -> str | None:
    """The rule one item's prose ``text`` breaks (``repeats itself``...), or None. ``quotes`` are
    its citations' quotes, ``sources`` the texts of the evidence it was sent; ``near``
    scores texts against the question (the embedder; None: words alone)."""
    question = {_root(w) for q in asked if q for w in content_words(q)}
    return (
        _repeats(text)
        or _no_words(text)
        or _copy(text, quotes, sources)
        or _off_question([*quotes, text], question, near)
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
    words = _WORD.findall(text.casefold())
    if (
        len(said) != len(set(said))
        or _said(words, _SAID_TWICE, 2)
        or _said(words, _SAID_THRICE, 3)
        or _said(words, _SAID_FOUR_TIMES, 4)
    ):
        return "repeats itself"
    return None


def _said(words: list[str], n: int, times: int) -> bool:
    """Whether some ``n`` words in a row occur ``times`` times, none overlapping another."""
    seen: dict[tuple[str, ...], list[int]] = {}
    for i in range(len(words) - n + 1):
        at = seen.setdefault(tuple(words[i : i + n]), [])
        if not at or i - at[-1] >= n:
            at.append(i)
            if len(at) >= times:
                return True
    return False


def _no_words(text: str) -> str | None:
    visible = [ch for ch in text if not ch.isspace()]
    wordy = sum(ch.isalnum() for ch in visible)
    if not _LETTERS.search(text) or wordy * 2 < len(visible):
        return "has no words"
    return None


def _copy(text: str, quotes: Sequence[str], sources: Sequence[str]) -> str | None:
    words = _WORD.findall(text.casefold())
    if any(words == _WORD.findall(q.casefold()) for q in quotes):
        return "only copies its quote"  # a heading or a short line, given back as the answer
    if len(words) < _COPIED_RUN:
        return None
    known = [_WORD.findall(s.casefold()) for s in [*quotes, *sources]]
    copied = [False] * len(words)
    for i in range(len(words)):
        run = max((_run(words, i, other) for other in known), default=0)
        if run >= _COPIED_RUN:
            copied[i : i + run] = [True] * run
    # A lone letter is what a cut-off word leaves ("before loading S"), not a word added.
    added = [
        w
        for w, c in zip(words, copied, strict=True)
        if not c and w not in _FUNCTION and not (len(w) == 1 and w.isalpha())
    ]
    # A word or two changed in a long copy ("night rotas" to "night shifts") is still a copy.
    allowed = _CHANGED * len(words) if len(words) >= _LONG_COPY else 0
    if any(copied) and len(added) <= allowed:
        return "only copies its quote"
    return None


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


def _off_question(said: Sequence[str], question: set[str], near: Near | None) -> str | None:
    if not question:
        return None  # a question of function words only: nothing to compare
    if any(question & {_root(w) for w in content_words(s)} for s in said):
        return None
    if near is not None and near(said) >= NEAR:
        return None
    return "cites a quote that shares no word with the question"


def _root(stem: str) -> str:
    return stem[:_PREFIX]

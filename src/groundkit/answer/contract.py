"""The citation contract: the only way to turn a model's reply into an ``Answer``.

The reply must be ``{"items": [{"text": ..., "citations": [{"source": N, "quote": ...}]}]}`` and
nothing more. ``source`` is an integer (never a bool, float or string) naming an item of the bundle
that was sent; ``quote`` is a byte-for-byte substring of that item's text (no
whitespace, case or Unicode folding) of at least ``min_quote_chars`` characters that says more
than the question (a quote whose words are all words of the question is refused); every item has
visible, printable text and at least one citation; no item repeats an earlier one (same text,
ignoring case and spacing) and no item cites the same quote of the same source twice;
``items: []`` is an abstention. Any failure
refuses the whole reply: a partly valid answer is the most dangerous output. Nothing is repaired
and nothing is retried.

A validated answer is then resolved against its origin, whatever kind of evidence it cites
(``answer.evidence``): a passage's quote becomes exact offsets in the stored document, an edge's
quote offsets in the evidence line the code map holds; ``cited_text`` is cut from that origin,
never copied from the model. Documents and code edges pass through this one gate.
The model's prose is kept after secret shapes (and the profile's own key) are scrubbed from it:
a provider that echoes its ``Authorization`` header must not get it printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

from groundkit.answer import strict
from groundkit.answer.bundle import EvidenceBundle
from groundkit.answer.edges import CitedEdge
from groundkit.answer.evidence import Origins, ShowPassage, refuse
from groundkit.answer.passages import CitedQuote
from groundkit.answer.scrub import Scrubber

__all__ = [
    "ANSWER_SCHEMA",
    "MIN_QUOTE_CHARS",
    "Answer",
    "AnswerItem",
    "Cited",
    "CitedEdge",
    "CitedQuote",
    "Composed",
    "QuoteRules",
    "validate_answer",
]

ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "citations": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "source": {"type": "integer"},
                                "quote": {"type": "string"},
                            },
                            "required": ["source", "quote"],
                            "additionalProperties": False,
                        },
                    },
                },
                "required": ["text", "citations"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["items"],
    "additionalProperties": False,
}

# The shortest of the 104 gold quotes in evals/golden is 20 characters; 16 lets every one of them
# through and refuses the one-word quotes ("a", "the wombat") that validate behind any claim.
MIN_QUOTE_CHARS = 16
_WORDS = re.compile(r"\w+")

Cited = CitedQuote | CitedEdge  # a resolved citation of a passage or of an edge
# Who wrote an answer's text: the model ("prose"), or groundkit from sentences of the evidence
# that the model chose by number ("picked") or that were ranked with no model at all
# ("extracted"). Only prose is the model's own words.
Composed = Literal["prose", "picked", "extracted"]
# Tokens validate_answer has minted and no Answer has used yet. Each is spent by the one Answer
# built with it, so dataclasses.replace() on a validated Answer cannot forge a second one.
_UNSPENT: set[object] = set()


@dataclass(frozen=True, slots=True)
class AnswerItem:
    text: str
    markers: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "citations": list(self.markers)}


@dataclass(frozen=True, slots=True)
class Answer:
    """A model's answer that passed the citation contract. Only ``validate_answer`` makes one."""

    items: tuple[AnswerItem, ...]
    citations: tuple[Cited, ...]
    _token: object
    composed: Composed = "prose"

    def __post_init__(self) -> None:
        try:
            _UNSPENT.remove(self._token)
        except KeyError:
            raise TypeError("an Answer is only obtained from validate_answer") from None

    @property
    def abstained(self) -> bool:
        """The model said the sources do not answer the question."""
        return not self.items

    def to_dict(self) -> dict[str, Any]:
        return {
            "abstained": self.abstained,
            "composed": self.composed,
            "items": [item.to_dict() for item in self.items],
            "citations": [c.to_dict() for c in self.citations],
        }


def validate_answer(
    raw: str,
    bundle: EvidenceBundle,
    resolve: Origins | ShowPassage,
    *,
    question: str | None = None,
    min_quote_chars: int = MIN_QUOTE_CHARS,
    scrub: Scrubber | None = None,
    composed: Composed = "prose",
) -> Answer:
    """Check ``raw`` against the contract and resolve every quote at its origin.

    Args:
        raw: the model's reply, exactly as it came back (after redaction tokens were restored).
        bundle: the evidence that was sent: passages, code-map edges, or both.
        resolve: where quotes are re-read (``Origins``: the store and/or the code map), or just
            ``Collection.show`` for a bundle of passages.
        question: the question as the user asked it (``bundle.query`` is checked too).
        min_quote_chars: the shortest quote accepted.
        scrub: applied to the items' texts, together, once every rule has passed (default:
            secret shapes only; with the profile's key, that key in any disguise).
        composed: who wrote the items' texts (``Composed``); the rules are the same for all.

    Raises:
        AIError: AI_INVALID_OUTPUT, naming the first broken rule (never quoting text).
    """
    rules = QuoteRules.of(min_quote_chars, question, bundle.query)
    draft = _parse(raw, bundle, rules)
    origins = Origins.of(resolve)
    items: list[AnswerItem] = []
    quotes: list[Cited] = []
    texts = (scrub or Scrubber()).many([text for text, _ in draft])
    for text, (_, cites) in zip(texts, draft, strict=True):
        markers = []
        for number, quote in cites:
            item = bundle.items[number - 1]
            quotes.append(item.cite(quote, len(quotes) + 1, origins))
            markers.append(len(quotes))
        items.append(AnswerItem(text, tuple(markers)))
    token = object()
    _UNSPENT.add(token)
    return Answer(tuple(items), tuple(quotes), token, composed)


@dataclass(frozen=True, slots=True)
class QuoteRules:
    """What a quote must be beyond a substring of its source: long enough, with a letter or
    digit, and more than the question's own words. ``problem`` says which rule a quote breaks;
    groundkit's own sentence choosers use it to offer only quotes that pass."""

    min_chars: int
    questions: tuple[frozenset[str], ...]  # the words of the question (and of the query searched)

    @classmethod
    def of(cls, min_chars: int, *asked: str | None) -> QuoteRules:
        words = (frozenset(_WORDS.findall(q.casefold())) for q in asked if q is not None)
        return cls(min_chars, tuple(words))

    def problem(self, quote: str) -> str | None:
        if len(quote) < self.min_chars:
            return f"the quote is shorter than {self.min_chars} characters"
        words = set(_WORDS.findall(quote.casefold()))
        if not words:
            return "the quote has no letter or digit"
        if any(words <= asked for asked in self.questions):
            return "the quote only restates the question"
        return None

    def check(self, quote: str, at: str) -> None:
        problem = self.problem(quote)
        if problem is not None:
            _refuse(f"{at}: {problem}")


def _parse(
    raw: str, bundle: EvidenceBundle, rules: QuoteRules
) -> list[tuple[str, list[tuple[int, str]]]]:
    try:
        data = strict.loads(raw)
    except (ValueError, TypeError):
        _refuse("the reply is not a single JSON object")
    _exact_keys(data, {"items"}, "the reply")
    if not isinstance(data["items"], list):
        _refuse("items is not a list")
    out = []
    seen: dict[str, int] = {}  # each item's text as read, to the item that first said it
    for i, entry in enumerate(data["items"], start=1):
        where = f"item {i}"
        _exact_keys(entry, {"text", "citations"}, where)
        text, cites = entry["text"], entry["citations"]
        if not isinstance(text, str) or not strict.visible(text):
            _refuse(f"{where} has no text")
        if not strict.printable(text):
            _refuse(f"{where} has a control character or a lone surrogate")
        # The same claim twice (or 10,000 times) says nothing more and floods the reader.
        said = " ".join(text.split()).casefold()
        if said in seen:
            _refuse(f"{where} repeats item {seen[said]}")
        seen[said] = i
        if not isinstance(cites, list) or not cites:
            _refuse(f"{where} has no citation")
        checked: list[tuple[int, str]] = []
        for j, cite in enumerate(cites, start=1):
            at = f"{where}, citation {j}"
            _exact_keys(cite, {"source", "quote"}, at)
            number, quote = cite["source"], cite["quote"]
            if type(number) is not int:  # bool is an int subclass; 1.0 and "1" are not ints
                _refuse(f"{at}: source is not an integer")
            item = bundle.item(number)
            if item is None:
                _refuse(f"{at}: source {number} is not in the evidence sent")
            if not isinstance(quote, str) or not quote:
                _refuse(f"{at}: quote is empty")
            if quote not in item.text:
                _refuse(f"{at}: the quote is not in source {number} exactly as written")
            rules.check(quote, at)
            if (number, quote) in checked:  # one quote cited over and over proves nothing more
                _refuse(f"{at} repeats citation {checked.index((number, quote)) + 1}")
            checked.append((number, quote))
        out.append((text, checked))
    return out


def _exact_keys(value: Any, keys: set[str], where: str) -> None:
    if not isinstance(value, dict):
        _refuse(f"{where} is not a JSON object")
    if set(value) != keys:
        # The model's own key names stay out of the message: they could carry any text.
        missing = sorted(keys - set(value))
        detail = f"missing {', '.join(missing)}" if missing else "unexpected extra fields"
        _refuse(f"{where} has the wrong fields ({detail})")


def _refuse(reason: str) -> NoReturn:
    refuse(reason)

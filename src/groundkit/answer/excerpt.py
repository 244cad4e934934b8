"""The best passage as a reader wants it: an excerpt around the extracted sentences, marked.

A list of sentences lifted out of their passages loses what is around them: the heading they
sit under, the code a sentence mentions two lines on. So an answer made of the evidence's own
sentences (extracted, or picked by a model) is shown with one excerpt of the passage that holds
its best sentence: from the line where the first of that passage's sentences starts, less up to
``CONTEXT`` characters of the text before it, to the line where the last ends, plus as much
after, at most ``MAX_CHARS`` in all. The excerpt is a citation like every quote: it is cut from
the stored document at offsets and re-read there (``BundleItem.cite``: its verification), and
its ``marks`` say where, within it, each of the answer's sentences of that passage is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from groundkit.answer.passages import BundleItem, CitedQuote

if TYPE_CHECKING:
    from groundkit.answer.bundle import EvidenceBundle
    from groundkit.answer.contract import Answer
    from groundkit.answer.evidence import Origins

__all__ = ["CONTEXT", "MAX_CHARS", "Excerpt", "Mark", "excerpt_of"]

CONTEXT = 240  # characters of the passage shown before the first mark and after the last
MAX_CHARS = 1600  # an excerpt longer than this keeps the marks and less around them


@dataclass(frozen=True, slots=True)
class Mark:
    """An answer's sentence within the excerpt: ``excerpt.text[start:end]``, cited as
    ``marker`` in the answer."""

    marker: int
    start: int
    end: int

    def to_dict(self) -> dict[str, int]:
        return {"marker": self.marker, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True)
class Excerpt:
    """A passage's text around the answer's sentences (``cited``, checked at its origin), and
    where in it each of them is."""

    cited: CitedQuote
    marks: tuple[Mark, ...]

    @property
    def text(self) -> str:
        return self.cited.cited_text

    def to_dict(self) -> dict[str, Any]:
        out = self.cited.to_dict()
        del out["marker"], out["ambiguous"]
        out["text"] = out.pop("cited_text")
        out["marks"] = [m.to_dict() for m in self.marks]
        return out


def excerpt_of(
    answer: Answer, bundle: EvidenceBundle, origins: Origins, best: int | None = None
) -> Excerpt | None:
    """The excerpt of bundle item ``best`` (default: the item the answer cites first) around
    the answer's citations of it; None when the answer cites no passage."""
    quotes = [c for c in answer.citations if isinstance(c, CitedQuote)]
    if best is None and quotes:
        best = quotes[0].source
    item = bundle.item(best) if best is not None else None
    if not isinstance(item, BundleItem):
        return None
    mine = [c for c in quotes if c.source == item.number and c.chunk_id == item.chunk_id]
    if not mine:
        return None
    start, end = _window(item.text, [(c.start - item.start, c.end - item.start) for c in mine])
    cited = item.cite(item.text[start:end], 0, origins)
    at = cited.start - start  # where the store has the passage (as the citations were made)
    marks = tuple(
        Mark(c.marker, c.start - at - start, c.end - at - start)
        for c in mine
        if start <= c.start - at and c.end - at <= end
    )
    return Excerpt(cited, marks)


def _window(text: str, spans: Sequence[tuple[int, int]]) -> tuple[int, int]:
    low = max(min(a for a, _ in spans), 0)
    high = min(max(b for _, b in spans), len(text))
    room = max(MAX_CHARS - (high - low), 0) // 2
    before = min(CONTEXT, room)
    start = text.rfind("\n", 0, max(low - before, 0) + 1) + 1 if low - before > 0 else 0
    if low - start > before:  # the line starts too far back: cut at a word instead
        cut = text.find(" ", low - before, low)
        start = cut + 1 if cut >= 0 else low
    stop = text.find("\n", min(high + min(CONTEXT, room), len(text)))
    end = len(text) if stop < 0 else stop
    if end - high > min(CONTEXT, room):
        cut = text.rfind(" ", high, high + min(CONTEXT, room))
        end = cut if cut >= 0 else high
    while start < low and text[start].isspace():
        start += 1
    while end > high and text[end - 1].isspace():
        end -= 1
    return start, end

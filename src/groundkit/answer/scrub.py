"""Scrubbing what a model wrote before anyone sees it: secret shapes and the profile's own key.

A provider can put anything into its reply, including the ``Authorization`` header it was sent.
Every piece of model prose groundkit keeps (an answer item's text, a rewritten query, the judge's
claims and reasoning) passes through a scrubber first. Quotes are not prose: a citation shows the
stored text cut at the validated offsets (``cited_text``), which is the user's own evidence, shown
exactly as `grk search` shows it; scrubbing it would break the byte-for-byte check.

The key is looked for as a reader would see it, not byte for byte: format characters (zero-width
spaces, soft hyphens) and spaces are passed over, fullwidth and other compatibility forms read as
their plain letters, and a letter that only looks like an ASCII one (Cyrillic U+0430, Greek U+039F)
reads as that one (Unicode's confusables, from ``confusable_homoglyphs``); and it is looked for
across the whole reply, so a key split over two answer items is found too.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Sequence

from groundkit.answer.logguard import scrub as scrub_shapes
from groundkit.secret import Secret

__all__ = ["REDACTED", "Scrubber", "scrub_secrets"]

REDACTED = "<redacted>"
_MIN_KEY_CHARS = 6  # a shorter "key" would scrub ordinary words; no real key is that short


def scrub_secrets(text: str) -> str:
    """``text`` without secret shapes (keys, tokens, PEM blocks, URLs with a password)."""
    return scrub_shapes(text)


class Scrubber:
    """Scrubs secret shapes and, verbatim, the given keys (revealed only to compare)."""

    def __init__(self, keys: Iterable[Secret] = ()) -> None:
        self._keys = tuple(k for k in keys if len(k.reveal()) >= _MIN_KEY_CHARS)

    def __repr__(self) -> str:
        return f"Scrubber(keys={len(self._keys)})"

    def __call__(self, text: str) -> str:
        return self.many([text])[0]

    def many(self, texts: Sequence[str]) -> list[str]:
        """The parts of one reply (its answer items), each scrubbed, the keys looked for across
        all of them: a key split between two parts is cut from both."""
        if self._keys:
            texts = _without(texts, [key.reveal() for key in self._keys])
        return [scrub_secrets(text) for text in texts]


def _without(texts: Sequence[str], keys: Sequence[str]) -> list[str]:
    """``texts`` with every stretch that reads as one of ``keys`` replaced by ``REDACTED``."""
    folded: list[str] = []
    where: list[tuple[int, int]] = []  # the text and the character each folded one came from
    for i, text in enumerate(texts):
        for j, ch in enumerate(text):
            for out in _fold(ch):
                folded.append(out)
                where.append((i, j))
    stream = "".join(folded)
    cuts: list[set[tuple[int, int]]] = [set() for _ in texts]
    for key in keys:
        wanted = "".join(_fold(ch) for ch in key)
        at = stream.find(wanted) if wanted else -1
        while at >= 0:
            spans: dict[int, tuple[int, int]] = {}
            for i, j in where[at : at + len(wanted)]:
                first, last = spans.get(i, (j, j))
                spans[i] = (min(first, j), max(last, j))
            for i, (first, last) in spans.items():
                cuts[i].add((first, last + 1))
            at = stream.find(wanted, at + len(wanted))
    return [_cut(text, sorted(spans)) for text, spans in zip(texts, cuts, strict=True)]


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    out, at = [], 0
    for start, end in spans:
        if start >= at:
            out += [text[at:start], REDACTED]
            at = end
        elif end > at:
            at = end  # overlapping the one before: already cut
    return "".join([*out, text[at:]])


@functools.lru_cache(maxsize=4096)
def _fold(ch: str) -> str:
    """What ``ch`` reads as within a key: nothing for a format character or a space; the ASCII
    letter or digit it looks like; else its compatibility form."""
    if ch.isascii():
        return "" if ch.isspace() else ch
    if ch.isspace() or unicodedata.category(ch) == "Cf":
        return ""
    plain = unicodedata.normalize("NFKC", ch)
    if plain.isascii():
        return "".join(c for c in plain if not c.isspace())
    return _lookalike(ch) or plain


def _lookalike(ch: str) -> str | None:
    from confusable_homoglyphs.confusables import confusables_data  # 50 ms: only with a key

    for glyph in confusables_data.get(ch, ()):
        found = str(glyph["c"]).strip("\u200e")
        if len(found) == 1 and found.isascii() and found.isalnum():
            return found
    return None

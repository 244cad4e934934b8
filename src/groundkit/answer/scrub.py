"""Scrubbing what a model wrote before anyone sees it: secret shapes and the profile's own key.

A provider can put anything into its reply, including the ``Authorization`` header it was sent.
Every piece of model prose groundkit keeps (an answer item's text, a rewritten query, the judge's
claims and reasoning) passes through a scrubber first. Quotes are not prose: a citation shows the
stored text cut at the validated offsets (``cited_text``), which is the user's own evidence, shown
exactly as `grk search` shows it; scrubbing it would break the byte-for-byte check.

The key is looked for as a reader would see it, not byte for byte: only its letters and digits
count, so what ``fold`` drops is passed over (format characters, combining marks and variation
selectors, fillers), and so are spaces, line breaks and punctuation put between its characters
(dots, hyphens, ``*``, quoted pieces joined by ``+``); tag characters read as the ASCII they tag,
fullwidth, circled and mathematical letters as their plain ones, a look-alike letter (Cyrillic
U+0430, Greek U+03BF) as the ASCII one; %XX escapes (%25XX too), JSON and Python ``\\uXXXX`` and
``\\xXX`` escapes and HTML character references as what they stand for; case is ignored; and the
key is found reversed too. It is looked for across the whole reply, in pieces of a quarter of its
length (8 characters at least), so a key split over two or three answer items (or the strings of
a refused reply shown by ``--show-reply``) is cut from each. Ciphers (rot13, base64 of the key)
are not undone.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterable, Sequence

from groundkit.answer.fold import fold_char
from groundkit.answer.logguard import scrub as scrub_shapes
from groundkit.secret import Secret

__all__ = ["REDACTED", "Scrubber", "scrub_secrets"]

REDACTED = "<redacted>"
_MIN_KEY_CHARS = 6  # a shorter "key" would scrub ordinary words; no real key is that short
_MIN_PIECE = 8


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
    """``texts`` with every stretch that reads as (a long enough piece of) one of ``keys``
    replaced by ``REDACTED``; the texts are read as one stream, so a key split across two of
    them is cut from both."""
    stream, where = _reading(texts)
    cuts: list[set[tuple[int, int]]] = [set() for _ in texts]
    for key in keys:
        wanted = _read(key)
        if not wanted:
            continue
        for first, last in _runs(stream, wanted):
            spans: dict[int, tuple[int, int]] = {}
            for i, start, end in where[first:last]:
                lo, hi = spans.get(i, (start, end))
                spans[i] = (min(lo, start), max(hi, end))
            for i, span in spans.items():
                cuts[i].add(span)
    return [_cut(text, sorted(spans)) for text, spans in zip(texts, cuts, strict=True)]


def _runs(stream: str, key: str) -> list[tuple[int, int]]:
    """Where in ``stream`` runs of at least ``_piece(key)`` characters read as part of ``key``,
    forwards or reversed: a key in pieces (two answer items, a JSON reply's two strings) is
    found by each piece."""
    size = _piece(key)
    grams = {key[i : i + size] for i in range(len(key) - size + 1)}
    grams |= {g[::-1] for g in grams}
    hit = [False] * len(stream)
    for i in range(len(stream) - size + 1):
        if stream[i : i + size] in grams:
            hit[i : i + size] = [True] * size
    runs, start = [], None
    for i, on in enumerate([*hit, False]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _piece(key: str) -> int:
    """The shortest piece of ``key`` taken for it: a quarter of it, at least ``_MIN_PIECE``
    characters (a key cut in three or four pieces still has each cut; eight random letters and
    digits of a key are never met in prose by chance)."""
    return min(len(key), max(_MIN_PIECE, len(key) // 4))


def _reading(texts: Sequence[str]) -> tuple[str, list[tuple[int, int, int]]]:
    """The texts as one stream of what a reader would take for a key's characters, each with
    ``(text, start, end)``: the span of the original it came from. %XX escapes and HTML
    character references read as the character they stand for."""
    out: list[str] = []
    where: list[tuple[int, int, int]] = []
    for i, text in enumerate(texts):
        j = 0
        while j < len(text):
            ch, width = _escaped(text, j)
            for piece in _fold(ch):
                out.append(piece)
                where.append((i, j, j + width))
            j += width
    return "".join(out), where


_PERCENT = re.compile(r"%(?:25)?([0-9A-Fa-f]{2})")  # %25XX: encoded twice
_BACKSLASH = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2}))")  # JSON, Python
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _escaped(text: str, at: int) -> tuple[str, int]:
    """The character at ``at``, with a %XX escape or an HTML reference read as what it means,
    and how many characters of ``text`` that took."""
    if text[at] == "%" and (found := _PERCENT.match(text, at)):
        return chr(int(found.group(1), 16)), len(found.group(0))
    if text[at] == "\\" and (found := _BACKSLASH.match(text, at)):
        return chr(int(found.group(1) or found.group(2), 16)), len(found.group(0))
    if text[at] == "&" and (found := _ENTITY.match(text, at)):
        plain = html.unescape(found.group(0))
        if len(plain) == 1:
            return plain, len(found.group(0))
    return text[at], 1


def _read(key: str) -> str:
    return "".join(_fold(ch) for ch in key)


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
    """What ``ch`` reads as within a key: its ASCII letters and digits, in lower case (an echo
    lowercased still gives most of a key away). Nothing for a space, a punctuation mark (a key
    with dots, hyphens or ``*`` between its characters, or in quoted pieces joined by ``+``, is
    read whole), a format or combining mark, a filler; a tag character's ASCII; the ASCII letter
    or digit it looks like, or its compatibility form (fullwidth, circled, mathematical)."""
    return "".join(c for c in fold_char(ch).lower() if c.isascii() and c.isalnum())

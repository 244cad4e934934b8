"""Scrubbing what a model wrote before anyone sees it: secret shapes and the profile's own key.

A provider can put anything into its reply, including the ``Authorization`` header it was sent.
Every piece of model prose groundkit keeps (an answer item's text, a rewritten query, the judge's
claims and reasoning) passes through a scrubber first. Quotes are not prose: a citation shows the
stored text cut at the validated offsets (``cited_text``), which is the user's own evidence, shown
exactly as `grk search` shows it; scrubbing it would break the byte-for-byte check.
"""

from __future__ import annotations

from collections.abc import Iterable

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
        for key in self._keys:
            text = text.replace(key.reveal(), REDACTED)
        return scrub_secrets(text)

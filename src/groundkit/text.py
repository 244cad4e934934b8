"""Text normalisation, applied exactly once before a document is stored or a query searched."""

from __future__ import annotations

import unicodedata

__all__ = ["normalize_text"]


def normalize_text(text: str) -> str:
    """Strip a leading BOM and NUL characters, turn every newline into ``\\n``, compose to NFC.

    NULs go because SQLite's ``substr`` stops at one, which would cut stored chunks short.

    Every offset groundkit stores refers to the string this returns, so it must stay stable:
    changing it means bumping ``CHUNKER_VERSION`` so that fingerprints change.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        text = text.replace("\x00", "")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if unicodedata.is_normalized("NFC", text):  # the common case, and much cheaper to check
        return text
    return unicodedata.normalize("NFC", text)

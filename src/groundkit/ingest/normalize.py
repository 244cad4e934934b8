"""Text normalisation, applied exactly once before a document is stored."""

from __future__ import annotations

import unicodedata

__all__ = ["normalize_text"]


def normalize_text(text: str) -> str:
    """Strip a leading BOM, turn every newline spelling into ``\\n`` and compose to NFC.

    Every offset groundkit stores refers to the string this returns, so it must stay stable:
    changing it means bumping ``CHUNKER_VERSION`` so that fingerprints change.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return unicodedata.normalize("NFC", text)

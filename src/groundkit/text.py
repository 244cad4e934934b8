"""Text normalisation, applied exactly once before a document is stored or a query searched."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["for_terminal", "is_text", "json_safe", "normalize_text"]


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


# What a terminal acts on rather than prints: C0 controls but the line break and the tab, DEL,
# C1 controls (U+0080-U+009F: 8-bit CSI, OSC, DCS...), and the bidi controls that reorder what is
# shown (Trojan Source). ESC alone would start CSI, OSC 52 (clipboard), OSC 8 (links) and DCS.
# The line and paragraph separators (U+2028, U+2029) break lines where the reader sees none in
# the text (some terminals and every JavaScript string before ES2019), so they are spelled out.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def for_terminal(text: str) -> str:
    """``text`` with every character a terminal would act on written out as an escape
    (``\\x1b``, ``\\u202e``), so stored text can be shown but never drive the terminal."""
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(_spelled, text)


def json_safe(encoded: str) -> str:
    """JSON text with the characters ``for_terminal`` escapes written as ``\\uXXXX``: the same
    JSON value, which no terminal acts on. (``json.dumps`` escapes C0 controls, not C1 or bidi.)"""
    if not _UNSAFE.search(encoded):
        return encoded
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def _spelled(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def is_text(value: str) -> bool:
    """Whether ``value`` is valid Unicode: no lone surrogate, such as Python makes of bytes in a
    command line that are not UTF-8 (``$'\\xff'``) or a JSON escape like ``"\\ud800"`` spells."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True

"""Source bytes to text and lines exactly as Python's tokenizer counts them, so that a line
number from the analyser and a line re-read for evidence are the same line."""

from __future__ import annotations

import io
import re
import tokenize

from groundkit.codemap.extract.base import Unparsable

__all__ = ["decode", "source_lines"]

_BREAK = re.compile(r"\r\n|\r|\n")


def decode(data: bytes) -> str:
    """UTF-8 (a BOM dropped), or the encoding a PEP 263 cookie names."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        raise Unparsable("undecodable: not UTF-8 text (nor the encoding it declares)") from None


def source_lines(text: str) -> list[str]:
    """Lines split on ``\\n``, ``\\r\\n`` and ``\\r`` only: a form feed or a Unicode line
    separator inside a line does not start a new one (``str.splitlines`` would)."""
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines

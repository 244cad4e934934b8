"""Reading what a model sent back, strictly: its JSON, and the prose groundkit will print.

``loads`` takes exactly one JSON value, with nothing around it but whitespace; a duplicate key
or a ``NaN``/``Infinity`` is an error rather than a choice between readings. ``printable`` is
the test every model-written string passes before it is shown: a lone surrogate would crash the
UTF-8 writer after the evidence was already lost, a control character (an ESC sequence, a
carriage return) could redraw the user's terminal over the answer, and a bidirectional override
or isolate (U+202A-U+202E, U+2066-U+2069) could make the terminal show text in an order other
than the one the model sent. ``visible`` asks for a character that is not a space, a control, a
format mark or a combining mark: marks alone stack on whatever the terminal printed before.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any, NoReturn

__all__ = ["loads", "printable", "visible"]

_LAYOUT = frozenset("\n\t")  # the only control characters prose may carry
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def loads(raw: str) -> Any:
    """The one JSON value in ``raw``. Raises ``ValueError`` for anything else."""
    try:
        return json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except RecursionError:  # nesting deeper than the parser's stack: a reply, not our bug
        raise ValueError("nested too deep") from None


def printable(text: str) -> bool:
    """No lone surrogate, no bidi override or isolate, and no control character but a line
    break or a tab."""
    return not any(
        (kind := unicodedata.category(ch)) == "Cs"
        or (kind == "Cc" and ch not in _LAYOUT)
        or ch in _BIDI
        for ch in text
    )


def visible(text: str) -> bool:
    """At least one character that is not a space, a separator, a control, a format mark or a
    combining mark."""
    return any(unicodedata.category(ch)[0] not in "ZCM" for ch in text)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")

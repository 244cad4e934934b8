"""One shape of sensitive value: a regex (perhaps naming the ``value`` part), and a check."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["Gated", "Pattern", "luhn"]


@dataclass(frozen=True, slots=True)
class Pattern:
    """A shape of sensitive value. Where ``regex`` has a group named ``value``, only that group
    is the value (``api_key=`` stays, what follows it goes); ``check``, when set, must accept the
    value too (a card number's checksum)."""

    label: str  # the token's name: EMAIL -> [EMAIL_1]
    regex: re.Pattern[str]
    check: Callable[[str], bool] | None = None

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Where the values of this shape lie in ``text``, in order."""
        whole = "value" not in self.regex.groupindex
        for found in self.regex.finditer(text):
            start, end = found.span() if whole else found.span("value")
            if end > start and (self.check is None or self.check(text[start:end])):
                yield start, end


class Gated:
    """Patterns that only a paragraph holding one of their names can match (``password``,
    ``token``...): each runs over those paragraphs alone. Such a pattern opens with a name
    that may be glued to a longer one (``DB_PASS``), which Python's ``re`` tries at every word
    of the text; most paragraphs of a bundle name no secret at all. A paragraph ends at a blank
    line, which none of these patterns crosses. Spans come pattern by pattern, in the order
    given, so the first pattern still claims a span first."""

    label = "SECRET"

    def __init__(self, gate: re.Pattern[str], patterns: tuple[Pattern, ...]) -> None:
        self._gate = gate
        self.patterns = patterns

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        blocks = []
        at = 0
        for gap in [*_BLANK_LINE.finditer(text), None]:
            end = gap.start() if gap else len(text)
            if self._gate.search(text, at, end):
                blocks.append((at, text[at:end]))
            at = gap.end() if gap else end
        for pattern in self.patterns:
            for offset, block in blocks:
                for start, end in pattern.spans(block):
                    yield offset + start, offset + end


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def luhn(value: str) -> bool:
    """Whether the digits of ``value`` pass the Luhn checksum, as every payment card's do."""
    digits = [int(c) for c in reversed(value) if c.isdigit()]
    doubled = (d * 2 - 9 if d > 4 else d * 2 for d in digits[1::2])
    return (sum(digits[0::2]) + sum(doubled)) % 10 == 0

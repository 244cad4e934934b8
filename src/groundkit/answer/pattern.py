"""One shape of sensitive value: a regex (perhaps naming the ``value`` part), and a check."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["Pattern", "luhn"]


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


def luhn(value: str) -> bool:
    """Whether the digits of ``value`` pass the Luhn checksum, as every payment card's do."""
    digits = [int(c) for c in reversed(value) if c.isdigit()]
    doubled = (d * 2 - 9 if d > 4 else d * 2 for d in digits[1::2])
    return (sum(digits[0::2]) + sum(doubled)) % 10 == 0

"""The shapes of sensitive values: one list, read by redaction and by the logging guard.

Kept apart from ``redact`` so that the logging guard, which every `grk` run installs, imports
nothing but ``re``, and so that a shape added here reaches prompts and logs alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["DEFAULT_PATTERNS", "SECRET_SHAPES", "Pattern", "luhn"]


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


def _p(
    label: str, regex: str, flags: int = 0, check: Callable[[str], bool] | None = None
) -> Pattern:
    return Pattern(label, re.compile(regex, flags), check)


_URL_SAFE = r"[A-Za-z0-9_-]"
_KEY_PREFIX = r"(?:sk|gsk|ghp|gho|ghs|ghu|github_pat|glpat|hf|npm|xox[abpr])"
_RANDOM_BODY = (
    r"(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[a-z])(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{16,}"
)

# A name that says a secret follows (``api_key``, ``client_secret``, ``password``...), an equals
# sign or a colon, and the value, perhaps quoted: only the value goes.
_ASSIGNED = (
    r"(?i)(?<![A-Za-z0-9])[\w.-]*?(?:api[_-]?key|secret|token|passw(?:or)?d|passwd|pwd"
    r"|access[_-]?key|private[_-]?key|auth[_-]?key)[\"']?\s*[:=]\s*[\"']?"
    r"(?P<value>[^\s\"',;]{8,})"
)

# Order matters: the first pattern to claim a span wins, so the specific come before the general.
DEFAULT_PATTERNS: tuple[Pattern, ...] = (
    _p("SECRET", r"-----BEGIN [A-Z0-9 ]+-----[\s\S]*?-----END [A-Z0-9 ]+-----"),
    _p("URL", r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:[^\s/@]+@[^\s]+"),
    _p("SECRET", r"\bBearer\s+[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE),
    # HTTP basic credentials: base64 with a digit, "+", "/" or "=" (not "Basic training").
    _p("SECRET", r"\bBasic\s+(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{8,}={0,2}"),
    # A known key prefix after anything but a letter or digit (so `key_gsk_...` and `=sk-...`
    # are caught) ...
    _p("SECRET", rf"(?<![A-Za-z0-9]){_KEY_PREFIX}[-_][A-Za-z0-9_-]{{10,}}"),
    # ... and glued to a letter or digit (`xsk-...`) when the body looks random (a digit, a lower-
    # and an upper-case letter), so that words like `risk-assessment-overview` are left alone.
    _p("SECRET", rf"{_KEY_PREFIX}[-_]{_RANDOM_BODY}"),
    # AWS key ids, glued to what comes before too (`AWS_KEYAKIA...`): the fixed prefix and 16
    # capitals or digits, and nothing more of them after.
    _p("SECRET", r"(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"),
    _p("SECRET", r"(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"),  # Twilio API keys
    _p("SECRET", rf"\bAIza{_URL_SAFE}{{35}}(?!{_URL_SAFE})"),  # Google API keys
    # JWTs, unsigned ones too (`alg: none`: the third part is empty).
    _p("SECRET", rf"\beyJ{_URL_SAFE}{{8,}}\.{_URL_SAFE}{{8,}}\.{_URL_SAFE}*"),
    _p("SECRET", _ASSIGNED),
    # Unicode local parts and domains too (jörg@exämple.de), an apostrophe inside one
    # (o'neil@...), or a quoted one ("john doe"@...); the TLD is letters only.
    _p(
        "EMAIL",
        r"(?:\"[^\"\r\n@]{1,64}\"|[\w.%+-][\w.%+'-]*)@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}",
    ),
    _p(
        "IP",
        r"(?<![\w:.])(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}(?![\w:])"
        r"|(?<![\w:.])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?"
        r"(?![\w:])",
    ),
    _p(
        "IP",
        # A full stop may follow (the end of a sentence), but not one that goes on with a digit.
        r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)"
        r"(?!\w|\.\d)",
    ),
    # Payment cards: 13 to 19 digits, grouped by spaces or dashes or not, that pass the Luhn
    # checksum (an order number of 16 digits fails it nine times in ten).
    _p("CARD", r"(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])", check=luhn),
    # US social security numbers: never area 000, 666 or 9xx, group 00 or serial 0000.
    _p("SSN", r"(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])"),
    _p("PHONE", r"(?<![\w+])\+?\d{1,3}?[ .-]?\(?\d{2,4}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}(?!\w)"),
    # A 7-digit local number (555-0100), not a range of years or pages (1999-2004).
    _p("PHONE", r"(?<![\w.+-])\d{3}[-.]\d{4}(?![\w-]|\.\d)"),
    _p("SECRET", r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=])"),
    # URL-safe base64 (RFC 4648 section 5). A digit, a lower- and an upper-case letter are all
    # required, so a long snake_case or kebab-case name is not taken for a key.
    _p(
        "SECRET",
        rf"(?<!{_URL_SAFE})(?={_URL_SAFE}*\d)(?={_URL_SAFE}*[a-z])(?={_URL_SAFE}*[A-Z])"
        rf"{_URL_SAFE}{{40,}}={{0,2}}(?![A-Za-z0-9_=-])",
    ),
)

# What a log line must never carry: keys, tokens and URLs with a password in them.
SECRET_SHAPES: tuple[Pattern, ...] = tuple(
    p for p in DEFAULT_PATTERNS if p.label in ("SECRET", "URL")
)

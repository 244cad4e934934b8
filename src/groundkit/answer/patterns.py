"""The shapes of sensitive values: one list, read by redaction and by the logging guard.

Kept apart from ``redact`` so that the logging guard, which every `grk` run installs, imports
nothing but ``re``, and so that a shape added here reaches prompts and logs alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DEFAULT_PATTERNS", "SECRET_SHAPES", "Pattern"]


@dataclass(frozen=True, slots=True)
class Pattern:
    label: str  # the token's name: EMAIL -> [EMAIL_1]
    regex: re.Pattern[str]


def _p(label: str, regex: str, flags: int = 0) -> Pattern:
    return Pattern(label, re.compile(regex, flags))


_URL_SAFE = r"[A-Za-z0-9_-]"
_KEY_PREFIX = r"(?:sk|gsk|ghp|gho|ghs|ghu|github_pat|glpat|hf|npm|xox[abpr])"
_RANDOM_BODY = (
    r"(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[a-z])(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{16,}"
)

# Order matters: the first pattern to claim a span wins, so the specific come before the general.
DEFAULT_PATTERNS: tuple[Pattern, ...] = (
    _p("SECRET", r"-----BEGIN [A-Z0-9 ]+-----[\s\S]*?-----END [A-Z0-9 ]+-----"),
    _p("URL", r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:[^\s/@]+@[^\s]+"),
    _p("SECRET", r"\bBearer\s+[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE),
    # A known key prefix after anything but a letter or digit (so `key_gsk_...` and `=sk-...`
    # are caught) ...
    _p("SECRET", rf"(?<![A-Za-z0-9]){_KEY_PREFIX}[-_][A-Za-z0-9_-]{{10,}}"),
    # ... and glued to a letter or digit (`xsk-...`) when the body looks random (a digit, a lower-
    # and an upper-case letter), so that words like `risk-assessment-overview` are left alone.
    _p("SECRET", rf"{_KEY_PREFIX}[-_]{_RANDOM_BODY}"),
    _p("SECRET", r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"),
    _p("SECRET", rf"\bAIza{_URL_SAFE}{{35}}(?!{_URL_SAFE})"),  # Google API keys
    _p("SECRET", rf"\beyJ{_URL_SAFE}{{8,}}\.{_URL_SAFE}{{8,}}\.{_URL_SAFE}{{8,}}"),  # JWTs
    # Unicode local parts and domains too (jörg@exämple.de); the TLD is letters only.
    _p("EMAIL", r"[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}"),
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
    _p("PHONE", r"(?<![\w+])\+?\d{1,3}?[ .-]?\(?\d{2,4}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}(?!\w)"),
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

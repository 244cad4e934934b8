"""The shapes of sensitive values: one list, read by redaction and by the logging guard.

Three sources, in the order they claim a span: our own shapes of keys, cards and addresses;
gitleaks' vendor rules, ported as data (``vendor``); values their surroundings name as secret
(``named``). Every shape reads text as ``fold`` leaves it (redaction folds first, and maps each
match back to the original span). Kept apart from ``redact`` so that a shape added here reaches
prompts and logs alike.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator
from typing import Protocol

from groundkit.answer.named import NAMED_PATTERNS
from groundkit.answer.pattern import Pattern, looks_like_path, luhn
from groundkit.answer.vendor import VENDOR

__all__ = ["DEFAULT_PATTERNS", "SECRET_SHAPES", "Pattern", "Shape", "luhn"]


class Shape(Protocol):
    """What redaction asks of a shape: its token's name, and where its values lie."""

    @property
    def label(self) -> str: ...

    def spans(self, text: str) -> Iterator[tuple[int, int]]: ...


def _p(
    label: str, regex: str, flags: int = 0, check: Callable[[str], bool] | None = None
) -> Pattern:
    return Pattern(label, re.compile(regex, flags), check)


def _basic_credentials(value: str) -> bool:
    """HTTP basic credentials: base64 of ``user:password`` (so not "Basic training")."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    if b":" in decoded:
        return True
    return any(c in value for c in "0123456789+/=") and not looks_like_path(value)


_URL_SAFE = r"[A-Za-z0-9_-]"
_KEY_PREFIX = r"(?:sk|gsk|ghp|gho|ghs|ghu|ghr|github_pat|glpat|hf|npm|xox[abpre]|pypi)"
_RANDOM_BODY = (
    r"(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[a-z])(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{16,}"
)
_END = r"(?![A-Za-z0-9])"

# A PEM block, to its END line over header and base64 lines; without one (cut off, pasted in
# part), as far as its base64 lines go. Never across a line of prose.
_PEM_LINE = r"(?:[A-Za-z0-9-]+:[^\n]*|[A-Za-z0-9+/=]+|[ \t]*)"
_PEM = (
    r"-----BEGIN [A-Z0-9 ]+-----(?:(?:\r?\n" + _PEM_LINE + r")*?\r?\n-----END [A-Z0-9 ]+-----"
    r"|(?:\r?\n(?:[A-Za-z0-9-]+:[^\n]*|[A-Za-z0-9+/=]{8,}))*)"
)

# Providers' own prefixes, found anywhere, with no keyword near them (gitleaks asks for one for
# several of these: "telegram", "mailgun", "discord"...).
_PREFIXED = (
    r"(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,}",  # Stripe keys
    r"whsec_[A-Za-z0-9+/=]{20,}",  # Stripe webhook secrets
    r"\d{8,10}:AA[A-Za-z0-9_-]{30,40}",  # Telegram bot tokens
    r"key-[0-9a-z]{32}",  # Mailgun
    r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",  # Shopify
    r"dapi[a-h0-9]{32}(?:-\d)?",  # Databricks
    r"hv[sbr]\.[A-Za-z0-9_-]{24,}",  # Vault service, batch and recovery tokens
    r"s\.[A-Za-z0-9]{24}",  # Vault tokens, old style
    r"GOCSPX-[A-Za-z0-9_-]{28}",  # Google OAuth client secrets
    r"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}",  # Discord bot tokens
    r"NR(?:AK|JS|II)-[A-Za-z0-9]{19,32}",  # New Relic
    r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",  # SendGrid
    r"AGE-SECRET-KEY-1[0-9A-Z]{58}",  # age
)

# Order matters: the first pattern to claim a span wins, so the specific come before the general.
DEFAULT_PATTERNS: tuple[Shape, ...] = (
    # A PEM block inside a JSON string (a cloud service account's "private_key"), its line
    # breaks written as a backslash and an n.
    _p("SECRET", r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:\\n[A-Za-z0-9+/=]*)+"),
    # A PEM block; without its END line (cut off, or pasted in part), up to the end of its
    # base64 lines.
    _p("SECRET", _PEM),
    _p("URL", r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:[^\s/@]+@[^\s]+"),
    _p("SECRET", r"\bBearer\s+[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE),
    # HTTP basic credentials: base64 of user:password (not "Basic training").
    _p(
        "SECRET",
        r"\b(?i:basic)\s+(?P<value>[A-Za-z0-9+/]{8,}={0,2})",
        check=_basic_credentials,
    ),
    _p("SECRET", rf"(?<![A-Za-z0-9])(?:{'|'.join(_PREFIXED)}){_END}"),
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
    VENDOR,
    *NAMED_PATTERNS,
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
    # Grouped by spaces (a no-break space folds to one) or dashes, or split over two lines.
    _p("CARD", r"(?<![\w-])\d(?:(?:[ -]|[ \t]*\r?\n[ \t]*)?\d){12,18}(?![\w-])", check=luhn),
    # US social security numbers: never area 000, 666 or 9xx, group 00 or serial 0000.
    _p("SSN", r"(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])"),
    _p("PHONE", r"(?<![\w+])\+?\d{1,3}?[ .-]?\(?\d{2,4}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}(?!\w)"),
    # A 7-digit local number (555-0100), not a range of years or pages (1999-2004).
    _p("PHONE", r"(?<![\w.+-])\d{3}[-.]\d{4}(?![\w-]|\.\d)"),
    # Runs of 40 or more base64 characters, unless they read as a path (a URL's, a file's).
    _p(
        "SECRET",
        r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=])",
        check=lambda value: not looks_like_path(value),
    ),
    # URL-safe base64 (RFC 4648 section 5). A digit, a lower- and an upper-case letter are all
    # required, so a long snake_case or kebab-case name is not taken for a key.
    _p(
        "SECRET",
        rf"(?<!{_URL_SAFE})(?={_URL_SAFE}*\d)(?={_URL_SAFE}*[a-z])(?={_URL_SAFE}*[A-Z])"
        rf"{_URL_SAFE}{{40,}}={{0,2}}(?![A-Za-z0-9_=-])",
    ),
)

# What a log line must never carry: keys, tokens and URLs with a password in them.
SECRET_SHAPES: tuple[Shape, ...] = tuple(
    p for p in DEFAULT_PATTERNS if p.label in ("SECRET", "URL")
)

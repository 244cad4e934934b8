"""Values that their surroundings name as secret: ``password=hunter2``, ``DB_PASS=``, ``pw:``,
``"auth": "..."`` in a Docker config, ``_authToken=`` in an .npmrc, a JWK's ``"k"``, a YAML
block under ``password: >-``, ``mysql -p...``, ``curl -u user:pass``, ``sshpass -p``, an HTML
``value=`` of a password field, ``?sig=`` in a URL, "the root password is hunter2".

These read the text as ``fold`` leaves it (a fullwidth equals sign is ``=``). The name decides, so a
value may be short (a 7-letter password); what is plainly not a value is left alone: a
placeholder (``${DB_PASS}``, ``<password>``, ``****``, ``changeme``), a type (``password: str``),
code (``os.environ["X"]``, ``request.form.get(...)``), a path, a boolean. In prose, where a
sentence may merely mention a password, the value must look like one (a digit or a symbol in
it, or quoted).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from groundkit.answer.pattern import Gated, Pattern

__all__ = ["NAMED_PATTERNS", "plausible_value"]

# Names that say a secret follows. Matched in any case, as a whole word or the end of a longer
# name (DB_PASS, smtpPassword, client-secret), never inside a word (compass, passport, author).
_WORDS = (
    r"pass(?:word|wd|phrase|code)?|pwd|pw|secret|token|credentials?|api[_ -]?key|apikey"
    r"|access[_ -]?key|secret[_ -]?key|private[_ -]?key|auth(?:[_-]?token|[_-]?key)?"
    r"|authorization|session[_-]?(?:id|key|token)|cookie|otp|totp|mfa|recovery[_ -]?code"
    r"|license[_ -]?key|signing[_ -]?key|encryption[_ -]?key|master[_ -]?key"
    r"|conn(?:ection)?[_ -]?string"
)
# What may follow the name and still name the value (PASSWORD_HASH, token_b64, secret.value),
# unlike PASSWORD_FILE, api_key_env or AUTH_MISSING, whose values are not the secret.
_SUFFIXES = r"hash|value|b64|base64|enc|encrypted|plain|raw|str|string|\d+"
_NAME = (
    r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_.-])*"
    # smtpPassword, and PGPASSWORD, MYSQL_PWD's cousins written as one word
    r"(?:[a-z0-9]+(?=[A-Z])|[A-Z0-9]{1,8}(?=PASS|PWD|SECRET|TOKEN|APIKEY|AUTH))?"
    rf"(?i:{_WORDS})(?![A-Za-z])(?:[_.-](?i:{_SUFFIXES}))*"
)
_STOP = r"\s\"'`,;&<>"
_VALUE = rf"(?P<value>[^{_STOP}]*[^{_STOP}.:)\]}}])"  # not ending in sentence punctuation
_QUOTED = r"(?P<q>[\"'`\u2018\u201c])(?P<value>[^\"'`\u2019\u201d\n]{3,200})[\"'`\u2019\u201d]"

# Not values: placeholders, types, code, paths, booleans (checked on the value alone).
_NOT_A_VALUE = re.compile(
    r"(?ix)^(?:"
    r"\$\{?[\w.]+\}?|\{\{.*\}\}|%[\w]+%|<[^>]*>|\[[^\]]*\]|\*+|x{3,}|\.{3,}|_+|-+"
    r"|null|nil|none|true|false|yes|no|on|off|undefined|required|optional|empty|redacted"
    r"|changeme|change_me|secret|password|passwd|token|example|dummy|placeholder|your[\w-]*"
    r"|str|string|int|bytes|bool|text|varchar\w*|char\w*|optional\[.*|any|object|secretstr"
    r"|bearer|basic|jwt|oauth2?|raise|return|if|else|not|and|or|in|is|await|yield|lambda"
    r"|[A-Z][A-Z0-9]*_[A-Z0-9_]+"  # the name of an environment variable: OPENAI_API_KEY
    r"|[a-z_]\w*(?:\.[a-z_]\w*)+|.*[(\[{].*|[./~].*"
    r")$"
)


def plausible_value(value: str) -> bool:
    """Whether ``value`` may be a secret rather than a placeholder, a type, code or a path."""
    return len(value) >= 3 and _NOT_A_VALUE.match(value) is None


def _looks_secret(value: str) -> bool:
    """For prose and code: a digit or a symbol in it (hunter2, Tr0ub4dor&3), not a plain or
    hyphenated word (``pad``, ``warns``, ``OpenAI-compatible``)."""
    return plausible_value(value) and bool(re.search(r"[\d_]|[^\w\s'-]", value))


def _literal(value: str) -> bool:
    """An unquoted value written with no space after ``=`` (``DB_PASS=...`` in an .env file):
    a secret-looking one, or a long or mixed-case word (not ``pad_token=pad``)."""
    mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return plausible_value(value) and (_looks_secret(value) or len(value) >= 8 or mixed)


def _quoted(value: str) -> bool:
    """A quoted value: not a plain lower-case word of a few letters ("missing", "guess")."""
    return plausible_value(value) and not re.fullmatch(r"[a-z]{1,7}", value)


def _p(regex: str, check: Callable[[str], bool] | None = plausible_value) -> Pattern:
    return Pattern("SECRET", re.compile(regex), check)


_SEP = r"[\"']?\s*(?::=|=>|=|:|\|\|)\s*"
_ASSIGN = r"[\"']?\s*(?::=|=>|=|\|\|)\s*"
_COLON = r"[\"']?\s*:\s*"
_PROSE = rf"(?i:{_WORDS})(?![A-Za-z])[\w \t'-]{{0,40}}?(?:\b(?:is|was|are|reads)\b|:)\s+"

# Patterns that open with a name or a prose phrase: run only where the name is.
_NAMED = Gated(
    re.compile(rf"(?i:{_WORDS})"),
    (
        # A YAML block value (password: >- or |) on the indented lines below the name.
        _p(rf"{_NAME}\s*:\s*[>|][-+]?[ \t]*\n(?P<value>(?:[ \t]+\S[^\n]*(?:\n|$))+)", None),
        # Quoted, spaces and all: passphrase: "correct horse battery staple".
        _p(rf"{_NAME}{_SEP}{_QUOTED}", _quoted),
        # "name": "value", name = "value" (JSON, TOML, code).
        _p(rf"{_NAME}{_SEP}[\"'`]{_VALUE}", _quoted),
        # NAME=value (.env, .npmrc, a command line).
        _p(rf"{_NAME}[\"']?(?::=|=)(?P<value>[^{_STOP}]*[^{_STOP}.:)\]}}])", _literal),
        # name = value, unquoted in code or an .ini file: a variable, unless it looks secret.
        _p(rf"{_NAME}{_ASSIGN}{_VALUE}", _looks_secret),
        # name: value (YAML, headers, a docstring's "seed: the seed to use"): only what looks like
        # a secret (a digit or a symbol in it), so prose after a colon is left alone.
        _p(rf"{_NAME}{_COLON}{_VALUE}", _looks_secret),
        # In prose: the root password is hunter2; my API key was 9f86d0...; token for CI: ...
        _p(rf"{_PROSE}{_QUOTED}", _quoted),
        _p(rf"{_PROSE}{_VALUE}", _looks_secret),
    ),
)

NAMED_PATTERNS: tuple[Pattern | Gated, ...] = (
    _NAMED,
    # A JWK's symmetric or private members: "k", "d", "p", "q", "dp", "dq", "qi".
    _p(r"\"(?:k|d|p|q|dp|dq|qi)\"\s*:\s*\"(?P<value>[A-Za-z0-9_-]{16,})\"", None),
    # Commands: mysql -pSECRET, mysql --password=..., sshpass -p SECRET, curl -u user:SECRET.
    _p(r"\bmysql\w*\b[^\n]*?\s-p(?P<value>[^\s\"'-][^\s\"']*)"),
    _p(r"--pass(?:word)?[= ][\"']?(?P<value>[^\s\"']+)"),
    _p(r"\bsshpass\b[^\n]*?\s-p\s*[\"']?(?P<value>[^\s\"']+)"),
    _p(
        r"\b(?:curl|wget|http)\b[^\n]*?\s(?:-u|--user|--http-user)[ =]?[\"']?[^\s:\"']*:"
        r"(?P<value>[^\s\"']+)"
    ),
    # Markup: the value of a password (or secret, token, key) field.
    _p(
        r"(?i)<(?=[^>]*(?:pass|secret|token|api.?key|auth))[^>]*?\bvalue\s*=\s*[\"']"
        r"(?P<value>[^\"']+)[\"']"
    ),
    # URLs: secrets in the query string (an Azure SAS sig=, X-Amz-Signature=, access_token=).
    _p(
        r"(?i)[?&](?:sig|signature|x-amz-signature|x-amz-credential|x-goog-signature"
        r"|x-goog-credential|access_token|id_token|refresh_token|token|key|api_?key|code"
        r"|secret|client_secret|password|pass|pwd|auth)=(?P<value>[^&#\s\"'<>]{6,})",
    ),
)

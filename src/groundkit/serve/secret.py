"""The shared secret that guards the mutating routes and tools.

Its value is read from the environment variable that ``serve.secret_env`` names, never from a
config file. It prints as ``<redacted>``, refuses to be pickled or serialised, and is compared in
constant time: both sides are hashed first, so even the offered length changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from collections.abc import Mapping
from typing import NoReturn

from groundkit.errors import AuthError, ConfigError, ErrorCode

__all__ = ["SECRET_HEADER", "SharedSecret", "authorize", "secret_from_env"]

SECRET_HEADER = "X-Groundkit-Secret"  # noqa: S105 (a header name, not a secret)
# What survives the trip in an HTTP header: visible ASCII, inner spaces allowed (edge
# whitespace is stripped in transit, other bytes are decoded differently by each stack).
_SENDABLE = re.compile(r"^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$")


def _digest(value: str) -> bytes:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).digest()


class SharedSecret:
    """A shared secret whose value never leaves this object except through ``matches``.

    Unlike ``groundkit.secret.Secret`` (a provider key, revealed once per request header), it is
    only ever compared, so it keeps a digest and can never be revealed at all.
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if not _SENDABLE.match(value):
            raise ValueError("a secret must be visible ASCII, without whitespace at either end")
        self._value = _digest(value)  # only ever compared: the value itself is not kept

    def matches(self, offered: str | None) -> bool:
        """Constant-time comparison; a missing offer never matches."""
        if offered is None:
            return False
        return hmac.compare_digest(self._value, _digest(offered))

    def same_as(self, other: SharedSecret | None) -> bool:
        """Constant-time: whether ``other`` holds the same value."""
        return other is not None and hmac.compare_digest(self._value, other._value)

    def __repr__(self) -> str:
        return "SharedSecret(<redacted>)"

    def __str__(self) -> str:
        return "<redacted>"

    def __reduce__(self) -> NoReturn:
        raise TypeError("a SharedSecret cannot be pickled or serialised")

    def __eq__(self, other: object) -> bool:  # only through matches(), which is constant-time
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def secret_from_env(name: str, environ: Mapping[str, str] | None = None) -> SharedSecret | None:
    """The secret in the variable ``name``, or None when it is unset or empty (mutations off).

    Raises ``ConfigError`` (``config.invalid_value``) for a value no client could send.
    """
    value = (os.environ if environ is None else environ).get(name, "")
    if not value:
        return None
    try:
        return SharedSecret(value)
    except ValueError as exc:
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            f"the secret in {name} cannot be sent in an HTTP header: {exc}",
            hint="use a long random string of letters, digits and punctuation",
        ) from None


def authorize(secret: SharedSecret | None, offered: str | None) -> None:
    """Raise unless ``offered`` is the configured secret. With none configured, nothing mutates."""
    if secret is None:
        raise AuthError(
            ErrorCode.AUTH_INVALID,
            "changes are disabled on this server",
            hint="the operator enables them by setting the variable serve.secret_env names",
        )
    if not offered:
        raise AuthError(
            ErrorCode.AUTH_REQUIRED,
            f"this needs the shared secret in the {SECRET_HEADER} header",
        )
    if not secret.matches(offered):
        raise AuthError(ErrorCode.AUTH_INVALID, "the shared secret does not match")

"""The shared secret that guards the mutating routes and tools.

Its value is read from the environment variable that ``serve.secret_env`` names, never from a
config file. It prints as ``<redacted>``, refuses to be pickled or serialised, and is compared in
constant time.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Mapping
from typing import NoReturn

__all__ = ["SECRET_HEADER", "Secret", "authorize", "secret_from_env"]

SECRET_HEADER = "X-Groundkit-Secret"  # noqa: S105 (a header name, not a secret)


class Secret:
    """A shared secret whose value never leaves this object except through ``matches``."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if not value:
            raise ValueError("a secret cannot be empty")
        self._value = value.encode("utf-8")

    def matches(self, offered: str | None) -> bool:
        """Constant-time comparison; a missing offer never matches."""
        if offered is None:
            return False
        return hmac.compare_digest(self._value, offered.encode("utf-8", "surrogateescape"))

    def same_as(self, other: Secret | None) -> bool:
        """Constant-time: whether ``other`` holds the same value."""
        return other is not None and hmac.compare_digest(self._value, other._value)

    def __repr__(self) -> str:
        return "Secret(<redacted>)"

    def __str__(self) -> str:
        return "<redacted>"

    def __reduce__(self) -> NoReturn:
        raise TypeError("a Secret cannot be pickled or serialised")

    def __eq__(self, other: object) -> bool:  # only through matches(), which is constant-time
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def secret_from_env(name: str, environ: Mapping[str, str] | None = None) -> Secret | None:
    """The secret in the variable ``name``, or None when it is unset or empty (mutations off)."""
    value = (os.environ if environ is None else environ).get(name, "")
    return Secret(value) if value else None


def authorize(secret: Secret | None, offered: str | None) -> None:
    """Raise unless ``offered`` is the configured secret. With none configured, nothing mutates."""
    from groundkit.errors import ErrorCode, GroundkitError

    if secret is None:
        raise GroundkitError(
            ErrorCode.AUTH_INVALID,
            "changes are disabled on this server",
            hint="the operator enables them by setting the variable serve.secret_env names",
        )
    if not offered:
        raise GroundkitError(
            ErrorCode.AUTH_REQUIRED,
            f"this needs the shared secret in the {SECRET_HEADER} header",
        )
    if not secret.matches(offered):
        raise GroundkitError(ErrorCode.AUTH_INVALID, "the shared secret does not match")

"""A credential that cannot leak by accident: it prints ``<redacted>`` and refuses to serialise.

One type for every credential groundkit holds: provider and embedding API keys (revealed only
where a request header is written) and the server's shared secret (only ever compared).
"""

from __future__ import annotations

import hmac
from typing import Any, NoReturn

__all__ = ["Secret", "bearer"]


class Secret:
    """A provider key. ``reveal()`` is called only where a request header is written."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if not value:
            raise ValueError("a secret cannot be empty")
        self._value = value

    def reveal(self) -> str:
        return self._value

    def matches(self, offered: str | None) -> bool:
        """Constant-time comparison with a value a client offered; a missing offer never matches."""
        if offered is None:
            return False
        mine = self._value.encode("utf-8", "surrogateescape")
        return hmac.compare_digest(mine, offered.encode("utf-8", "surrogateescape"))

    def __repr__(self) -> str:
        return "<redacted>"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return "<redacted>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and self.matches(other._value)

    def __hash__(self) -> int:
        return hash(("Secret", self._value))

    def __reduce__(self) -> NoReturn:
        raise TypeError("a secret cannot be serialised")

    def __getstate__(self) -> NoReturn:
        raise TypeError("a secret cannot be serialised")

    def __copy__(self) -> Secret:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Secret:
        return self


def bearer(key: Secret) -> Secret:
    """``Bearer <key>`` as a secret of its own, revealed only as the header is written."""
    return Secret("Bearer " + key.reveal())

"""How both transports word errors.

REST answers ``{code, message, request_id}`` with the HTTP status ``groundkit.errors.OUTCOMES``
gives the code. MCP answers a tool call that failed with an ``is_error`` result carrying that same
JSON (an agent reads the code and can correct itself; JSON-RPC errors stay for protocol faults).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from groundkit.errors import ErrorCode, GroundkitError, InternalError, ServeError

__all__ = ["http_status", "internal_error", "invalid_request"]


def http_status(error: GroundkitError) -> HTTPStatus:
    return error.outcome.http


def internal_error() -> GroundkitError:
    """What a bug looks like from outside: a code and no internals."""
    return InternalError(hint="this is a bug in groundkit; the server log has the request id")


def invalid_request(problems: Sequence[Mapping[str, Any]]) -> GroundkitError:
    """A request that failed validation, from pydantic's errors: where and why, never the value
    (which may be the caller's query or text)."""
    where_why = [
        f"{'.'.join(str(p) for p in err.get('loc', ()))}: {err.get('msg', 'invalid')}"
        for err in problems[:5]
    ]
    return ServeError(ErrorCode.SERVE_INVALID_REQUEST, "invalid request: " + "; ".join(where_why))

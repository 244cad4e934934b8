"""The one place where error codes become HTTP statuses, and how both transports word errors.

REST answers ``{code, message, request_id}`` with the status ``STATUS`` gives the code. MCP
answers a tool call that failed with an ``is_error`` result carrying that same JSON (an agent
reads the code and can correct itself; JSON-RPC errors stay for protocol faults). Every code is
in the table (a test enumerates ``ErrorCode``); the fallback on the error class (usage 400, not
found 404, else 500) only keeps a server built against a newer errors module answering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from groundkit.errors import ErrorCode, GroundkitError, NotFoundError, UsageError

__all__ = ["STATUS", "http_status", "internal_error", "invalid_request"]

STATUS: dict[ErrorCode, HTTPStatus] = {
    ErrorCode.USAGE: HTTPStatus.BAD_REQUEST,
    ErrorCode.INVALID_NAME: HTTPStatus.UNPROCESSABLE_ENTITY,
    ErrorCode.INVALID_QUERY: HTTPStatus.UNPROCESSABLE_ENTITY,
    ErrorCode.SERVE_INVALID_REQUEST: HTTPStatus.UNPROCESSABLE_ENTITY,
    ErrorCode.AMBIGUOUS_DOCUMENT: HTTPStatus.CONFLICT,
    ErrorCode.NO_VECTORS: HTTPStatus.CONFLICT,
    ErrorCode.RERANK_NOT_CONFIGURED: HTTPStatus.CONFLICT,
    ErrorCode.EMBEDDER_MISMATCH: HTTPStatus.CONFLICT,
    ErrorCode.INDEX_LOCKED: HTTPStatus.CONFLICT,
    ErrorCode.URL_UNSAFE: HTTPStatus.UNPROCESSABLE_ENTITY,
    ErrorCode.COLLECTION_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.DOCUMENT_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.CHUNK_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.SERVE_ROUTE_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.CODEMAP_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.CODEMAP_EDGE_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.SYMBOL_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.SYMBOL_AMBIGUOUS: HTTPStatus.CONFLICT,
    ErrorCode.CODEMAP_REVISION: HTTPStatus.NOT_FOUND,  # no such revision in the repository
    ErrorCode.CODEMAP_GIT: HTTPStatus.CONFLICT,  # the map's folder is not a git repository
    ErrorCode.AUTH_REQUIRED: HTTPStatus.UNAUTHORIZED,
    ErrorCode.AUTH_INVALID: HTTPStatus.FORBIDDEN,
    ErrorCode.SERVE_HOST_REJECTED: HTTPStatus.MISDIRECTED_REQUEST,
    ErrorCode.SERVE_ORIGIN_REJECTED: HTTPStatus.FORBIDDEN,
    ErrorCode.SERVE_BODY_TOO_LARGE: HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
    ErrorCode.SERVE_BUSY: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.FETCH_FAILED: HTTPStatus.BAD_GATEWAY,
    ErrorCode.FETCH_TOO_LARGE: HTTPStatus.BAD_GATEWAY,
    ErrorCode.FETCH_TIMEOUT: HTTPStatus.GATEWAY_TIMEOUT,
    ErrorCode.EMBEDDER_UNAVAILABLE: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.EMBEDDING_INVALID: HTTPStatus.BAD_GATEWAY,
    ErrorCode.MISSING_EXTRA: HTTPStatus.NOT_IMPLEMENTED,
    ErrorCode.SERVE_PATH_NOT_ALLOWED: HTTPStatus.FORBIDDEN,
    ErrorCode.EVAL_DATASET: HTTPStatus.UNPROCESSABLE_ENTITY,
    ErrorCode.EVAL_RESULTS: HTTPStatus.UNPROCESSABLE_ENTITY,
    ErrorCode.EVAL_INCOMPARABLE: HTTPStatus.CONFLICT,
    ErrorCode.EVAL_STAGE_UNAVAILABLE: HTTPStatus.CONFLICT,
    # The language-model edge: the server's upstream failed or is switched off, never the caller.
    ErrorCode.AI_DISABLED: HTTPStatus.CONFLICT,
    ErrorCode.AI_UNKNOWN_PROFILE: HTTPStatus.UNPROCESSABLE_ENTITY,
    ErrorCode.AI_REDACTION_REQUIRED: HTTPStatus.CONFLICT,
    ErrorCode.AI_PROVIDER_FAILED: HTTPStatus.BAD_GATEWAY,
    ErrorCode.AI_INVALID_OUTPUT: HTTPStatus.BAD_GATEWAY,
    ErrorCode.AI_REWRITE_INVALID: HTTPStatus.BAD_GATEWAY,
    ErrorCode.AI_JUDGE_INVALID: HTTPStatus.BAD_GATEWAY,
    ErrorCode.AI_RATE_LIMITED: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.AI_TIMEOUT: HTTPStatus.GATEWAY_TIMEOUT,
    # The server's provider credentials: 401/403 would tell the caller its own secret is wrong.
    ErrorCode.AUTH_MISSING: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.AUTH_KEYCHAIN_UNAVAILABLE: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.AUTH_DENIED: HTTPStatus.BAD_GATEWAY,
    ErrorCode.INTERNAL: HTTPStatus.INTERNAL_SERVER_ERROR,
    ErrorCode.STORE_FAILED: HTTPStatus.INTERNAL_SERVER_ERROR,
    ErrorCode.STORE_TOO_NEW: HTTPStatus.INTERNAL_SERVER_ERROR,
    ErrorCode.INDEX_FAILED: HTTPStatus.INTERNAL_SERVER_ERROR,
    ErrorCode.RERANK_INVALID: HTTPStatus.INTERNAL_SERVER_ERROR,
    # The server's own configuration, wrong at start-up: never the caller's fault.
    ErrorCode.CONFIG_UNKNOWN_KEY: HTTPStatus.INTERNAL_SERVER_ERROR,
    ErrorCode.CONFIG_INVALID: HTTPStatus.INTERNAL_SERVER_ERROR,
    ErrorCode.CONFIG_FILE: HTTPStatus.INTERNAL_SERVER_ERROR,
}


def http_status(error: GroundkitError) -> HTTPStatus:
    found = STATUS.get(error.code)
    if found is not None:
        return found
    if isinstance(error, NotFoundError):
        return HTTPStatus.NOT_FOUND
    if isinstance(error, UsageError):
        return HTTPStatus.BAD_REQUEST
    return HTTPStatus.INTERNAL_SERVER_ERROR


def internal_error() -> GroundkitError:
    """What a bug looks like from outside: a code and no internals."""
    return GroundkitError(
        ErrorCode.INTERNAL,
        "internal error",
        hint="this is a bug in groundkit; the server log has the request id",
    )


def invalid_request(problems: Sequence[Mapping[str, Any]]) -> GroundkitError:
    """A request that failed validation, from pydantic's errors: where and why, never the value
    (which may be the caller's query or text)."""
    where_why = [
        f"{'.'.join(str(p) for p in err.get('loc', ()))}: {err.get('msg', 'invalid')}"
        for err in problems[:5]
    ]
    return GroundkitError(
        ErrorCode.SERVE_INVALID_REQUEST, "invalid request: " + "; ".join(where_why)
    )

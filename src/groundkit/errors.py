"""Errors raised by groundkit, and the one table that says what each means on every surface.

Every error is a ``GroundkitError`` with a stable ``code`` (an ``ErrorCode``), a message that says
what happened and what to do next, and an optional hint. Messages never carry document text,
queries, credentials or absolute machine paths.

    GroundkitError
    ├── UsageError              the caller asked for something malformed
    │   └── ConfigError         grk.toml / GRK_* / flags: unknown key or invalid value
    ├── NotFoundError           a collection, document or chunk that does not exist
    ├── StoreError              the store or a derived index cannot be read or written
    │   ├── IndexLockedError    another process is writing to the collection
    │   └── BackendError        a collection's remote engine (Qdrant) failed or refused
    ├── FetchError              a URL could not be fetched
    │   └── UnsafeURLError      a URL (or a redirect, or a resolved address) was refused
    ├── ModelError              an embedder or reranker is missing, mismatched or misbehaving
    ├── MissingExtraError       an optional package is not installed
    ├── AIError                 the language-model edge: provider failed, output refused
    ├── AuthError               a credential is missing, denied or unreachable
    ├── ServeError              a request the server refuses before any library call
    └── InternalError           a bug: what it looks like from outside

``ERROR_CLASS`` names the one class each code is raised as (a test holds every ``raise`` to it).
``OUTCOMES`` gives every code its ``Kind``, and so its CLI exit status, its HTTP status, and the
state an answer reports when the error keeps a model from answering. The
kind is who can fix it: the caller by changing the request (exit 2, HTTP 4xx), the operator by
changing the set-up (exit 2: the CLI user is the operator; HTTP 5xx: a REST client is not), or
nobody right now (exit 1, HTTP 5xx). Only the CLI, REST and MCP layers read the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from http import HTTPStatus

__all__ = [
    "ERROR_CLASS",
    "OUTCOMES",
    "AIError",
    "AuthError",
    "BackendError",
    "ConfigError",
    "ErrorCode",
    "ExitStatus",
    "FetchError",
    "GroundkitError",
    "IndexLockedError",
    "InternalError",
    "Kind",
    "MissingExtraError",
    "ModelError",
    "NotFoundError",
    "Outcome",
    "ServeError",
    "StoreError",
    "UnsafeURLError",
    "UsageError",
    "missing_extra",
]


class ErrorCode(StrEnum):
    """Stable machine-readable error codes. Never renumber or reword an existing value."""

    USAGE = "usage"
    INTERNAL = "internal"
    CONFIG_UNKNOWN_KEY = "config.unknown_key"
    CONFIG_INVALID = "config.invalid_value"
    CONFIG_FILE = "config.unreadable_file"
    INVALID_NAME = "usage.invalid_name"
    INVALID_QUERY = "usage.invalid_query"
    AMBIGUOUS_DOCUMENT = "usage.ambiguous_document"
    COLLECTION_NOT_FOUND = "collection.not_found"
    DOCUMENT_NOT_FOUND = "document.not_found"
    CHUNK_NOT_FOUND = "chunk.not_found"
    STORE_FAILED = "store.failed"
    STORE_TOO_NEW = "store.schema_too_new"
    STORE_FULL = "store.disk_full"
    STORE_READ_ONLY = "store.read_only"
    INDEX_LOCKED = "index.locked"
    INDEX_FAILED = "index.failed"
    BACKEND_UNREACHABLE = "backend.unreachable"
    BACKEND_TIMEOUT = "backend.timeout"
    BACKEND_AUTH = "backend.auth_refused"
    BACKEND_SCHEMA = "backend.schema_mismatch"
    BACKEND_RATE_LIMITED = "backend.rate_limited"
    BACKEND_QUOTA = "backend.quota_exceeded"
    BACKEND_FAILED = "backend.failed"
    FETCH_FAILED = "fetch.failed"
    FETCH_TOO_LARGE = "fetch.too_large"
    FETCH_TIMEOUT = "fetch.timeout"
    URL_UNSAFE = "url.unsafe"
    MISSING_EXTRA = "dependency.missing_extra"
    EMBEDDER_MISMATCH = "embedder.mismatch"
    EMBEDDER_UNAVAILABLE = "embedder.unavailable"
    EMBEDDING_INVALID = "embedder.invalid_output"
    NO_VECTORS = "search.no_vectors"
    RERANK_NOT_CONFIGURED = "rerank.not_configured"
    RERANK_INVALID = "rerank.invalid_output"
    EVAL_DATASET = "eval.invalid_dataset"
    EVAL_RESULTS = "eval.invalid_results"
    EVAL_INCOMPARABLE = "eval.incomparable"
    EVAL_STAGE_UNAVAILABLE = "eval.stage_unavailable"
    AI_DISABLED = "ai.disabled"
    AI_UNKNOWN_PROFILE = "ai.unknown_profile"
    AI_PROVIDER_FAILED = "ai.provider_failed"
    AI_RATE_LIMITED = "ai.rate_limited"
    AI_TIMEOUT = "ai.timeout"
    AI_INVALID_OUTPUT = "ai.invalid_output"
    AI_REPLY_CUT_OFF = "ai.reply_cut_off"
    AI_UNHELPFUL = "ai.unhelpful"
    AI_REWRITE_INVALID = "ai.rewrite_invalid"
    AI_JUDGE_INVALID = "ai.judge_invalid"
    AI_REDACTION_REQUIRED = "ai.redaction_required"
    AUTH_MISSING = "auth.missing"
    AUTH_DENIED = "auth.denied"
    AUTH_KEYCHAIN_UNAVAILABLE = "auth.keychain_unavailable"
    AUTH_REQUIRED = "auth.required"
    AUTH_INVALID = "auth.invalid"
    SERVE_HOST_REJECTED = "serve.host_rejected"
    SERVE_ORIGIN_REJECTED = "serve.origin_rejected"
    SERVE_BODY_TOO_LARGE = "serve.body_too_large"
    SERVE_BUSY = "serve.busy"
    SERVE_INVALID_REQUEST = "serve.invalid_request"
    SERVE_ROUTE_NOT_FOUND = "serve.route_not_found"
    SERVE_METHOD_NOT_ALLOWED = "serve.method_not_allowed"
    SERVE_PATH_NOT_ALLOWED = "serve.path_not_allowed"
    CODEMAP_NOT_FOUND = "codemap.not_found"
    CODEMAP_EDGE_NOT_FOUND = "codemap.edge_not_found"
    SYMBOL_NOT_FOUND = "codemap.symbol_not_found"
    SYMBOL_AMBIGUOUS = "codemap.symbol_ambiguous"
    CODEMAP_REVISION = "codemap.bad_revision"
    CODEMAP_GIT = "codemap.git_failed"
    CODEMAP_NAME_TAKEN = "codemap.name_taken"


class ExitStatus(IntEnum):
    """What ``grk`` exits with."""

    OK = 0
    RUNTIME = 1  # something failed that may work later
    USAGE = 2  # the command or the set-up must change first
    PARTIAL = 3  # some inputs were skipped
    REGRESSION = 4  # grk eval --compare: a metric fell below the baseline beyond its CI
    SYMBOL_NOT_FOUND = 5  # grk trace/blast: no node has that name (nearest names suggested)
    SYMBOL_AMBIGUOUS = 6  # grk trace/blast: several nodes do (candidates listed)
    INTERRUPTED = 130  # Ctrl-C, as shells report it (128 + SIGINT); what was committed is kept


class Kind(StrEnum):
    """Who can fix a failure."""

    REQUEST = "request"  # the caller, by changing what they asked
    SETUP = "setup"  # the operator: configuration, credentials, packages, the disk's mode
    FAILURE = "failure"  # nobody right now: retrying later may work
    BUG = "bug"  # groundkit itself


_EXIT = {
    Kind.REQUEST: ExitStatus.USAGE,
    Kind.SETUP: ExitStatus.USAGE,
    Kind.FAILURE: ExitStatus.RUNTIME,
    Kind.BUG: ExitStatus.RUNTIME,
}


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: Kind
    http: HTTPStatus
    exit: ExitStatus | None = None  # a status of its own, for scripts that branch on it
    # What an answer reports when this error keeps a model from answering (an AIState value:
    # disabled, refused, failed); None: unavailable, the model cannot be used now.
    answer_state: str | None = None

    @property
    def exit_status(self) -> ExitStatus:
        return self.exit if self.exit is not None else _EXIT[self.kind]


def _o(
    kind: Kind, http: HTTPStatus, exit: ExitStatus | None = None, *, answer: str | None = None
) -> Outcome:
    return Outcome(kind, http, exit, answer)


_R, _S, _F = Kind.REQUEST, Kind.SETUP, Kind.FAILURE
_REFUSED, _FAILED = "refused", "failed"
H = HTTPStatus
OUTCOMES: dict[ErrorCode, Outcome] = {
    ErrorCode.USAGE: _o(_R, H.BAD_REQUEST),
    ErrorCode.INTERNAL: _o(Kind.BUG, H.INTERNAL_SERVER_ERROR),
    ErrorCode.CONFIG_UNKNOWN_KEY: _o(_S, H.INTERNAL_SERVER_ERROR),
    ErrorCode.CONFIG_INVALID: _o(_S, H.INTERNAL_SERVER_ERROR),
    ErrorCode.CONFIG_FILE: _o(_S, H.INTERNAL_SERVER_ERROR),
    ErrorCode.INVALID_NAME: _o(_R, H.UNPROCESSABLE_ENTITY),
    ErrorCode.INVALID_QUERY: _o(_R, H.UNPROCESSABLE_ENTITY),
    ErrorCode.AMBIGUOUS_DOCUMENT: _o(_R, H.CONFLICT),
    ErrorCode.COLLECTION_NOT_FOUND: _o(_R, H.NOT_FOUND),
    ErrorCode.DOCUMENT_NOT_FOUND: _o(_R, H.NOT_FOUND),
    ErrorCode.CHUNK_NOT_FOUND: _o(_R, H.NOT_FOUND),
    ErrorCode.STORE_FAILED: _o(_F, H.INTERNAL_SERVER_ERROR),
    ErrorCode.STORE_TOO_NEW: _o(_S, H.INTERNAL_SERVER_ERROR),
    ErrorCode.STORE_FULL: _o(_F, H.INSUFFICIENT_STORAGE),
    ErrorCode.STORE_READ_ONLY: _o(_S, H.SERVICE_UNAVAILABLE),
    ErrorCode.INDEX_LOCKED: _o(_F, H.SERVICE_UNAVAILABLE),
    ErrorCode.INDEX_FAILED: _o(_F, H.INTERNAL_SERVER_ERROR),
    # A collection on a Qdrant cluster: down or slow may pass (exit 1); a refused key, a
    # collection laid out by another version, or a limit of the cluster's is set-up (exit 2).
    ErrorCode.BACKEND_UNREACHABLE: _o(_F, H.SERVICE_UNAVAILABLE),
    ErrorCode.BACKEND_TIMEOUT: _o(_F, H.GATEWAY_TIMEOUT),
    ErrorCode.BACKEND_AUTH: _o(_S, H.BAD_GATEWAY),
    ErrorCode.BACKEND_SCHEMA: _o(_S, H.INTERNAL_SERVER_ERROR),
    ErrorCode.BACKEND_RATE_LIMITED: _o(_F, H.SERVICE_UNAVAILABLE),
    ErrorCode.BACKEND_QUOTA: _o(_S, H.INSUFFICIENT_STORAGE),
    ErrorCode.BACKEND_FAILED: _o(_F, H.BAD_GATEWAY),
    ErrorCode.FETCH_FAILED: _o(_F, H.BAD_GATEWAY),
    ErrorCode.FETCH_TOO_LARGE: _o(_F, H.BAD_GATEWAY),
    ErrorCode.FETCH_TIMEOUT: _o(_F, H.GATEWAY_TIMEOUT),
    ErrorCode.URL_UNSAFE: _o(_R, H.UNPROCESSABLE_ENTITY, answer=_FAILED),
    ErrorCode.MISSING_EXTRA: _o(_S, H.NOT_IMPLEMENTED),
    ErrorCode.EMBEDDER_MISMATCH: _o(_S, H.INTERNAL_SERVER_ERROR),
    ErrorCode.EMBEDDER_UNAVAILABLE: _o(_F, H.SERVICE_UNAVAILABLE),
    ErrorCode.EMBEDDING_INVALID: _o(_F, H.BAD_GATEWAY),
    ErrorCode.NO_VECTORS: _o(_R, H.CONFLICT),
    ErrorCode.RERANK_NOT_CONFIGURED: _o(_R, H.CONFLICT),
    ErrorCode.RERANK_INVALID: _o(_F, H.INTERNAL_SERVER_ERROR),
    ErrorCode.EVAL_DATASET: _o(_R, H.UNPROCESSABLE_ENTITY),
    ErrorCode.EVAL_RESULTS: _o(_R, H.UNPROCESSABLE_ENTITY),
    ErrorCode.EVAL_INCOMPARABLE: _o(_R, H.CONFLICT),
    ErrorCode.EVAL_STAGE_UNAVAILABLE: _o(_R, H.CONFLICT),
    ErrorCode.AI_DISABLED: _o(_S, H.SERVICE_UNAVAILABLE, answer="disabled"),
    ErrorCode.AI_UNKNOWN_PROFILE: _o(_R, H.UNPROCESSABLE_ENTITY),
    ErrorCode.AI_REDACTION_REQUIRED: _o(_S, H.SERVICE_UNAVAILABLE),
    ErrorCode.AI_PROVIDER_FAILED: _o(_F, H.BAD_GATEWAY, answer=_FAILED),
    ErrorCode.AI_RATE_LIMITED: _o(_F, H.SERVICE_UNAVAILABLE, answer=_FAILED),
    ErrorCode.AI_TIMEOUT: _o(_F, H.GATEWAY_TIMEOUT, answer=_FAILED),
    ErrorCode.AI_INVALID_OUTPUT: _o(_F, H.BAD_GATEWAY, answer=_REFUSED),
    # max_tokens stopped the reply before it was whole: the profile's limit must grow.
    ErrorCode.AI_REPLY_CUT_OFF: _o(_S, H.BAD_GATEWAY, answer=_REFUSED),
    # Checked, but of no use to a reader (repeats, no words, a copy of its own quote).
    ErrorCode.AI_UNHELPFUL: _o(_F, H.BAD_GATEWAY, answer=_REFUSED),
    ErrorCode.AI_REWRITE_INVALID: _o(_F, H.BAD_GATEWAY, answer=_FAILED),
    ErrorCode.AI_JUDGE_INVALID: _o(_F, H.BAD_GATEWAY),
    # The server's own provider credentials: 401/403 would tell a client its secret is wrong.
    ErrorCode.AUTH_MISSING: _o(_S, H.SERVICE_UNAVAILABLE),
    ErrorCode.AUTH_DENIED: _o(_S, H.BAD_GATEWAY),
    ErrorCode.AUTH_KEYCHAIN_UNAVAILABLE: _o(_F, H.SERVICE_UNAVAILABLE),
    ErrorCode.AUTH_REQUIRED: _o(_R, H.UNAUTHORIZED),
    ErrorCode.AUTH_INVALID: _o(_R, H.FORBIDDEN),
    ErrorCode.SERVE_HOST_REJECTED: _o(_R, H.MISDIRECTED_REQUEST),
    ErrorCode.SERVE_ORIGIN_REJECTED: _o(_R, H.FORBIDDEN),
    ErrorCode.SERVE_BODY_TOO_LARGE: _o(_R, H.REQUEST_ENTITY_TOO_LARGE),
    ErrorCode.SERVE_BUSY: _o(_F, H.SERVICE_UNAVAILABLE),
    ErrorCode.SERVE_INVALID_REQUEST: _o(_R, H.UNPROCESSABLE_ENTITY),
    ErrorCode.SERVE_ROUTE_NOT_FOUND: _o(_R, H.NOT_FOUND),
    ErrorCode.SERVE_METHOD_NOT_ALLOWED: _o(_R, H.METHOD_NOT_ALLOWED),
    ErrorCode.SERVE_PATH_NOT_ALLOWED: _o(_R, H.FORBIDDEN),
    ErrorCode.CODEMAP_NOT_FOUND: _o(_R, H.NOT_FOUND),
    ErrorCode.CODEMAP_EDGE_NOT_FOUND: _o(_R, H.NOT_FOUND),
    ErrorCode.SYMBOL_NOT_FOUND: _o(_R, H.NOT_FOUND, ExitStatus.SYMBOL_NOT_FOUND),
    ErrorCode.SYMBOL_AMBIGUOUS: _o(_R, H.CONFLICT, ExitStatus.SYMBOL_AMBIGUOUS),
    ErrorCode.CODEMAP_REVISION: _o(_R, H.NOT_FOUND),
    ErrorCode.CODEMAP_GIT: _o(_R, H.CONFLICT),
    ErrorCode.CODEMAP_NAME_TAKEN: _o(_R, H.CONFLICT),
}
del H


class GroundkitError(Exception):
    """The root of every error groundkit raises on purpose."""

    code: ErrorCode

    def __init__(self, code: ErrorCode, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint

    def to_dict(self) -> dict[str, str]:
        """The JSON-able form used by ``--json`` output and the servers."""
        out = {"code": str(self.code), "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        return out

    def __str__(self) -> str:
        return f"{self.message} (hint: {self.hint})" if self.hint else self.message

    @property
    def outcome(self) -> Outcome:
        return OUTCOMES[self.code]


class UsageError(GroundkitError):
    """The request itself is malformed; retrying it unchanged cannot succeed."""


class ConfigError(UsageError):
    """A configuration key is unknown or its value is invalid."""


class NotFoundError(GroundkitError):
    """The named collection, document or chunk does not exist."""


class StoreError(GroundkitError):
    """The SQLite store or a derived index cannot be read or written, or is from a newer
    groundkit."""


class IndexLockedError(StoreError):
    """Another process is writing to this collection's lexical index."""

    def __init__(
        self,
        message: str = "another process is writing to this collection",
        hint: str = "wait for the other ingest to finish, then run the command again",
    ) -> None:
        super().__init__(ErrorCode.INDEX_LOCKED, message, hint=hint)


class BackendError(StoreError):
    """A collection's remote engine (a Qdrant cluster) could not be reached, answered too late,
    refused the key or a limit, or holds a collection laid out by another version. Messages
    name the collection and what to check, never a request, a response body or a key."""


class FetchError(GroundkitError):
    """A URL could not be fetched."""


class UnsafeURLError(FetchError):
    """A URL, a redirect target or one of its resolved addresses was refused by the SSRF guard."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(ErrorCode.URL_UNSAFE, message, hint=hint)


class AIError(GroundkitError):
    """The language-model edge failed: a provider error, a timeout, or output that was refused.

    ``retry_after`` carries the seconds a rate-limited provider asked for (never retried here).
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        hint: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(code, message, hint=hint)
        self.retry_after = retry_after


class AuthError(GroundkitError):
    """A credential is missing, locked, denied or wrong, or the keychain cannot be reached."""


class ModelError(GroundkitError):
    """An embedder or reranker is unavailable, differs from the one a collection was built
    with, or returned output of the wrong shape."""


class MissingExtraError(GroundkitError):
    """A lazily imported optional dependency is not installed; the hint names the extra."""

    def __init__(self, module: str, extra: str) -> None:
        super().__init__(
            ErrorCode.MISSING_EXTRA,
            f"this needs the optional package {module!r}",
            hint=f"pip install 'groundkit[{extra}]'",
        )


class ServeError(GroundkitError):
    """A request the server refuses at its door: host, origin, size, load, route, path."""


class InternalError(GroundkitError):
    """A bug, as it looks from outside: a code and no internals."""

    def __init__(self, message: str = "internal error", *, hint: str | None = None) -> None:
        super().__init__(
            ErrorCode.INTERNAL,
            message,
            hint=hint or "this is a bug in groundkit; please report it with the command you ran",
        )


_C = ErrorCode
_RAISED_AS: dict[type[GroundkitError], tuple[ErrorCode, ...]] = {
    UsageError: (
        _C.USAGE,
        _C.INVALID_NAME,
        _C.INVALID_QUERY,
        _C.AMBIGUOUS_DOCUMENT,
        _C.NO_VECTORS,
        _C.RERANK_NOT_CONFIGURED,
        _C.EVAL_DATASET,
        _C.EVAL_RESULTS,
        _C.EVAL_INCOMPARABLE,
        _C.EVAL_STAGE_UNAVAILABLE,
        _C.SYMBOL_AMBIGUOUS,
        _C.CODEMAP_REVISION,
        _C.CODEMAP_GIT,
        _C.CODEMAP_NAME_TAKEN,
    ),
    ConfigError: (_C.CONFIG_UNKNOWN_KEY, _C.CONFIG_INVALID, _C.CONFIG_FILE, _C.AI_UNKNOWN_PROFILE),
    NotFoundError: (
        _C.COLLECTION_NOT_FOUND,
        _C.DOCUMENT_NOT_FOUND,
        _C.CHUNK_NOT_FOUND,
        _C.CODEMAP_NOT_FOUND,
        _C.CODEMAP_EDGE_NOT_FOUND,
        _C.SYMBOL_NOT_FOUND,
    ),
    StoreError: (
        _C.STORE_FAILED,
        _C.STORE_TOO_NEW,
        _C.STORE_FULL,
        _C.STORE_READ_ONLY,
        _C.INDEX_FAILED,
    ),
    IndexLockedError: (_C.INDEX_LOCKED,),
    BackendError: (
        _C.BACKEND_UNREACHABLE,
        _C.BACKEND_TIMEOUT,
        _C.BACKEND_AUTH,
        _C.BACKEND_SCHEMA,
        _C.BACKEND_RATE_LIMITED,
        _C.BACKEND_QUOTA,
        _C.BACKEND_FAILED,
    ),
    FetchError: (_C.FETCH_FAILED, _C.FETCH_TOO_LARGE, _C.FETCH_TIMEOUT),
    UnsafeURLError: (_C.URL_UNSAFE,),
    ModelError: (
        _C.EMBEDDER_MISMATCH,
        _C.EMBEDDER_UNAVAILABLE,
        _C.EMBEDDING_INVALID,
        _C.RERANK_INVALID,
    ),
    MissingExtraError: (_C.MISSING_EXTRA,),
    AIError: (
        _C.AI_DISABLED,
        _C.AI_PROVIDER_FAILED,
        _C.AI_RATE_LIMITED,
        _C.AI_TIMEOUT,
        _C.AI_INVALID_OUTPUT,
        _C.AI_REPLY_CUT_OFF,
        _C.AI_UNHELPFUL,
        _C.AI_REWRITE_INVALID,
        _C.AI_JUDGE_INVALID,
        _C.AI_REDACTION_REQUIRED,
    ),
    AuthError: (
        _C.AUTH_MISSING,
        _C.AUTH_DENIED,
        _C.AUTH_KEYCHAIN_UNAVAILABLE,
        _C.AUTH_REQUIRED,
        _C.AUTH_INVALID,
    ),
    ServeError: (
        _C.SERVE_HOST_REJECTED,
        _C.SERVE_ORIGIN_REJECTED,
        _C.SERVE_BODY_TOO_LARGE,
        _C.SERVE_BUSY,
        _C.SERVE_INVALID_REQUEST,
        _C.SERVE_ROUTE_NOT_FOUND,
        _C.SERVE_METHOD_NOT_ALLOWED,
        _C.SERVE_PATH_NOT_ALLOWED,
    ),
    InternalError: (_C.INTERNAL,),
}
ERROR_CLASS: dict[ErrorCode, type[GroundkitError]] = {
    code: cls for cls, codes in _RAISED_AS.items() for code in codes
}
del _C


def missing_extra(module: str, extra: str) -> MissingExtraError:
    """The error for a lazily imported optional dependency that is not installed."""
    return MissingExtraError(module, extra)

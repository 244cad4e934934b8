"""Errors raised by groundkit.

Every error is a ``GroundkitError`` with a stable ``code`` (an ``ErrorCode``), a message that says
what happened and what to do next, and an optional hint. Messages never carry document text,
queries, credentials or absolute machine paths.

    GroundkitError
    ├── UsageError              the caller asked for something malformed (exit status 2)
    │   └── ConfigError         grk.toml / GRK_* / flags: unknown key or invalid value
    ├── NotFoundError           a collection, document or chunk that does not exist
    ├── StoreError              the SQLite store cannot be opened, migrated or written
    ├── IndexLockedError        another process holds the lexical index writer
    ├── FetchError              a URL could not be fetched
    │   └── UnsafeURLError      a URL (or a redirect, or a resolved address) was refused
    ├── AIError                 the language-model edge: provider failed, output refused
    └── AuthError               a provider credential is missing, denied or unreachable

Only the CLI, REST and MCP layers translate codes into exit statuses and protocol errors.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "AIError",
    "AuthError",
    "ConfigError",
    "ErrorCode",
    "FetchError",
    "GroundkitError",
    "IndexLockedError",
    "NotFoundError",
    "StoreError",
    "UnsafeURLError",
    "UsageError",
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
    INDEX_LOCKED = "index.locked"
    INDEX_FAILED = "index.failed"
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
    SERVE_PATH_NOT_ALLOWED = "serve.path_not_allowed"
    CODEMAP_NOT_FOUND = "codemap.not_found"
    CODEMAP_EDGE_NOT_FOUND = "codemap.edge_not_found"
    SYMBOL_NOT_FOUND = "codemap.symbol_not_found"
    SYMBOL_AMBIGUOUS = "codemap.symbol_ambiguous"
    CODEMAP_REVISION = "codemap.bad_revision"
    CODEMAP_GIT = "codemap.git_failed"


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


class UsageError(GroundkitError):
    """The request itself is malformed; retrying it unchanged cannot succeed."""


class ConfigError(UsageError):
    """A configuration key is unknown or its value is invalid."""


class NotFoundError(GroundkitError):
    """The named collection, document or chunk does not exist."""


class StoreError(GroundkitError):
    """The SQLite store failed or is from a newer groundkit."""


class IndexLockedError(GroundkitError):
    """Another process is writing to this collection's lexical index."""

    def __init__(self) -> None:
        super().__init__(
            ErrorCode.INDEX_LOCKED,
            "another process is writing to this collection",
            hint="wait for the other ingest to finish, then run the command again",
        )


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
    """A provider credential is missing, locked or denied, or the keychain cannot be reached."""


def missing_extra(module: str, extra: str) -> GroundkitError:
    """The error for a lazily imported optional dependency that is not installed."""
    return GroundkitError(
        ErrorCode.MISSING_EXTRA,
        f"this needs the optional package {module!r}",
        hint=f"pip install 'groundkit[{extra}]'",
    )

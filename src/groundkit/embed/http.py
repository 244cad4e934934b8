"""Embedding over HTTP: Ollama (``/api/embed``) or an OpenAI-compatible server (``/embeddings``).

Every request goes through the SSRF guard in ``groundkit.net``. The configured endpoint is
the one host exempt from its address check (so Ollama on 127.0.0.1 works); plain http is refused
to any public address, so a key or a document never crosses the internet unencrypted. Redirects
are never followed and nothing is retried: a failure is an error the caller sees at once.

What these providers cannot tell us is written down rather than guessed:

* ``input_type`` is accepted and not sent: neither API has a query/document switch. A model that
  wants prefixes (``search_query: ``) should be served behind an endpoint that adds them.
* ``identity.revision`` is ``"api"``: a provider that silently updates a model under the same name
  is not detected. Dimensions and normalisation are learned from one probe embedding.
"""

from __future__ import annotations

import json
import os
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, NoReturn

import numpy as np
import numpy.typing as npt

from groundkit.config import EmbedConfig
from groundkit.embed.base import Embedder, EmbedderIdentity, InputType
from groundkit.errors import (
    ConfigError,
    ErrorCode,
    FetchError,
    GroundkitError,
    ModelError,
    UnsafeURLError,
)
from groundkit.net import FetchPolicy, host_key, request_json
from groundkit.secret import Secret

__all__ = ["OllamaEmbedder", "OpenAIEmbedder", "create_http_embedder"]

OLLAMA_URL = "http://127.0.0.1:11434"
OPENAI_URL = "https://api.openai.com/v1"
PROBE = "groundkit"  # embedded once to learn the dimensions and the normalisation
_UNIT_TOLERANCE = 1e-3
_BYTES_PER_TEXT = 256 * 1024  # room for a 4096-dim vector written as long decimal floats
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")


def create_http_embedder(config: EmbedConfig) -> Embedder:
    """The embedder for ``config.provider`` ``"ollama"`` or ``"openai"``.

    Raises:
        ConfigError: an unknown provider, a malformed ``base_url``, or a missing API key variable.
        UnsafeURLError: ``base_url`` is refused by the SSRF guard before any connection.
    """
    if config.provider == "ollama":
        return OllamaEmbedder(config)
    if config.provider == "openai":
        return OpenAIEmbedder(config)
    raise ConfigError(
        ErrorCode.CONFIG_INVALID,
        f"embed.provider {config.provider!r} is not an HTTP provider",
        hint="use 'ollama' or 'openai'",
    )


class _HTTPEmbedder(ABC):
    """Batching, the guarded transport, response validation and the lazily probed identity."""

    provider: ClassVar[str]
    default_url: ClassVar[str]
    route: ClassVar[str]  # appended to the base URL
    key_required: ClassVar[bool]

    def __init__(self, config: EmbedConfig) -> None:
        self.model = config.model
        self.batch_size = config.batch_size
        base = (config.base_url or self.default_url).rstrip("/")
        self._url = base + self.route
        self.endpoint = _endpoint_key(base)  # "host:port": safe for messages, never the path
        # Only an endpoint the user wrote may be local; the built-in OpenAI URL stays guarded.
        allowed = {self.endpoint} if config.base_url or self.provider == "ollama" else set()
        self._policy = FetchPolicy(
            max_bytes=1_000_000 + config.batch_size * _BYTES_PER_TEXT,
            timeout_s=config.timeout_s,
            max_redirects=0,
            allow_hosts=frozenset(allowed),
            https_for_public=True,
        )
        self._key_env = config.api_key_env
        self._key = _read_key(config.api_key_env, required=self.key_required, who=self.provider)
        self._dims: int | None = None
        self._identity: EmbedderIdentity | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, endpoint={self.endpoint!r})"

    @property
    def identity(self) -> EmbedderIdentity:
        """Provider and model from config; dimensions and normalisation from one probe request."""
        with self._lock:
            if self._identity is None:
                probe = self._embed_batch([PROBE])[0]
                normalized = abs(float(np.linalg.norm(probe)) - 1.0) <= _UNIT_TOLERANCE
                self._identity = EmbedderIdentity(
                    self.provider, self.model, len(probe), normalized, "api"
                )
            return self._identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        """Embed ``texts`` in requests of ``batch_size``; ``input_type`` is not sent.

        Raises:
            GroundkitError: EMBEDDER_UNAVAILABLE (down, HTTP error, timeout, redirect) or
                EMBEDDING_INVALID (a response that is not one finite vector per text).
            UnsafeURLError: the endpoint was refused by the SSRF guard.
        """
        if not texts:
            return np.zeros((0, self.identity.dimensions), dtype=np.float32)
        parts = [
            self._embed_batch(list(texts[start : start + self.batch_size]))
            for start in range(0, len(texts), self.batch_size)
        ]
        return np.concatenate(parts, axis=0)

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        # ASCII escapes: a lone surrogate in a text cannot break the encoding.
        body = json.dumps({"model": self.model, "input": texts}).encode()
        headers = {"Authorization": f"Bearer {self._key.reveal()}"} if self._key else {}
        try:
            status, raw = request_json("POST", self._url, body, headers, self._policy)
        except UnsafeURLError:
            raise
        except FetchError as exc:
            self._unavailable(exc)
        if not 200 <= status < 300:
            self._refused(status)
        try:
            payload = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise self._invalid("a body that is not JSON") from None
        rows = self._rows(payload, len(texts))
        if rows is None:
            raise self._invalid(f"a body without the {self.provider} embedding fields")
        return self._check(rows, len(texts))

    @abstractmethod
    def _rows(self, payload: Any, count: int) -> list[Any] | None:
        """The vectors in input order from a response, or None when its shape is wrong."""

    def _check(self, rows: list[Any], count: int) -> npt.NDArray[np.float32]:
        if len(rows) != count:
            raise self._invalid(f"{len(rows)} vectors for {count} texts")
        dims = self._dims if self._dims is not None else _length(rows[0])
        if not dims:
            raise self._invalid("a vector that is not a non-empty list of numbers")
        for row in rows:
            if _length(row) != dims:
                raise self._invalid(f"vectors of differing lengths (expected {dims})")
            if not all(type(x) in (int, float) for x in row):
                raise self._invalid("a vector with a value that is not a number")
        with np.errstate(over="ignore"):
            out = np.asarray(rows, dtype=np.float32)
        if not np.isfinite(out).all():
            raise self._invalid("a vector with NaN or infinite values")
        self._dims = dims
        return out

    # -- errors: they name the provider and host:port, never the key, a text or a body
    def _invalid(self, what: str) -> GroundkitError:
        return ModelError(
            ErrorCode.EMBEDDING_INVALID,
            f"the {self.provider} embedder at {self.endpoint} returned {what}",
            hint="check that embed.base_url is an embedding endpoint and embed.model an"
            " embedding model",
        )

    def _unavailable(self, exc: FetchError) -> NoReturn:
        if exc.code == ErrorCode.FETCH_TOO_LARGE:
            raise self._invalid("a body larger than the limit") from exc
        if exc.code == ErrorCode.FETCH_TIMEOUT:
            message = f"did not answer within {self._policy.timeout_s:g} s"
            hint = "check the server's load, or raise embed.timeout_s"
        else:
            message = f"could not be reached: {exc.message}"
            hint = self._start_hint()
        raise ModelError(
            ErrorCode.EMBEDDER_UNAVAILABLE,
            f"the {self.provider} embedder at {self.endpoint} {message}",
            hint=hint,
        ) from exc

    def _refused(self, status: int) -> NoReturn:
        if 300 <= status < 400:
            hint = "redirects are not followed: set embed.base_url to the final endpoint"
        elif status in (401, 403):
            hint = (
                f"check the API key in ${self._key_env}"
                if self._key_env
                else "the endpoint wants a key: name its variable in embed.api_key_env"
            )
        elif status == 404:
            hint = self._missing_hint()
        else:
            hint = "check the server's logs; groundkit does not retry"
        raise ModelError(
            ErrorCode.EMBEDDER_UNAVAILABLE,
            f"the {self.provider} embedder at {self.endpoint} answered HTTP {status}",
            hint=hint,
        )

    def _start_hint(self) -> str:
        return "check that the server is running and embed.base_url points at it"

    def _missing_hint(self) -> str:
        return "check embed.base_url and that embed.model exists on the server"


class OllamaEmbedder(_HTTPEmbedder):
    """Ollama's ``POST /api/embed`` (default endpoint ``http://127.0.0.1:11434``).

    ``embed.api_key_env`` is optional here; when set, its key is sent as a bearer token, for an
    Ollama behind an authenticating proxy.
    """

    provider = "ollama"
    default_url = OLLAMA_URL
    route = "/api/embed"
    key_required = False

    def _rows(self, payload: Any, count: int) -> list[Any] | None:
        rows = payload.get("embeddings") if isinstance(payload, dict) else None
        return rows if isinstance(rows, list) else None

    def _start_hint(self) -> str:
        return "start Ollama (`ollama serve`), or set embed.base_url to where it runs"

    def _missing_hint(self) -> str:
        return f"pull the model first (`ollama pull {self.model}`), or check embed.model"


class OpenAIEmbedder(_HTTPEmbedder):
    """``POST {base_url}/embeddings`` on OpenAI (default ``https://api.openai.com/v1``) or any
    server speaking its protocol. The key comes from the variable named by ``embed.api_key_env``.
    """

    provider = "openai"
    default_url = OPENAI_URL
    route = "/embeddings"
    key_required = True

    def _rows(self, payload: Any, count: int) -> list[Any] | None:
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            return None
        if len(data) != count:
            return data  # _check reports the count
        indexed = {item.get("index"): item.get("embedding") for item in data}
        if set(indexed) != set(range(count)) or any(type(i) is not int for i in indexed):
            return None
        return [indexed[i] for i in range(count)]


def _length(row: Any) -> int:
    return len(row) if isinstance(row, list) else 0


def _endpoint_key(base: str) -> str:
    """``host:port`` of a configured endpoint; a malformed one is a configuration error."""
    if not re.match(r"https?://", base, re.IGNORECASE) or "?" in base or "#" in base:
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            "embed.base_url must be an http:// or https:// URL without a query or fragment",
            hint="for example http://127.0.0.1:11434 or https://api.openai.com/v1",
        )
    try:
        return host_key(base)
    except FetchError:
        # The URL itself stays out of the message: it may carry a password.
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            "embed.base_url is malformed or carries credentials",
            hint="give scheme, host, port and path only; put a key in embed.api_key_env",
        ) from None


def _read_key(name: str | None, *, required: bool, who: str) -> Secret | None:
    """The key from the environment variable ``name``; errors name the variable, never a value."""
    if not name:
        if required:
            raise ConfigError(
                ErrorCode.CONFIG_INVALID,
                f"the {who} embedder needs embed.api_key_env, the name of the variable holding"
                " its API key",
                hint="e.g. set embed.api_key_env = 'OPENAI_API_KEY' and export that variable",
            )
        return None
    value = os.environ.get(name, "").strip()
    if not value:
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            f"the environment variable {name} (named by embed.api_key_env) is not set or empty",
            hint=f"export {name} with the API key, or change embed.api_key_env",
        )
    if not _HEADER_SAFE.fullmatch(value):
        raise ConfigError(
            ErrorCode.CONFIG_INVALID,
            f"the API key in {name} has characters an HTTP header cannot carry",
            hint=f"check the value of {name}: no spaces or line breaks inside the key",
        )
    return Secret(value)

"""In-process fake Ollama and OpenAI-compatible embedding servers, for tests with no network.

Each server listens on 127.0.0.1 on a free port in a background thread, answers its protocol's
embedding endpoint with the ``FakeEmbedder``'s hashed bag of words, and records every request.
Failure modes (a status, a raw body, mangled vectors, a delay) can be set when it is made or
changed between requests::

    with FakeOllamaServer() as server:
        config = EmbedConfig(provider="ollama", base_url=server.url, model="m")
        ...
        server.status = 500  # the next request fails
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, ClassVar, Self

from groundkit.testing.embedder import FakeEmbedder

__all__ = ["FakeOllamaServer", "FakeOpenAIServer", "RecordedRequest"]

Rows = list[list[float]]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as the server saw it. ``body`` is the parsed JSON, or None when it was not."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


class _FakeEmbeddingServer:
    """The shared machinery; subclasses set ``path`` and shape the answer."""

    path: ClassVar[str]
    url_suffix: ClassVar[str] = ""

    def __init__(
        self,
        *,
        dimensions: int = 64,
        normalized: bool = True,
        status: int = 200,
        body: bytes | None = None,
        vectors: Callable[[Rows], Any] | None = None,
        delay_s: float = 0.0,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """
        Args:
            dimensions: length of every vector.
            normalized: unit-length vectors when true, else twice that length.
            status: sent instead of 200; the body is then a protocol-shaped error.
            body: sent verbatim instead of the protocol's answer (for malformed responses).
            vectors: rewrites the rows before they are encoded (wrong count, ragged, NaN...).
            delay_s: wait this long before answering (cut short when the server closes).
            headers: extra response headers, e.g. ``Location`` with ``status=307``.
        """
        self.dimensions = dimensions
        self.normalized = normalized
        self.status = status
        self.body = body
        self.vectors = vectors
        self.delay_s = delay_s
        self.headers = dict(headers or {})
        self.requests: list[RecordedRequest] = []
        self._embedder = FakeEmbedder(dimensions)
        self._stop = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._port: int | None = None

    # -- lifecycle
    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def start(self) -> None:
        server = _Server(("127.0.0.1", 0), _handler_for(self))
        self._server = server
        self._port = server.server_address[1]
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        if self._server is None:
            return
        self._stop.set()  # ends any delay at once
        self._server.shutdown()
        if self._thread is not None:
            self._thread.join()
        self._server.server_close()
        self._server = None

    # -- addresses
    @property
    def host(self) -> str:
        """``127.0.0.1:port``, as ``FetchPolicy.allow_hosts`` spells it (kept after closing)."""
        if self._port is None:
            raise RuntimeError("the server has not been started")
        return f"127.0.0.1:{self._port}"

    @property
    def url(self) -> str:
        """The value for ``embed.base_url``."""
        return f"http://{self.host}{self.url_suffix}"

    # -- protocol
    def embed(self, texts: list[str]) -> Rows:
        """The vectors this server answers for ``texts``, before any ``vectors`` rewrite."""
        scale = 1.0 if self.normalized else 2.0
        return [[float(x) * scale for x in row] for row in self._embedder.embed(texts, "document")]

    def answer(self, payload: Any) -> tuple[int, Any]:
        """(status, JSON) for a well-formed request ``payload``."""
        if not isinstance(payload, dict) or "input" not in payload:
            return 400, self.error("the request needs 'model' and 'input'")
        texts = payload["input"]
        texts = [texts] if isinstance(texts, str) else list(texts)
        rows: Any = self.embed(texts)
        if self.vectors is not None:
            rows = self.vectors(rows)
        return 200, self.shape(payload.get("model"), rows)

    def shape(self, model: Any, rows: Any) -> Any:
        raise NotImplementedError

    def error(self, message: str) -> Any:
        raise NotImplementedError

    def authorize(self, headers: Mapping[str, str]) -> tuple[int, Any] | None:
        """An error answer when the request's credentials are refused, else None."""
        return None


class FakeOllamaServer(_FakeEmbeddingServer):
    """Speaks Ollama's ``POST /api/embed``: ``{"model", "input"}`` -> ``{"embeddings": [...]}``."""

    path = "/api/embed"

    def shape(self, model: Any, rows: Any) -> Any:
        return {"model": model, "embeddings": rows, "total_duration": 1, "prompt_eval_count": 1}

    def error(self, message: str) -> Any:
        return {"error": message}


class FakeOpenAIServer(_FakeEmbeddingServer):
    """Speaks ``POST /v1/embeddings``: ``{"data": [{"index", "embedding"}, ...]}``.

    With ``api_key`` set, a request without ``Authorization: Bearer <api_key>`` gets a 401.
    With ``reverse``, ``data`` lists the rows last first (each still carries its ``index``).
    """

    path = "/v1/embeddings"
    url_suffix = "/v1"

    def __init__(self, *, api_key: str | None = None, reverse: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.api_key = api_key
        self.reverse = reverse

    def shape(self, model: Any, rows: Any) -> Any:
        data = [{"object": "embedding", "index": i, "embedding": row} for i, row in enumerate(rows)]
        if self.reverse:
            data.reverse()
        usage = {"prompt_tokens": 1, "total_tokens": 1}
        return {"object": "list", "data": data, "model": model, "usage": usage}

    def error(self, message: str) -> Any:
        return {"error": {"message": message, "type": "invalid_request_error"}}

    def authorize(self, headers: Mapping[str, str]) -> tuple[int, Any] | None:
        if self.api_key is None or headers.get("Authorization") == f"Bearer {self.api_key}":
            return None
        return 401, self.error("Incorrect API key provided")


def _handler_for(fake: _FakeEmbeddingServer) -> type[BaseHTTPRequestHandler]:
    # HTTP/1.0 (the handler's default): one request per connection, so closing the server never
    # waits on a client's idle keep-alive connection.
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._record(None)
            self._send(404, fake.error("not found"))

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                payload = json.loads(raw)
            except ValueError:
                payload = None
            self._record(payload)
            if fake.delay_s and fake._stop.wait(fake.delay_s):
                self.close_connection = True
                return  # closing: the client gave up or the test ended
            if self.path != fake.path:
                self._send(404, fake.error(f"no route {self.path}"))
            elif (refused := fake.authorize(dict(self.headers.items()))) is not None:
                self._send(*refused)
            elif fake.status != 200:
                self._send(fake.status, fake.error("the fake server was told to fail"))
            elif fake.body is not None:
                self._send(200, fake.body)
            elif payload is None:
                self._send(400, fake.error("the body is not JSON"))
            else:
                self._send(*fake.answer(payload))

        def _record(self, payload: Any) -> None:
            headers = dict(self.headers.items())
            fake.requests.append(RecordedRequest(self.command, self.path, headers, payload))

        def _send(self, status: int, content: Any) -> None:
            data = content if isinstance(content, bytes) else json.dumps(content).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in fake.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # tests stay quiet; request bodies are never printed

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = False
    block_on_close = True  # server_close() joins every handler thread

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (a timeout test) resets the connection mid-answer

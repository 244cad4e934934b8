"""An in-process fake chat server on 127.0.0.1, speaking OpenAI's and Ollama's chat routes.

It answers ``/chat/completions`` (any prefix) and ``/api/chat`` with the next scripted content
(and, when given, the finish reason, under the name each API gives it), records every request's
raw body and headers, and can be told to answer with a status, a header (``Retry-After``,
``Location``) or after a delay::

    with FakeChatServer(['{"items": []}']) as server:
        ...  # base_url = server.url + "/v1"
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Self

__all__ = ["ChatResponse", "FakeChatServer", "ReceivedChat"]


@dataclass(frozen=True, slots=True)
class ChatResponse:
    content: str = ""
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    finish_reason: str | None = None  # sent as finish_reason (OpenAI) or done_reason (Ollama)


@dataclass(frozen=True, slots=True)
class ReceivedChat:
    path: str
    headers: dict[str, str]
    body: bytes


class FakeChatServer:
    def __init__(self, responses: Iterable[str | ChatResponse]) -> None:
        self._responses = [r if isinstance(r, ChatResponse) else ChatResponse(r) for r in responses]
        self.received: list[ReceivedChat] = []
        self._stop = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass  # a test's output stays clean

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                outer.received.append(ReceivedChat(self.path, dict(self.headers.items()), body))
                response = outer._responses.pop(0) if outer._responses else ChatResponse(status=500)
                if response.delay_s and outer._stop.wait(response.delay_s):
                    return
                payload: dict[str, object]
                ended = response.finish_reason
                if self.path.endswith("/api/chat"):
                    payload = {"message": {"role": "assistant", "content": response.content}}
                    payload.update({"done_reason": ended} if ended else {})
                else:
                    choice: dict[str, object] = {"message": {"content": response.content}}
                    choice.update({"finish_reason": ended} if ended else {})
                    payload = {"choices": [choice]}
                data = json.dumps(payload).encode() if response.status == 200 else b"{}"
                try:
                    self.send_response(response.status)
                    for name, value in response.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (a timeout test)

        return Handler

"""Ollama's ``POST /api/chat`` with ``format`` set to the JSON schema and ``stream: false``."""

from __future__ import annotations

from typing import Any

from groundkit.answer.chat import JsonSchema, Transport, messages
from groundkit.answer.http_chat import Endpoint, dumps_body, send
from groundkit.answer.secret import Secret, bearer
from groundkit.errors import AIError, ErrorCode

__all__ = ["OLLAMA_URL", "OllamaChat"]

OLLAMA_URL = "http://127.0.0.1:11434"


class OllamaChat:
    """One ``/api/chat`` request per call. A key, when configured, is sent as a bearer token."""

    provider = "ollama"

    def __init__(
        self,
        *,
        endpoint: Endpoint,
        model: str,
        transport: Transport,
        key: Secret | None,
        max_tokens: int,
    ) -> None:
        self._endpoint = endpoint
        self._model = model
        self._transport = transport
        self._key = key
        self._max_tokens = max_tokens

    def __repr__(self) -> str:
        return f"OllamaChat(model={self._model!r}, endpoint={self._endpoint.key!r})"

    @property
    def model_name(self) -> str:
        return self._model

    @property
    def local(self) -> bool:
        return self._endpoint.local

    def request_body(self, system: str, user: str, response_schema: JsonSchema | None) -> bytes:
        body: dict[str, Any] = {
            "model": self._model,
            "messages": messages(system, user),
            "stream": False,
        }
        if response_schema is not None:
            body["format"] = response_schema
        body["options"] = {"temperature": 0, "num_predict": self._max_tokens}
        return dumps_body(body)

    def complete(self, system: str, user: str, *, response_schema: JsonSchema | None = None) -> str:
        body = self.request_body(system, user, response_schema)
        headers = {"Authorization": bearer(self._key)} if self._key else {}
        who = f"ollama at {self._endpoint.key}"
        payload = send(self._transport, self._endpoint.url("/api/chat"), headers, body, who=who)
        message = payload.get("message") if isinstance(payload, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise AIError(ErrorCode.AI_PROVIDER_FAILED, f"{who} sent no message content")
        return content

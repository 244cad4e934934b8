"""Ollama's ``POST /api/chat`` with ``format`` set to the JSON schema and ``stream: false``.

Its ``done_reason`` is ``"length"`` when ``num_predict`` stopped the reply, as OpenAI's
``finish_reason`` is.
"""

from __future__ import annotations

from typing import Any

from groundkit.answer.chat import JsonSchema, messages
from groundkit.answer.providers.http import HttpChat, dumps_body
from groundkit.errors import AIError, ErrorCode

__all__ = ["OLLAMA_URL", "OllamaChat"]

OLLAMA_URL = "http://127.0.0.1:11434"


class OllamaChat(HttpChat):
    """One ``/api/chat`` request per call. A key, when configured, is sent as a bearer token."""

    provider = "ollama"

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
        self.last_finish_reason = None
        body = self.request_body(system, user, response_schema)
        who = f"ollama at {self._endpoint.key}"
        payload = self._post("/api/chat", body, who=who)
        reason = payload.get("done_reason") if isinstance(payload, dict) else None
        self.last_finish_reason = reason if isinstance(reason, str) else None
        message = payload.get("message") if isinstance(payload, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise AIError(ErrorCode.AI_PROVIDER_FAILED, f"{who} sent no message content")
        return content

"""``POST {base_url}/chat/completions``: Groq, OpenAI, vLLM, llama.cpp's server, LM Studio.

The Groq preset: base ``https://api.groq.com/openai/v1``, model ``openai/gpt-oss-120b``, and a
strict ``json_schema`` response format. Other endpoints use json_schema when configured as
supporting it, else JSON-object mode, else plain text: our own validation is the gate either way.
"""

from __future__ import annotations

from typing import Any, Literal

from groundkit.answer.chat import (
    JsonSchema,
    Transport,
    completion_content,
    completion_finish,
    messages,
)
from groundkit.answer.providers.http import Endpoint, HttpChat, dumps_body
from groundkit.errors import AIError, ErrorCode
from groundkit.secret import Secret

__all__ = ["GROQ_MODEL", "GROQ_URL", "OpenAICompatibleChat"]

GROQ_URL = "https://api.groq.com/openai/v1"
GROQ_MODEL = "openai/gpt-oss-120b"
ResponseFormat = Literal["json_schema", "json_object", "text"]


class OpenAICompatibleChat(HttpChat):
    """One chat completion per call; the body is built here, field by field, in a fixed order."""

    def __init__(
        self,
        *,
        endpoint: Endpoint,
        model: str,
        transport: Transport,
        key: Secret | None,
        response_format: ResponseFormat,
        max_tokens: int,
        provider: str = "openai_compatible",
    ) -> None:
        super().__init__(
            endpoint=endpoint, model=model, transport=transport, key=key, max_tokens=max_tokens
        )
        self._format = response_format
        self.provider = provider

    def request_body(self, system: str, user: str, response_schema: JsonSchema | None) -> bytes:
        body: dict[str, Any] = {
            "model": self._model,
            "messages": messages(system, user),
            "temperature": 0,
            "max_tokens": self._max_tokens,
            "stream": False,
        }
        if response_schema is not None and self._format == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "groundkit", "strict": True, "schema": response_schema},
            }
        elif response_schema is not None and self._format == "json_object":
            body["response_format"] = {"type": "json_object"}
        return dumps_body(body)

    def complete(self, system: str, user: str, *, response_schema: JsonSchema | None = None) -> str:
        self.last_finish_reason = None
        body = self.request_body(system, user, response_schema)
        who = f"the {self.provider} provider at {self._endpoint.key}"
        payload = self._post("/chat/completions", body, who=who)
        self.last_finish_reason = completion_finish(payload)
        content = completion_content(payload)
        if content is None:
            raise AIError(ErrorCode.AI_PROVIDER_FAILED, f"{who} sent no message content")
        return content

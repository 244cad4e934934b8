"""Test doubles for the answer path: a scripted model, transports, and an in-memory keychain.

``ScriptedChat`` replies from a list and fails closed when the list runs out; a
``ScriptedReply`` says why a reply ended (``"length"``: the token limit cut it off).
``ForbiddenTransport`` fails the test if any request is ever sent (it raises a ``BaseException``
that no ``except Exception`` in the code under test can swallow). ``RecordingTransport`` keeps the
exact bytes of every request and answers from a list. ``MemoryKeyring`` is a keyring backend
instance that lives in memory, so tests never touch the machine's keychain.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from groundkit.answer.chat import HttpReply, JsonSchema
from groundkit.errors import AIError, ErrorCode, GroundkitError
from groundkit.secret import Secret

__all__ = [
    "ChatCall",
    "ForbiddenKeyring",
    "ForbiddenTransport",
    "KeychainTouched",
    "MemoryKeyring",
    "RecordingTransport",
    "ScriptedChat",
    "ScriptedReply",
    "SentRequest",
    "TransportCalled",
    "openai_reply",
]


@dataclass(frozen=True, slots=True)
class ChatCall:
    system: str
    user: str
    response_schema: JsonSchema | None


@dataclass(frozen=True, slots=True)
class ScriptedReply:
    """A reply with the finish reason its provider would give (``"length"``: cut off)."""

    text: str
    finish_reason: str | None = "stop"


Reply = str | ScriptedReply | GroundkitError | Callable[[str, str], str]


class ScriptedChat:
    """A ``ChatModel`` (and ``FinishReporting``) whose replies come from a list: strings,
    ``ScriptedReply``s, errors to raise, or functions of ``(system, user)`` for replies that
    depend on the prompt. A plain string ends with ``"stop"``."""

    def __init__(
        self,
        replies: Iterable[Reply],
        *,
        provider: str = "scripted",
        model_name: str = "scripted",
        local: bool = True,
        max_tokens: int = 1024,
    ) -> None:
        self._replies = list(replies)
        self.calls: list[ChatCall] = []
        self._provider = provider
        self._model = model_name
        self._local = local
        self.max_tokens = max_tokens
        self.last_finish_reason: str | None = None

    @property
    def provider(self) -> str:
        return self._provider

    @property
    def model_name(self) -> str:
        return self._model

    @property
    def local(self) -> bool:
        return self._local

    def complete(self, system: str, user: str, *, response_schema: JsonSchema | None = None) -> str:
        self.calls.append(ChatCall(system, user, response_schema))
        self.last_finish_reason = None
        if not self._replies:
            raise AIError(ErrorCode.AI_PROVIDER_FAILED, "the scripted model has no reply left")
        reply = self._replies.pop(0)
        if isinstance(reply, GroundkitError):
            raise reply
        if isinstance(reply, ScriptedReply):
            self.last_finish_reason = reply.finish_reason
            return reply.text
        self.last_finish_reason = "stop"
        return reply if isinstance(reply, str) else reply(system, user)


class TransportCalled(BaseException):
    """Raised by ``ForbiddenTransport``: deliberately not an ``Exception``."""


class ForbiddenTransport:
    """A transport for paths that must not touch the network: any call fails the test."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *_: Any) -> ForbiddenTransport:
        return self  # usable as a transport factory too

    def post_json(self, url: str, headers: Mapping[str, str | Secret], body: bytes) -> HttpReply:
        self.calls += 1
        raise TransportCalled(f"a request was sent to {url} where none may be")


@dataclass(frozen=True, slots=True)
class SentRequest:
    url: str
    headers: dict[str, str | Secret]
    body: bytes


class RecordingTransport:
    """Keeps every request's exact bytes and answers with the given replies (or raises the given
    errors), in order."""

    def __init__(self, replies: Iterable[HttpReply | GroundkitError]) -> None:
        self._replies = list(replies)
        self.sent: list[SentRequest] = []

    def __call__(self, *_: Any) -> RecordingTransport:
        return self

    def post_json(self, url: str, headers: Mapping[str, str | Secret], body: bytes) -> HttpReply:
        self.sent.append(SentRequest(url, dict(headers), body))
        if not self._replies:
            raise AssertionError("RecordingTransport has no reply left")
        answer = self._replies.pop(0)
        if isinstance(answer, GroundkitError):
            raise answer
        return answer


def openai_reply(
    content: str,
    *,
    status: int = 200,
    retry_after: str | None = None,
    finish_reason: str | None = None,
) -> HttpReply:
    """An OpenAI-style chat completion carrying ``content`` (and ``finish_reason`` if given)."""
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": content}}
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    body = {"choices": [choice]}
    return HttpReply(status, json.dumps(body).encode() if status == 200 else b"", retry_after)


def _keyring_base() -> type[Any]:
    try:
        from keyring.backend import KeyringBackend
    except ImportError:  # pragma: no cover - keyring is in the ai and dev extras
        return object
    return KeyringBackend


class MemoryKeyring(_keyring_base()):  # type: ignore[misc]
    """A keyring backend instance holding its entries in a dict; ``fail_with`` raises instead."""

    priority = 1

    def __init__(self, fail_with: BaseException | None = None) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}
        self.fail_with = fail_with

    def get_password(self, service: str, username: str) -> str | None:
        self._maybe_fail()
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self._maybe_fail()
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self._maybe_fail()
        from keyring.errors import PasswordDeleteError

        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError("no such entry")

    def _maybe_fail(self) -> None:
        if self.fail_with is not None:
            raise self.fail_with


class KeychainTouched(BaseException):
    """Raised by ``forbid_machine_keychain``'s backend: the machine's keychain was reached."""


class ForbiddenKeyring(MemoryKeyring):
    """A keyring backend that fails the test if it is used at all. Install it as keyring's
    default (``monkeypatch.setattr("keyring.core._keyring_backend", ForbiddenKeyring())``) so
    that no code path can reach the machine's keychain."""

    def _maybe_fail(self) -> None:
        raise KeychainTouched("a test reached the machine's keychain")

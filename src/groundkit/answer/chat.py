"""The chat seam: one request in, one string out, and the transport every HTTP provider uses.

A ``ChatModel`` never streams and never retries. HTTP providers build their body themselves and
hand it, serialised once, to a ``Transport``; the default one goes through the SSRF guard of
``groundkit.net`` and follows no redirect. Tests swap in the doubles in
``groundkit.testing.chat``, one of which fails the test if it is ever called.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from groundkit.errors import AIError, ErrorCode, FetchError, UnsafeURLError
from groundkit.net import FetchPolicy, request_api
from groundkit.secret import Secret

__all__ = [
    "CUT_OFF",
    "ChatModel",
    "FinishReporting",
    "GuardedTransport",
    "HttpReply",
    "Transport",
    "completion_content",
    "completion_finish",
    "credentials",
    "cut_off_at",
    "finish_reason",
    "messages",
]

JsonSchema = Mapping[str, Any]
_ENDPOINT_HINT = (
    "a provider endpoint off this machine must be a public https address; for a model server on"
    " this machine set local = true in the profile and use a loopback base_url (127.0.0.1)"
)
Headers = Mapping[str, "str | Secret"]
# The finish reason of a reply that the token limit stopped: OpenAI-compatible servers (llama.cpp
# included) say "length"; Ollama's `done_reason` uses the same word.
CUT_OFF = "length"


@runtime_checkable
class ChatModel(Protocol):
    """A language model behind one request: ``complete`` returns the reply text, nothing else.

    Raises ``AIError`` (provider failed, rate limited, timed out) or ``AuthError``. A model that
    can say why its reply ended is also ``FinishReporting``.
    """

    @property
    def provider(self) -> str: ...

    @property
    def model_name(self) -> str: ...

    @property
    def local(self) -> bool:
        """Whether prompts stay on this machine (decides whether redaction is required)."""
        ...

    def complete(
        self, system: str, user: str, *, response_schema: JsonSchema | None = None
    ) -> str: ...


@runtime_checkable
class FinishReporting(Protocol):
    """What a ``ChatModel`` may also say about its last reply: why it ended, and the token limit
    it ran under. Kept apart from ``ChatModel`` so that a model which cannot tell is still one;
    ``cut_off_at`` reads it."""

    @property
    def max_tokens(self) -> int: ...

    @property
    def last_finish_reason(self) -> str | None:
        """The provider's word for why the last reply ended (``"stop"``, ``"length"``...),
        None when it gave none or the last call failed."""
        ...


@dataclass(frozen=True, slots=True)
class HttpReply:
    """What came back: the status, the body (2xx only) and a ``Retry-After`` header."""

    status: int
    body: bytes
    retry_after: str | None = None


class Transport(Protocol):
    """Sends one POST. Header values that are ``Secret`` are revealed only as they are written."""

    def post_json(self, url: str, headers: Headers, body: bytes) -> HttpReply: ...


class GuardedTransport:
    """The real transport: SSRF-vetted, https off loopback, no redirects, two timeouts."""

    def __init__(self, policy: FetchPolicy) -> None:
        self.policy = policy

    def __repr__(self) -> str:
        return f"GuardedTransport(timeout_s={self.policy.timeout_s:g})"

    def post_json(self, url: str, headers: Headers, body: bytes) -> HttpReply:
        plain = {k: v.reveal() if isinstance(v, Secret) else v for k, v in headers.items()}
        try:
            got = request_api(url, body, plain, self.policy)
        except UnsafeURLError as exc:
            # The guard's own hint is about ingesting pages; a provider endpoint needs another.
            raise UnsafeURLError(exc.message, hint=_ENDPOINT_HINT) from None
        except FetchError as exc:
            code = ErrorCode.AI_TIMEOUT if exc.code == ErrorCode.FETCH_TIMEOUT else None
            raise AIError(
                code or ErrorCode.AI_PROVIDER_FAILED,
                exc.message,
                hint="check that the provider is reachable; groundkit does not retry",
            ) from None
        finally:
            plain.clear()  # the revealed key lives no longer than the request
        return HttpReply(got.status, got.body, got.retry_after)


def credentials(chat: object) -> tuple[Secret, ...]:
    """The keys ``chat`` sends with its requests, so that they can be scrubbed from what it
    returns. A model that holds none (local, scripted) has no ``credentials`` method."""
    method = getattr(chat, "credentials", None)
    got = method() if callable(method) else ()
    return tuple(k for k in got if isinstance(k, Secret))


def finish_reason(chat: object) -> str | None:
    """Why ``chat``'s last reply ended, as its provider said, or None when it cannot tell."""
    if not isinstance(chat, FinishReporting):
        return None
    reason = chat.last_finish_reason
    return reason if isinstance(reason, str) else None


def cut_off_at(chat: object) -> int | None:
    """The token limit that stopped ``chat``'s last reply, or None when it ended on its own (or
    the model cannot tell)."""
    if isinstance(chat, FinishReporting) and finish_reason(chat) == CUT_OFF:
        return chat.max_tokens
    return None


def messages(system: str, user: str) -> list[dict[str, str]]:
    """The two messages of every request: the fixed system text, then the question and sources."""
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def completion_content(payload: Any) -> str | None:
    """The reply text of an OpenAI-style chat completion, or None when it has none."""
    try:
        content = payload["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None
    return content if isinstance(content, str) else None


def completion_finish(payload: Any) -> str | None:
    """The ``finish_reason`` of an OpenAI-style chat completion, or None when it has none."""
    try:
        reason = payload["choices"][0]["finish_reason"]
    except (KeyError, IndexError, TypeError):
        return None
    return reason if isinstance(reason, str) else None

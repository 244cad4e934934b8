"""Every chat model says why its last reply ended, the same way: ``cut_off_at`` gives the token
limit that stopped it, or None when it ended on its own, gave no reason, or the call failed.

The same four cases run against each implementation the answer path can be given: the two HTTP
providers over a real loopback socket (each API names the reason its own way), a hosted one
behind ``RedactingChat``, and the scripted fake. The in-process llama.cpp model is checked in
``test_local_model.py``, with the real model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from groundkit.answer.chat import ChatModel, FinishReporting, cut_off_at
from groundkit.answer.credentials import KeyStore
from groundkit.answer.providers import build_chat
from groundkit.answer.providers.http import default_transport
from groundkit.answer.redact import DEFAULT_PATTERNS, RedactingChat
from groundkit.config import ProfileConfig
from groundkit.errors import AIError, ErrorCode
from groundkit.testing.chat import (
    MemoryKeyring,
    RecordingTransport,
    ScriptedChat,
    ScriptedReply,
    openai_reply,
)
from groundkit.testing.chat_server import ChatResponse, FakeChatServer

LIMIT = 77
# One scripted reply: its text, and the reason it ended (None: the provider gave none; "fail":
# the provider answered HTTP 500).
Script = list[tuple[str, str | None]]
Maker = Callable[[Script], Any]


@contextmanager
def _served(provider: str, script: Script) -> Iterator[ChatModel]:
    responses = [
        ChatResponse(status=500) if why == "fail" else ChatResponse(text, finish_reason=why)
        for text, why in script
    ]
    with FakeChatServer(responses) as server:
        base = server.url + ("/v1" if provider == "openai_compatible" else "")
        config = ProfileConfig.parse(
            {"provider": provider, "base_url": base, "model": "m", "local": True,
             "max_tokens": LIMIT}
        )  # fmt: skip
        yield build_chat(
            "box",
            config,
            keys=KeyStore(MemoryKeyring()),
            patterns=DEFAULT_PATTERNS,
            transport=default_transport,
        )


@contextmanager
def _hosted(script: Script) -> Iterator[ChatModel]:
    replies = [
        openai_reply("", status=500) if why == "fail" else openai_reply(text, finish_reason=why)
        for text, why in script
    ]
    config = ProfileConfig.parse({"provider": "groq", "api_key_env": "K", "max_tokens": LIMIT})
    chat = build_chat(
        "cloud",
        config,
        keys=KeyStore(MemoryKeyring()),
        patterns=DEFAULT_PATTERNS,
        transport=RecordingTransport(replies),
        environ={"K": "gsk_FIXTUREkey0123456789abcdef"},
    )
    assert isinstance(chat, RedactingChat)  # the wrapper passes the reason through
    yield chat


@contextmanager
def _scripted(script: Script) -> Iterator[ChatModel]:
    replies: list[Any] = [
        AIError(ErrorCode.AI_PROVIDER_FAILED, "down")
        if why == "fail"
        else ScriptedReply(text, finish_reason=why)
        for text, why in script
    ]
    yield ScriptedChat(replies, max_tokens=LIMIT)


MAKERS: dict[str, Callable[[Script], Any]] = {
    "openai_compatible": lambda s: _served("openai_compatible", s),
    "ollama": lambda s: _served("ollama", s),
    "groq behind redaction": _hosted,
    "scripted": _scripted,
}


@pytest.fixture(params=sorted(MAKERS))
def make(request: pytest.FixtureRequest) -> Maker:
    return MAKERS[request.param]


def test_a_reply_stopped_by_the_token_limit_reports_the_limit(make: Maker) -> None:
    with make([('{"items": [{"te', "length")]) as chat:
        assert chat.complete("S", "U") == '{"items": [{"te'
        assert isinstance(chat, FinishReporting)
        assert chat.last_finish_reason == "length"
        assert cut_off_at(chat) == LIMIT


def test_a_reply_that_ended_on_its_own_is_not_cut_off(make: Maker) -> None:
    with make([('{"items": []}', "stop")]) as chat:
        chat.complete("S", "U")
        assert chat.last_finish_reason == "stop"
        assert cut_off_at(chat) is None


def test_a_reply_with_no_reason_is_not_called_cut_off(make: Maker) -> None:
    with make([('{"items": []}', None)]) as chat:
        chat.complete("S", "U")
        assert cut_off_at(chat) is None


def test_a_failed_call_forgets_the_reason_of_the_reply_before_it(make: Maker) -> None:
    with make([("{", "length"), ("", "fail")]) as chat:
        chat.complete("S", "U")
        assert cut_off_at(chat) == LIMIT
        with pytest.raises(AIError):
            chat.complete("S", "U")
        assert chat.last_finish_reason is None
        assert cut_off_at(chat) is None


def test_a_model_that_cannot_say_why_its_reply_ended_is_never_cut_off() -> None:
    class Plain:  # a user's own ChatModel, written before FinishReporting existed
        provider, model_name, local = "mine", "mine", True

        def complete(self, system: str, user: str, *, response_schema: Any = None) -> str:
            return "{"

    chat = Plain()
    assert isinstance(chat, ChatModel)
    assert not isinstance(chat, FinishReporting)
    assert cut_off_at(chat) is None
    assert cut_off_at(RedactingChat(chat, DEFAULT_PATTERNS)) is None

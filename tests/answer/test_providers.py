"""The HTTP providers: the exact request bytes, the network rules, and typed failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundkit import Collection
from groundkit.answer.chat import ChatModel, GuardedTransport
from groundkit.answer.contract import ANSWER_SCHEMA
from groundkit.answer.credentials import KeyStore
from groundkit.answer.prompts import ANSWER_SYSTEM
from groundkit.answer.providers import build_chat
from groundkit.answer.providers.http import Endpoint, default_transport
from groundkit.answer.redact import DEFAULT_PATTERNS, RedactingChat
from groundkit.answer.service import answer_question
from groundkit.config import ProfileConfig
from groundkit.errors import AIError, ConfigError, ErrorCode, UnsafeURLError
from groundkit.secret import Secret
from groundkit.testing.chat import MemoryKeyring, RecordingTransport, openai_reply
from groundkit.testing.chat_server import ChatResponse, FakeChatServer

FIXTURE_KEY = "gsk_FIXTUREkey0123456789abcdef"
USER = "Question:\nwhat does the wombat dig?\n\nSources:\n"


def groq(transport: RecordingTransport, **extra: object) -> RedactingChat:
    profile = ProfileConfig.parse({"provider": "groq", "api_key_env": "GROQ_KEY", **extra})
    chat = build_chat(
        "cloud",
        profile,
        keys=KeyStore(MemoryKeyring()),
        patterns=DEFAULT_PATTERNS,
        transport=transport,
        environ={"GROQ_KEY": FIXTURE_KEY},
    )
    assert isinstance(chat, RedactingChat)  # off-machine: always behind redaction
    return chat


def test_the_groq_preset_sends_exactly_these_bytes(tmp_path: Path) -> None:
    transport = RecordingTransport([openai_reply('{"items": []}')])
    assert groq(transport).complete(ANSWER_SYSTEM, USER, response_schema=ANSWER_SCHEMA) == (
        '{"items": []}'
    )
    (sent,) = transport.sent
    assert sent.url == "https://api.groq.com/openai/v1/chat/completions"
    assert set(sent.headers) == {"Authorization"}
    assert isinstance(sent.headers["Authorization"], Secret)  # revealed only when written
    assert sent.headers["Authorization"].reveal() == f"Bearer {FIXTURE_KEY}"
    expected = (
        '{"model":"openai/gpt-oss-120b","messages":[{"role":"system","content":'
        + json.dumps(ANSWER_SYSTEM)
        + '},{"role":"user","content":'
        + json.dumps(USER)
        + '}],"temperature":0,"max_tokens":1024,"stream":false,"response_format":'
        '{"type":"json_schema","json_schema":{"name":"groundkit","strict":true,"schema":'
        + json.dumps(ANSWER_SCHEMA, separators=(",", ":"))
        + "}}}"
    )
    assert sent.body == expected.encode("ascii")
    assert FIXTURE_KEY.encode() not in sent.body
    assert str(tmp_path).encode() not in sent.body
    assert b'"/' not in sent.body
    schema = json.loads(sent.body)["response_format"]["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["items"]


def test_the_strict_schema_requires_every_field_and_forbids_extra_ones() -> None:
    entry = ANSWER_SCHEMA["properties"]["items"]["items"]
    cite = entry["properties"]["citations"]["items"]
    for node in (ANSWER_SCHEMA, entry, cite):
        assert node["additionalProperties"] is False
        assert sorted(node["required"]) == sorted(node["properties"])


def test_the_ollama_body_sets_format_to_the_schema_and_does_not_stream() -> None:
    transport = RecordingTransport([])
    profile = ProfileConfig(provider="ollama", model="qwen3:4b", local=True)
    chat = build_chat(
        "box", profile, keys=KeyStore(MemoryKeyring()), patterns=(), transport=transport
    )
    with pytest.raises(AssertionError):
        chat.complete("S", "U", response_schema={"type": "object"})
    (sent,) = transport.sent
    assert sent.url == "http://127.0.0.1:11434/api/chat"
    assert sent.headers == {}
    assert sent.body == (
        b'{"model":"qwen3:4b","messages":[{"role":"system","content":"S"},'
        b'{"role":"user","content":"U"}],"stream":false,"format":{"type":"object"},'
        b'"options":{"temperature":0,"num_predict":1024}}'
    )


@pytest.mark.parametrize(
    ("response_format", "expected"),
    [
        ("json_schema", b'"response_format":{"type":"json_schema"'),
        ("json_object", b'"response_format":{"type":"json_object"}}'),
        ("text", b'"stream":false}'),
    ],
)
def test_other_endpoints_use_the_response_format_they_are_configured_for(
    response_format: str, expected: bytes
) -> None:
    transport = RecordingTransport([openai_reply("x")])
    profile = ProfileConfig.parse(
        {
            "provider": "openai_compatible",
            "base_url": "http://127.0.0.1:8080/v1",
            "model": "m",
            "local": True,
            "response_format": response_format,
        }
    )
    chat = build_chat(
        "box", profile, keys=KeyStore(MemoryKeyring()), patterns=(), transport=transport
    )
    chat.complete("S", "U", response_schema=ANSWER_SCHEMA)
    assert expected in transport.sent[0].body
    assert transport.sent[0].headers == {}  # a local endpoint needs no key


@pytest.mark.parametrize(
    "fields",
    [
        {"base_url": "http://api.example.org/v1"},  # plain http off the machine
        {"base_url": "http://10.0.0.5:8080/v1"},  # plain http on the LAN
        {"base_url": "https://api.example.org/v1", "local": True},  # "local" that is not
        {"base_url": "https://user:pw@api.example.org/v1"},  # credentials in the URL
        {"base_url": "ftp://api.example.org/v1"},
    ],
)
def test_endpoints_that_break_the_network_rules_are_refused_at_construction(
    fields: dict[str, object],
) -> None:
    profile = ProfileConfig.parse(
        {"provider": "openai_compatible", "model": "m", "api_key_env": "K", **fields}
    )
    with pytest.raises(ConfigError):
        build_chat(
            "p",
            profile,
            keys=KeyStore(MemoryKeyring()),
            patterns=DEFAULT_PATTERNS,
            transport=RecordingTransport([]),
            environ={"K": FIXTURE_KEY},
        )


def _real(server: FakeChatServer, *, local: bool = True, **extra: object) -> ChatModel:
    profile = ProfileConfig.parse(
        {
            "provider": "openai_compatible",
            "base_url": server.url + "/v1",
            "model": "m",
            "local": local,
            "api_key_env": "K",
            **extra,
        }
    )
    return build_chat(
        "box",
        profile,
        keys=KeyStore(MemoryKeyring()),
        patterns=DEFAULT_PATTERNS,
        transport=default_transport,
        environ={"K": FIXTURE_KEY},
    )


def test_a_local_endpoint_is_reached_over_loopback_with_the_key_only_in_the_header() -> None:
    with FakeChatServer(['{"items": []}']) as server:
        chat = _real(server)
        assert chat.complete("S", "U", response_schema=ANSWER_SCHEMA) == '{"items": []}'
    (got,) = server.received
    assert got.path == "/v1/chat/completions"
    assert got.headers["Authorization"] == f"Bearer {FIXTURE_KEY}"
    assert FIXTURE_KEY.encode() not in got.body


def test_a_loopback_endpoint_not_configured_as_local_is_refused_by_the_ssrf_guard() -> None:
    with FakeChatServer([]) as server:
        profile = ProfileConfig(
            provider="openai_compatible",
            base_url=server.url.replace("http://", "https://") + "/v1",
            model="m",
            api_key_env="K",
        )
        chat = build_chat(
            "p",
            profile,
            keys=KeyStore(MemoryKeyring()),
            patterns=DEFAULT_PATTERNS,
            environ={"K": FIXTURE_KEY},
        )
        with pytest.raises(UnsafeURLError):
            chat.complete("S", "U")
    assert server.received == []  # refused before any connection


def test_a_429_is_a_typed_error_carrying_retry_after_and_is_not_retried() -> None:
    with (
        FakeChatServer([ChatResponse(status=429, headers={"Retry-After": "12"})]) as server,
        pytest.raises(AIError) as caught,
    ):
        _real(server).complete("S", "U")
    assert caught.value.code == ErrorCode.AI_RATE_LIMITED
    assert caught.value.retry_after == 12.0
    assert len(server.received) == 1


def test_a_5xx_is_a_typed_provider_failure() -> None:
    with FakeChatServer([ChatResponse(status=503)]) as server, pytest.raises(AIError) as caught:
        _real(server).complete("S", "U")
    assert caught.value.code == ErrorCode.AI_PROVIDER_FAILED
    assert "503" in caught.value.message


def test_a_redirect_is_never_followed() -> None:
    moved = ChatResponse(status=307, headers={"Location": "http://127.0.0.1:1/elsewhere"})
    with FakeChatServer([moved, '{"items": []}']) as server, pytest.raises(AIError) as caught:
        _real(server).complete("S", "U")
    assert caught.value.code == ErrorCode.AI_PROVIDER_FAILED
    assert len(server.received) == 1


def test_a_slow_provider_is_a_typed_timeout() -> None:
    with (
        FakeChatServer([ChatResponse('{"items": []}', delay_s=5)]) as server,
        pytest.raises(AIError) as caught,
    ):
        _real(server, timeout_s=0.3).complete("S", "U")
    assert caught.value.code == ErrorCode.AI_TIMEOUT


def test_provider_reprs_and_errors_name_the_endpoint_never_the_key() -> None:
    with FakeChatServer([ChatResponse(status=401)]) as server:
        chat = _real(server)
        with pytest.raises(AIError) as caught:
            chat.complete("S", "U")
    for text in (repr(chat), str(caught.value), json.dumps(caught.value.to_dict())):
        assert FIXTURE_KEY not in text


def test_a_real_answer_request_carries_no_absolute_path_no_key_and_no_raw_email(
    col: Collection, tmp_path: Path
) -> None:
    transport = RecordingTransport([openai_reply('{"items": []}')])
    report = answer_question(col, "who do I write to about wombats?", groq(transport))
    assert report.answer is not None
    body = transport.sent[0].body
    assert str(tmp_path).encode() not in body
    assert b"wombat.md" not in body
    assert FIXTURE_KEY.encode() not in body
    assert b"keeper@example.org" not in body
    assert b"[EMAIL_1]" in body


def test_the_transport_has_both_a_connect_and_a_total_timeout() -> None:
    profile = ProfileConfig(provider="groq", timeout_s=30, connect_timeout_s=4)
    endpoint = Endpoint("https://api.groq.com/openai/v1", local=False, profile="cloud")
    transport = default_transport(profile, endpoint)
    assert isinstance(transport, GuardedTransport)
    policy = transport.policy
    assert (policy.timeout_s, policy.connect_timeout_s) == (30, 4)
    assert policy.max_redirects == 0
    assert policy.https_for_public
    assert policy.allow_hosts == frozenset()  # not local: the SSRF guard applies in full


def test_an_unsafe_chat_endpoint_gets_a_hint_about_provider_endpoints_not_ingesting() -> None:
    with FakeChatServer([]) as server:
        profile = ProfileConfig(
            provider="openai_compatible",
            base_url=server.url.replace("http://", "https://") + "/v1",
            model="m",
            api_key_env="K",
        )
        chat = build_chat(
            "p",
            profile,
            keys=KeyStore(MemoryKeyring()),
            patterns=DEFAULT_PATTERNS,
            environ={"K": FIXTURE_KEY},
        )
        with pytest.raises(UnsafeURLError) as caught:
            chat.complete("S", "U")
    hint = caught.value.hint or ""
    assert "ingest" not in hint
    assert "local = true" in hint
    assert "base_url" in hint


def test_every_provider_a_profile_may_name_has_one_builder_in_the_registry() -> None:
    import typing

    from groundkit.answer.providers import PROVIDERS

    annotated = typing.get_type_hints(ProfileConfig, include_extras=True)["provider"]
    assert set(PROVIDERS) == set(typing.get_args(typing.get_args(annotated)[0]))

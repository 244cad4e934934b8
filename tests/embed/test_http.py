"""The Ollama and OpenAI-compatible embedders against in-process fake servers; no other network."""

from __future__ import annotations

import json
import pickle
import socket
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import groundkit
from groundkit.config import EmbedConfig, IngestConfig, Settings
from groundkit.embed.base import Embedder
from groundkit.embed.factory import create_embedder
from groundkit.errors import ConfigError, ErrorCode, GroundkitError, UnsafeURLError
from groundkit.testing.fake_servers import FakeOllamaServer, FakeOpenAIServer

KEY_ENV = "GROUNDKIT_TEST_EMBED_KEY"
SECRET = "sk-test-Zq8s3cr3tValue"
TEXTS = ["granite is igneous", "marble is metamorphic", "basalt is volcanic", "quartz", "mica"]

Server = FakeOllamaServer | FakeOpenAIServer


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)


def make_config(provider: str, base_url: str | None, **overrides: Any) -> EmbedConfig:
    fields: dict[str, Any] = {"provider": provider, "base_url": base_url, "model": "m"}
    if provider == "openai":
        fields["api_key_env"] = KEY_ENV
    return EmbedConfig(**{**fields, **overrides})


def make_server(provider: str, **options: Any) -> Server:
    if provider == "ollama":
        return FakeOllamaServer(**options)
    return FakeOpenAIServer(api_key=SECRET, **options)


@pytest.fixture(params=["ollama", "openai"])
def provider(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def server(provider: str) -> Iterator[Server]:
    with make_server(provider) as running:
        yield running


@pytest.fixture
def embedder(provider: str, server: Server) -> Embedder:
    return create_embedder(make_config(provider, server.url))


def closed_port_url() -> str:
    with closing(socket.create_server(("127.0.0.1", 0))) as listener:
        port = listener.getsockname()[1]
    return f"http://127.0.0.1:{port}"  # nothing listens here any more


def leaked(exc: BaseException) -> bool:
    """Whether the key shows anywhere in an error or the errors chained to it."""
    seen: BaseException | None = exc
    while seen is not None:
        if SECRET in str(seen) or SECRET in repr(seen) or SECRET in str(getattr(seen, "hint", "")):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


# -- the protocols


def test_texts_are_embedded_in_requests_of_batch_size(provider: str, server: Server) -> None:
    embedder = create_embedder(make_config(provider, server.url, batch_size=2))
    vectors = embedder.embed(TEXTS, "document")
    assert vectors.dtype == np.float32
    assert vectors.shape == (5, server.dimensions)
    np.testing.assert_allclose(vectors, np.asarray(server.embed(TEXTS), dtype=np.float32))
    assert [r.body["input"] for r in server.requests] == [TEXTS[0:2], TEXTS[2:4], TEXTS[4:]]
    assert {r.body["model"] for r in server.requests} == {"m"}
    assert {r.method for r in server.requests} == {"POST"}
    assert {r.headers["Content-Type"] for r in server.requests} == {"application/json"}


def test_ollama_posts_to_api_embed() -> None:
    with FakeOllamaServer() as server:
        create_embedder(make_config("ollama", server.url)).embed(["x"], "query")
    assert [r.path for r in server.requests] == ["/api/embed"]
    assert "Authorization" not in server.requests[0].headers


def test_openai_posts_to_embeddings_under_the_base_url_with_the_bearer_key() -> None:
    with FakeOpenAIServer(api_key=SECRET) as server:
        create_embedder(make_config("openai", server.url)).embed(["x"], "query")
    assert server.url.endswith("/v1")
    assert [r.path for r in server.requests] == ["/v1/embeddings"]
    assert server.requests[0].headers["Authorization"] == f"Bearer {SECRET}"


def test_ollama_sends_a_key_when_one_is_configured_for_an_authenticating_proxy() -> None:
    with FakeOllamaServer() as server:
        config = make_config("ollama", server.url, api_key_env=KEY_ENV)
        create_embedder(config).embed(["x"], "query")
    assert server.requests[0].headers["Authorization"] == f"Bearer {SECRET}"


def test_openai_rows_are_put_back_in_input_order_by_their_index() -> None:
    with FakeOpenAIServer(api_key=SECRET, reverse=True) as server:
        vectors = create_embedder(make_config("openai", server.url)).embed(TEXTS, "document")
        expected = np.asarray(server.embed(TEXTS), dtype=np.float32)
    np.testing.assert_allclose(vectors, expected)


def test_input_type_is_accepted_but_not_sent(provider: str, server: Server) -> None:
    embedder = create_embedder(make_config(provider, server.url))
    query = embedder.embed(["granite"], "query")
    document = embedder.embed(["granite"], "document")
    np.testing.assert_array_equal(query, document)
    assert all(set(r.body) == {"model", "input"} for r in server.requests)


def test_no_texts_give_an_empty_matrix_of_the_probed_width(embedder: Embedder) -> None:
    assert embedder.embed([], "document").shape == (0, 64)


# -- identity


def test_identity_is_learned_from_one_probe_and_then_fixed(provider: str, server: Server) -> None:
    embedder = create_embedder(make_config(provider, server.url))
    first = embedder.identity
    assert embedder.identity is first
    assert (first.provider, first.model, first.dimensions) == (provider, "m", 64)
    assert (first.normalized, first.revision) == (True, "api")
    assert [r.body["input"] for r in server.requests] == [["groundkit"]]


def test_identity_reports_vectors_that_are_not_unit_length(provider: str) -> None:
    with make_server(provider, dimensions=8, normalized=False) as server:
        identity = create_embedder(make_config(provider, server.url)).identity
    assert (identity.dimensions, identity.normalized) == (8, False)


def test_a_later_response_of_another_width_is_invalid(provider: str, server: Server) -> None:
    embedder = create_embedder(make_config(provider, server.url))
    assert embedder.identity.dimensions == 64
    server.vectors = lambda rows: [[*row, 0.0] for row in rows]
    with pytest.raises(GroundkitError) as exc:
        embedder.embed(["granite"], "document")
    assert exc.value.code == ErrorCode.EMBEDDING_INVALID


# -- the key


def test_openai_without_a_key_variable_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as exc:
        create_embedder(make_config("openai", None, api_key_env=None))
    assert exc.value.code == ErrorCode.CONFIG_INVALID
    assert "api_key_env" in str(exc.value)


@pytest.mark.parametrize("value", [None, "", "   "])
def test_a_missing_or_empty_key_variable_is_named_in_the_error(
    value: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if value is None:
        monkeypatch.delenv(KEY_ENV)
    else:
        monkeypatch.setenv(KEY_ENV, value)
    with pytest.raises(ConfigError) as exc:
        create_embedder(make_config("openai", None))
    assert exc.value.code == ErrorCode.CONFIG_INVALID
    assert KEY_ENV in str(exc.value)


def test_a_key_a_header_cannot_carry_is_refused_without_quoting_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, f"{SECRET}\r\nX-Injected: 1")
    with pytest.raises(ConfigError) as exc:
        create_embedder(make_config("openai", None))
    assert exc.value.code == ErrorCode.CONFIG_INVALID
    assert KEY_ENV in str(exc.value)
    assert not leaked(exc.value)


def test_the_key_is_absent_from_the_embedders_repr_and_str_and_cannot_be_pickled() -> None:
    embedder = create_embedder(make_config("openai", "https://embeddings.example/v1"))
    assert SECRET not in repr(embedder)
    assert SECRET not in str(embedder)
    assert SECRET not in repr(vars(embedder))
    with pytest.raises(TypeError):
        pickle.dumps(embedder)


@pytest.mark.parametrize(
    "options",
    [
        {"status": 500},
        {"status": 401},
        {"status": 307, "headers": {"Location": f"http://127.0.0.1:9/?key={SECRET}"}},
        {"body": f"not json {SECRET}".encode()},
        {"vectors": lambda rows: rows[:-1]},
        {"delay_s": 5.0},
    ],
    ids=["500", "401", "redirect", "not-json", "count", "timeout"],
)
def test_the_key_is_absent_from_every_error_message(options: dict[str, Any]) -> None:
    with FakeOpenAIServer(api_key=SECRET, **options) as server:
        config = make_config("openai", server.url, timeout_s=0.5)
        with pytest.raises(GroundkitError) as exc:
            create_embedder(config).embed(["granite"], "document")
    assert not leaked(exc.value)
    assert exc.value.code in (ErrorCode.EMBEDDER_UNAVAILABLE, ErrorCode.EMBEDDING_INVALID)


def test_the_key_is_absent_when_the_provider_is_down() -> None:
    with pytest.raises(GroundkitError) as exc:
        create_embedder(make_config("openai", closed_port_url())).embed(["x"], "document")
    assert not leaked(exc.value)


def test_a_wrong_key_is_an_unavailable_embedder_whose_hint_names_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-wrong")
    with FakeOpenAIServer(api_key=SECRET) as server, pytest.raises(GroundkitError) as exc:
        create_embedder(make_config("openai", server.url)).embed(["x"], "document")
    assert exc.value.code == ErrorCode.EMBEDDER_UNAVAILABLE
    assert KEY_ENV in str(exc.value)
    assert "sk-wrong" not in str(exc.value)


# -- failures


def test_a_provider_that_is_down_is_unavailable(provider: str) -> None:
    embedder = create_embedder(make_config(provider, closed_port_url()))
    with pytest.raises(GroundkitError) as exc:
        embedder.embed(["x"], "document")
    assert exc.value.code == ErrorCode.EMBEDDER_UNAVAILABLE


def test_the_identity_of_a_provider_that_is_down_is_unavailable(provider: str) -> None:
    embedder = create_embedder(make_config(provider, closed_port_url()))
    with pytest.raises(GroundkitError) as exc:
        _ = embedder.identity
    assert exc.value.code == ErrorCode.EMBEDDER_UNAVAILABLE


@pytest.mark.parametrize("status", [400, 404, 429, 500, 503])
def test_an_error_status_is_unavailable_and_not_retried(provider: str, status: int) -> None:
    with make_server(provider, status=status) as server:
        embedder = create_embedder(make_config(provider, server.url))
        with pytest.raises(GroundkitError) as exc:
            embedder.embed(["x"], "document")
    assert exc.value.code == ErrorCode.EMBEDDER_UNAVAILABLE
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    "options",
    [
        {"body": b"<html>not json</html>"},
        {"body": b"\xff\xfe"},
        {"body": b"[]"},
        {"body": b'{"unexpected": true}'},
        {"vectors": lambda rows: rows[:-1]},
        {"vectors": lambda rows: [*rows, rows[0]]},
        {"vectors": lambda rows: [rows[0], rows[1][:-1]]},
        {"vectors": lambda rows: [[float("nan"), *row[1:]] for row in rows]},
        {"vectors": lambda rows: [[float("inf"), *row[1:]] for row in rows]},
        {"vectors": lambda rows: [[1e300, *row[1:]] for row in rows]},
        {"vectors": lambda rows: [["0.5", *row[1:]] for row in rows]},
        {"vectors": lambda rows: [[True, *row[1:]] for row in rows]},
        {"vectors": lambda rows: [[] for _ in rows]},
        {"vectors": lambda rows: [None for _ in rows]},
    ],
    ids=[
        "html",
        "not-utf8",
        "array",
        "no-field",
        "too-few",
        "too-many",
        "ragged",
        "nan",
        "inf",
        "float32-overflow",
        "string",
        "bool",
        "empty-vector",
        "null-vector",
    ],
)
def test_a_malformed_response_is_invalid(provider: str, options: dict[str, Any]) -> None:
    with make_server(provider, **options) as server:
        embedder = create_embedder(make_config(provider, server.url))
        with pytest.raises(GroundkitError) as exc:
            embedder.embed(["granite", "marble"], "document")
    assert exc.value.code == ErrorCode.EMBEDDING_INVALID


@pytest.mark.parametrize(
    "data",
    [
        [{"index": 0, "embedding": [1.0]}, {"index": 0, "embedding": [1.0]}],
        [{"index": 1, "embedding": [1.0]}, {"index": 2, "embedding": [1.0]}],
        [{"embedding": [1.0]}, {"embedding": [1.0]}],
        [{"index": False, "embedding": [1.0]}, {"index": True, "embedding": [1.0]}],
        [[1.0], [1.0]],
    ],
    ids=["duplicate-index", "index-out-of-range", "no-index", "bool-index", "bare-rows"],
)
def test_openai_data_without_one_row_per_index_is_invalid(data: list[Any]) -> None:
    body = json.dumps({"object": "list", "data": data}).encode()
    with FakeOpenAIServer(api_key=SECRET, body=body) as server:
        embedder = create_embedder(make_config("openai", server.url))
        with pytest.raises(GroundkitError) as exc:
            embedder.embed(["granite", "marble"], "document")
    assert exc.value.code == ErrorCode.EMBEDDING_INVALID


def test_a_server_slower_than_the_timeout_is_unavailable(provider: str) -> None:
    # The server's delay ends as soon as it is closed, so this takes timeout_s, not delay_s.
    with make_server(provider, delay_s=30.0) as server:
        embedder = create_embedder(make_config(provider, server.url, timeout_s=0.5))
        with pytest.raises(GroundkitError) as exc:
            embedder.embed(["x"], "document")
    assert exc.value.code == ErrorCode.EMBEDDER_UNAVAILABLE
    assert "embed.timeout_s" in str(exc.value)


# -- network rules


def test_a_configured_loopback_endpoint_is_reachable_but_its_redirect_to_another_port_is_not(
    provider: str,
) -> None:
    with make_server(provider) as inner:
        location = {"Location": f"{inner.url}{type(inner).path.removeprefix('/v1')}"}
        with make_server(provider, status=307, headers=location) as outer:
            embedder = create_embedder(make_config(provider, outer.url))
            with pytest.raises(GroundkitError) as exc:
                embedder.embed(["x"], "document")
    assert exc.value.code == ErrorCode.EMBEDDER_UNAVAILABLE
    assert "redirect" in str(exc.value)
    assert len(outer.requests) == 1
    assert inner.requests == []


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_no_redirect_is_followed_even_to_the_same_endpoint(provider: str, status: int) -> None:
    with make_server(provider) as server:
        server.status = status
        server.headers = {"Location": server.url + type(server).path.removeprefix("/v1")}
        with pytest.raises(GroundkitError) as exc:
            create_embedder(make_config(provider, server.url)).embed(["x"], "document")
    assert exc.value.code == ErrorCode.EMBEDDER_UNAVAILABLE
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    "base_url", ["http://93.184.216.34:11434", "http://93.184.216.34/v1", "http://[2606:4700::1]"]
)
def test_plain_http_to_a_public_address_is_refused_before_any_connection(
    provider: str, base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_connect(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("connected to a refused endpoint")

    monkeypatch.setattr(socket.socket, "connect", no_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", no_connect)
    embedder = create_embedder(make_config(provider, base_url))
    with pytest.raises(UnsafeURLError) as exc:
        embedder.embed(["x"], "document")
    assert exc.value.code == ErrorCode.URL_UNSAFE
    with pytest.raises(UnsafeURLError):
        _ = embedder.identity


def test_a_configured_private_endpoint_is_allowed_but_only_on_its_own_port(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A LAN Ollama over plain http is a common setup; the guard lets exactly that host:port
    # through. Connecting is stubbed: the address check is what is under test.
    attempts: list[Any] = []

    def refuse(self: socket.socket, address: Any) -> None:
        attempts.append(address)
        raise ConnectionRefusedError

    monkeypatch.setattr(socket.socket, "connect", refuse)
    embedder = create_embedder(make_config(provider, "http://10.1.2.3:11434"))
    with pytest.raises(GroundkitError) as exc:
        embedder.embed(["x"], "document")
    assert exc.value.code == ErrorCode.EMBEDDER_UNAVAILABLE
    assert attempts == [("10.1.2.3", 11434)]


@pytest.mark.parametrize(
    "base_url",
    [
        "ftp://127.0.0.1/",
        "127.0.0.1:11434",
        "http://127.0.0.1:11434/?x=1",
        "http://user:hunter2@127.0.0.1:11434",
        "http://127.0.0.1:99999",
    ],
)
def test_a_malformed_base_url_is_a_config_error_that_does_not_quote_it(
    provider: str, base_url: str
) -> None:
    with pytest.raises(ConfigError) as exc:
        create_embedder(make_config(provider, base_url))
    assert exc.value.code == ErrorCode.CONFIG_INVALID
    assert "hunter2" not in str(exc.value)


def test_ollama_defaults_to_the_local_server() -> None:
    embedder = create_embedder(EmbedConfig(provider="ollama", model="m"))
    assert "127.0.0.1:11434" in repr(embedder)


def test_openai_defaults_to_the_public_api_over_https() -> None:
    embedder = create_embedder(EmbedConfig(provider="openai", model="m", api_key_env=KEY_ENV))
    assert "api.openai.com:443" in repr(embedder)


# -- through the library


def test_a_collection_ingests_and_searches_densely_through_an_ollama_server(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "granite.md").write_text("# Granite\n\nGranite is an igneous rock rich in quartz.\n")
    (docs / "marble.md").write_text("# Marble\n\nMarble is a metamorphic rock from limestone.\n")
    with FakeOllamaServer() as server:
        settings = Settings(
            embed=EmbedConfig(provider="ollama", base_url=server.url, model="m"),
            ingest=IngestConfig(dense=True),
        )
        with groundkit.open_collection("d", index_dir=tmp_path / "index", settings=settings) as c:
            report = c.ingest([docs])
            hits = c.search("metamorphic limestone", mode="dense")
            identity = c.embedder_identity
    assert report.chunks_embedded == 2
    assert hits[0].citation.source.endswith("marble.md")
    assert identity is not None
    assert identity.key() == "ollama:m@api/64/norm"
    assert server.requests[0].body["input"] == ["groundkit"]

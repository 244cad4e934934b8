"""The safety checks: secret, Host and Origin, body size, concurrency, and what logs may carry."""

from __future__ import annotations

import json
import logging
import pickle
from pathlib import Path

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient
from serving import SECRET, client_for, make_runtime
from starlette.types import Message, Receive, Scope, Send

from groundkit import Settings
from groundkit.errors import ErrorCode, GroundkitError, NotFoundError, UsageError
from groundkit.ops.collections import IngestOrder, ingest
from groundkit.serve.app import create_app
from groundkit.serve.errors import http_status
from groundkit.serve.guards import ACCESS_LOGGER, Concurrency, allowed_hosts_for
from groundkit.serve.runtime import Runtime
from groundkit.serve.secret import SharedSecret, secret_from_env

INGEST = {"collection": "notes", "inputs": ["."]}


def test_a_mutating_route_without_the_secret_is_401_auth_required(admin: TestClient) -> None:
    response = admin.post("/v1/ingest", json=INGEST)

    assert response.status_code == 401
    assert response.json()["code"] == "auth.required"


def test_a_mutating_route_with_a_wrong_secret_is_403_auth_invalid(admin: TestClient) -> None:
    for wrong in ("wrong", SECRET + "x", SECRET[:-1], ""):
        response = admin.delete("/v1/collections/notes", headers={"X-Groundkit-Secret": wrong})
        expected = (401, "auth.required") if wrong == "" else (403, "auth.invalid")
        assert (response.status_code, response.json()["code"]) == expected
    assert admin.get("/v1/collections").json() == {"collections": ["notes"]}


def test_mutating_routes_without_a_secret_exist_and_refuse(client: TestClient) -> None:
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]

    assert "post" in paths["/v1/ingest"]
    assert "delete" in paths["/v1/collections/{name}"]
    response = client.delete("/v1/collections/notes", headers={"X-Groundkit-Secret": SECRET})
    assert (response.status_code, response.json()["code"]) == (403, "auth.invalid")
    assert client.get("/v1/collections").json() == {"collections": ["notes"]}


def test_a_foreign_host_header_is_421_host_rejected(client: TestClient) -> None:
    for host in ("evil.example", "127.0.0.1:9999", "localhost.evil.example:8765", ""):
        response = client.get("/v1/collections", headers={"Host": host})
        assert response.status_code == 421, host
        assert response.json()["code"] == "serve.host_rejected"
    assert client.get("/v1/collections", headers={"Host": "localhost:8765"}).status_code == 200


def test_a_foreign_origin_on_mcp_is_403_origin_rejected(client: TestClient) -> None:
    response = client.post(
        "/mcp", json={}, headers={"Origin": "http://evil.example", "Accept": "application/json"}
    )

    assert response.status_code == 403
    assert response.json()["code"] == "serve.origin_rejected"


def test_the_allowed_hosts_follow_the_bind_address() -> None:
    assert allowed_hosts_for("127.0.0.1", 8765) == {
        "127.0.0.1:8765",
        "localhost:8765",
        "[::1]:8765",
    }
    assert "box.lan:80" in allowed_hosts_for("10.0.0.5", 80, ["box.lan"])
    assert "localhost:8765" not in allowed_hosts_for("10.0.0.5", 8765)


def test_an_oversized_body_is_413_body_too_large(settings: Settings, docs: Path) -> None:
    small = settings.replace(serve=settings.serve.replace(max_body_bytes=2048))
    runtime = make_runtime(small)
    ingest(runtime, IngestOrder("notes", [str(docs)]))
    with client_for(runtime) as client:
        declared = client.post("/v1/search", json={"collection": "notes", "query": "w" * 3000})

        def chunks() -> object:
            yield b'{"collection": "notes", "query": "'
            yield b"w" * 3000
            yield b'"}'

        streamed = client.post(
            "/v1/search", content=chunks(), headers={"Content-Type": "application/json"}
        )
        # Refused on the declared length alone, before any of the body is read.
        claimed = client.post(
            "/v1/search",
            content=b"{}",
            headers={"Content-Type": "application/json", "Content-Length": "999999"},
        )
        fine = client.post("/v1/search", json={"collection": "notes", "query": "wombat"})
    runtime.close()
    for response in (declared, streamed, claimed):
        assert response.status_code == 413
        assert response.json()["code"] == "serve.body_too_large"
    assert fine.status_code == 200


def test_requests_past_the_concurrency_limit_get_503_busy() -> None:
    release = anyio.Event()
    entered = anyio.Event()

    async def slow(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["path"] != "/healthz":
            entered.set()
            await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    guard = Concurrency(slow, limit=1)
    first: list[int] = []
    busy: list[httpx.Response] = []

    async def scenario() -> None:
        with anyio.fail_after(10):  # without the guard, the second request would wait forever
            await exchange()

    async def exchange() -> None:
        transport = httpx.ASGITransport(app=guard)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:

            async def hold() -> None:
                first.append((await http.get("/v1/collections")).status_code)

            async with anyio.create_task_group() as tg:
                tg.start_soon(hold)
                await entered.wait()  # the one slot is taken
                busy.append(await http.get("/v1/collections"))
                busy.append(await http.get("/healthz"))  # probes are never turned away
                release.set()

    anyio.run(scenario)
    refused, probe = busy
    assert refused.status_code == 503
    assert refused.json()["code"] == "serve.busy"
    assert refused.headers["retry-after"] == "1"
    assert probe.status_code == 200
    assert first == [200]
    assert guard.in_flight == 0


def test_the_secret_never_reaches_logs_responses_or_reprs(
    writable: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bodies: list[str] = []
    with client_for(writable) as admin:
        for offered in (SECRET, "wrong", SECRET.upper()):
            for response in (
                admin.post("/v1/ingest", json=INGEST, headers={"X-Groundkit-Secret": offered}),
                admin.delete("/v1/collections/zzz", headers={"X-Groundkit-Secret": offered}),
            ):
                bodies.append(response.text + json.dumps(dict(response.headers)))
        bodies.append(json.dumps(admin.app.openapi()))  # type: ignore[attr-defined]
    secret = writable.secret
    assert secret is not None
    seen = "\n".join([*bodies, caplog.text, repr(writable.__dict__), repr(secret), str(secret)])
    assert SECRET not in seen
    assert SECRET.split()[0] not in seen
    with pytest.raises(TypeError):
        pickle.dumps(secret)
    with pytest.raises(TypeError):
        json.dumps(secret)


def test_the_secret_compares_only_by_value() -> None:
    secret = SharedSecret("s3cret")

    assert secret.matches("s3cret")
    assert not secret.matches("s3cre")
    assert not secret.matches(None)
    assert secret.same_as(SharedSecret("s3cret"))
    assert not secret.same_as(None)
    assert secret != SharedSecret("s3cret")  # never by ==, which is not constant-time


def test_access_logs_carry_id_route_status_latency_and_count_but_never_the_query(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    response = client.post("/v1/search", json={"collection": "notes", "query": "wombat claws"})
    hit = response.json()["hits"][0]
    client.get(f"/v1/chunks/notes/{hit['chunk_id']}")

    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == ACCESS_LOGGER]

    assert lines[0]["request_id"] == response.headers["x-request-id"]
    assert lines[0]["route"] == "/v1/search"
    assert lines[0]["status"] == 200
    assert lines[0]["results"] == len(response.json()["hits"])
    assert isinstance(lines[0]["latency_ms"], float)
    assert lines[1]["route"] == "/v1/chunks/{collection}/{chunk_id}"
    assert "wombat" not in caplog.text
    assert "claws" not in caplog.text
    assert hit["chunk_id"] not in caplog.text


def test_error_codes_map_to_their_http_statuses_in_one_table() -> None:
    def status(code: ErrorCode, cls: type[GroundkitError] = GroundkitError) -> int:
        return int(http_status(cls(code, "x")))

    assert status(ErrorCode.COLLECTION_NOT_FOUND, NotFoundError) == 404
    assert status(ErrorCode.AUTH_REQUIRED) == 401
    assert status(ErrorCode.AUTH_INVALID) == 403
    assert status(ErrorCode.SERVE_HOST_REJECTED) == 421
    assert status(ErrorCode.SERVE_BODY_TOO_LARGE) == 413
    assert status(ErrorCode.SERVE_BUSY) == 503
    assert status(ErrorCode.INDEX_LOCKED) == 503  # a writer is busy: try again later
    assert status(ErrorCode.INVALID_QUERY, UsageError) == 422
    assert status(ErrorCode.STORE_FAILED) == 500
    # A code added by another feature (eval.*, ai.*, auth.*) is placed deliberately: an
    # upstream provider's failure is not the caller's 500, nor a provider key the caller's 401.
    assert status(ErrorCode.AUTH_MISSING) not in (401, 403)
    assert status(ErrorCode.AI_TIMEOUT) == 504
    assert status(ErrorCode.AI_PROVIDER_FAILED) == 502
    assert status(ErrorCode.EVAL_DATASET) == 422


def test_a_secret_that_cannot_travel_in_a_header_is_refused_when_the_server_starts() -> None:
    # HTTP header values are ASCII, and their edge whitespace is stripped in transit: such a
    # secret would never match, and every mutating call would fail with auth.invalid.
    for value in ("caf\u00e9-xyzzy", "xyzzy\r", " xyzzy", "xy\x00zzy"):
        with pytest.raises(GroundkitError) as refused:
            secret_from_env("MY_SECRET", {"MY_SECRET": value})
        assert refused.value.code == ErrorCode.CONFIG_INVALID
        assert "MY_SECRET" in refused.value.message
        assert "zzy" not in str(refused.value)
    assert secret_from_env("MY_SECRET", {"MY_SECRET": "two words"}) is not None


def test_the_secret_comparison_never_depends_on_the_offered_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import groundkit.serve.secret as secret_module

    lengths: list[tuple[int, int]] = []
    real = secret_module.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        lengths.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(secret_module.hmac, "compare_digest", spy)
    secret = SharedSecret("s3cret")
    for offered in ("s", "s3cret", "s3cret" * 100, "\udcff"):
        assert secret.matches(offered) == (offered == "s3cret")

    assert {a == b for a, b in lengths} == {True}


def test_a_content_length_of_non_ascii_digits_is_400_usage(client: TestClient) -> None:
    # "\xb2" (superscript two) passes str.isdigit() but not int(): it must not become a 500.
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/search",
        "raw_path": b"/v1/search",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8765"), (b"content-length", b"\xb2")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8765),
    }
    anyio.run(client.app, scope, receive, send)  # type: ignore[arg-type]

    assert sent[0]["status"] == 400
    assert json.loads(sent[1]["body"])["code"] == "usage"


def test_a_foreign_origin_is_refused_on_the_rest_routes_too(client: TestClient) -> None:
    # A page on another site can make "simple" cross-origin requests (a GET, no preflight):
    # the browser hides the answer, but the server must not do the work or show it exists.
    for origin in ("http://evil.example", "null", "http://127.0.0.1:9999"):
        for path in ("/v1/collections", "/v1/collections/notes", "/readyz"):
            response = client.get(path, headers={"Origin": origin})
            assert response.status_code == 403, (origin, path)
            assert response.json()["code"] == "serve.origin_rejected"
    same = client.get("/v1/collections", headers={"Origin": "http://127.0.0.1:8765"})
    assert same.status_code == 200


def test_a_public_host_behind_a_proxy_is_answered_as_the_proxy_sends_it(
    runtime: Runtime,
) -> None:
    # A TLS proxy on 443 forwards "Host: grk.example.com": the bind port is not in it.
    hosts = allowed_hosts_for("127.0.0.1", 8765, ["GRK.example.com", "alt.example:8443"])
    assert {"grk.example.com", "grk.example.com:8765", "alt.example:8443"} <= hosts
    with TestClient(
        create_app(runtime, allowed_hosts=hosts), base_url="https://grk.example.com"
    ) as c:
        assert c.get("/v1/collections").status_code == 200
        assert c.get("/v1/collections", headers={"Origin": "https://grk.example.com"}).is_success


def test_the_body_limit_applies_to_mcp_declared_or_streamed(client: TestClient) -> None:
    big = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "' + b"w" * 2_000_000
    headers = {"Content-Type": "application/json", "Accept": "application/json"}

    def chunks() -> object:
        yield big[:1000]
        yield big[1000:]

    declared = client.post("/mcp", content=big + b'"}}', headers=headers)
    streamed = client.post("/mcp", content=chunks(), headers=headers)

    for response in (declared, streamed):
        assert response.status_code == 413
        assert response.json()["code"] == "serve.body_too_large"

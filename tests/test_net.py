"""The URL fetcher against loopback servers started by each test; no other network."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest

from groundkit.errors import ErrorCode, FetchError, UnsafeURLError
from groundkit.net import (
    FetchPolicy,
    fetch_url,
    host_key,
    is_public_address,
    request_json,
)

Route = Callable[[BaseHTTPRequestHandler], None]


def reply(body: bytes = b"", status: int = 200, headers: dict[str, str] | None = None) -> Route:
    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        if "Content-Length" not in (headers or {}):
            handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    return route


def redirect(location: str, status: int = 302) -> Route:
    return reply(status=status, headers={"Location": location})


def chunked(body: bytes, size: int = 1000) -> Route:
    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/plain")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        for start in range(0, len(body), size):
            piece = body[start : start + size]
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        handler.wfile.write(b"0\r\n\r\n")

    return route


def unframed(body: bytes) -> Route:
    """No Content-Length, no chunking: the body ends when the server closes."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.end_headers()
        handler.wfile.write(body)

    return route


@contextmanager
def serve(routes: dict[str, Route]) -> Iterator[tuple[str, list[dict[str, str]]]]:
    """A loopback HTTP server; yields its "host:port" and the headers of each request it saw."""
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append({"path": self.path, **dict(self.headers.items())})
            routes.get(self.path, reply(b"missing", status=404))(self)

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            seen.append({"path": self.path, "body": body.decode(), **dict(self.headers.items())})
            routes.get(self.path, reply(b"missing", status=404))(self)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01})
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def allowing(*hosts: str, **limits: Any) -> FetchPolicy:
    return FetchPolicy(allow_hosts=frozenset(hosts), **limits)


def test_fetch_from_an_allowed_loopback_server_returns_body_and_content_type() -> None:
    page = reply(b"<p>hi</p>", headers={"Content-Type": 'Text/HTML; Charset="UTF-8"'})
    with serve({"/page?q=1": page}) as (host, _):
        got = fetch_url(f"http://{host}/page?q=1#frag", allowing(host))
    assert got.body == b"<p>hi</p>"
    assert got.media_type == "text/html"
    assert got.charset == "utf-8"
    assert got.url == got.final_url == f"http://{host}/page?q=1#frag"


def test_missing_content_type_gives_empty_media_type_and_no_charset() -> None:
    with serve({"/": reply(b"x")}) as (host, _):
        got = fetch_url(f"http://{host}/", allowing(host))
    assert (got.media_type, got.charset) == ("", None)


def test_request_names_the_original_host_and_asks_for_identity_encoding() -> None:
    with serve({"/": reply(b"x")}) as (host, seen):
        fetch_url(f"http://{host}/", allowing(host))
    assert seen[0]["Host"] == host
    assert seen[0]["User-Agent"] == "groundkit/0.1"
    assert seen[0]["Accept-Encoding"] == "identity"


def test_loopback_server_is_refused_without_allow_hosts() -> None:
    with serve({"/": reply(b"secret")}) as (host, seen), pytest.raises(UnsafeURLError) as exc:
        fetch_url(f"http://{host}/")
    assert exc.value.code == ErrorCode.URL_UNSAFE
    assert seen == []


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.0.0.1",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "198.18.0.1",
        "192.0.2.1",
        "0.0.0.0",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "fec0::1",
        "2001:db8::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "::127.0.0.1",
        "::8.8.8.8",
        "64:ff9b::7f00:1",
        "64:ff9b::a9fe:a9fe",
        "64:ff9b:1::808:808",
        "2002:7f00:1::",
        "2002:c0a8:101::1",
        "2001:0:4136:e378:8000:63bf:80ff:fffe",
    ],
)
def test_non_public_address_is_refused(address: str) -> None:
    assert not is_public_address(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_address_is_allowed(address: str) -> None:
    assert is_public_address(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    "url",
    [
        "http://2130706433/",
        "http://0x7f.1/",
        "http://017700000001/",
        "http://127.1/",
        "http://0/",
        "http://localhost/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
    ],
)
def test_loopback_in_any_spelling_is_refused(url: str) -> None:
    with pytest.raises(UnsafeURLError) as exc:
        fetch_url(url)
    assert exc.value.code == ErrorCode.URL_UNSAFE


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.org/file",
        "gopher://example.org/",
        "javascript:alert(1)",
        "example.org/no-scheme",
        "http://user:pass@example.org/",
        "http://user@example.org/",
        "http:///no-host",
        "http://example.org:99999/",
        "http://[fe80::1%25eth0]/",
    ],
)
def test_url_outside_plain_http_or_https_is_refused_before_any_lookup(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_dns(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("resolved a refused URL")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    with pytest.raises(UnsafeURLError) as exc:
        fetch_url(url)
    assert exc.value.code == ErrorCode.URL_UNSAFE


def test_name_with_any_private_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def resolve(*args: Any, **kwargs: Any) -> list[Any]:
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("8.8.8.8", 80)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.1", 80)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    with pytest.raises(UnsafeURLError) as exc:
        fetch_url("http://rebind.example/")
    assert exc.value.code == ErrorCode.URL_UNSAFE


def test_connection_goes_to_the_vetted_address_without_resolving_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lookups: list[str] = []
    real = socket.getaddrinfo

    with serve({"/": reply(b"pinned")}) as (host, seen):
        port = int(host.rsplit(":", 1)[1])

        def resolve(name: str, *args: Any, **kwargs: Any) -> Any:
            lookups.append(name)
            return real("127.0.0.1", port, socket.AF_INET, socket.SOCK_STREAM)

        monkeypatch.setattr(socket, "getaddrinfo", resolve)
        got = fetch_url(f"http://site.example:{port}/", allowing(f"site.example:{port}"))
    assert got.body == b"pinned"
    assert lookups == ["site.example"]
    assert seen[0]["Host"] == f"site.example:{port}"


def test_relative_redirect_is_followed() -> None:
    routes = {"/old/": redirect("../new?x=1", 301), "/new?x=1": reply(b"moved")}
    with serve(routes) as (host, _):
        got = fetch_url(f"http://{host}/old/", allowing(host))
    assert got.body == b"moved"
    assert got.final_url == f"http://{host}/new?x=1"


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_every_redirect_status_is_followed(status: int) -> None:
    with serve({"/a": redirect("/b", status), "/b": reply(b"ok")}) as (host, _):
        assert fetch_url(f"http://{host}/a", allowing(host)).body == b"ok"


def test_redirect_to_unlisted_loopback_port_is_refused() -> None:
    with (
        serve({"/": reply(b"internal")}) as (inner, inner_seen),
        serve({"/": redirect(f"http://{inner}/")}) as (outer, _),
        pytest.raises(UnsafeURLError) as exc,
    ):
        fetch_url(f"http://{outer}/", allowing(outer))
    assert exc.value.code == ErrorCode.URL_UNSAFE
    assert inner_seen == []


def test_redirect_to_a_non_http_scheme_is_refused() -> None:
    with (
        serve({"/": redirect("file:///etc/passwd")}) as (host, _),
        pytest.raises(UnsafeURLError) as exc,
    ):
        fetch_url(f"http://{host}/", allowing(host))
    assert exc.value.code == ErrorCode.URL_UNSAFE


def test_redirect_chain_longer_than_the_limit_fails() -> None:
    routes = {"/1": redirect("/2"), "/2": redirect("/3"), "/3": reply(b"end")}
    with serve(routes) as (host, seen), pytest.raises(FetchError) as exc:
        fetch_url(f"http://{host}/1", allowing(host, max_redirects=1))
    assert exc.value.code == ErrorCode.FETCH_FAILED
    assert [r["path"] for r in seen] == ["/1", "/2"]


def test_redirect_chain_at_the_limit_succeeds() -> None:
    routes = {"/1": redirect("/2"), "/2": redirect("/3"), "/3": reply(b"end")}
    with serve(routes) as (host, _):
        got = fetch_url(f"http://{host}/1", allowing(host, max_redirects=2))
    assert got.body == b"end"


def test_redirect_without_location_fails() -> None:
    with serve({"/": reply(status=302)}) as (host, _), pytest.raises(FetchError) as exc:
        fetch_url(f"http://{host}/", allowing(host))
    assert exc.value.code == ErrorCode.FETCH_FAILED


@pytest.mark.parametrize("status", [404, 500])
def test_error_status_fails_without_quoting_the_query_or_body(status: int) -> None:
    with serve({}) as (host, _), pytest.raises(FetchError) as exc:
        fetch_url(f"http://{host}/doc?token=s3cret", allowing(host))
    assert exc.value.code == ErrorCode.FETCH_FAILED
    assert "s3cret" not in str(exc.value)
    assert "missing" not in str(exc.value)


def test_declared_length_over_the_cap_is_refused_before_reading() -> None:
    huge = reply(b"tiny", headers={"Content-Length": str(10**12)})
    with serve({"/": huge}) as (host, _), pytest.raises(FetchError) as exc:
        fetch_url(f"http://{host}/", allowing(host, max_bytes=1000))
    assert exc.value.code == ErrorCode.FETCH_TOO_LARGE


@pytest.mark.parametrize("route", [reply, chunked, unframed])
def test_body_over_the_cap_is_refused_however_it_is_framed(
    route: Callable[[bytes], Route],
) -> None:
    with serve({"/": route(b"x" * 5000)}) as (host, _), pytest.raises(FetchError) as exc:
        fetch_url(f"http://{host}/", allowing(host, max_bytes=4999))
    assert exc.value.code == ErrorCode.FETCH_TOO_LARGE


@pytest.mark.parametrize("route", [reply, chunked, unframed])
def test_body_exactly_at_the_cap_is_accepted(route: Callable[[bytes], Route]) -> None:
    with serve({"/": route(b"y" * 5000)}) as (host, _):
        got = fetch_url(f"http://{host}/", allowing(host, max_bytes=5000))
    assert got.body == b"y" * 5000


def test_body_cut_short_of_its_declared_length_fails() -> None:
    short = reply(b"half", headers={"Content-Length": "100"})
    with serve({"/": short}) as (host, _), pytest.raises(FetchError) as exc:
        fetch_url(f"http://{host}/", allowing(host))
    assert exc.value.code == ErrorCode.FETCH_FAILED


def test_server_that_never_answers_times_out() -> None:
    # The kernel completes the handshake for a listening socket, so the request is sent and the
    # fetch then waits for a reply that never comes.
    with closing(socket.create_server(("127.0.0.1", 0))) as listener:
        host = f"127.0.0.1:{listener.getsockname()[1]}"
        with pytest.raises(FetchError) as exc:
            fetch_url(f"http://{host}/", allowing(host, timeout_s=0.3))
    assert exc.value.code == ErrorCode.FETCH_TIMEOUT


def test_server_dripping_headers_is_cut_off_at_the_total_deadline() -> None:
    # Each header line arrives well within the socket timeout; only the fetch-wide deadline ends
    # it. The server gives up after a few seconds so a broken deadline fails instead of hanging.
    stop = threading.Event()

    def drip(listener: socket.socket) -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 200 OK\r\n")
            for _ in range(250):
                if stop.wait(0.02):
                    break
                try:
                    conn.sendall(b"X-Drip: 1\r\n")
                except OSError:
                    break

    with closing(socket.create_server(("127.0.0.1", 0))) as listener:
        host = f"127.0.0.1:{listener.getsockname()[1]}"
        thread = threading.Thread(target=drip, args=(listener,))
        thread.start()
        try:
            with pytest.raises(FetchError) as exc:
                fetch_url(f"http://{host}/", allowing(host, timeout_s=0.3))
        finally:
            stop.set()
            thread.join()
    assert exc.value.code == ErrorCode.FETCH_TIMEOUT


def test_closed_port_fails_as_fetch_failed() -> None:
    with closing(socket.create_server(("127.0.0.1", 0))) as listener:
        host = f"127.0.0.1:{listener.getsockname()[1]}"
    with pytest.raises(FetchError) as exc:
        fetch_url(f"http://{host}/", allowing(host))
    assert exc.value.code == ErrorCode.FETCH_FAILED


def test_https_to_a_server_without_tls_fails_as_fetch_failed() -> None:
    with serve({"/": reply(b"plain")}) as (host, _), pytest.raises(FetchError) as exc:
        fetch_url(f"https://{host}/", allowing(host, timeout_s=5))
    assert exc.value.code == ErrorCode.FETCH_FAILED


# -- request_json: one request to a JSON API, sharing the guard, never following a redirect


def test_request_json_posts_the_body_as_json_and_returns_status_and_body() -> None:
    with serve({"/api": reply(b'{"ok": true}', headers={"X-Test": "1"})}) as (host, seen):
        status, body = request_json(
            "POST", f"http://{host}/api", b'{"q": 1}', {"Authorization": "Bearer t"}, allowing(host)
        )
    assert (status, body) == (200, b'{"ok": true}')
    assert seen[0]["body"] == '{"q": 1}'
    assert seen[0]["Content-Type"] == "application/json"
    assert seen[0]["Accept"] == "application/json"
    assert seen[0]["Authorization"] == "Bearer t"
    assert seen[0]["Host"] == host


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_request_json_returns_a_redirect_without_following_it(status: int) -> None:
    with serve({"/a": redirect("/b", status), "/b": reply(b"{}")}) as (host, seen):
        got = request_json("POST", f"http://{host}/a", b"{}", {}, allowing(host))
    assert got == (status, b"")
    assert [r["path"] for r in seen] == ["/a"]


def test_request_json_does_not_read_an_error_body() -> None:
    with serve({"/": reply(b"echo of the request", status=500)}) as (host, _):
        assert request_json("POST", f"http://{host}/", b"{}", {}, allowing(host)) == (500, b"")


def test_request_json_refuses_a_loopback_host_outside_allow_hosts() -> None:
    with serve({"/": reply(b"{}")}) as (host, seen), pytest.raises(UnsafeURLError) as exc:
        request_json("POST", f"http://{host}/", b"{}", {}, FetchPolicy())
    assert exc.value.code == ErrorCode.URL_UNSAFE
    assert seen == []


def test_request_json_to_a_closed_port_fails_as_fetch_failed() -> None:
    with closing(socket.create_server(("127.0.0.1", 0))) as listener:
        host = f"127.0.0.1:{listener.getsockname()[1]}"
    with pytest.raises(FetchError) as exc:
        request_json("POST", f"http://{host}/", b"{}", {}, allowing(host))
    assert exc.value.code == ErrorCode.FETCH_FAILED


def test_https_for_public_refuses_plain_http_to_a_public_address_before_connecting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def resolve(*args: Any, **kwargs: Any) -> list[Any]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 80))]

    def no_connect(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("connected in the clear")

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    monkeypatch.setattr(socket.socket, "connect", no_connect)
    # Even an allowed host: the exemption is from the address check, not from encryption.
    policy = FetchPolicy(https_for_public=True, allow_hosts=frozenset({"api.example:80"}))
    with pytest.raises(UnsafeURLError) as exc:
        request_json("POST", "http://api.example/v1", b"{}", {}, policy)
    assert exc.value.code == ErrorCode.URL_UNSAFE
    with pytest.raises(UnsafeURLError):
        fetch_url("http://api.example/", policy)


def test_https_for_public_still_allows_plain_http_to_an_allowed_loopback_host() -> None:
    with serve({"/": reply(b"{}")}) as (host, _):
        policy = FetchPolicy(https_for_public=True, allow_hosts=frozenset({host}))
        assert request_json("POST", f"http://{host}/", b"{}", {}, policy) == (200, b"{}")


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://LOCALHOST:8080/x?y#z", "localhost:8080"),
        ("http://example.org", "example.org:80"),
        ("https://example.org/v1", "example.org:443"),
        ("https://[::1]/", "[::1]:443"),
    ],
)
def test_host_key_spells_the_allow_hosts_entry_for_a_url(url: str, key: str) -> None:
    assert host_key(url) == key


@pytest.mark.parametrize("url", ["ftp://example.org/", "http://u:p@example.org/", "http:///x"])
def test_host_key_refuses_what_the_guard_refuses(url: str) -> None:
    with pytest.raises(UnsafeURLError):
        host_key(url)

"""ASGI guards in front of every route, REST and MCP alike, outermost first:

``AccessLog``     gives each request an id and logs one line when it ends;
``HostGuard``     refuses a Host or an Origin that is not this server's: a page on another
                  site cannot reach a loopback server, directly or through DNS rebinding;
``BodyLimit``     refuses a body over ``serve.max_body_bytes`` (declared or streamed);
``Concurrency``   answers 503 at once when ``serve.max_concurrent`` requests are in flight.

They are plain ASGI so that they see the MCP mount too, and their refusals are the same JSON
error body as every route's.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from groundkit.errors import ErrorCode, GroundkitError, ServeError, UsageError
from groundkit.serve.errors import http_status

__all__ = [
    "ACCESS_LOGGER",
    "AccessLog",
    "BodyLimit",
    "Concurrency",
    "HostGuard",
    "allowed_hosts_for",
    "error_response",
    "route_template",
]

ACCESS_LOGGER = "groundkit.serve.access"
_log = logging.getLogger(ACCESS_LOGGER)
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_UNGUARDED = ("/healthz", "/readyz")  # probes must answer even when the server is saturated
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def _state(scope: Scope) -> dict[str, Any]:
    state: dict[str, Any] = scope.setdefault("state", {})
    return state


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def error_response(scope: Scope, send: Send, error: GroundkitError) -> None:
    """Send ``{code, message, request_id}`` with the status the code maps to."""
    status = int(http_status(error))
    body = {**error.to_dict(), "request_id": _state(scope).get("request_id", "")}
    payload = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(payload))]
    if error.code == ErrorCode.SERVE_BUSY:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
    _state(scope)["error_code"] = str(error.code)


def allowed_hosts_for(host: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """The Host header values a server bound to ``host:port`` accepts.

    ``extra`` (``serve.public_host``) is taken as a proxy sends it, with or without a port; a
    name without one is answered with the bind port too, for direct calls.
    """
    names = {host if ":" not in host else f"[{host}]"}
    if names & {"127.0.0.1", "localhost", "[::1]"} or host in ("0.0.0.0", "::"):  # noqa: S104
        names.update(LOOPBACK_NAMES)  # a wildcard bind is reachable on loopback too
    out = {f"{name}:{port}" for name in names}
    if port == 80:
        out.update(names)
    for public in (h.lower() for h in extra):
        out.add(public)
        if not re.search(r":\d+$", public):
            out.add(f"{public}:{port}")
    return frozenset(out)


# Paths served outside FastAPI's own routes, which therefore leave no route in the scope.
_FIXED = ("/openapi.json",)
_PREFIXES = ("/mcp", "/docs/assets")


def route_template(scope: Scope) -> str:
    """The route a request matched, as its template (never the path a client sent)."""
    route_path = getattr(scope.get("route"), "path", None)
    if route_path:
        return str(route_path)
    path: str = scope["path"]
    if path in _FIXED:
        return path
    return next((p for p in _PREFIXES if path == p or path.startswith(p + "/")), "unmatched")


class AccessLog:
    """Request id in, one log line out: id, method, route, status, latency, result count.

    Never the query, the body, document text or any header value: the route is the template
    (``/v1/chunks/{collection}/{chunk_id}``), not the path.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        offered = _header(scope, b"x-request-id")
        request_id = offered if offered and _REQUEST_ID.match(offered) else uuid.uuid4().hex
        state = _state(scope)
        state["request_id"] = request_id
        status = 500
        began = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            template = route_template(scope)
            record = {
                "request_id": request_id,
                "method": scope["method"],
                "route": template,
                "status": status,
                "latency_ms": round((time.perf_counter() - began) * 1000, 2),
                "results": state.get("results"),
                "error_code": state.get("error_code"),
            }
            _log.info(json.dumps(record))


class HostGuard:
    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in allowed_hosts)
        self.origins = frozenset(
            f"{scheme}://{host}" for host in self.hosts for scheme in ("http", "https")
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = (_header(scope, b"host") or "").lower()
        if host not in self.hosts:
            error = ServeError(
                ErrorCode.SERVE_HOST_REJECTED,
                "this server does not answer to that Host",
                hint="call it by the address it is bound to, e.g. http://127.0.0.1:PORT",
            )
            await error_response(scope, send, error)
            return
        # Browsers send Origin on cross-origin requests; API and MCP clients send none. Every
        # route refuses a foreign one: a page elsewhere must not make this server do work,
        # even work whose answer its browser would hide (there is no CORS here).
        origin = _header(scope, b"origin")
        if origin is not None and origin.lower() not in self.origins:
            error = ServeError(
                ErrorCode.SERVE_ORIGIN_REJECTED,
                "cross-origin requests are refused",
                hint="API and MCP clients send no Origin, or this server's own",
            )
            await error_response(scope, send, error)
            return
        await self.app(scope, receive, send)


class BodyLimit:
    """Reads the body up front, counting, then replays it: a chunked body that declares no
    length is refused as surely as one that declares too much, before any route sees it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _error(self) -> GroundkitError:
        return ServeError(
            ErrorCode.SERVE_BODY_TOO_LARGE,
            f"the request body is larger than {self.max_bytes} bytes",
            hint="send less at once, or raise serve.max_body_bytes",
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not (declared.isascii() and declared.isdigit()):  # "\xb2".isdigit() is true
                error = UsageError(ErrorCode.USAGE, "Content-Length is not a number")
                await error_response(scope, send, error)
                return
            if int(declared) > self.max_bytes:
                await error_response(scope, send, self._error())
                return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending its body
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                await error_response(scope, send, self._error())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class Concurrency:
    """A cap on requests in flight. The event loop is single-threaded: a plain counter is exact."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in _UNGUARDED:
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            error = ServeError(
                ErrorCode.SERVE_BUSY,
                "the server is busy",
                hint="retry after a moment, or raise serve.max_concurrent",
            )
            await error_response(scope, send, error)
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1

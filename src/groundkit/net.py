"""HTTP requests that cannot be steered into private networks: URL ingestion and JSON APIs.

Every hop (the first request and each redirect) is vetted from scratch: scheme, host and every
address the host resolves to. The socket is then opened to a vetted address itself, so a DNS
answer that changes between the check and the connect cannot steer the request elsewhere.

``fetch_url`` GETs a page and follows redirects; ``request_json`` sends one request to an API
(an embedding provider) and follows none. Both share the vetting, pinning and deadline code.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, cast
from urllib.parse import SplitResult, quote, urljoin, urlsplit

from groundkit.errors import ErrorCode, FetchError, UnsafeURLError

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer

__all__ = [
    "ApiAnswer",
    "FetchPolicy",
    "Fetched",
    "fetch_url",
    "host_key",
    "is_public_address",
    "request_api",
    "request_json",
]

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_CHUNK = 64 * 1024
# Printable ASCII except space: anything else in a path is percent-encoded, so the request line
# can never carry spaces, CR/LF or raw non-ASCII bytes.
_PATH_SAFE = "".join(chr(c) for c in range(0x21, 0x7F))
_LOCAL_HINT = "groundkit only fetches public addresses; save the page and ingest the file instead"

# Spelled out rather than trusting ``is_global`` alone, whose tables differ between Python patches.
# IPv4 and IPv6 networks share one tuple: an address is never "in" a network of the other version.
_BLOCKED = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
        "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
        "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        "::/96",  # unspecified, loopback and the deprecated IPv4-compatible form
        "::ffff:0:0:0/96",  # SIIT IPv4-translated
        "64:ff9b:1::/48",  # local-use NAT64: where it translates to is a local decision
        "100::/64", "2001:db8::/32", "3fff::/20", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    )
)  # fmt: skip
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """Limits for one fetch, redirects included.

    ``timeout_s`` bounds connecting and every read against one deadline; name resolution itself
    cannot be interrupted by the standard library, so a stalled resolver may overrun it.
    ``allow_hosts`` holds exact ``host:port`` strings (``[v6]:port`` for IPv6 literals, as
    ``host_key`` spells them) exempt from the address check, for loopback test servers and
    configured local endpoints. ``https_for_public`` refuses plain http to any public address,
    allowed host or not, for requests that carry credentials or private text.
    """

    max_bytes: int = 20_000_000
    timeout_s: float = 20.0
    max_redirects: int = 5
    allow_hosts: frozenset[str] = frozenset()
    https_for_public: bool = False
    connect_timeout_s: float | None = None  # a shorter bound on connecting alone


@dataclass(frozen=True, slots=True)
class Fetched:
    """A fetched body and what the server said about it."""

    url: str
    final_url: str
    media_type: str
    charset: str | None
    body: bytes


def is_public_address(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``ip`` is globally routable unicast, including any IPv4 address embedded in it."""
    if isinstance(ip, ipaddress.IPv6Address) and (
        ip.scope_id or not all(is_public_address(v4) for v4 in _embedded_v4(ip))
    ):
        return False
    return ip.is_global and not ip.is_multicast and not any(ip in net for net in _BLOCKED)


def _embedded_v4(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    if ip.ipv4_mapped is not None:
        return (ip.ipv4_mapped,)
    if ip.sixtofour is not None:
        return (ip.sixtofour,)
    if ip.teredo is not None:
        return ip.teredo  # (server, client); a relay would forward to either
    if ip in _NAT64:
        return (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)
    return ()


def fetch_url(url: str, policy: FetchPolicy = FetchPolicy()) -> Fetched:
    """Fetch ``url``, following redirects, within ``policy``.

    Raises:
        UnsafeURLError: the URL, a redirect target or a resolved address was refused.
        FetchError: with FETCH_FAILED, FETCH_TOO_LARGE or FETCH_TIMEOUT.
    """
    deadline = time.monotonic() + policy.timeout_s
    current = url
    for _hop in range(max(policy.max_redirects, 0) + 1):
        target = _vet(current, policy)
        got = _send(target, "GET", None, {}, policy, deadline)
        if 200 <= got.status < 300:
            return Fetched(url, current, got.media_type, got.charset, got.body)
        if got.location is None:
            raise FetchError(
                ErrorCode.FETCH_FAILED,
                f"{target.key} answered HTTP {got.status}",
                hint="check the URL; the server refused it or does not have it",
            )
        current = urljoin(current, got.location)
    raise FetchError(
        ErrorCode.FETCH_FAILED,
        f"more than {policy.max_redirects} redirects, last from {target.key}",
        hint="fetch the final URL directly, or allow more redirects",
    )


def request_json(
    method: str,
    url: str,
    body: bytes | None,
    headers: Mapping[str, str],
    policy: FetchPolicy,
) -> tuple[int, bytes]:
    """Send one request to a JSON API within ``policy``; redirects are never followed.

    ``body`` goes out as ``application/json``. ``policy.max_redirects`` is ignored: a 3xx comes
    back as its status, for the caller to refuse.

    Returns:
        The status and, for a 2xx answer only, the body (``b""`` otherwise: error bodies may
        echo what was sent, so they are not read).

    Raises:
        UnsafeURLError: the URL or a resolved address was refused.
        FetchError: with FETCH_FAILED, FETCH_TOO_LARGE or FETCH_TIMEOUT.
    """
    target = _vet(url, policy)
    sent = {"Accept": "application/json", **headers}
    if body is not None:
        sent["Content-Type"] = "application/json"
    got = _send(target, method, body, sent, policy, time.monotonic() + policy.timeout_s)
    return got.status, got.body


class ApiAnswer(NamedTuple):
    """A JSON API's answer: the status, the body of a 2xx, and a ``Retry-After`` header."""

    status: int
    body: bytes
    retry_after: str | None


def request_api(
    url: str, body: bytes, headers: Mapping[str, str], policy: FetchPolicy
) -> ApiAnswer:
    """``request_json`` for a POST that also reports ``Retry-After`` (for a 429 or a 503)."""
    target = _vet(url, policy)
    sent = {"Accept": "application/json", **headers, "Content-Type": "application/json"}
    got = _send(target, "POST", body, sent, policy, time.monotonic() + policy.timeout_s)
    return ApiAnswer(got.status, got.body, got.retry_after)


def host_key(url: str) -> str:
    """The ``host:port`` (``[v6]:port``) that ``FetchPolicy.allow_hosts`` matches for ``url``.

    Raises:
        UnsafeURLError: the URL is malformed, not http(s), has no host or carries credentials.
    """
    return _split(url).key


@dataclass(frozen=True, slots=True)
class _Target:
    scheme: str
    host: str  # ASCII (IDNA) form, used for DNS, SNI and the Host header
    port: int
    path: str
    key: str  # "host:port", for allow_hosts and messages; never the path or query
    addresses: tuple[tuple[socket.AddressFamily, Any], ...]


@dataclass(frozen=True, slots=True)
class _Answer:
    status: int
    location: str | None  # for a redirect status
    media_type: str
    charset: str | None
    body: bytes  # empty unless 2xx
    retry_after: str | None = None


class _Split(NamedTuple):
    parts: SplitResult
    scheme: str  # lower-cased
    host: str  # as written, lower-cased
    port: int  # the scheme's default when none is written
    key: str  # "host:port"


def _split(url: str) -> _Split:
    """Check a URL's form without any lookup."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeURLError("the URL is malformed", hint="check the host and port") from exc
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise UnsafeURLError(
            f"only http and https URLs can be fetched, not {scheme or 'scheme-less'} URLs",
            hint="give a full http:// or https:// URL",
        )
    host = parts.hostname
    if not host:
        raise UnsafeURLError("the URL has no host", hint="give a URL like https://example.org/")
    if "@" in parts.netloc:
        raise UnsafeURLError(
            f"URLs with credentials are refused (host {host})",
            hint="remove 'user:password@' from the URL",
        )
    port = port or _DEFAULT_PORTS[scheme]
    key = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if "%" in host:
        raise UnsafeURLError(f"IPv6 zone ids are refused ({key})", hint=_LOCAL_HINT)
    return _Split(parts, scheme, host, port, key)


def _vet(url: str, policy: FetchPolicy) -> _Target:
    parts, scheme, host, port, key = _split(url)
    try:
        ascii_host = host if host.isascii() else host.encode("idna").decode("ascii")
        infos = socket.getaddrinfo(ascii_host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise FetchError(
            ErrorCode.FETCH_FAILED,
            f"could not resolve {key}",
            hint="check the host name and the network connection",
        ) from exc
    except ValueError as exc:  # bad IDNA labels, NUL bytes
        raise UnsafeURLError(
            f"the host of {key} is not a valid name", hint="check the URL"
        ) from exc
    addresses = []
    for family, _type, _proto, _name, sockaddr in infos:
        ip = ipaddress.ip_address(str(sockaddr[0]))
        if scheme == "http" and policy.https_for_public and is_public_address(ip):
            # Checked before any connection, so nothing is sent in the clear.
            raise UnsafeURLError(
                f"plain http to the public address of {key} is refused",
                hint="use an https:// URL; plain http is only for local endpoints",
            )
        if key not in policy.allow_hosts and not is_public_address(ip):
            raise UnsafeURLError(f"{key} resolves to a non-public address ({ip})", hint=_LOCAL_HINT)
        addresses.append((family, sockaddr))
    path = quote(parts.path or "/", safe=_PATH_SAFE)
    if parts.query:
        path += "?" + quote(parts.query, safe=_PATH_SAFE)
    return _Target(scheme, ascii_host, port, path, key, tuple(addresses))


def _send(
    target: _Target,
    method: str,
    body: bytes | None,
    headers: Mapping[str, str],
    policy: FetchPolicy,
    deadline: float,
) -> _Answer:
    """One exchange, with transport failures turned into ``FetchError``."""
    try:
        return _exchange(target, method, body, headers, policy, deadline)
    except TimeoutError as exc:
        raise FetchError(
            ErrorCode.FETCH_TIMEOUT,
            f"{target.key} did not answer within {policy.timeout_s:g} s",
            hint="try again later, or raise the timeout",
        ) from exc
    except ssl.SSLError as exc:
        raise FetchError(
            ErrorCode.FETCH_FAILED,
            f"the TLS connection to {target.key} failed ({type(exc).__name__})",
            hint="the server needs a certificate valid for this host name",
        ) from exc
    except (OSError, http.client.HTTPException) as exc:
        # The class name only: some http.client errors quote what the server sent.
        raise FetchError(
            ErrorCode.FETCH_FAILED,
            f"the request to {target.key} failed ({type(exc).__name__})",
            hint="check that the server is reachable and speaks the URL's scheme",
        ) from exc


def _exchange(
    target: _Target,
    method: str,
    body: bytes | None,
    headers: Mapping[str, str],
    policy: FetchPolicy,
    deadline: float,
) -> _Answer:
    conn = http.client.HTTPConnection(target.host, target.port)
    conn.sock = _connect(target, deadline, policy.connect_timeout_s)
    try:
        default = target.port == _DEFAULT_PORTS[target.scheme]
        bracketed = f"[{target.host}]" if ":" in target.host else target.host
        conn.request(
            method,
            target.path,
            body=body,
            headers={
                "User-Agent": "groundkit/0.1",
                **headers,
                "Host": bracketed if default else f"{bracketed}:{target.port}",
                "Accept-Encoding": "identity",
                "Connection": "close",
            },
        )
        # With "Connection: close" the response owns the socket, so it must be closed too.
        with conn.getresponse() as resp:
            if resp.status in _REDIRECTS:
                return _Answer(resp.status, resp.getheader("Location"), "", None, b"")
            if not 200 <= resp.status < 300:
                return _Answer(resp.status, None, "", None, b"", resp.getheader("Retry-After"))
            data = _read_body(resp, target, policy)
            content_type = resp.getheader("Content-Type") or ""
            media_type = content_type.split(";", 1)[0].strip().lower()
            return _Answer(resp.status, None, media_type, resp.headers.get_content_charset(), data)
    finally:
        conn.close()


def _read_body(resp: http.client.HTTPResponse, target: _Target, policy: FetchPolicy) -> bytes:
    too_large = FetchError(
        ErrorCode.FETCH_TOO_LARGE,
        f"the body from {target.key} is larger than {policy.max_bytes} bytes",
        hint="raise the fetch size limit, or download the file and ingest it from disk",
    )
    length = resp.length  # the declared Content-Length; None when chunked or absent
    if length is not None and length > policy.max_bytes:
        raise too_large
    chunks: list[bytes] = []
    total = 0
    while chunk := resp.read1(min(_CHUNK, policy.max_bytes - total + 1)):
        total += len(chunk)
        if total > policy.max_bytes:
            raise too_large
        chunks.append(chunk)
    if length is not None and total < length:
        raise FetchError(
            ErrorCode.FETCH_FAILED,
            f"{target.key} closed the connection before the whole body arrived",
            hint="try again later",
        )
    return b"".join(chunks)


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("fetch deadline passed")
    return left


class _DeadlineSocket(socket.socket):
    """A socket whose every send and receive waits only as long as the whole request has left."""

    deadline = 0.0

    def recv_into(self, buffer: WriteableBuffer, nbytes: int = 0, flags: int = 0) -> int:
        # A per-call timeout alone would let a server that drips one byte at a time run forever.
        self.settimeout(_remaining(self.deadline))
        return super().recv_into(buffer, nbytes, flags)

    def sendall(self, data: ReadableBuffer, flags: int = 0) -> None:
        self.settimeout(_remaining(self.deadline))
        super().sendall(data, flags)


class _DeadlineSSLSocket(ssl.SSLSocket):
    """The TLS counterpart of ``_DeadlineSocket``."""

    deadline = 0.0

    def recv_into(self, buffer: WriteableBuffer, nbytes: int | None = None, flags: int = 0) -> int:
        self.settimeout(_remaining(self.deadline))
        return super().recv_into(buffer, nbytes, flags)

    def sendall(self, data: ReadableBuffer, flags: int = 0) -> None:
        self.settimeout(_remaining(self.deadline))
        super().sendall(data, flags)


def _connect(
    target: _Target, deadline: float, connect_timeout_s: float | None = None
) -> socket.socket:
    """Open a socket to the first vetted address that answers; never resolve the name again."""
    error: OSError = ConnectionError(f"no address for {target.key}")
    for family, sockaddr in target.addresses:
        sock = _DeadlineSocket(family, socket.SOCK_STREAM)
        sock.deadline = deadline
        try:
            left = _remaining(deadline)
            sock.settimeout(min(left, connect_timeout_s) if connect_timeout_s else left)
            sock.connect(sockaddr)
        # After a timeout the deadline is spent, so later addresses time out too and the error
        # raised below stays a TimeoutError.
        except OSError as exc:
            sock.close()
            error = exc
            continue
        if target.scheme == "http":
            return sock
        context = ssl.create_default_context()
        context.sslsocket_class = _DeadlineSSLSocket
        try:
            tls = context.wrap_socket(sock, server_hostname=target.host)
        finally:
            sock.close()  # wrap_socket detaches the descriptor on success; this frees it on failure
        cast(_DeadlineSSLSocket, tls).deadline = deadline
        return tls
    raise error

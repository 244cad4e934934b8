"""What the HTTP providers share: endpoint rules, the request, and turning statuses into errors.

Network rules, checked when a provider is built: an endpoint configured as local must be on
loopback (so nothing marked local can skip redaction and leave the machine), and any other
endpoint must be https. The SSRF guard then exempts only a local endpoint from its address check.
Redirects are never followed; 429 and 5xx are typed errors; nothing is retried.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Mapping
from typing import Any, NoReturn
from urllib.parse import urlsplit

from groundkit.answer.chat import GuardedTransport, Headers, HttpReply, Transport
from groundkit.config import ProfileConfig
from groundkit.errors import AIError, ConfigError, ErrorCode, FetchError
from groundkit.net import FetchPolicy, host_key
from groundkit.secret import Secret, bearer

__all__ = ["Endpoint", "HttpChat", "default_transport", "dumps_body", "send"]

_MAX_REPLY_BYTES = 4_000_000


class Endpoint:
    """A checked provider URL and the ``host:port`` safe to show in messages."""

    def __init__(self, base_url: str, *, local: bool, profile: str) -> None:
        base = base_url.rstrip("/")
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or parts.query or parts.fragment:
            raise _config(profile, "base_url must be an http(s) URL without a query or fragment")
        try:
            self.key = host_key(base)
        except FetchError:
            raise _config(profile, "base_url is malformed or carries credentials") from None
        loopback = _is_loopback(parts.hostname or "")
        if local and not loopback:
            raise _config(
                profile,
                "local = true needs a loopback endpoint (127.0.0.1, ::1 or localhost)",
            )
        if not loopback and parts.scheme != "https":
            raise _config(profile, "an endpoint off this machine must use https")
        self.base = base
        self.local = local

    def url(self, route: str) -> str:
        return self.base + route


class HttpChat:
    """What the HTTP providers share: a checked endpoint, a model, an optional key, one POST.

    Each provider builds its own body and reads its own reply (and its finish reason: each is
    ``FinishReporting``); the key is revealed only as the ``Authorization`` header is written.
    """

    provider: str

    def __init__(
        self,
        *,
        endpoint: Endpoint,
        model: str,
        transport: Transport,
        key: Secret | None,
        max_tokens: int,
    ) -> None:
        self._endpoint = endpoint
        self._model = model
        self._transport = transport
        self._key = key
        self._max_tokens = max_tokens
        self.last_finish_reason: str | None = None  # FinishReporting: set by each reply

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(provider={self.provider!r}, model={self._model!r},"
            f" endpoint={self._endpoint.key!r})"
        )

    @property
    def model_name(self) -> str:
        return self._model

    @property
    def local(self) -> bool:
        return self._endpoint.local

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    def credentials(self) -> tuple[Secret, ...]:
        """The key sent as the bearer token, to scrub from replies that echo it."""
        return (self._key,) if self._key else ()

    def _post(self, route: str, body: bytes, *, who: str) -> Any:
        headers = {"Authorization": bearer(self._key)} if self._key else {}
        return send(self._transport, self._endpoint.url(route), headers, body, who=who)


def default_transport(config: ProfileConfig, endpoint: Endpoint) -> Transport:
    """The guarded transport: only a local endpoint is exempt from the address check."""
    return GuardedTransport(
        FetchPolicy(
            max_bytes=_MAX_REPLY_BYTES,
            timeout_s=config.timeout_s,
            connect_timeout_s=config.connect_timeout_s,
            max_redirects=0,
            allow_hosts=frozenset({endpoint.key}) if endpoint.local else frozenset(),
            https_for_public=True,
        )
    )


def dumps_body(body: Mapping[str, Any]) -> bytes:
    """Serialise once, in the order the dict was built, ASCII only: the bytes tests pin down."""
    return json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def send(transport: Transport, url: str, headers: Headers, body: bytes, *, who: str) -> Any:
    """POST and return the parsed JSON of a 2xx answer; every other outcome is an ``AIError``."""
    reply = transport.post_json(url, headers, body)
    if not 200 <= reply.status < 300:
        _status_error(reply, who)
    try:
        return json.loads(reply.body)
    except (ValueError, UnicodeDecodeError, RecursionError):  # deep nesting overflows the parser
        raise AIError(
            ErrorCode.AI_PROVIDER_FAILED, f"{who} answered with a body that is not JSON"
        ) from None


def _status_error(reply: HttpReply, who: str) -> NoReturn:
    status = reply.status
    if status == 429:
        wait = _seconds(reply.retry_after)
        after = f"; it asks to wait {wait:g} s" if wait is not None else ""
        raise AIError(
            ErrorCode.AI_RATE_LIMITED,
            f"{who} is rate limiting requests (HTTP 429{after})",
            hint="try again later; groundkit does not retry",
            retry_after=wait,
        )
    if 300 <= status < 400:
        hint = "redirects are not followed: set base_url to the final endpoint"
    elif status in (401, 403):
        hint = "check the key: `grk auth status PROFILE`"
    elif status >= 500:
        hint = "the provider failed; try again later (groundkit does not retry)"
    else:
        hint = "check the profile's base_url and model"
    raise AIError(
        ErrorCode.AI_PROVIDER_FAILED,
        f"{who} answered HTTP {status}",
        hint=hint,
        retry_after=_seconds(reply.retry_after),
    )


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None  # an HTTP date: not worth parsing to say "later"


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _config(profile: str, message: str) -> ConfigError:
    return ConfigError(ErrorCode.CONFIG_INVALID, f"profile {profile!r}: {message}")

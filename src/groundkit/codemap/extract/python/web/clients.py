"""HTTP client calls: ``requests``, ``httpx`` and ``aiohttp`` functions and client objects
(with their ``base_url``), ``TestClient``; the URL as literal text and unknown fields."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.extract.python.values import ExtInst
from groundkit.codemap.extract.python.web.arguments import arg
from groundkit.codemap.extract.python.web.frameworks import METHODS, role_of
from groundkit.codemap.extract.python.web.state import WebState
from groundkit.codemap.model import Location, NodeKey, Provenance
from groundkit.codemap.routes import HttpCallSite

__all__ = ["Clients"]

_CLIENT_MODULES = frozenset({"requests", "httpx", "aiohttp"})


class Clients(WebState):
    """Calls on HTTP clients and client modules."""

    def _client_call(
        self,
        receiver: ExtInst,
        attr: str,
        call: list[Any],
        scope: tuple[str, tuple[Any, ...]],
        caller: NodeKey,
        where: Location,
    ) -> None:
        base: list[str | None] = []
        if receiver.site is not None:
            site_args = self.ev.body(receiver.site[0])["calls"][receiver.site[1]][8]
            if site_args is not None and "base_url" in site_args[1]:
                found = self._pieces(site_args[1]["base_url"], scope)
                base = list(found) if found is not None else [None]
            elif role_of(receiver.name) in {("starlette", "TestClient"), ("fastapi", "TestClient")}:
                base = ["http://testserver"]
        self._http(attr, call, scope, caller, where, base)

    def _module_function(
        self,
        name: str,
        call: list[Any],
        scope: tuple[str, tuple[Any, ...]],
        caller: NodeKey,
        where: Location,
    ) -> None:
        parts = name.split(".")
        if len(parts) == 2 and parts[0] in _CLIENT_MODULES:
            self._http(parts[1], call, scope, caller, where, [])

    def _http(
        self,
        attr: str,
        call: list[Any],
        scope: tuple[str, tuple[Any, ...]],
        caller: NodeKey,
        where: Location,
        base: list[str | None],
    ) -> None:
        positional, keywords, _ = call[8]
        if attr in METHODS:
            method, url_arg = attr.upper(), arg(positional, keywords, 0, "url")
        elif attr in ("request", "stream"):
            method = (self._literal(arg(positional, keywords, 0, "method"), scope) or "").upper()
            url_arg = arg(positional, keywords, 1, "url")
        else:
            return
        if not method or url_arg is None:
            return
        pieces = self._pieces(url_arg, scope)
        if pieces is None or not any(pieces):
            return
        literal = url_arg[0] == "s" or (len(pieces) == 1 and pieces[0] is not None)
        url = tuple(pieces)
        if base and not _absolute(url):
            url = (*base, *url)
        provenance = Provenance.HTTP_LITERAL if literal and not base else Provenance.HTTP_TEMPLATE
        text = self.owner.text(where.line)
        self.http.append(HttpCallSite(caller, method, url, provenance, where, text))


def _absolute(url: tuple[str | None, ...]) -> bool:
    return bool(url) and isinstance(url[0], str) and url[0].startswith(("http://", "https://"))

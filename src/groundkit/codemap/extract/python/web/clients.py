"""HTTP client calls: ``requests``, ``httpx`` and ``aiohttp`` functions and client objects
(with their ``base_url``), ``TestClient``; the URL as literal text and unknown fields."""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.web.arguments import WebContext
from groundkit.codemap.extract.python.web.frameworks import METHODS, role_of
from groundkit.codemap.model import Location, NodeKey, Provenance
from groundkit.codemap.routes import HttpCallSite

__all__ = ["client_call", "module_call"]

_CLIENT_MODULES = frozenset({"requests", "httpx", "aiohttp"})


_TEST_CLIENTS = frozenset({("starlette", "TestClient"), ("fastapi", "TestClient")})


def client_call(
    ctx: WebContext, receiver: int, attr: str, site: facts.Site, caller: NodeKey, where: Location
) -> None:
    """``client.get(url)`` on a client object: its ``base_url`` comes first."""
    base: list[str | None] = []
    made = ctx.flow.values.made_at(receiver)
    if made is not None:
        file, index = made
        maker = ctx.program.files[file].facts.sites[index]
        given = next((v for name, v in maker.keywords if name == "base_url"), None)
        if given is not None:
            there = WebContext(ctx.flow, ctx.program.files[file], None)
            found = there.pieces(given)
            base = list(found) if found is not None else [None]
        elif role_of(ctx.flow.values.name(receiver)) in _TEST_CLIENTS:
            base = ["http://testserver"]
    _http(ctx, attr, site, caller, where, base)


def module_call(
    ctx: WebContext, name: str, site: facts.Site, caller: NodeKey, where: Location
) -> None:
    """``requests.get(url)``, ``httpx.post(url)``."""
    parts = name.split(".")
    if len(parts) == 2 and parts[0] in _CLIENT_MODULES:
        _http(ctx, parts[1], site, caller, where, [])


def _http(
    ctx: WebContext,
    attr: str,
    site: facts.Site,
    caller: NodeKey,
    where: Location,
    base: list[str | None],
) -> None:
    if attr in METHODS:
        method, url_var = attr.upper(), ctx.arg(site, 0, "url")
    elif attr in ("request", "stream"):
        method = (ctx.literal(ctx.arg(site, 0, "method")) or "").upper()
        url_var = ctx.arg(site, 1, "url")
    else:
        return
    if not method or url_var is None:
        return
    pieces = ctx.pieces(url_var)
    if pieces is None or not any(pieces):
        return
    literal = len(pieces) == 1 and pieces[0] is not None
    url = tuple(pieces)
    if base and not _absolute(url):
        url = (*base, *url)
    provenance = Provenance.HTTP_LITERAL if literal and not base else Provenance.HTTP_TEMPLATE
    text = ctx.resolver.text(where.line)
    ctx.http.append(HttpCallSite(caller, method, url, provenance, where, text))


def _absolute(url: tuple[str | None, ...]) -> bool:
    return bool(url) and isinstance(url[0], str) and url[0].startswith(("http://", "https://"))

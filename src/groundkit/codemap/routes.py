"""HTTP routes and client calls, in any language: prefixes composed, calls matched to routes.

Extractors report what they saw in one file: routers and apps (``RouterDef``), one router mounted
on another with a prefix (``Mount``), route declarations on a router (``RouteDecl``) and client
calls with a URL (``HttpCallSite``). ``compose`` turns them into route nodes with ``handles``
edges; ``match`` sends each client call to the in-repository route it reaches (whatever language
serves it) or to an ``external`` host node.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from groundkit.codemap.data import Data, dump_data, load_data
from groundkit.codemap.model import Location, NodeKey, NodeKind, Provenance

__all__ = [
    "ANY_METHOD",
    "HttpCallSite",
    "Matcher",
    "Mount",
    "Route",
    "RouteDecl",
    "RouterDef",
    "Target",
    "UrlArgument",
    "Web",
    "compose",
    "dump_web",
    "join_paths",
    "load_web",
    "match",
    "normalise",
    "route_segments",
]

ANY_METHOD = "ANY"  # a route that answers every method (a Django view)


@dataclass(frozen=True, slots=True)
class RouterDef:
    """An app or a router object. ``router`` is unique in the map: the language, a colon and the
    qualified name of the variable holding it (``py:shop.api.items.router``); ``prefix`` is its
    own (``APIRouter(prefix=...)``, ``Blueprint(url_prefix=...)``). An app is a root: its routes
    are served at their composed path. A router never mounted on a root still yields its routes,
    under its own prefix, since the mount may simply be out of the analyser's sight."""

    router: str
    prefix: str
    is_app: bool
    location: Location


@dataclass(frozen=True, slots=True)
class Mount:
    """``parent`` serves ``child`` under ``prefix``. With ``replaces_prefix`` the child's own
    prefix is dropped (Flask: ``register_blueprint(bp, url_prefix=...)`` overrides the
    blueprint's); otherwise both apply (FastAPI: ``include_router(r, prefix=...)``)."""

    parent: str
    child: str
    prefix: str
    replaces_prefix: bool
    location: Location


@dataclass(frozen=True, slots=True)
class RouteDecl:
    """A route declared on ``router``: ``path`` as written in the source (any parameter syntax),
    served by ``handler``. ``methods`` upper-case; ``(ANY_METHOD,)`` for every method."""

    router: str
    methods: tuple[str, ...]
    path: str
    handler: NodeKey
    provenance: Provenance
    location: Location
    quote: str


@dataclass(frozen=True, slots=True)
class HttpCallSite:
    """A client call: ``url`` is the URL in pieces, each a literal string or None for an
    expression whose value is unknown (an f-string field, a variable that was concatenated).
    In a wrapper (``get: (url) => superagent.get(API_ROOT + url)``), ``param`` is the position
    of the caller's parameter that piece ``hole`` of the URL is, for the wrapper's call sites
    (``UrlArgument``) to fill in; -1 for none. ``partial``: the URL is one of the values it may
    have (a base URL's literal fallback, ``process.env.X || "http://host/api"``), so the route it
    matches is one of the call's possible targets. ``verb``: the position of the caller's
    parameter that is the client's method itself (``safe(funcCall, url) { funcCall(url) }``),
    its callers saying which (``UrlArgument.verbs``); ``method`` is then ""."""

    caller: NodeKey
    method: str
    url: tuple[str | None, ...]
    provenance: Provenance
    location: Location
    quote: str
    param: int = -1
    hole: int = -1
    partial: bool = False
    verb: int = -1


@dataclass(frozen=True, slots=True)
class UrlArgument:
    """A call of a repository function with a path for argument ``position``:
    ``requests.get('/tags')``. When the callee is a client wrapper, it is a client call. A URL
    one piece of which (``hole``) is the caller's parameter ``param`` makes the caller a wrapper
    too (``put(url, data) { return safe(axios.put, url, data) }``); ``verbs``: the arguments
    that are a client's method handed on as a value, (position, method). ``partial``: the URL
    is one of those the call may use (``this.itemRoute(id)``: each subclass's)."""

    caller: NodeKey
    callee: NodeKey
    position: int
    url: tuple[str | None, ...]
    location: Location
    quote: str
    param: int = -1
    hole: int = -1
    verbs: tuple[tuple[int, str], ...] = ()
    partial: bool = False


# -- composing: route nodes with `handles` edges ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Route:
    """A route as served: its node, and the declaration it came from."""

    key: NodeKey
    method: str
    path: str
    decl: RouteDecl
    # the routers it is served through, from the root down to the one declaring it
    routers: tuple[str, ...] = ()


def join_paths(*parts: str) -> str:
    """``join_paths("/api", "items/", "/{id}")`` -> ``/api/items/{id}``; a trailing slash is kept
    from the last part that has any text."""
    kept = [p for p in parts if p.strip("/")]
    body = "/".join(p.strip("/") for p in kept)
    last = next((p for p in reversed(parts) if p), "")
    return "/" + body + ("/" if body and last.endswith("/") else "")


def compose(
    routers: Sequence[RouterDef],
    mounts: Sequence[Mount],
    decls: Sequence[RouteDecl],
    roots: Iterable[str] | None = None,
) -> list[Route]:
    """Every route at its served path: from each root (an app, or a router nobody mounts), down
    the mounts, prefixes joined. A router mounted twice serves its routes twice. ``roots``:
    start from these routers only (one app's routes)."""
    by_id = {r.router: r for r in sorted(routers, key=lambda r: r.router)}
    children: dict[str, list[Mount]] = {}
    mounted: set[str] = set()
    for mount in sorted(mounts, key=lambda m: (m.parent, m.prefix, m.child)):
        children.setdefault(mount.parent, []).append(mount)
        mounted.add(mount.child)
    declared: dict[str, list[RouteDecl]] = {}
    for decl in decls:
        declared.setdefault(decl.router, []).append(decl)
    ids = set(by_id) | set(declared) | set(children)
    if roots is None:
        roots = (i for i in ids if i not in mounted or (i in by_id and by_id[i].is_app))
    roots = sorted(roots)
    out: dict[tuple[NodeKey, NodeKey], Route] = {}  # one per route and handler

    def walk(router: str, prefix: str, own: bool, chain: tuple[str, ...]) -> None:
        if router in chain:
            return  # a router mounted inside itself: Python would recurse forever too
        chain = (*chain, router)
        definition = by_id.get(router)
        here = join_paths(prefix, definition.prefix) if definition and own else prefix
        for decl in declared.get(router, ()):
            path = join_paths(here, decl.path)
            for method in decl.methods:
                key = NodeKey(NodeKind.ROUTE, f"{method} {path}", decl.location.path)
                out.setdefault((key, decl.handler), Route(key, method, path, decl, chain))
        for mount in children.get(router, ()):
            walk(mount.child, join_paths(here, mount.prefix), not mount.replaces_prefix, chain)

    for root in roots:
        walk(root, "", True, ())
    return [out[k] for k in sorted(out)]


# -- matching: a client call's URL to the route it reaches -----------------------------------------

_PARAM = re.compile(r"^(\{[^}]*\}|<[^>]*>|:\w+|\$\{[^}]*\}|\*\w*)$")
_UNKNOWN = "\x00"


def route_segments(path: str) -> list[str | None]:
    """A served path as segments, None for a parameter in any syntax."""
    return [None if _PARAM.match(s) else s for s in path.split("?", maxsplit=1)[0].split("/") if s]


def normalise(path: str) -> str:
    """The path with every parameter as ``{}``: how two syntaxes of one route compare."""
    return "/" + "/".join("{}" if s is None else s for s in route_segments(path))


@dataclass(frozen=True, slots=True)
class Target:
    """Where a client call lands: a route of the repository, or a host outside it. With both,
    the host is named and its path is one of the repository's routes: the host may be this
    backend deployed (``API_ROOT = 'https://api.example.com/api'``), which the route's edge,
    partial, says."""

    route: Route | None = None
    host: str | None = None


class Matcher:
    """Routes indexed by their number of segments and their last literal segment, so that
    matching thousands of client calls does not compare each with every route."""

    def __init__(self, routes: Sequence[Route]) -> None:
        # length -> last literal segment (None: a parameter) -> pattern -> routes serving it
        self._by_length: dict[int, dict[str | None, dict[tuple[str | None, ...], list[Route]]]] = {}
        for route in routes:
            segments = tuple(route_segments(route.path))
            last = segments[-1] if segments else None
            bucket = self._by_length.setdefault(len(segments), {})
            bucket.setdefault(last, {}).setdefault(segments, []).append(route)
        self._lengths = sorted(self._by_length)

    def candidates(
        self, client: list[str], prefix_allowed: bool
    ) -> list[dict[tuple[str | None, ...], list[Route]]]:
        """Groups of patterns (each with the routes serving it) that ``client`` may reach."""
        out: list[dict[tuple[str | None, ...], list[Route]]] = []
        for length in self._lengths:
            if length > len(client) or (length < len(client) and not prefix_allowed):
                continue
            bucket = self._by_length[length]
            last = client[-1] if client and length else None
            if last is None or _UNKNOWN in last:
                out.extend(bucket.values())
            else:
                out.extend(group for key in (last, None) if (group := bucket.get(key)))
        return out


def match(call: HttpCallSite, routes: Sequence[Route] | Matcher) -> Target | None:
    """The route ``call`` reaches, or the outside host it names, or None (no route matches, or
    several do equally well: never a guess)."""
    text = "".join(_UNKNOWN if p is None else p for p in call.url)
    host, path, open_prefix = _split_url(text)
    segments = [s for s in path.split("/") if s]
    matcher = routes if isinstance(routes, Matcher) else Matcher(routes)
    if host is not None and _UNKNOWN not in host and _public(host):
        name = host.split("@")[-1].split(":")[0].lower()
        here = _best(call, segments, matcher, False) if segments else None
        return Target(route=here, host=name)
    found = _best(call, segments, matcher, open_prefix or host is not None)
    return Target(route=found) if found is not None else None


def _best(
    call: HttpCallSite, segments: list[str], matcher: Matcher, prefix_allowed: bool
) -> Route | None:
    best: list[tuple[int, int, Route]] = []
    for group in matcher.candidates(segments, prefix_allowed):
        for pattern, served_by in group.items():
            score = _score(segments, list(pattern), prefix_allowed)
            if score is None:
                continue
            for route in served_by:
                if call.method in (route.method, ANY_METHOD) or route.method == ANY_METHOD:
                    best.append((*score, route))
    if not best:
        return None
    best.sort(key=lambda s: (-s[0], -s[1]))
    top = [b for b in best if b[:2] == best[0][:2]]
    served = {b[2].key for b in top}
    return top[0][2] if len(served) == 1 else None


def _split_url(text: str) -> tuple[str | None, str, bool]:
    """(host, path, whether an unknown base may hide a path prefix)."""
    text = text.split("#", maxsplit=1)[0].split("?", maxsplit=1)[0]
    for scheme in ("http://", "https://", "ws://", "wss://"):
        if text.lower().startswith(scheme):
            rest = text[len(scheme) :]
            host, _, path = rest.partition("/")
            return host, "/" + path, True
    if text.startswith(_UNKNOWN):
        # f"{BASE}/items": the base is a host, perhaps with a path of its own.
        return None, text.lstrip(_UNKNOWN), True
    return None, text, False


def _public(host: str) -> bool:
    """A host that is not this machine, a service name or a test server: ``api.github.com``."""
    name = host.rsplit("@", maxsplit=1)[-1].split(":", maxsplit=1)[0].lower()
    if name in ("localhost", "testserver", "0.0.0.0") or name.startswith("127."):  # noqa: S104
        return False
    return "." in name


def _score(
    client: list[str], route: list[str | None], prefix_allowed: bool
) -> tuple[int, int] | None:
    """(whole match, literal segments that agreed), or None when ``client`` cannot reach it."""
    if len(client) < len(route) or (len(client) > len(route) and not prefix_allowed):
        return None
    tail = client[len(client) - len(route) :] if route else []
    if not route and client:
        return None
    literal = 0
    for have, want in zip(tail, route, strict=True):
        if want is None:
            continue
        if _UNKNOWN in have:
            pattern = re.escape(have).replace(re.escape(_UNKNOWN), ".*")
            if not re.fullmatch(pattern, want):
                return None
            continue
        if have != want:
            return None
        literal += 1
    return (1 if len(client) == len(route) else 0), literal


# -- storage: what one file reported, as JSON ------------------------------------------------------


def _loc(location: Location) -> list[Any]:
    return [location.path, location.line, location.col, location.end_line, location.end_col]


def _key(key: NodeKey) -> list[str]:
    return [str(key.kind), key.qualname, key.path]


def dump_web(
    routers: Sequence[RouterDef],
    mounts: Sequence[Mount],
    decls: Sequence[RouteDecl],
    calls: Sequence[HttpCallSite],
    arguments: Sequence[UrlArgument] = (),
    data: Data | None = None,
) -> str:
    """One file's web facts as JSON ('' when it has none)."""
    if not (routers or mounts or decls or calls or arguments or data):
        return ""
    return json.dumps(
        {
            **({"data": dump_data(data)} if data else {}),
            "arguments": [
                [
                    _key(a.caller),
                    _key(a.callee),
                    a.position,
                    list(a.url),
                    _loc(a.location),
                    a.quote,
                    a.param,
                    a.hole,
                    [list(v) for v in a.verbs],
                    a.partial,
                ]
                for a in arguments
            ],
            "routers": [[r.router, r.prefix, r.is_app, _loc(r.location)] for r in routers],
            "mounts": [
                [m.parent, m.child, m.prefix, m.replaces_prefix, _loc(m.location)] for m in mounts
            ],
            "routes": [
                [
                    d.router,
                    list(d.methods),
                    d.path,
                    _key(d.handler),
                    str(d.provenance),
                    _loc(d.location),
                    d.quote,
                ]
                for d in decls
            ],
            "http": [
                [
                    _key(c.caller),
                    c.method,
                    list(c.url),
                    str(c.provenance),
                    _loc(c.location),
                    c.quote,
                    c.param,
                    c.hole,
                    c.partial,
                    c.verb,
                ]
                for c in calls
            ],
        },
        separators=(",", ":"),
    )


@dataclass(slots=True)
class Web:
    routers: list[RouterDef]
    mounts: list[Mount]
    routes: list[RouteDecl]
    calls: list[HttpCallSite]
    arguments: list[UrlArgument]
    data: Data


def load_web(texts: Iterable[str]) -> Web:
    """Every file's web facts together."""
    web = Web([], [], [], [], [], Data())
    for text in texts:
        data = json.loads(text)
        for r in data["routers"]:
            web.routers.append(RouterDef(r[0], r[1], r[2], Location(*r[3])))
        for m in data["mounts"]:
            web.mounts.append(Mount(m[0], m[1], m[2], m[3], Location(*m[4])))
        for d in data["routes"]:
            handler = NodeKey(NodeKind(d[3][0]), d[3][1], d[3][2])
            web.routes.append(
                RouteDecl(d[0], tuple(d[1]), d[2], handler, Provenance(d[4]), Location(*d[5]), d[6])
            )
        for c in data["http"]:
            caller = NodeKey(NodeKind(c[0][0]), c[0][1], c[0][2])
            where = Location(*c[4])
            web.calls.append(
                HttpCallSite(caller, c[1], tuple(c[2]), Provenance(c[3]), where, c[5], *c[6:10])
            )
        if "data" in data:
            load_data(data["data"], web.data)
        for a in data.get("arguments", ()):
            caller = NodeKey(NodeKind(a[0][0]), a[0][1], a[0][2])
            callee = NodeKey(NodeKind(a[1][0]), a[1][1], a[1][2])
            param, hole, verbs, partial = a[6:10] if len(a) > 9 else (-1, -1, [], False)
            made = UrlArgument(caller, callee, a[2], tuple(a[3]), Location(*a[4]), a[5])
            pairs = tuple((v[0], v[1]) for v in verbs)
            made = replace(made, param=param, hole=hole, verbs=pairs, partial=partial)
            web.arguments.append(made)
    return web

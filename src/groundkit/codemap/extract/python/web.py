"""Routes and HTTP client calls in Python: FastAPI/Starlette, Flask, Django; requests, httpx,
aiohttp. What is found here is language-neutral (``codemap.routes``); prefixes are composed and
calls matched over the whole map afterwards.

A framework object is recognised by the class it is an instance of, by the package it comes from
and its name (``fastapi``'s ``APIRouter``), whether that package is outside the repository or is
the repository itself. A route whose path is not a literal (or a constant) is not a route.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.python.evaluate import Evaluator
from groundkit.codemap.extract.python.values import (
    Bound,
    Def,
    Ext,
    ExtInst,
    Inst,
    Mod,
    Str,
    Tmpl,
    Value,
    node_key,
)
from groundkit.codemap.model import Location, NodeKey, NodeKind, Provenance
from groundkit.codemap.routes import ANY_METHOD, HttpCallSite, Mount, RouteDecl, RouterDef

if TYPE_CHECKING:
    from groundkit.codemap.extract.python.graph import _FileResolver

__all__ = ["WebFacts", "regex_to_path"]

_METHODS = frozenset("get post put patch delete head options trace".split())
# (package, class name) -> (is an app, the keyword naming its own prefix)
_ROUTERS: dict[tuple[str, str], tuple[bool, str | None]] = {
    ("fastapi", "FastAPI"): (True, None),
    ("fastapi", "APIRouter"): (False, "prefix"),
    ("starlette", "Starlette"): (True, None),
    ("starlette", "Router"): (False, None),
    ("flask", "Flask"): (True, None),
    ("flask", "Blueprint"): (False, "url_prefix"),
}
_ROUTER_NAMES = frozenset(name for _, name in _ROUTERS)
_CLIENTS = frozenset(
    {
        ("requests", "Session"),
        ("requests", "session"),
        ("httpx", "Client"),
        ("httpx", "AsyncClient"),
        ("aiohttp", "ClientSession"),
        ("starlette", "TestClient"),
        ("fastapi", "TestClient"),
    }
)
_CLIENT_MODULES = frozenset({"requests", "httpx", "aiohttp"})
_URLCONF = frozenset({"path", "re_path", "url"})


def _type_name(value: Value) -> str | None:
    if isinstance(value, ExtInst):
        return value.name
    if isinstance(value, Inst):
        return value.cls.dotted
    return None


def _role(name: str | None) -> tuple[str, str] | None:
    if not name:
        return None
    parts = name.split(".")
    return parts[0], parts[-1]


class WebFacts:
    def __init__(self, evaluator: Evaluator, path: str, owner: _FileResolver) -> None:
        self.ev = evaluator
        self.path = path
        self.owner = owner
        self.module = evaluator.module_name(path)
        self.routers_found: list[RouterDef] = []
        self.mounts: list[Mount] = []
        self.routes: list[RouteDecl] = []
        self.http: list[HttpCallSite] = []
        self.external_handlers: set[str] = set()

    def finish(self, graph: FileGraph) -> None:
        for name in sorted(self.external_handlers):
            self.owner.external(name)
        graph.routers = self.routers_found
        graph.mounts = self.mounts
        graph.routes = self.routes
        graph.http_calls = self.http

    # -- router and app objects -------------------------------------------------------------------
    def routers(self) -> None:
        """Every variable bound to an app or router: module-level ones and function-local ones
        (an app factory), by the stable name of the variable."""
        iface = self.owner.iface
        candidates: list[tuple[tuple[str, tuple[Any, ...]], str, list[Any]]] = [
            ((self.path, ("module",)), name, values) for name, values in iface["names"].items()
        ]
        for index, bindings in self.owner.body["bind"].items():
            for name, values in bindings.items():
                candidates.append(((self.path, ("scope", int(index))), name, values))
        for scope, name, values in candidates:
            if not any(_constructs_router(v) for v in values):
                continue
            value, _ = self.ev.lookup(scope, name)
            role = _role(_type_name(value))
            if role not in _ROUTERS or not isinstance(value, ExtInst | Inst):
                continue
            is_app, prefix_kw = _ROUTERS[role]
            origin = value.origin
            if origin is None:
                continue
            prefix = ""
            site = value.site
            where = self.owner.location(1)
            if site is not None and site[0] == self.path:
                call = self.owner.body["calls"][site[1]]
                where = self.owner.location(call[2], call[3], call[4], call[5])
                if prefix_kw and call[8] is not None:
                    prefix = self._literal(call[8][1].get(prefix_kw), scope) or ""
            self.routers_found.append(RouterDef(origin, prefix, is_app, where))

    # -- calls: route decorators, route registration, mounts, HTTP clients ------------------------
    def call(
        self, index: int, value: Value, call: list[Any], caller: NodeKey, where: Location
    ) -> None:
        args = call[8]
        if args is None:
            return
        scope = (self.path, ("scope", call[0]))
        if isinstance(value, Bound):
            self._bound(value.receiver, value.attr, call, scope, caller, where)
        elif isinstance(value, Def) and value.kind == "method":
            receiver, _ = self.ev.apply(
                self.ev.lookup(scope, call[1][0]), call[1][1:-1], self.path, -1
            )
            if isinstance(receiver, Inst):
                self._bound(receiver, call[1][-1], call, scope, caller, where)
        elif isinstance(value, Ext):
            self._module_function(value.name, call, scope, caller, where)

    def _bound(
        self,
        receiver: ExtInst | Inst,
        attr: str,
        call: list[Any],
        scope: tuple[str, tuple[Any, ...]],
        caller: NodeKey,
        where: Location,
    ) -> None:
        role = _role(_type_name(receiver))
        if role in _CLIENTS and isinstance(receiver, ExtInst):
            self._client_call(receiver, attr, call, scope, caller, where)
            return
        if role not in _ROUTERS or receiver.origin is None:
            return
        positional, keywords, _ = call[8]
        if call[6] == "d" and call[7] >= 0:
            methods = self._methods(attr, keywords, scope)
            path = self._literal(_arg(positional, keywords, 0, "path", "rule"), scope)
            handler = self.owner.scope_keys[call[7]]
            if methods and path is not None and handler is not None:
                self._route(
                    receiver.origin, methods, path, handler, Provenance.ROUTE_DECORATOR, where
                )
            return
        if attr in ("include_router", "register_blueprint", "mount"):
            self._mount(receiver.origin, attr, positional, keywords, scope, where)
        elif attr in ("add_api_route", "add_url_rule", "add_route"):
            path = self._literal(_arg(positional, keywords, 0, "path", "rule"), scope)
            index = 2 if attr == "add_url_rule" else 1
            target = _arg(positional, keywords, index, "endpoint", "view_func")
            handler = self._handler(target, scope)
            methods = self._methods("route", keywords, scope)
            if path is not None and handler is not None and methods:
                self._route(receiver.origin, methods, path, handler, Provenance.ROUTE_CALL, where)

    def _route(
        self,
        router: str,
        methods: tuple[str, ...],
        path: str,
        handler: NodeKey,
        provenance: Provenance,
        where: Location,
    ) -> None:
        text = self.owner.text(where.line)
        self.routes.append(RouteDecl(router, methods, path, handler, provenance, where, text))

    def _mount(
        self,
        parent: str,
        attr: str,
        positional: list[Any],
        keywords: dict[str, Any],
        scope: tuple[str, tuple[Any, ...]],
        where: Location,
    ) -> None:
        if attr == "mount":
            prefix = self._literal(_arg(positional, keywords, 0, "path"), scope)
            child_arg = _arg(positional, keywords, 1, "app")
        else:
            key = "prefix" if attr == "include_router" else "url_prefix"
            prefix = self._literal(keywords.get(key), scope)
            child_arg = _arg(positional, keywords, 0, "router", "blueprint")
        child = self._object(child_arg, scope)
        if child is None or (attr == "mount" and prefix is None):
            return
        replaces = attr == "register_blueprint" and "url_prefix" in keywords
        self.mounts.append(Mount(parent, child, prefix or "", replaces, where))

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
            elif _role(receiver.name) in {("starlette", "TestClient"), ("fastapi", "TestClient")}:
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
        if attr in _METHODS:
            method, url_arg = attr.upper(), _arg(positional, keywords, 0, "url")
        elif attr in ("request", "stream"):
            method = (self._literal(_arg(positional, keywords, 0, "method"), scope) or "").upper()
            url_arg = _arg(positional, keywords, 1, "url")
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

    # -- Django urlconfs --------------------------------------------------------------------------
    def urlconfs(self, lists: dict[str, list[Any]]) -> None:
        """Each module-level list of ``path()``s is a router ``py:<module>:<list>``; a list
        added to another is mounted on it without a prefix; ``include()`` mounts a module's
        ``urlpatterns`` (or an inline list) under the route's prefix."""
        calls = self.owner.body["calls"]
        for name, parts in lists.items():
            sites = [s for kind, value in parts if kind == "sites" for s in value]
            urlish = any(calls[s][1] and calls[s][1][-1] in _URLCONF for s in sites)
            if not urlish and not name.endswith("patterns"):
                continue
            router = f"py:{self.module}:{name}"
            self.routers_found.append(RouterDef(router, "", False, self.owner.location(1)))
            self._patterns(router, sites)
            for kind, value in parts:
                child = None
                if kind in ("ref", "import"):
                    child = self._list_router(value, imported=kind == "import")
                if child is not None:
                    self.mounts.append(Mount(router, child, "", False, self.owner.location(1)))

    def _list_router(self, ref: list[str], *, imported: bool = False) -> str | None:
        """The router of a list named by ``ref``: one of this module's, or one imported."""
        names = self.owner.iface["names"]
        if len(ref) == 1:
            if ref[0] in self.owner.body["lists"] and not imported:
                return f"py:{self.module}:{ref[0]}"
            for value in names.get(ref[0], []):
                base = value[0]
                if base[0] == "from":
                    module = self.ev.absolute(self.path, base[1], base[2])
                    return f"py:{module}:{base[3]}" if module else None
            return None
        owner, _ = self.ev.apply(
            self.ev.lookup((self.path, ("module",)), ref[0]), ref[1:-1], self.path, -1
        )
        return f"py:{owner.name}:{ref[-1]}" if isinstance(owner, Mod) else None

    def _patterns(self, router: str, sites: list[int]) -> None:
        calls = self.owner.body["calls"]
        scope = (self.path, ("module",))
        for site in sites:
            call = calls[site]
            ref, args = call[1], call[8]
            if not ref or ref[-1] not in _URLCONF or args is None:
                continue
            value, _ = self.owner._callee(call[0], ref, self.owner.body["scopes"])
            if isinstance(value, Def | Inst) and not value_module(value).startswith("django"):
                continue
            positional, keywords, _ = args
            route = self._literal(_arg(positional, keywords, 0, "route", "regex"), scope)
            target = _arg(positional, keywords, 1, "view")
            if route is None or target is None:
                continue
            if ref[-1] != "path":
                route = regex_to_path(route)
            where = self.owner.location(call[2], call[3], call[4], call[5])
            if target[0] == "c" and calls[target[1]][1] and calls[target[1]][1][-1] == "include":
                self._include(router, route, calls[target[1]], site, where)
                continue
            handler = self._handler(target, scope)
            if handler is not None:
                self._route(router, (ANY_METHOD,), route, handler, Provenance.ROUTE_URLCONF, where)

    def _include(
        self, router: str, route: str, call: list[Any], site: int, where: Location
    ) -> None:
        args = call[8]
        if args is None or not args[0]:
            return
        first = args[0][0]
        if first[0] == "l" and first[1]:  # include((patterns, app_name)) or an inline list
            inline = [item[1] for item in first[1] if item[0] == "c"]
            if len(inline) == len(first[1]):
                inner = f"py:{self.module}#{site}"
                self.routers_found.append(RouterDef(inner, "", False, where))
                self.mounts.append(Mount(router, inner, route, False, where))
                self._patterns(inner, inline)
                return
            first = first[1][0]
        child: str | None = None
        if first[0] == "s":
            child = f"py:{first[1]}:urlpatterns"
        elif first[0] == "r":
            value, _ = self.ev.apply(
                self.ev.lookup((self.path, ("module",)), first[1][0]), first[1][1:], self.path, -1
            )
            if isinstance(value, Mod):
                child = f"py:{value.name}:urlpatterns"
            elif len(first[1]) == 1:
                child = self._list_router(first[1])
        if child is not None:
            self.mounts.append(Mount(router, child, route, False, where))

    # -- arguments --------------------------------------------------------------------------------
    def _methods(
        self, attr: str, keywords: dict[str, Any], scope: tuple[str, tuple[Any, ...]]
    ) -> tuple[str, ...]:
        if attr in _METHODS:
            return (attr.upper(),)
        if attr not in ("route", "api_route"):
            return ()
        given = keywords.get("methods")
        if given is None:
            return ("GET",)
        if given[0] != "l":
            return ()
        out = [self._literal(item, scope) for item in given[1]]
        return tuple(sorted({m.upper() for m in out if m}))

    def _literal(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> str | None:
        pieces = self._pieces(summary, scope) if summary is not None else None
        if pieces is None or any(p is None for p in pieces):
            return None
        return "".join(p for p in pieces if p is not None)

    def _pieces(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> list[str | None] | None:
        if summary[0] == "s":
            return [summary[1]]
        if summary[0] == "t":
            return self.ev.text_pieces(summary[1], scope)
        if summary[0] == "r":
            found, _ = self.ev.apply(
                self.ev.lookup(scope, summary[1][0]), summary[1][1:], self.path, -1
            )
            if isinstance(found, Str):
                return [found.value]
            if isinstance(found, Tmpl):
                return list(found.pieces)
            return [None]
        return None

    def _handler(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> NodeKey | None:
        if summary is None:
            return None
        ref = None
        if summary[0] == "r":
            ref = summary[1]
        elif summary[0] == "c":
            call_ref = self.owner.body["calls"][summary[1]][1]
            if call_ref and call_ref[-1] == "as_view":
                ref = call_ref[:-1]
        if not ref:
            return None
        value, _ = self.ev.apply(self.ev.lookup(scope, ref[0]), ref[1:], self.path, -1)
        if isinstance(value, Def):
            return node_key(value)
        if isinstance(value, Ext):  # a view from a library (TemplateView): served all the same
            self.external_handlers.add(value.name.split(".")[0])
            return NodeKey(NodeKind.EXTERNAL, value.name.split(".")[0], "")
        return None

    def _object(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> str | None:
        if summary is None or summary[0] != "r":
            return None
        value, _ = self.ev.apply(
            self.ev.lookup(scope, summary[1][0]), summary[1][1:], self.path, -1
        )
        if isinstance(value, ExtInst | Inst):
            return value.origin
        return None


def value_module(value: Def | Inst) -> str:
    return value.module if isinstance(value, Def) else value.cls.module


def _constructs_router(value: list[Any]) -> bool:
    """A binding that may hold an app or router: a call of a name such as ``APIRouter``."""
    base, rest = value[0], value[1]
    if base[0] != "name" or not rest or rest[-1] != "()":
        return False
    name = rest[-2] if len(rest) >= 2 else base[1]
    return name in _ROUTER_NAMES


def _arg(positional: list[Any], keywords: dict[str, Any], index: int, *names: str) -> Any:
    for name in names:
        if name in keywords:
            return keywords[name]
    return positional[index] if index < len(positional) else None


def _absolute(url: tuple[str | None, ...]) -> bool:
    return bool(url) and isinstance(url[0], str) and url[0].startswith(("http://", "https://"))


_GROUP = re.compile(r"\(\?P<(\w+)>")


def regex_to_path(regex: str) -> str:
    """A Django ``re_path`` pattern as a path: ``^items/(?P<pk>[0-9]+)/$`` -> ``items/{pk}/``."""
    text = regex.removeprefix("^").removeprefix(r"\A").removesuffix("$").removesuffix(r"\Z")
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "(":
            name_match = _GROUP.match(text, i)
            depth, j = 1, i + 1
            while j < len(text) and depth:
                if text[j] == "\\":
                    j += 1
                elif text[j] == "(":
                    depth += 1
                elif text[j] == ")":
                    depth -= 1
                j += 1
            inner = text[i:j]
            if name_match:
                out.append("{" + name_match.group(1) + "}")
            elif not inner.startswith("(?:") and not inner.startswith("(?"):
                out.append("{}")
            i = j
            continue
        if char == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if char in "?*+":
            i += 1
            continue
        out.append(char)
        i += 1
    return "".join(out)

"""FastAPI, Starlette and Flask: apps and routers (by the variable holding them, module-level
or in an app factory), routes declared by decorator or by call, and routers mounted on others.
A call site on a framework object or an HTTP client starts here (``call``); client calls are
handed on to ``clients.py``."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.extract.python.values import Bound, Def, Ext, ExtInst, Inst, Value
from groundkit.codemap.extract.python.web.arguments import arg
from groundkit.codemap.extract.python.web.frameworks import (
    CLIENTS,
    ROUTERS,
    constructs_router,
    role_of,
    type_name,
)
from groundkit.codemap.extract.python.web.state import WebState
from groundkit.codemap.model import Location, NodeKey, Provenance
from groundkit.codemap.routes import Mount, RouteDecl, RouterDef

__all__ = ["Routers"]


class Routers(WebState):
    """Apps and routers, their routes and mounts; the call-site entry point."""

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
            if not any(constructs_router(v) for v in values):
                continue
            value, _ = self.ev.lookup(scope, name)
            role = role_of(type_name(value))
            if role not in ROUTERS or not isinstance(value, ExtInst | Inst):
                continue
            is_app, prefix_kw = ROUTERS[role]
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
        role = role_of(type_name(receiver))
        if role in CLIENTS and isinstance(receiver, ExtInst):
            self._client_call(receiver, attr, call, scope, caller, where)
            return
        if role not in ROUTERS or receiver.origin is None:
            return
        positional, keywords, _ = call[8]
        if call[6] == "d" and call[7] >= 0:
            methods = self._methods(attr, keywords, scope)
            path = self._literal(arg(positional, keywords, 0, "path", "rule"), scope)
            handler = self.owner.scope_keys[call[7]]
            if methods and path is not None and handler is not None:
                self._route(
                    receiver.origin, methods, path, handler, Provenance.ROUTE_DECORATOR, where
                )
            return
        if attr in ("include_router", "register_blueprint", "mount"):
            self._mount(receiver.origin, attr, positional, keywords, scope, where)
        elif attr in ("add_api_route", "add_url_rule", "add_route"):
            path = self._literal(arg(positional, keywords, 0, "path", "rule"), scope)
            index = 2 if attr == "add_url_rule" else 1
            target = arg(positional, keywords, index, "endpoint", "view_func")
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
            prefix = self._literal(arg(positional, keywords, 0, "path"), scope)
            child_arg = arg(positional, keywords, 1, "app")
        else:
            key = "prefix" if attr == "include_router" else "url_prefix"
            prefix = self._literal(keywords.get(key), scope)
            child_arg = arg(positional, keywords, 0, "router", "blueprint")
        child = self._object(child_arg, scope)
        if child is None or (attr == "mount" and prefix is None):
            return
        replaces = attr == "register_blueprint" and "url_prefix" in keywords
        self.mounts.append(Mount(parent, child, prefix or "", replaces, where))

"""FastAPI, Starlette and Flask: apps and routers (by the variable that holds the call that made
them, module-level or in an app factory), routes declared by decorator or by call, routers
mounted on others; and the HTTP client calls they hand on to ``clients.py``."""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import SiteKind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.web import subclassed, viewsets
from groundkit.codemap.extract.python.web.arguments import WebContext
from groundkit.codemap.extract.python.web.clients import client_call, module_call
from groundkit.codemap.extract.python.web.frameworks import (
    CLIENTS,
    DRF_ROUTERS,
    LIBRARY_ROUTERS,
    ROUTERS,
    role_of,
)
from groundkit.codemap.model import Location, NodeKey, NodeKind, Provenance
from groundkit.codemap.routes import Mount, RouteDecl, RouterDef

__all__ = ["web_calls"]

_ROUTER_NAMES = frozenset(name for _, name in ROUTERS)


def web_calls(ctx: WebContext, callees: dict[int, int]) -> None:
    """Every call site of the file: routers made, routes and mounts declared, clients called.
    ``callees``: call site -> the variable holding its callee."""
    sites = ctx.info.facts.sites
    for index, site in enumerate(sites):
        callee = callees.get(index)
        if callee is None:
            continue
        if site.kind == SiteKind.CALL:
            if site.name in _ROUTER_NAMES and site.holder:
                _router(ctx, index, site, callee)
            elif site.holder:
                _subclassed(ctx, index, site)
            _call(ctx, index, site, callee)
        elif site.kind == SiteKind.DECORATOR and site.factory >= 0:
            _decorated(ctx, site)


def _where(ctx: WebContext, site: facts.Site) -> Location:
    return ctx.resolver.location(site.line, site.col, site.end_line, site.end_col)


def _router(ctx: WebContext, index: int, site: facts.Site, callee: int) -> None:
    for value in ctx.held(callee):
        name = ctx.flow.values.name(value) if ctx.kind(value) == objects.EXT else None
        role = role_of(name) if name is not None else None
        if role not in ROUTERS:
            continue
        assert role is not None
        is_app, prefix_keyword = ROUTERS[role]
        made = ctx.flow.value(objects.EXTINST, name, (ctx.info.index, index))
        origin = ctx.origin(made)
        if origin is None:
            continue
        prefix = ctx.literal(ctx.arg(site, None, prefix_keyword)) if prefix_keyword else None
        ctx.routers.append(RouterDef(origin, prefix or "", is_app, _where(ctx, site)))
        return


def _subclassed(ctx: WebContext, index: int, site: facts.Site) -> None:
    """``router = AdminAPIRouter(prefix="/admin")``, a subclass of a framework's router."""
    found = subclassed.made_at(ctx, index)
    if found is None:
        return
    cls, made = found
    is_app, prefix_keyword = ROUTERS[made.role]
    prefix = subclassed.prefix(ctx, site, cls, prefix_keyword)
    ctx.routers.append(RouterDef(made.router, prefix or "", is_app, _where(ctx, site)))


def _call(ctx: WebContext, index: int, site: facts.Site, callee: int) -> None:
    values = ctx.flow.values
    receiver = _subclass_receiver(ctx, callee)
    if receiver is not None:
        _on_router(ctx, receiver[0].router, receiver[0].role, receiver[1], site)
    for value in ctx.held(callee):
        kind = ctx.kind(value)
        if kind == objects.BOUND:
            _bound(ctx, values.outside_object(value), values.attribute(value), site)
        elif kind == objects.EXT:
            module_call(ctx, values.name(value), site, _caller(ctx, site), _where(ctx, site))


def _caller(ctx: WebContext, site: facts.Site) -> NodeKey:
    return ctx.resolver.caller(site.scope)


def _subclass_receiver(ctx: WebContext, callee: int) -> tuple[subclassed.Made, str] | None:
    """``router.get``: the subclass-made router and the attribute. (The flow holds nothing
    of the attribute of an instance of a class with an outside base.)"""
    op = ctx.info.op_of(callee)
    if not isinstance(op, facts.Attr) or op.attr is None:
        return None
    made = subclassed.router_of(ctx, op.obj)
    return (made, op.attr) if made is not None else None


def _bound(ctx: WebContext, receiver: int, attr: str, site: facts.Site) -> None:
    role = role_of(ctx.flow.values.name(receiver))
    if role in CLIENTS:
        client_call(ctx, receiver, attr, site, _caller(ctx, site), _where(ctx, site))
        return
    origin = ctx.origin(receiver)
    if role in ROUTERS and origin is not None:
        _on_router(ctx, origin, role, attr, site)


def _on_router(
    ctx: WebContext, origin: str, role: tuple[str, str] | None, attr: str, site: facts.Site
) -> None:
    """A method of a router called: routes and mounts declared on it."""
    if attr == "register" and role in DRF_ROUTERS:
        viewsets.register(ctx, origin, site)
    elif attr in ("include_router", "register_blueprint", "mount"):
        _mount(ctx, origin, attr, site)
    elif attr in ("add_api_route", "add_url_rule", "add_route"):
        path = ctx.literal(ctx.arg(site, 0, "path", "rule"))
        index = 2 if attr == "add_url_rule" else 1
        handler = ctx.handler(ctx.arg(site, index, "endpoint", "view_func"))
        methods = ctx.methods("route", site)
        if path is not None and handler is not None and methods:
            _route(ctx, origin, methods, path, handler, Provenance.ROUTE_CALL, site)


def _decorated(ctx: WebContext, site: facts.Site) -> None:
    """``@app.get("/x")`` over a function: a route, declared where the factory is called."""
    factory = ctx.info.facts.sites[site.factory]
    callee = next((op.func for op in _calls_at(ctx, site.factory)), None)
    handler = ctx.resolver.scope_node(site.target)
    if callee is None or handler is None:
        return
    values = ctx.flow.values
    receivers: list[tuple[str, str]] = []  # (router, attribute)
    for value in ctx.held(callee):
        if ctx.kind(value) != objects.BOUND:
            continue
        receiver = values.outside_object(value)
        origin = ctx.origin(receiver)
        if role_of(values.name(receiver)) in ROUTERS and origin is not None:
            receivers.append((origin, values.attribute(value)))
    made = _subclass_receiver(ctx, callee)
    if made is not None:
        receivers.append((made[0].router, made[1]))
    for origin, attr in receivers:
        methods = ctx.methods(attr, factory)
        path = ctx.literal(ctx.arg(factory, 0, "path", "rule"))
        if methods and path is not None:
            _route(ctx, origin, methods, path, handler, Provenance.ROUTE_DECORATOR, factory)


def _calls_at(ctx: WebContext, site: int) -> list[facts.Call]:
    calls = ctx.info.calls_by_site()
    found = calls.get(site)
    return [found] if found is not None else []


def _route(
    ctx: WebContext,
    router: str,
    methods: tuple[str, ...],
    path: str,
    handler: NodeKey,
    provenance: Provenance,
    site: facts.Site,
) -> None:
    where = _where(ctx, site)
    text = ctx.resolver.text(site.line)
    ctx.routes.append(RouteDecl(router, methods, path, handler, provenance, where, text))


def _mount(ctx: WebContext, parent: str, attr: str, site: facts.Site) -> None:
    if attr == "mount":
        prefix = ctx.literal(ctx.arg(site, 0, "path"))
        child_var = ctx.arg(site, 1, "app")
    else:
        keyword = "prefix" if attr == "include_router" else "url_prefix"
        prefix = ctx.literal(ctx.arg(site, None, keyword))
        child_var = ctx.arg(site, 0, "router", "blueprint")
    child = ctx.router(child_var)
    if child is None:
        made = subclassed.router_of(ctx, child_var)
        child = made.router if made is not None else None
    if child is None and attr == "include_router":
        child = _library_router(ctx, child_var, site)
    if child is None or (attr == "mount" and prefix is None):
        return
    keywords = {name for name, _ in site.keywords}
    replaces = attr == "register_blueprint" and "url_prefix" in keywords
    ctx.mounts.append(Mount(parent, child, prefix or "", replaces, _where(ctx, site)))


def _library_router(ctx: WebContext, var: int | None, site: facts.Site) -> str | None:
    """``include_router(fastapi_users.get_auth_router(backend), prefix=...)``: a router the
    library makes, with the routes its table lists, served by the library (an outside node).
    Named by the mount's place: each call makes a router of its own."""
    held = list(ctx.held(var)) if var is not None else []
    if len(held) != 1 or ctx.kind(held[0]) != objects.EXTINST:
        return None
    parts = ctx.flow.values.name(held[0]).split(".")
    package, cls, method = parts[0], parts[-2] if len(parts) > 2 else "", parts[-1]
    routes = LIBRARY_ROUTERS.get((package, cls, method))
    if routes is None:
        return None
    router = f"py:{ctx.info.module}.<{method}@{site.line}>"
    handler = NodeKey(NodeKind.EXTERNAL, package, "")
    for verb, path in routes:
        _route(ctx, router, (verb,), path, handler, Provenance.ROUTE_LIBRARY, site)
    return router

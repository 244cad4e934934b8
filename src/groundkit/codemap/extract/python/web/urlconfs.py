"""Django urlconfs: each module-level list of ``path()``/``re_path()``/``url()`` is a router
``py:<module>:<name>`` (the name whose binding made the list); a name holding lists made under
other names mounts their routers; ``include()`` mounts another urlconf (a module name, a module
or an inline list) under the route's prefix. The lists are the value flow's containers, so
``+``, ``+=``, ``extend`` and imports are followed as values."""

from __future__ import annotations

import re

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.web.arguments import WebContext
from groundkit.codemap.model import Location, Provenance
from groundkit.codemap.routes import ANY_METHOD, Mount, RouteDecl, RouterDef

__all__ = ["regex_to_path", "urlconfs"]

_URLCONF = frozenset({"path", "re_path", "url"})
_LISTS = (objects.CONT, objects.SYN)


def urlconfs(ctx: WebContext) -> None:
    info = ctx.info
    for name in sorted(info.mod_binds):
        held = ctx.flow.engine.held(ctx.flow.glob(info.index, name))
        containers = sorted(v for v in held if ctx.kind(v) in _LISTS)
        calls = [s for c in containers for s in _patterns(ctx, c)]
        if not calls and not (name.endswith("patterns") and containers):
            continue
        router = f"py:{info.module}:{name}"
        where = ctx.resolver.location(1)
        ctx.routers.append(RouterDef(router, "", False, where))
        for container in containers:
            owner = _owner(ctx, container)
            if owner == router or owner is None:
                _routes(ctx, router, _patterns(ctx, container))
            else:
                ctx.mounts.append(Mount(router, owner, "", False, where))


def _owner(ctx: WebContext, container: int) -> str | None:
    """The router of the module-level name whose binding made a list."""
    if ctx.kind(container) != objects.CONT:
        return None
    file, var = ctx.flow.values.made_in(container)
    info = ctx.program.files[file]
    for name, src in info.mod_binds.items():
        if _made_by(info, src, var):
            return f"py:{info.module}:{name}"
    return None


def _made_by(info: FileInfo, var: int, container_var: int) -> bool:
    for _ in range(16):
        if var == container_var:
            return True
        op = info.op_of(var)
        if isinstance(op, facts.Copy | facts.Annot) and op.src >= 0:
            var = op.src
        elif isinstance(op, facts.BinOp) and op.method == "__iadd__":
            var = op.left
        else:
            return False
    return False


def _patterns(ctx: WebContext, container: int, depth: int = 0) -> list[tuple[int, int]]:
    """The ``path()``-like calls a list holds, as (file, site): Django's (an outside object
    made by ``django.urls.path``), or, mapping Django itself, the calls of its own ``path``
    written in the list (and in lists added to it with ``+=``)."""
    out: set[tuple[int, int]] = set()
    for value in ctx.flow.engine.held(ctx.flow.every(container)):
        urlish = (
            ctx.kind(value) == objects.EXTINST
            and ctx.flow.values.name(value).rsplit(".", 1)[-1] in _URLCONF
        )
        made = ctx.flow.values.made_at(value) if urlish else None
        if made is not None:
            out.add(made)
    if ctx.kind(container) == objects.CONT and depth < 4:
        file, var = ctx.flow.values.made_in(container)
        info = ctx.program.files[file]
        for op in info.facts.ops:
            if isinstance(op, facts.SetSub) and op.obj == var:
                call = info.op_of(op.src)
                if isinstance(call, facts.Call) and _django_own(ctx, file, call):
                    out.add((file, call.site))
            elif (
                isinstance(op, facts.BinOp)
                and op.method == "__iadd__"
                and _made_by(info, op.left, var)
            ):
                for more in ctx.flow.engine.held(info.var(op.right)):
                    if ctx.kind(more) == objects.CONT:
                        out.update(_patterns(ctx, more, depth + 1))
    return sorted(out)


def _django_own(ctx: WebContext, file: int, call: facts.Call) -> bool:
    """A ``path()`` call of Django's own, when the map is of Django itself."""
    site = ctx.program.files[file].facts.sites[call.site]
    if site.name not in _URLCONF:
        return False
    program = ctx.program
    for value in ctx.flow.engine.held(program.files[file].var(call.func)):
        values = ctx.flow.values
        if values.kind(value) == objects.PARTIAL:  # django.urls.path = partial(_path, ...)
            value = values.wrapped(value)  # noqa: PLW2901 (the function the partial holds)
        if values.kind(value) == objects.FUNC:
            path = program.files[values.function(value)[0]].path
            if program.layout.modules[path].full_name.startswith("django.urls"):
                return True
    return False


def _routes(ctx: WebContext, router: str, calls: list[tuple[int, int]]) -> None:
    quotes: dict[int, dict[int, str]] = {}  # file -> its quoted lines, unpacked once
    for file, index in calls:
        there = (
            ctx if file == ctx.info.index else WebContext(ctx.flow, ctx.program.files[file], None)
        )
        site = there.info.facts.sites[index]
        call = there.info.calls_by_site().get(index)
        route = there.literal(there.arg(site, 0, "route", "regex"))
        target = there.arg(site, 1, "view")
        if route is None or target is None or call is None:
            continue
        if site.name != "path":
            route = regex_to_path(route)
        where = Location(there.info.path, site.line, site.col, site.end_line, site.end_col)
        included = [
            ctx.flow.values.made_at(v)
            for v in there.held(target)
            if ctx.kind(v) == objects.EXTINST and ctx.flow.values.name(v).endswith("include")
        ]
        if included and included[0] is not None:
            _include(ctx, router, route, included[0], where)
            continue
        handler = there.handler(target)
        if handler is not None:
            if file not in quotes:
                quotes[file] = facts.quoted_lines(there.info.facts)
            text = quotes[file].get(site.line, "")
            ctx.routes.append(
                RouteDecl(
                    router, (ANY_METHOD,), route, handler, Provenance.ROUTE_URLCONF, where, text
                )
            )


def _include(
    ctx: WebContext, router: str, route: str, made: tuple[int, int], where: Location
) -> None:
    file, index = made
    there = ctx if file == ctx.info.index else WebContext(ctx.flow, ctx.program.files[file], None)
    site = there.info.facts.sites[index]
    first = there.arg(site, 0, "arg")
    if first is None:
        return
    values = sorted(there.held(first))
    child: str | None = None
    urls = there.info.op_of(first)
    if isinstance(urls, facts.Attr) and urls.attr == "urls":  # include(router.urls): DRF's
        child = there.router(urls.obj)
        values = [] if child is not None else values
    text = there.literal(first)
    for value in values:
        kind = ctx.kind(value)
        if kind == objects.MOD:
            child = f"py:{ctx.program.files[ctx.flow.values.module(value)].module}:urlpatterns"
        elif kind in _LISTS:
            child = _listed(ctx, value, made, where)
    if child is None and text is not None:
        child = f"py:{text}:urlpatterns"
    if child is not None:
        ctx.mounts.append(Mount(router, child, route, False, where))


def _listed(ctx: WebContext, container: int, made: tuple[int, int], where: Location) -> str | None:
    """``include([path(...), ...])``, ``include((patterns, "app"))``: an inline router, or the
    named list's."""
    calls = _patterns(ctx, container)
    if calls:
        owner = _owner(ctx, container)
        if owner is not None:
            return owner
        inline = f"py:{ctx.program.files[made[0]].module}#{made[1]}"
        ctx.routers.append(RouterDef(inline, "", False, where))
        _routes(ctx, inline, calls)
        return inline
    for item in sorted(ctx.flow.engine.held(ctx.flow.slot(container, 0))):
        kind = ctx.kind(item)
        if kind in _LISTS:
            return _listed(ctx, item, made, where)
        if kind == objects.STR:
            return f"py:{ctx.flow.values.name(item)}:urlpatterns"
        if kind == objects.MOD:
            return f"py:{ctx.program.files[ctx.flow.values.module(item)].module}:urlpatterns"
    return None


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

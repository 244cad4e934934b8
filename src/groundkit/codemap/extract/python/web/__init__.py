"""Routes and HTTP client calls in Python: FastAPI/Starlette, Flask, Django; requests, httpx,
aiohttp. What is found here is language-neutral (``codemap.routes``); prefixes are composed and
calls matched over the whole map afterwards.

A framework object is recognised by what it is, from the value flow: an outside object known by
its package and class name (``fastapi``'s ``APIRouter``), made at a call whose result is bound
to a name (routers are known by that name). A route whose path is not a literal (or a
constant) is not a route. ``routers.py`` reads the call sites (routers, routes, mounts) and hands
client calls to ``clients.py``; ``urlconfs.py`` reads Django's lists; ``arguments.py`` reads a
call's arguments; ``frameworks.py`` says which classes are whose.
"""

from __future__ import annotations

from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.values.state import Flow
from groundkit.codemap.extract.python.web.arguments import FileNodes, WebContext
from groundkit.codemap.extract.python.web.routers import web_calls
from groundkit.codemap.extract.python.web.urlconfs import regex_to_path, urlconfs
from groundkit.codemap.model import NodeKind

__all__ = ["FileNodes", "regex_to_path", "web_facts"]


def web_facts(flow: Flow, info: FileInfo, node: FileNodes, graph: FileGraph) -> None:
    """Find one file's routers, mounts, routes and client calls into its ``graph``."""
    ctx = WebContext(flow, info, node)
    web_calls(ctx, {site: call.func for site, call in info.calls_by_site().items()})
    urlconfs(ctx)
    for route in ctx.routes:
        if route.handler.kind == NodeKind.EXTERNAL:  # a view from a library: a node of its own
            node.external(route.handler.qualname)
    graph.routers = ctx.routers
    graph.mounts = ctx.mounts
    graph.routes = ctx.routes
    graph.http_calls = ctx.http

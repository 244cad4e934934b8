"""Django REST framework's routers: ``router = DefaultRouter()`` (or ``SimpleRouter``) is a
router, ``router.register("items", ItemViewSet)`` declares the viewset's routes as DRF's
routers document them, and ``path("api/", include(router.urls))`` mounts it (``urlconfs.py``).

The routes (trailing slash, the lookup as ``{pk}``): ``items/`` GET -> ``list``, POST ->
``create``; ``items/{pk}/`` GET -> ``retrieve``, PUT -> ``update``, PATCH -> ``partial_update``,
DELETE -> ``destroy``, each only when the viewset has that action: defined by the class or a
base of the repository (the route's handler is that method), or given by DRF's
``ModelViewSet``, ``ReadOnlyModelViewSet`` or a ``*ModelMixin`` base (the handler is the
viewset class: the library's method runs on it). Not read: ``@action`` extra routes, a
``lookup_field``, ``trailing_slash=False``."""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.web.arguments import WebContext
from groundkit.codemap.model import NodeKey, NodeKind, Provenance
from groundkit.codemap.routes import RouteDecl

__all__ = ["register"]

_ROUTES = {
    "list": ("GET", False),
    "create": ("POST", False),
    "retrieve": ("GET", True),
    "update": ("PUT", True),
    "partial_update": ("PATCH", True),
    "destroy": ("DELETE", True),
}
_GIVEN = {
    "ModelViewSet": frozenset(_ROUTES),
    "ReadOnlyModelViewSet": frozenset({"list", "retrieve"}),
    "ListModelMixin": frozenset({"list"}),
    "CreateModelMixin": frozenset({"create"}),
    "RetrieveModelMixin": frozenset({"retrieve"}),
    "UpdateModelMixin": frozenset({"update", "partial_update"}),
    "DestroyModelMixin": frozenset({"destroy"}),
}


def register(ctx: WebContext, router: str, site: facts.Site) -> None:
    prefix = ctx.literal(ctx.arg(site, 0, "prefix"))
    viewset = ctx.arg(site, 1, "viewset")
    if prefix is None or viewset is None:
        return
    values = ctx.flow.values
    classes = {values.class_of(v) for v in ctx.held(viewset) if ctx.kind(v) == objects.CLASS}
    if len(classes) != 1:
        return
    cls = classes.pop()
    program = ctx.program
    own: dict[str, NodeKey] = {}
    given: set[str] = set()
    for base in program.mro(cls):
        info = program.files[base[0]]
        for name in _ROUTES:
            found = program.functions_named(base, name)
            if found and name not in own:
                qual = info.facts.scopes[found[0][1]].qual
                own[name] = NodeKey(NodeKind.METHOD, f"{info.module}.{qual}", info.path)
        for refs in info.facts.scopes[base[1]].base_refs:
            given |= _GIVEN.get(refs[-1], frozenset()) if refs else frozenset()
    info = program.files[cls[0]]
    viewset_node = NodeKey(
        NodeKind.CLASS, f"{info.module}.{info.facts.scopes[cls[1]].qual}", info.path
    )
    where = ctx.resolver.location(site.line, site.col, site.end_line, site.end_col)
    text = ctx.resolver.text(site.line)
    stem = prefix.strip("/")
    for name, (method, detail) in _ROUTES.items():
        handler = own.get(name) or (viewset_node if name in given else None)
        if handler is None:
            continue
        path = f"{stem}/{{pk}}/" if detail else f"{stem}/"
        ctx.routes.append(
            RouteDecl(router, (method,), path, handler, Provenance.ROUTE_CALL, where, text)
        )

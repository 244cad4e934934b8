"""HTTP routes and client calls, in any language: prefixes composed, calls matched to routes.

Extractors report what they saw in one file: routers and apps (``RouterDef``), one router mounted
on another with a prefix (``Mount``), route declarations on a router (``RouteDecl``) and client
calls with a URL (``HttpCallSite``). ``compose`` turns them into route nodes with ``handles``
edges; ``match`` sends each client call to the in-repository route it reaches (whatever language
serves it) or to an ``external`` host node.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundkit.codemap.model import Location, NodeKey, Provenance

__all__ = ["ANY_METHOD", "HttpCallSite", "Mount", "RouteDecl", "RouterDef"]

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
    expression whose value is unknown (an f-string field, a variable that was concatenated)."""

    caller: NodeKey
    method: str
    url: tuple[str | None, ...]
    provenance: Provenance
    location: Location
    quote: str

"""Which package objects are web apps, routers and HTTP clients, recognised by the package they
come from and the name they have there (``express`` + ``Router``), never by a variable's name."""

from __future__ import annotations

from collections.abc import Callable

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.facts import How
from groundkit.codemap.extract.typescript.values.objects import Ext, Str, Value, Web

__all__ = ["ANNOTATED", "CHAINED", "construct", "may_construct"]

_C, _N = How.CALL, How.NEW
# (package, member chain, a call or a new) -> role
_CONSTRUCTORS: dict[tuple[str, tuple[str, ...], How], str] = {
    ("express", (), _C): "express",
    ("express", ("Router",), _C): "express-router",
    ("express", ("Router",), _N): "express-router",
    ("express", ("default", "Router"), _C): "express-router",
    ("koa", (), _N): "koa",
    ("@koa/router", (), _N): "koa-router",
    ("koa-router", (), _N): "koa-router",
    ("fastify", (), _C): "fastify",
    ("fastify", ("fastify",), _C): "fastify",
    ("fastify", ("default",), _C): "fastify",
    ("hono", ("Hono",), _N): "hono",
    ("axios", ("create",), _C): "axios",
    ("axios", ("default", "create"), _C): "axios",
    ("ky", ("create",), _C): "ky",
    ("ky", ("extend",), _C): "ky",
}
# A parameter annotated with one of these types is that framework object (a Fastify plugin's
# instance, an Express router handed to a function that declares routes on it).
ANNOTATED: dict[tuple[str, tuple[str, ...]], str] = {
    ("fastify", ("FastifyInstance",)): "fastify",
    ("express", ("Router",)): "express-router",
    ("express", ("Express",)): "express",
    ("express", ("Application",)): "express",
    ("hono", ("Hono",)): "hono",
    ("@nuxtjs/axios", ("NuxtAxiosInstance",)): "axios",  # Nuxt's $axios, handed in
}
# A router's methods that return the router itself (Express, Koa's router, Hono), so that calls
# chain: ``Router().use(tags).use(users)``.
CHAINED = frozenset("use get post put patch delete del head options all param".split())
_BASE_KEYS = {"axios": "baseURL", "ky": "prefixUrl", "koa-router": "prefix"}


def may_construct(callee: Value, how: How) -> bool:
    """Whether ``callee(...)`` (``new callee(...)``) may make a framework object: asked before
    the object's name is worked out, which most calls never need."""
    return isinstance(callee, Ext) and (callee.package, callee.attrs, how) in _CONSTRUCTORS


def construct(
    callee: Value,
    how: How,
    args: list[facts.Expr],
    router: str,
    pieces: Callable[[facts.Expr], Str | None],
) -> Web | None:
    """The framework object ``callee(args)`` (or ``new callee(args)``) makes, if any."""
    if not isinstance(callee, Ext):
        return None
    role = _CONSTRUCTORS.get((callee.package, callee.attrs, how))
    if role is None:
        return None
    key = _BASE_KEYS.get(role)
    first = args[0] if args else None
    setting = first.fields.get(key) if key and isinstance(first, facts.ObjectLit) else None
    text = pieces(setting) if setting is not None else None
    if role in ("axios", "ky"):
        base: tuple[str | None, ...] = text.pieces if text is not None else ()
        fallback = _fallback(setting, pieces) if text is None else None
        if fallback is not None:
            return Web(role, None, "", fallback.pieces, fallback=True)
        if setting is not None and text is None:
            base = (None,)  # a base URL known only at run time
        return Web(role, None, "", base)
    # A prefix known only at run time is left out, as the Python analyser does.
    known = text is not None and None not in text.pieces
    prefix = "".join(p for p in text.pieces if p is not None) if known and text else ""
    # Never a root by itself: an Express or Hono app mounted in another (app.use("/x", sub),
    # app.route("/x", sub)) is served there only; an app nobody mounts is a root anyway.
    return Web(role, router, prefix)


def _fallback(setting: facts.Expr | None, pieces: Callable[[facts.Expr], Str | None]) -> Str | None:
    """The literal of ``process.env.X || "http://host/api"`` (also ``??``, or
    ``import.meta.env.X``): the one option known as a whole text when every other is an
    environment variable; else None."""
    if not isinstance(setting, facts.Choice):
        return None
    known: list[Str] = []
    for option in setting.options:
        text = pieces(option)
        if text is not None and None not in text.pieces:
            known.append(text)
        elif not (isinstance(option, facts.Ref) and option.parts[:-1] in _ENV_HOLDERS):
            return None
    return known[0] if len(known) == 1 else None


_ENV_HOLDERS = (["process", "env"], ["import", "meta", "env"])

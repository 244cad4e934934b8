"""Which package objects are web apps, routers and HTTP clients, recognised by the package they
come from and the name they have there (``express`` + ``Router``), never by a variable's name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from groundkit.codemap.extract.typescript.values import Ext, Str, Value, Web

__all__ = ["ANNOTATED", "construct"]

# (package, member chain, "c" call or "n" new) -> role
_CONSTRUCTORS: dict[tuple[str, tuple[str, ...], str], str] = {
    ("express", (), "c"): "express",
    ("express", ("Router",), "c"): "express-router",
    ("express", ("Router",), "n"): "express-router",
    ("express", ("default", "Router"), "c"): "express-router",
    ("koa", (), "n"): "koa",
    ("@koa/router", (), "n"): "koa-router",
    ("koa-router", (), "n"): "koa-router",
    ("fastify", (), "c"): "fastify",
    ("fastify", ("fastify",), "c"): "fastify",
    ("fastify", ("default",), "c"): "fastify",
    ("hono", ("Hono",), "n"): "hono",
    ("axios", ("create",), "c"): "axios",
    ("axios", ("default", "create"), "c"): "axios",
    ("ky", ("create",), "c"): "ky",
    ("ky", ("extend",), "c"): "ky",
}
# A parameter annotated with one of these types is that framework object (a Fastify plugin's
# instance, an Express router handed to a function that declares routes on it).
ANNOTATED: dict[tuple[str, tuple[str, ...]], str] = {
    ("fastify", ("FastifyInstance",)): "fastify",
    ("express", ("Router",)): "express-router",
    ("express", ("Express",)): "express",
    ("express", ("Application",)): "express",
    ("hono", ("Hono",)): "hono",
}
_BASE_KEYS = {"axios": "baseURL", "ky": "prefixUrl", "koa-router": "prefix"}


def construct(
    callee: Value,
    how: str,
    args: list[Any],
    router: str,
    pieces: Callable[[Any], Str | None],
) -> Web | None:
    """The framework object ``callee(args)`` (or ``new callee(args)``) makes, if any."""
    if not isinstance(callee, Ext):
        return None
    role = _CONSTRUCTORS.get((callee.package, callee.attrs, how))
    if role is None:
        return None
    key = _BASE_KEYS.get(role)
    setting = args[0][1].get(key) if key and args and args[0][0] == "o" else None
    text = pieces(setting) if setting is not None else None
    if role in ("axios", "ky"):
        base: tuple[str | None, ...] = text.pieces if text is not None else ()
        if setting is not None and text is None:
            base = (None,)  # a base URL known only at run time
        return Web(role, None, "", base)
    # A prefix known only at run time is left out, as the Python analyser does.
    known = text is not None and None not in text.pieces
    prefix = "".join(p for p in text.pieces if p is not None) if known and text else ""
    # Never a root by itself: an Express or Hono app mounted in another (app.use("/x", sub),
    # app.route("/x", sub)) is served there only; an app nobody mounts is a root anyway.
    return Web(role, router, prefix)

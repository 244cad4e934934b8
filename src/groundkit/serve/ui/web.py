"""What every page shares: the templates, the security headers, form bodies and error pages.

Pages are rendered on the server (Jinja2, autoescaped); the browser loads only this server's own
static files. The Content-Security-Policy allows nothing else: no inline script or style, no
other origin, no plugin, no framing. A page is always whole: htmx swaps a part of the next page
into the current one (``hx-select``), so every URL also works without JavaScript.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any
from urllib.parse import parse_qsl

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from groundkit.answer.access import AIEnvironment
from groundkit.errors import ErrorCode, GroundkitError, UsageError
from groundkit.serve.errors import http_status
from groundkit.serve.runtime import Runtime

__all__ = [
    "CSP",
    "SECURITY_HEADERS",
    "AIEnv",
    "Served",
    "ai_environment_of",
    "error_page",
    "on_form",
    "page",
    "read_form",
    "runtime_of",
]

_log = logging.getLogger("groundkit.serve")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # A page can show document text: it must not outlive the tab in a shared cache.
    "Cache-Control": "no-store",
}
_MAX_FIELDS = 32

_env = Environment(
    loader=PackageLoader("groundkit.serve.ui", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def breakable(text: object) -> Markup:
    """Machine text (an embedder key, a path) that may wrap after its separators, so that a
    table sizes its column by the longest part and no word of the page need break inside."""
    return Markup("<wbr>").join(escape(part) for part in re.split(r"(?<=[/:@-])", str(text)))


_env.filters["breakable"] = breakable


def runtime_of(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def ai_environment_of(request: Request) -> AIEnvironment:
    """The answer path's process edges (keychain, opt-in file, transport), made per request
    (cheap: everything in it is read on first use) by the factory ``mount_ui`` was given."""
    environment: AIEnvironment = request.app.state.ai_environment()
    return environment


# What a page handler takes as FastAPI dependencies.
Served = Annotated[Runtime, Depends(runtime_of)]
AIEnv = Annotated[AIEnvironment, Depends(ai_environment_of)]


def page(
    request: Request, template: str, context: Mapping[str, Any], *, status: int = 200
) -> HTMLResponse:
    """A whole page from ``templates/<template>``, with the security headers."""
    runtime = runtime_of(request)
    body = _env.get_template(template).render(
        {
            "request_path": request.url.path,
            "mutations": runtime.mutations_enabled,
            **context,
        }
    )
    return HTMLResponse(body, status_code=status, headers=SECURITY_HEADERS)


def error_page(request: Request, error: GroundkitError, **context: Any) -> HTMLResponse:
    """The error as a page, with the status its code maps to (the same table as the API)."""
    request.state.error_code = str(error.code)
    status = int(http_status(error))
    return page(request, "error.html", {"error": error, "title": "Error", **context}, status=status)


async def read_form(request: Request) -> dict[str, str]:
    """An ``application/x-www-form-urlencoded`` body (what a plain HTML form posts).

    The body limit has already been applied by ``BodyLimit``. A field given twice keeps its
    last value; more than a form of ours ever sends is refused.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise UsageError(ErrorCode.USAGE, "this form must be posted as a web form")
    raw = (await request.body()).decode("utf-8", "replace")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, max_num_fields=_MAX_FIELDS)
    except ValueError:
        raise UsageError(ErrorCode.USAGE, "the form has too many fields") from None
    return dict(pairs)


async def on_form(
    request: Request,
    defaults: Mapping[str, str],
    then: Callable[[dict[str, str]], HTMLResponse],
    **context: Any,
) -> HTMLResponse:
    """``then(form)`` off the event loop, with the fields of the posted web form that
    ``defaults`` names (each its default when absent); a form that cannot be read is an error
    page (with ``context``)."""
    try:
        posted = await read_form(request)
    except GroundkitError as exc:
        return error_page(request, exc, **context)
    form = {key: posted.get(key, default) for key, default in defaults.items()}
    return await run_in_threadpool(then, form)

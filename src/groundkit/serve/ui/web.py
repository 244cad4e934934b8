"""What every page shares: the templates, the security headers, form bodies and error pages.

Pages are rendered on the server (Jinja2, autoescaped); the browser loads only this server's own
static files. The Content-Security-Policy allows nothing else: no inline script or style, no
other origin, no plugin, no framing. A page is always whole: htmx swaps a part of the next page
into the current one (``hx-select``), so every URL also works without JavaScript.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from groundkit.errors import ErrorCode, GroundkitError, UsageError
from groundkit.serve.errors import http_status
from groundkit.serve.runtime import Runtime

__all__ = [
    "CSP",
    "SECURITY_HEADERS",
    "error_page",
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


def runtime_of(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


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

"""``/docs``: the interactive API reference, served entirely from this server.

FastAPI's own page loads Swagger UI from a CDN and a favicon from FastAPI's site. Here Swagger UI
is vendored in the package (``static/swagger-ui``, see its ``VENDORED.md``), the page starts it
from a script file rather than an inline one, and its Content-Security-Policy lets the browser
load scripts, styles, images and API calls from this origin only: the page works offline, and
nothing about it (or the API it describes) reaches a third party.
"""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

__all__ = ["ASSETS_PATH", "DOCS_PATH", "POLICY", "install_docs"]

DOCS_PATH = "/docs"
ASSETS_PATH = "/docs/assets"
STATIC = Path(__file__).parent / "static"

# Swagger UI styles some elements inline and draws icons as data: URIs; nothing needs another
# origin, eval, frames or forms.
POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} API</title>
<link rel="icon" type="image/png" href="{assets}/swagger-ui/favicon-32x32.png">
<link rel="stylesheet" href="{assets}/swagger-ui/swagger-ui.css">
</head>
<body data-openapi="{openapi}">
<div id="swagger-ui"></div>
<script src="{assets}/swagger-ui/swagger-ui-bundle.js"></script>
<script src="{assets}/docs.js"></script>
</body>
</html>
"""


def install_docs(app: FastAPI) -> None:
    """Add ``/docs`` and the files it loads (under ``/docs/assets``) to ``app``."""
    app.mount(ASSETS_PATH, StaticFiles(directory=STATIC), name="docs-assets")

    @app.get(DOCS_PATH, include_in_schema=False)
    def docs(request: Request) -> HTMLResponse:
        # Behind a proxy that mounts the server under a prefix, every URL carries it.
        root = request.scope.get("root_path", "").rstrip("/")
        page = _PAGE.format(
            title=html.escape(app.title),
            assets=html.escape(root + ASSETS_PATH),
            openapi=html.escape(root + (app.openapi_url or "/openapi.json")),
        )
        headers = {"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff"}
        return HTMLResponse(page, headers=headers)

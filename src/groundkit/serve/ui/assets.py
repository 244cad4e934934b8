"""The page's own files, from this package's ``static/`` folder and nowhere else.

Only files that exist there when the server starts can be asked for (no path is joined from the
request), each with its own content type and an ETag, revalidated on every use: a new install
never serves an old script from the cache.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from importlib.resources.abc import Traversable

from fastapi import APIRouter, Request, Response

from groundkit.errors import ErrorCode, ServeError

__all__ = ["router"]

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
}


def _walk(folder: Traversable, prefix: str = "") -> dict[str, Traversable]:
    found: dict[str, Traversable] = {}
    for entry in folder.iterdir():
        name = prefix + entry.name
        if entry.is_dir():
            found.update(_walk(entry, name + "/"))
        elif "." + name.rsplit(".", 1)[-1] in _TYPES:
            found[name] = entry
    return found


router = APIRouter(include_in_schema=False)
_FILES = _walk(resources.files("groundkit.serve.ui") / "static")
_CACHE: dict[str, tuple[bytes, str]] = {}  # name -> (bytes, ETag), filled as files are asked for


@router.get("/ui/static/{name:path}")
def static(request: Request, name: str) -> Response:
    entry = _FILES.get(name)
    if entry is None:
        raise ServeError(ErrorCode.SERVE_ROUTE_NOT_FOUND, "no such file")
    if name not in _CACHE:
        data = entry.read_bytes()
        _CACHE[name] = (data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"')
    data, etag = _CACHE[name]
    headers = {
        "ETag": etag,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
    }
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=_TYPES["." + name.rsplit(".", 1)[-1]], headers=headers)

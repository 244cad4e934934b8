"""Routes and HTTP client calls in Python: FastAPI/Starlette, Flask, Django; requests, httpx,
aiohttp. What is found here is language-neutral (``codemap.routes``); prefixes are composed and
calls matched over the whole map afterwards.

A framework object is recognised by the class it is an instance of, by the package it comes from
and its name (``fastapi``'s ``APIRouter``), whether that package is outside the repository or is
the repository itself. A route whose path is not a literal (or a constant) is not a route.

``WebFacts`` is written in parts: ``routers.py`` (apps, routers, their routes and mounts),
``clients.py`` (HTTP client calls), ``urlconfs.py`` (Django), ``arguments.py`` (a call's
arguments read as paths, methods and handlers), over ``state.py``; ``frameworks.py`` says which
classes are whose.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.web.arguments import Arguments
from groundkit.codemap.extract.python.web.clients import Clients
from groundkit.codemap.extract.python.web.routers import Routers
from groundkit.codemap.extract.python.web.urlconfs import Urlconfs, regex_to_path

__all__ = ["WebFacts", "regex_to_path"]


class WebFacts(Routers, Clients, Urlconfs, Arguments):
    """The web facts of one file, found while it is resolved: ``urlconfs`` and ``routers`` once,
    ``call`` for each call site, then ``finish`` hands them to the file's graph."""

"""The web UI of `grk serve`: pages at ``/`` and under ``/ui``, beside ``/v1`` and ``/mcp``.

The same app, runtime and guards serve it (Host and Origin, body limit, concurrency, access
log). Pages are rendered on the server; the browser loads only the files under
``/ui/static/`` (this package's ``static/`` folder: our own script and stylesheet, and htmx and
Cytoscape.js vendored with their licences), under a Content-Security-Policy that allows nothing
else. See docs/ui.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI

from groundkit.serve.ui.ai import AIEnvironmentFactory

if TYPE_CHECKING:
    from groundkit.answer.access import AIEnvironment

__all__ = ["EVAL_DIR", "make_ai_environment", "mount_ui"]

EVAL_DIR = Path("evals/results")  # where `grk eval` writes by default (its --out)


def make_ai_environment() -> AIEnvironment:
    """The answer path's process edges: the user's keychain, opt-in file and HTTP transport.
    Made per request (it is cheap: everything in it is read on first use). Tests replace it."""
    from groundkit.answer.access import AIEnvironment

    return AIEnvironment()


def _per_request() -> AIEnvironment:
    return make_ai_environment()  # looked up at each call: tests replace it


def mount_ui(
    app: FastAPI,
    *,
    eval_dir: Path = EVAL_DIR,
    ai_environment: AIEnvironmentFactory | None = None,
) -> None:
    """Add the pages to ``app``. ``ai_environment`` gives the answer path's process edges
    (keychain, opt-in file, transport); tests pass doubles."""
    try:
        import jinja2  # noqa: F401
    except ImportError:
        from groundkit.errors import missing_extra

        raise missing_extra("jinja2", "serve") from None
    from groundkit.serve.ui import answer, assets, evals, home, map_ask, maps, search

    # What the handlers take as dependencies (``serve.ui.web``), on the app they serve.
    app.state.ai_environment = ai_environment or _per_request
    app.state.eval_dir = eval_dir
    for module in (assets, home, search, answer, maps, map_ask, evals):
        app.include_router(module.router)

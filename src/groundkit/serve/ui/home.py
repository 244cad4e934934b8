"""The first page: every collection and code map in the index dir, and (with a secret) changes.

The mutating forms exist only when the server has a shared secret, as the REST routes do, and
each asks for it: the form posts it, the server compares it as it compares the header.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from groundkit.answer.access import AIEnvironment
from groundkit.collection import collection_path
from groundkit.errors import ErrorCode, GroundkitError, ServeError, UsageError
from groundkit.ops import codemap as map_ops
from groundkit.ops import collections as ops
from groundkit.serve.metrics import metrics_of
from groundkit.serve.secret import authorize
from groundkit.serve.ui.ai import ai_view
from groundkit.serve.ui.web import AIEnv, Served, page, read_form, runtime_of

__all__ = ["router"]

_MAX_INPUTS = 100  # as many as POST /v1/ingest takes


@dataclass(frozen=True, slots=True)
class MapRow:
    name: str
    files: int
    nodes: int
    edges: int
    unresolved: int
    size_bytes: int
    error: str | None = None
    ai: str = "off"  # AIView.note: `grk ai enable map:NAME` turns it on


def collection_rows(request: Request, answers: AIEnvironment) -> list[Any]:
    runtime = runtime_of(request)
    rows: list[Any] = []
    for name in ops.collection_names(runtime):
        try:
            status = ops.status(runtime, name)
            ai = ai_view(answers, collection_path(runtime.index_dir, name))
            rows.append({"name": name, "status": status, "ai": ai, "error": None})
        except GroundkitError as exc:  # one collection that cannot be read spoils no page
            rows.append({"name": name, "status": None, "ai": None, "error": exc.message})
    return rows


def map_rows(request: Request, answers: AIEnvironment) -> list[MapRow]:
    settings = runtime_of(request).settings
    rows = []
    for name in map_ops.map_list(settings).names:
        try:
            found = map_ops.summary(settings, name)
            ai = ai_view(answers, found.folder).note
            rows.append(
                MapRow(
                    name,
                    found.files,
                    found.nodes,
                    found.edges,
                    found.unresolved_calls,
                    found.size_bytes,
                    ai=ai,
                )
            )
        except (GroundkitError, OSError) as exc:
            message = exc.message if isinstance(exc, GroundkitError) else "cannot be read"
            rows.append(MapRow(name, 0, 0, 0, 0, 0, message))
    return rows


router = APIRouter(include_in_schema=False)


def _changes_on(runtime: Served) -> None:
    """The mutating forms exist only with a shared secret, as the REST routes do: without one,
    their routes are not there."""
    if not runtime.mutations_enabled:
        raise ServeError(ErrorCode.SERVE_ROUTE_NOT_FOUND, "no such route")


_CHANGES: dict[str, Any] = {
    "response_class": HTMLResponse,
    "dependencies": [Depends(_changes_on)],
}


def home_page(
    request: Request,
    environment: AIEnvironment,
    *,
    notice: str | None = None,
    error: GroundkitError | None = None,
    status: int = 200,
) -> HTMLResponse:
    context = {
        "title": "Collections and code maps",
        "collections": collection_rows(request, environment),
        "maps": map_rows(request, environment),
        "default_collection": runtime_of(request).settings.collection,
        "notice": notice,
        "error": error,
    }
    return page(request, "home.html", context, status=status)


@router.get("/", response_class=HTMLResponse)
def home(request: Request, environment: AIEnv) -> HTMLResponse:
    return home_page(request, environment)


async def mutate(
    request: Request, environment: AIEnvironment, action: Callable[[dict[str, str]], str]
) -> HTMLResponse:
    """Check the secret in the form, then run ``action(form)`` off the event loop."""
    try:
        form = await read_form(request)
        authorize(runtime_of(request).secret, form.get("secret") or None)
        notice = await run_in_threadpool(action, form)
    except GroundkitError as exc:
        request.state.error_code = str(exc.code)
        failed = exc
        status = int(exc.outcome.http)
        return await run_in_threadpool(
            lambda: home_page(request, environment, error=failed, status=status)
        )
    return await run_in_threadpool(lambda: home_page(request, environment, notice=notice))


@router.post("/ui/ingest", **_CHANGES)
async def ingest(request: Request, runtime: Served, environment: AIEnv) -> HTMLResponse:
    def run(form: dict[str, str]) -> str:
        name = form.get("collection", "").strip()
        inputs = [line.strip() for line in form.get("inputs", "").splitlines() if line.strip()]
        if not name or not inputs:
            raise UsageError(ErrorCode.USAGE, "name a collection and at least one path or URL")
        if len(inputs) > _MAX_INPUTS:
            raise UsageError(ErrorCode.USAGE, f"at most {_MAX_INPUTS} paths or URLs at once")
        report = metrics_of(request).ingest(runtime, ops.IngestOrder(name, inputs))
        skipped = f", {len(report.skipped)} skipped" if report.skipped else ""
        return (
            f"Ingested into {name}: {report.new} new, {report.changed} changed,"
            f" {report.unchanged} unchanged, {report.removed} removed{skipped}."
        )

    return await mutate(request, environment, run)


@router.post("/ui/c/{name}/delete", **_CHANGES)
async def delete_collection(
    request: Request, runtime: Served, environment: AIEnv, name: str
) -> HTMLResponse:
    def run(_: dict[str, str]) -> str:
        ops.drop_collection(runtime, name)
        return f"Deleted the collection {name}."

    return await mutate(request, environment, run)


@router.post("/ui/c/{name}/documents/{document_id}/delete", **_CHANGES)
async def delete_document(
    request: Request, runtime: Served, environment: AIEnv, name: str, document_id: str
) -> HTMLResponse:
    def run(_: dict[str, str]) -> str:
        ops.delete_document(runtime, name, document_id)
        return f"Deleted a document from {name}."

    return await mutate(request, environment, run)

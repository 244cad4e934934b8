"""The first page: every collection and code map in the index dir, and (with a secret) changes.

The mutating forms exist only when the server has a shared secret, as the REST routes do, and
each asks for it: the form posts it, the server compares it as it compares the header.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from groundkit.collection import collection_path
from groundkit.errors import ErrorCode, GroundkitError, UsageError
from groundkit.ops import codemap as map_ops
from groundkit.ops import collections as ops
from groundkit.serve.secret import authorize
from groundkit.serve.ui.ai import AIEnvironmentFactory, ai_view
from groundkit.serve.ui.web import page, read_form, runtime_of

__all__ = ["home_router"]

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


def collection_rows(request: Request, ai_environment: AIEnvironmentFactory) -> list[Any]:
    runtime = runtime_of(request)
    answers = ai_environment()
    rows: list[Any] = []
    for name in ops.collection_names(runtime):
        try:
            status = ops.status(runtime, name)
            ai = ai_view(answers, collection_path(runtime.index_dir, name))
            rows.append({"name": name, "status": status, "ai": ai, "error": None})
        except GroundkitError as exc:  # one collection that cannot be read spoils no page
            rows.append({"name": name, "status": None, "ai": None, "error": exc.message})
    return rows


def map_rows(request: Request, ai_environment: AIEnvironmentFactory) -> list[MapRow]:
    settings = runtime_of(request).settings
    answers = ai_environment()
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


def home_router(ai_environment: AIEnvironmentFactory, mutations: bool) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    def home_page(
        request: Request,
        *,
        notice: str | None = None,
        error: GroundkitError | None = None,
        status: int = 200,
    ) -> HTMLResponse:
        collections = collection_rows(request, ai_environment)
        context = {
            "title": "Collections and code maps",
            "collections": collections,
            "maps": map_rows(request, ai_environment),
            "default_collection": runtime_of(request).settings.collection,
            "notice": notice,
            "error": error,
        }
        return page(request, "home.html", context, status=status)

    @router.get("/", response_class=HTMLResponse)
    def home(request: Request) -> HTMLResponse:
        return home_page(request)

    if not mutations:
        return router

    async def mutate(request: Request, action: Any) -> HTMLResponse:
        """Check the secret in the form, then run ``action(form)`` off the event loop."""
        try:
            form = await read_form(request)
            authorize(runtime_of(request).secret, form.get("secret") or None)
            notice = await run_in_threadpool(action, form)
        except GroundkitError as exc:
            request.state.error_code = str(exc.code)
            failed = exc
            status = int(exc.outcome.http)
            return await run_in_threadpool(lambda: home_page(request, error=failed, status=status))
        return await run_in_threadpool(lambda: home_page(request, notice=notice))

    @router.post("/ui/ingest", response_class=HTMLResponse)
    async def ingest(request: Request) -> HTMLResponse:
        def run(form: dict[str, str]) -> str:
            name = form.get("collection", "").strip()
            inputs = [line.strip() for line in form.get("inputs", "").splitlines() if line.strip()]
            if not name or not inputs:
                raise UsageError(ErrorCode.USAGE, "name a collection and at least one path or URL")
            if len(inputs) > _MAX_INPUTS:
                raise UsageError(ErrorCode.USAGE, f"at most {_MAX_INPUTS} paths or URLs at once")
            report = ops.ingest(runtime_of(request), ops.IngestOrder(name, inputs))
            skipped = f", {len(report.skipped)} skipped" if report.skipped else ""
            return (
                f"Ingested into {name}: {report.new} new, {report.changed} changed,"
                f" {report.unchanged} unchanged, {report.removed} removed{skipped}."
            )

        return await mutate(request, run)

    @router.post("/ui/c/{name}/delete", response_class=HTMLResponse)
    async def delete_collection(request: Request, name: str) -> HTMLResponse:
        def run(_: dict[str, str]) -> str:
            ops.drop_collection(runtime_of(request), name)
            return f"Deleted the collection {name}."

        return await mutate(request, run)

    @router.post("/ui/c/{name}/documents/{document_id}/delete", response_class=HTMLResponse)
    async def delete_document(request: Request, name: str, document_id: str) -> HTMLResponse:
        def run(_: dict[str, str]) -> str:
            ops.delete_document(runtime_of(request), name, document_id)
            return f"Deleted a document from {name}."

        return await mutate(request, run)

    return router

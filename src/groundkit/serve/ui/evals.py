"""Eval reports: the runs `grk eval` wrote (``<run-id>.json`` and ``.html``), newest first.

A report page is a file `grk eval` wrote: it is served as it is, under a policy of its own that
lets it apply only its own stylesheet (by hash) and, sandboxed, run nothing and load nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from groundkit.errors import ErrorCode, ServeError
from groundkit.serve.ui.web import SECURITY_HEADERS, error_page, page

__all__ = ["eval_runs", "report_policy", "router"]

_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")
_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)
_SCHEMA = "groundkit.eval.run/1"
_LISTED = 200


def _summary(path: Path) -> dict[str, Any]:
    row: dict[str, Any] = {"run_id": path.stem, "html": path.with_suffix(".html").is_file()}
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {**row, "error": "cannot be read"}
    if not isinstance(report, dict) or report.get("schema") != _SCHEMA:
        return {**row, "error": "not a grk eval run"}
    dataset = report.get("dataset", {})
    level = report.get("config", {}).get("primary_level", "chunk")
    stages = []
    for stage, summary in report.get("stages", {}).items():
        ndcg = summary.get("metrics", {}).get(level, {}).get("ndcg@10")
        stages.append({"stage": stage, "ndcg": ndcg, "verdict": summary.get("verdict")})
    return {
        **row,
        "error": None,
        "created": report.get("created_at", ""),
        "dataset": dataset.get("name", "?")
        + (f" ({dataset['split']})" if dataset.get("split") else ""),
        "queries": dataset.get("queries"),
        "level": level,
        "stages": stages,
    }


def eval_runs(folder: Path) -> list[dict[str, Any]]:
    """The runs in ``folder``, newest first (by the time the file was written)."""
    try:
        files = [p for p in folder.glob("*.json") if p.is_file() and _RUN_ID.match(p.stem)]
    except OSError:
        return []
    files.sort(key=lambda p: (p.stat().st_mtime, p.name), reverse=True)
    return [_summary(p) for p in files[:_LISTED]]


def report_policy(html: str) -> str:
    """A policy for one report: its own ``<style>`` blocks by hash, nothing else, sandboxed."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(block.encode()).digest()).decode() + "'"
        for block in _STYLE.findall(html)
    )
    styles = hashes or "'none'"
    return (
        f"default-src 'none'; style-src {styles}; img-src data:; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox"
    )


router = APIRouter(include_in_schema=False)


def _folder(request: Request) -> Path:
    """Where `grk eval` writes its reports, as ``mount_ui`` was told."""
    folder: Path = request.app.state.eval_dir
    return folder


@router.get("/ui/evals", response_class=HTMLResponse)
def runs(request: Request) -> HTMLResponse:
    folder = _folder(request)
    found = eval_runs(folder)
    request.state.results = len(found)
    context = {"title": "Eval reports", "runs": found, "folder": folder.name or str(folder)}
    return page(request, "evals.html", context)


@router.get("/ui/evals/{run_id}", response_class=HTMLResponse)
def report(request: Request, run_id: str) -> HTMLResponse:
    path = _folder(request) / f"{run_id}.html"
    missing = ServeError(ErrorCode.SERVE_ROUTE_NOT_FOUND, "no such eval report")
    if not _RUN_ID.match(run_id) or not path.is_file():
        return error_page(request, missing)
    try:
        html = path.read_text(encoding="utf-8")
    except OSError:
        return error_page(request, missing)
    headers = {**SECURITY_HEADERS, "Content-Security-Policy": report_policy(html)}
    return HTMLResponse(html, headers=headers)

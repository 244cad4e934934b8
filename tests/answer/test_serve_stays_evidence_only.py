"""MCP and REST give evidence only: an agent calling groundkit has its own model, so no tool or
route may reach one (issue 13). `grk answer` and `grk ask` are for people and for programs that
call the CLI or the library, and the web UI's pages (``serve/ui``, issue 15) are for people: its
answer page asks the model the collection opted in to, on a page, never as an API route."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import groundkit

SRC = Path(groundkit.__file__).parent
# What asks a model, or builds one. The pure helpers (the log guard, scrubbing) stay allowed.
_MODEL_MODULES = {
    "access",
    "chat",
    "code",
    "contract",
    "echo",
    "factory",
    "http_chat",
    "judge",
    "llamacpp",
    "ollama",
    "openai_compat",
    "rewrite",
    "service",
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def _reaches_a_model(name: str) -> bool:
    parts = name.split(".")
    return parts[:2] == ["groundkit", "answer"] and len(parts) > 2 and parts[2] in _MODEL_MODULES


def _page_module(path: Path) -> bool:
    return path.relative_to(SRC / "serve").parts[0] == "ui"


def test_no_rest_or_mcp_module_imports_the_model_path() -> None:
    reaching = {
        f"{path.relative_to(SRC).as_posix()}: {name}"
        for path in (SRC / "serve").rglob("*.py")
        if not _page_module(path)
        for name in _imports(path)
        if _reaches_a_model(name)
    }
    assert reaching == set()
    assert any(_page_module(p) for p in (SRC / "serve").rglob("*.py"))  # the exemption is real
    assert _reaches_a_model("groundkit.answer.service")  # the check itself can fail


def test_the_documented_rest_routes_hold_no_answer_or_ask() -> None:
    spec = json.loads((SRC.parents[1] / "docs" / "openapi.json").read_text(encoding="utf-8"))
    assert spec["paths"]  # the document is there and has routes
    assert not [p for p in spec["paths"] if "answer" in p or "ask" in p]

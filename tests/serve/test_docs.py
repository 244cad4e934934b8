"""The connection snippets in docs/serve.md work: every MCP config starts `grk serve-mcp` with
arguments the CLI accepts, every URL is the server's default, every curl body is a valid request
to a route that exists."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from groundkit.cli.main import main
from groundkit.serve import code, extract
from groundkit.serve import models as m
from groundkit.serve.openapi import openapi_document

DOC = Path(__file__).parents[2] / "docs" / "serve.md"
_FENCE = re.compile(r"^```(\w+) ([\w-]+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
MCP_URL = "http://127.0.0.1:8765/mcp"


def snippets() -> dict[str, tuple[str, str]]:
    found = {name: (lang, body) for lang, name, body in _FENCE.findall(DOC.read_text("utf-8"))}
    assert set(found) == {
        "claude-desktop",
        "claude-desktop-writable",
        "claude-code",
        "claude-code-project",
        "claude-code-http",
        "generic-mcp",
        "grk-toml",
        "rest",
    }
    return found


def accepted_by_grk(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The arguments parse, and name `serve-mcp` (its --help runs instead of the server)."""
    capsys.readouterr()
    assert main([*args, "--help"]) == 0
    assert "Serve MCP over stdio" in capsys.readouterr().out


@pytest.mark.parametrize(
    "name", ["claude-desktop", "claude-code-project", "claude-desktop-writable"]
)
def test_each_mcp_json_config_starts_grk_serve_mcp(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lang, body = snippets()[name]
    server = json.loads(body)["mcpServers"]["groundkit"]

    assert lang == "json"
    assert server["command"] == "grk"
    assert server.get("type", "stdio") == "stdio"
    assert set(server.get("env", {})) <= {"GROUNDKIT_SERVE_SECRET"}
    accepted_by_grk(server["args"], capsys)


def test_the_claude_code_commands_start_grk_or_reach_the_default_url(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stdio = shlex.split(snippets()["claude-code"][1])
    http = shlex.split(snippets()["claude-code-http"][1])

    assert stdio[:4] == ["claude", "mcp", "add", "groundkit"]
    separator = stdio.index("--")
    assert stdio[separator + 1] == "grk"
    accepted_by_grk(stdio[separator + 2 :], capsys)
    assert http == ["claude", "mcp", "add", "--transport", "http", "groundkit", MCP_URL]


def test_the_python_client_snippet_compiles_and_uses_the_default_url() -> None:
    body = snippets()["generic-mcp"][1]

    compile(body, "generic-mcp", "exec")
    assert f'Client("{MCP_URL}")' in body


_BODIES: dict[str, type[BaseModel]] = {
    "/v1/search": m.SearchRequest,
    "/v1/verify": m.VerifyRequest,
    "/v1/extract": extract.ExtractRequest,
    "/v1/ingest": m.IngestRequest,
    "/v1/code/trace": code.CodeTraceRequest,
    "/v1/code/blast": code.CodeBlastRequest,
    "/v1/code/diff": code.CodeRevisionsDiffRequest,
}


def _route(path: str, paths: dict[str, Any]) -> str:
    for template in paths:
        pattern = re.sub(r"\{[^}]+\}", "[^/]+", template)
        if re.fullmatch(pattern, path):
            return template
    raise AssertionError(f"no route for {path}")


def test_every_curl_example_is_a_valid_call_to_an_existing_route() -> None:
    paths = openapi_document()["paths"]
    lines = snippets()["rest"][1].strip().splitlines()
    covered = set()
    for line in lines:
        words = shlex.split(line)
        url = next(w for w in words if w.startswith("http://"))
        assert url.startswith("http://127.0.0.1:8765/")
        path = url.removeprefix("http://127.0.0.1:8765")
        method = words[words.index("-X") + 1].lower() if "-X" in words else None
        body = json.loads(words[words.index("-d") + 1]) if "-d" in words else None
        method = method or ("post" if body is not None else "get")
        template = _route(path, paths)
        assert method in paths[template], line
        if body is not None:
            _BODIES[template].model_validate(body)
        if "security" in paths[template][method]:
            assert "X-Groundkit-Secret: $GROUNDKIT_SERVE_SECRET" in words
        covered.add((template, method))
    documented = {(p, verb) for p, verbs in paths.items() for verb in verbs}
    assert covered == documented  # every route has an example


def test_the_ingest_roots_example_is_a_config_file_grk_accepts(tmp_path: Path) -> None:
    from groundkit.config import load

    _, body = snippets()["grk-toml"]
    config = tmp_path / "grk.toml"
    config.write_text(body, encoding="utf-8")

    settings = load(config_file=str(config), environ={}).settings

    assert settings.serve.ingest_roots == ["/home/me/notes", "/home/me/papers"]

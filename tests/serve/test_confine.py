"""Path ingest over the servers is confined to ``serve.ingest_roots``: a client holding the
secret must not make the server read ``~/.ssh`` or ``/etc`` and hand it back through search."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from serving import SECRET, SECRET_ENV, client_for, make_runtime

from groundkit import Settings
from groundkit.serve.mcp_server import create_mcp_server
from groundkit.serve.runtime import Runtime

AUTH = {"X-Groundkit-Secret": SECRET}


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder the server's user can read, outside every configured root."""
    private = tmp_path / "private"
    private.mkdir()
    (private / "id_rsa.txt").write_text("BEGIN PRIVATE KEY wombatkey\n")
    return private


def confined(settings: Settings, roots: list[str]) -> Runtime:
    serve = settings.serve.replace(ingest_roots=roots)
    return make_runtime(settings.replace(serve=serve), secret=SECRET)


@pytest.fixture
def roots_client(
    settings: Settings, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    monkeypatch.setenv(SECRET_ENV, SECRET)
    runtime = confined(settings, [str(docs)])
    with client_for(runtime) as client:
        yield client
    runtime.close()


def ingest(client: TestClient, *inputs: str) -> tuple[int, dict[str, object]]:
    response = client.post(
        "/v1/ingest", json={"collection": "notes", "inputs": list(inputs)}, headers=AUTH
    )
    body: dict[str, object] = response.json()
    return response.status_code, body


def test_path_ingest_is_refused_when_no_ingest_roots_are_configured(
    settings: Settings, docs: Path
) -> None:
    runtime = confined(settings, [])
    with client_for(runtime) as client:
        status, body = ingest(client, str(docs))
        # A URL is not a path: it passes the confinement and meets the URL guard instead, which
        # refuses loopback (so no request is made).
        url_status, url_body = ingest(client, "http://127.0.0.1:1/page")
    runtime.close()

    assert (status, body["code"]) == (403, "serve.path_not_allowed")
    assert "serve.ingest_roots" in str(body["message"])
    assert str(docs) not in json.dumps(body)  # no machine paths in errors
    assert url_status == 200  # a refused URL is reported as skipped, as `grk ingest` does
    [skipped] = url_body["skipped"]  # type: ignore[misc]
    assert skipped["reason"].startswith("url.unsafe")


def test_a_path_inside_an_ingest_root_is_ingested(roots_client: TestClient, docs: Path) -> None:
    (docs / "quokka.md").write_text("The quokka smiles on Rottnest Island.\n")

    status, body = ingest(roots_client, str(docs / "quokka.md"), str(docs / "guides"))

    assert status == 200, body
    assert body["new"] == 2  # quokka.md, and guides/echidnas.txt


def test_a_path_outside_the_ingest_roots_is_refused(
    roots_client: TestClient, outside: Path
) -> None:
    for path in (str(outside), str(outside / "id_rsa.txt"), "/etc/hostname", "relative.md"):
        status, body = ingest(roots_client, path)
        assert (status, body["code"]) == (403, "serve.path_not_allowed"), path
    assert roots_client.get("/v1/collections").json() == {"collections": []}  # nothing read


def test_a_symlink_or_dotdot_that_leads_out_of_a_root_is_refused(
    roots_client: TestClient, docs: Path, outside: Path
) -> None:
    os.symlink(outside, docs / "escape")
    os.symlink(outside / "id_rsa.txt", docs / "key.txt")

    for path in (
        str(docs / "escape"),
        str(docs / "escape" / "id_rsa.txt"),
        str(docs / "key.txt"),
        f"{docs}/../private/id_rsa.txt",
        f"{docs}/guides/../../private",
    ):
        status, body = ingest(roots_client, path)
        assert (status, body["code"]) == (403, "serve.path_not_allowed"), path


def test_a_root_that_is_a_prefix_of_a_sibling_does_not_admit_the_sibling(
    roots_client: TestClient, docs: Path
) -> None:
    sibling = docs.parent / (docs.name + "-evil")
    sibling.mkdir()
    (sibling / "x.md").write_text("not yours\n")

    status, body = ingest(roots_client, str(sibling))

    assert (status, body["code"]) == (403, "serve.path_not_allowed")


def test_the_mcp_ingest_tool_is_confined_too(
    settings: Settings, docs: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, SECRET)
    runtime = confined(settings, [str(docs)])

    async def run() -> object:
        async with Client(create_mcp_server(runtime)) as client:
            return await client.call_tool(
                "ingest", {"collection": "notes", "inputs": [str(outside)]}
            )

    result = anyio.run(run)
    runtime.close()

    assert result.is_error  # type: ignore[attr-defined]
    assert result.structured_content["error"]["code"] == "serve.path_not_allowed"  # type: ignore[attr-defined]


def test_a_path_no_file_system_can_hold_is_refused_not_a_crash(
    roots_client: TestClient, docs: Path
) -> None:
    status, body = ingest(roots_client, f"{docs}/a\u0000b.md")

    assert (status, body["code"]) == (403, "serve.path_not_allowed")

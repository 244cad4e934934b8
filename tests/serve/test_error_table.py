"""Every error code, raised by the library under a real command, route and tool: the CLI's exit
status, the HTTP status and the MCP error all come from the one table in groundkit.errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_mcp import call, error_code

from grk_runner import Grk
from groundkit.collection import Collection
from groundkit.errors import OUTCOMES, ErrorCode, ExitStatus, GroundkitError, Kind
from groundkit.serve.runtime import Runtime


def test_every_code_has_an_outcome() -> None:
    assert set(ErrorCode) - set(OUTCOMES) == set()


@pytest.mark.parametrize("code", list(ErrorCode))
def test_the_exit_status_and_the_http_status_tell_the_same_story(code: ErrorCode) -> None:
    outcome = OUTCOMES[code]
    http = int(outcome.http)
    if outcome.kind is Kind.REQUEST:  # the caller can fix it: exit 2 (or a status of its own)
        own = {ExitStatus.SYMBOL_NOT_FOUND, ExitStatus.SYMBOL_AMBIGUOUS}
        assert outcome.exit_status in {ExitStatus.USAGE, *own}
        assert http // 100 == 4
    elif outcome.kind is Kind.SETUP:  # the operator can: exit 2, but a REST client cannot
        assert (outcome.exit_status, http // 100) == (ExitStatus.USAGE, 5)
    else:  # nobody right now, or a bug
        assert (outcome.exit_status, http // 100) == (ExitStatus.RUNTIME, 5)


@pytest.mark.parametrize("code", list(ErrorCode))
def test_each_code_reaches_every_surface_with_its_statuses(
    code: ErrorCode,
    client: TestClient,
    runtime: Runtime,
    index_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fail(self: Collection) -> object:
        raise GroundkitError(code, "made to fail", hint="nothing to do")

    monkeypatch.setattr(Collection, "status", fail)
    outcome = OUTCOMES[code]

    grk = Grk(index_dir, capsys)
    assert grk("status", "-c", "notes", "--json") == outcome.exit_status
    assert json.loads(grk.out)["error"]["code"] == code.value

    response = client.get("/v1/collections/notes")
    assert response.status_code == outcome.http
    assert response.json()["code"] == code.value

    assert error_code(call(runtime, "index_status", collection="notes")) == code.value

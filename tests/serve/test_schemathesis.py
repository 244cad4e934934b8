"""Property-based calls against the served OpenAPI document: no 5xx, and every response matches
the schema it declares (schemathesis's default checks)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from serving import SECRET, make_runtime

from groundkit import open_codemap
from groundkit.config import parse_settings
from groundkit.ops.collections import IngestOrder, ingest
from groundkit.serve.app import create_app
from groundkit.serve.guards import allowed_hosts_for


@pytest.fixture
def api(tmp_path: Path, docs: Path) -> Iterator[Any]:
    runtime = make_runtime(
        parse_settings(
            {"index_dir": str(tmp_path / "index"), "serve": {"ingest_roots": [str(tmp_path)]}}
        ),
        secret=SECRET,
    )
    ingest(runtime, IngestOrder("notes", [str(docs)]))
    code = tmp_path / "code"
    code.mkdir()
    (code / "app.py").write_text("def f():\n    g()\ndef g():\n    pass\n")
    with open_codemap("notes", settings=runtime.settings, create=True) as codemap:
        codemap.update(code)  # a map for the /v1/code routes to read
    # schemathesis's ASGI client calls itself "testserver"; the real bind is covered elsewhere.
    hosts = {"testserver", *allowed_hosts_for("127.0.0.1", 8765)}
    yield create_app(runtime, allowed_hosts=hosts, with_mcp=False)
    runtime.close()


def test_the_api_honours_its_openapi_document(api: Any) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", api)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 20
    calls = 0

    for operation in operations:
        # The secret is never sent: fuzzing must not ingest the server's files or delete
        # things; the mutating routes are still called, and must refuse with a declared 401.
        @given(case=operation.as_strategy())
        @settings(
            max_examples=40,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
            derandomize=True,  # the same examples on every run
        )
        def conforms(case: Any) -> None:
            nonlocal calls
            calls += 1
            case.call_and_validate()

        conforms()
    assert calls >= 18 * 20  # the run really exercised every operation

"""The committed OpenAPI document is the one the server serves."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from groundkit.serve.openapi import openapi_document

COMMITTED = Path(__file__).parents[2] / "docs" / "openapi.json"


def test_the_committed_openapi_document_matches_the_app() -> None:
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))

    # On a mismatch: python -m groundkit.serve.openapi > docs/openapi.json
    assert committed == openapi_document()


def test_the_openapi_document_is_served(admin: TestClient) -> None:
    served = admin.get("/openapi.json").json()

    assert served == openapi_document()
    assert served["components"]["securitySchemes"]["APIKeyHeader"]["name"] == ("X-Groundkit-Secret")

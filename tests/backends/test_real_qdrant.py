"""The contract suite against a real Qdrant cluster: opt-in, never in CI here (no Qdrant server
runs on these machines). Start one and point the suite at it:

    docker run --rm -p 6333:6333 qdrant/qdrant:v1.20.0
    GRK_TEST_QDRANT_URL=http://127.0.0.1:6333 .venv/bin/pytest tests/backends/test_real_qdrant.py

``GRK_TEST_QDRANT_KEY`` passes an API key (a cluster started with QDRANT__SERVICE__API_KEY).
Each test makes collections named ``grk-test-<random>-NAME`` and deletes them after.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

import groundkit
from groundkit.collection import Collection, delete_collection
from groundkit.config import Settings, parse_settings
from groundkit.testing import FakeEmbedder
from groundkit.testing.backends import BackendContract, MakeCollection
from groundkit.types import Verification

# Read now: the suite's autouse fixture clears GRK_* variables before each test.
URL = os.environ.get("GRK_TEST_QDRANT_URL")
KEY = os.environ.get("GRK_TEST_QDRANT_KEY")

pytestmark = pytest.mark.skipif(URL is None, reason="set GRK_TEST_QDRANT_URL to run it")


class TestRealCluster(BackendContract):
    @pytest.fixture
    def absent(self) -> Verification:
        return Verification.NOT_CHECKED

    @pytest.fixture
    def make_collection(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> Iterator[MakeCollection]:
        prefix = f"grk-test-{secrets.token_hex(4)}"
        made: list[tuple[Collection, Settings]] = []
        if KEY:
            monkeypatch.setenv("GRK_TEST_KEY_VALUE", KEY)

        def make(name: str) -> Collection:
            table = {"backend": "qdrant", "url": URL, "remote_name": f"{prefix}-{name}"}
            if KEY:
                table["api_key_env"] = "GRK_TEST_KEY_VALUE"
            settings = parse_settings(
                {"index_dir": str(tmp_path / "index"), "collections": {name: table}}
            )
            collection = groundkit.open_collection(name, settings=settings, embedder=FakeEmbedder())
            made.append((collection, settings))
            return collection

        yield make
        for collection, settings in made:
            collection.close()
            delete_collection(collection.name, settings=settings)

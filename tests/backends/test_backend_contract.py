"""Every backend passes the one contract suite (groundkit.testing.backends): the embedded
default; Qdrant through qdrant-client's local mode; Qdrant's own engine in the process
(qdrant-edge); and Qdrant over REST to a loopback server of our own, opened from grk.toml."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import groundkit
from groundkit.backends.qdrant.backend import QdrantBackend
from groundkit.backends.qdrant.edge import EdgeTransport
from groundkit.backends.qdrant.transport import ClientTransport, Spec, Transport
from groundkit.collection import Collection
from groundkit.config import Settings, parse_settings
from groundkit.testing import FakeEmbedder
from groundkit.testing.backends import BackendContract, MakeCollection
from groundkit.testing.qdrant_server import FakeQdrantServer
from groundkit.types import Verification


@pytest.fixture
def opened() -> Iterator[list[Collection]]:
    found: list[Collection] = []
    yield found
    for collection in found:
        collection.close()


def _qdrant(transport: Transport, name: str, root: Path, opened: list[Collection]) -> Collection:
    backend = QdrantBackend(name, transport, Spec(dense=None), create=True)
    collection = Collection(name, root / name, Settings(), FakeEmbedder(), backend=backend)
    opened.append(collection)
    return collection


class TestEmbedded(BackendContract):
    @pytest.fixture
    def make_collection(self, tmp_path: Path, opened: list[Collection]) -> MakeCollection:
        def make(name: str) -> Collection:
            collection = groundkit.open_collection(
                name, index_dir=tmp_path / "index", embedder=FakeEmbedder()
            )
            opened.append(collection)
            return collection

        return make


class TestQdrantLocalMode(BackendContract):
    @pytest.fixture
    def absent(self) -> Verification:
        return Verification.NOT_CHECKED

    @pytest.fixture
    def make_collection(self, tmp_path: Path, opened: list[Collection]) -> MakeCollection:
        return lambda name: _qdrant(
            ClientTransport(name, location=":memory:"), name, tmp_path, opened
        )


class TestQdrantEdge(BackendContract):
    @pytest.fixture
    def absent(self) -> Verification:
        return Verification.NOT_CHECKED

    @pytest.fixture
    def make_collection(self, tmp_path: Path, opened: list[Collection]) -> MakeCollection:
        return lambda name: _qdrant(
            EdgeTransport(name, tmp_path / "edge" / name), name, tmp_path, opened
        )


class TestQdrantOverRest(BackendContract):
    @pytest.fixture
    def absent(self) -> Verification:
        return Verification.NOT_CHECKED

    @pytest.fixture
    def make_collection(
        self, tmp_path: Path, opened: list[Collection], monkeypatch: pytest.MonkeyPatch
    ) -> Iterator[MakeCollection]:
        monkeypatch.setenv("QDRANT_TEST_KEY", "a-cluster-key")
        with FakeQdrantServer(api_key="a-cluster-key") as server:

            def make(name: str) -> Collection:
                settings = parse_settings(
                    {
                        "index_dir": str(tmp_path / "index"),
                        "collections": {
                            name: {
                                "backend": "qdrant",
                                "url": server.url,
                                "api_key_env": "QDRANT_TEST_KEY",
                            }
                        },
                    }
                )
                collection = groundkit.open_collection(
                    name, settings=settings, embedder=FakeEmbedder()
                )
                opened.append(collection)
                return collection

            yield make

"""Shared fixtures: every test runs in its own empty working directory with no GRK_* settings."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import groundkit
from groundkit import Collection, Settings

OpenCollection = Callable[..., Collection]


@pytest.fixture(autouse=True)
def hermetic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI reads ./grk.toml and GRK_* variables: neither may leak in from the machine."""
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith(("GRK_", "_GRK_")):
            monkeypatch.delenv(name)


@pytest.fixture
def index_dir(tmp_path: Path) -> Path:
    return tmp_path / "index"


@pytest.fixture
def open_col(index_dir: Path) -> Iterator[OpenCollection]:
    """Open the test collection (optionally with settings); everything opened is closed after."""
    opened: list[Collection] = []

    def factory(settings: Settings | None = None, name: str = "test") -> Collection:
        collection = groundkit.open_collection(name, index_dir=index_dir, settings=settings)
        opened.append(collection)
        return collection

    yield factory
    for collection in opened:
        collection.close()

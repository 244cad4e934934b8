"""Fixtures for the answer path: a real collection, a real code map, and the test doubles."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from answer_helpers import ECHIDNA, WOMBAT
from evidence_kits import EdgeKit, PassageKit

from groundkit import Collection
from groundkit.testing.chat import ForbiddenKeyring, MemoryKeyring

OpenCollection = Callable[..., Collection]


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "wombat.md").write_text(WOMBAT, encoding="utf-8")
    (root / "echidna.txt").write_text(ECHIDNA, encoding="utf-8")
    return root


@pytest.fixture
def col(open_col: OpenCollection, docs: Path) -> Collection:
    collection = open_col()
    collection.ingest([docs])
    return collection


@pytest.fixture
def keychain() -> MemoryKeyring:
    """An in-memory keyring backend instance: the machine's keychain is never touched."""
    return MemoryKeyring()


@pytest.fixture(autouse=True)
def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """platformdirs reads XDG_CONFIG_HOME: the opt-in file lives in the test's own folder."""
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def no_machine_keychain(monkeypatch: pytest.MonkeyPatch) -> None:
    """keyring's default backend fails the test if used: only injected backends are allowed."""
    monkeypatch.setattr("keyring.core._keyring_backend", ForbiddenKeyring())


@pytest.fixture(params=["passage", "edge"])
def kit(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PassageKit | EdgeKit]:
    """Each kind of evidence in turn: a test using it runs once for passages, once for edges."""
    if request.param == "passage":
        yield PassageKit(request.getfixturevalue("col"))
        return
    made = EdgeKit(tmp_path)
    yield made
    made.close()

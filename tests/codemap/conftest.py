"""The ``repo`` fixture: an empty repository folder with its own index dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from map_helpers import Repo


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    made = Repo(tmp_path / "repo", tmp_path / "index")
    made.root.mkdir()
    yield made
    made.close()

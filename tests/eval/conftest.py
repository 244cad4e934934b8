from __future__ import annotations

from pathlib import Path

import pytest

from small_golden import make_small_golden


@pytest.fixture
def small_golden(tmp_path: Path) -> Path:
    return make_small_golden(tmp_path / "golden")

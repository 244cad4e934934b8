"""Without platformdirs, the opt-in file is looked for where platformdirs would have put it."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundkit.answer.optin import default_path, fallback_path


@pytest.mark.parametrize("xdg", [True, False])
def test_the_fallback_path_is_where_platformdirs_keeps_the_opt_in_file(
    xdg: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if xdg:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    else:
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert fallback_path() == default_path()

"""`grk` run in process, the way the CLI tests call it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from groundkit.cli.main import main


class Grk:
    """Runs `grk` in process against the test's index dir, capturing what it prints."""

    def __init__(self, index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.index_dir = index_dir
        self.capsys = capsys
        self.out = ""
        self.err = ""

    def __call__(self, *args: str) -> int:
        self.capsys.readouterr()
        status = main(["--index-dir", str(self.index_dir), *args])
        self.out, self.err = self.capsys.readouterr()
        return status

    def json(self, *args: str) -> Any:
        status = self(*args, "--json")
        assert status == 0, self.out + self.err
        return json.loads(self.out)

    def error(self, *args: str) -> tuple[int, str]:
        """The exit status and the error code of a command that fails, run with --json."""
        status = self(*args, "--json")
        return status, json.loads(self.out)["error"]["code"]

"""A full disk for real: a scenario runs `grk` on a small disk of its own at a folder MNT, so
the file system really says ENOSPC and nothing outside the test changes. The disk is a layer
(tests/disk_layers.py): a tmpfs in a private mount namespace where ``unshare -rm`` works, a
fault-injecting shim preloaded into every process otherwise; the same tests run over each.

Imported by name (tests/ is on sys.path) by the disk-full tests of every backend, which take
the ``disk`` fixture (tests/conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from disk_layers import LAYERS, Layer, script_lines

__all__ = ["FULL", "LAYER", "NEED", "Disk", "disk_params"]

TESTS = Path(__file__).parent
# CI sets it: there a full-disk test that cannot run is a failure, not a skip nobody reads.
NEED = "GRK_NEED_FULL_DISK"
# `tmpfs` or `fault`: run the full-disk tests over that layer only.
LAYER = "GRK_FULL_DISK_LAYER"
# Read as the tests are collected: the `hermetic` fixture clears GRK_* before each test runs.
_NEEDED = os.environ.get(NEED) == "1"
_FORCED = os.environ.get(LAYER, "")

# A shell step that fills the file system to its last byte.
FULL = (
    "@dd if=/dev/zero of=MNT/filler bs=65536 2>/dev/null;"
    " dd if=/dev/zero of=MNT/filler2 bs=1 2>/dev/null; true"
)


def disk_params() -> list[object]:
    """The ``disk`` fixture's parameters: every layer, or the one ``GRK_FULL_DISK_LAYER``
    names."""
    chosen = [layer for layer in LAYERS if _FORCED in ("", layer.name)]
    if not chosen:
        names = ", ".join(layer.name for layer in LAYERS)
        raise pytest.UsageError(f"{LAYER}={_FORCED!r}: expected one of {names}")
    return [pytest.param(layer, id=layer.name) for layer in chosen]


@dataclass(frozen=True, slots=True)
class Disk:
    layer: Layer

    @classmethod
    def ready(cls, layer: Layer) -> Disk:
        """The disk over ``layer``; the test is skipped when the layer cannot run here, or
        fails when it must run: it was asked for by name, or CI needs full-disk tests and no
        layer can run."""
        missing = layer.missing()
        if missing is None:
            return cls(layer)
        if _FORCED:
            pytest.fail(f"{LAYER}={_FORCED} but this layer cannot run here: {missing}")
        if _NEEDED and all(other.missing() for other in LAYERS):
            pytest.fail(f"{NEED}=1 but no full-disk layer can run here; {layer.name}: {missing}")
        pytest.skip(f"{layer.name}: {missing}")

    def scenario(
        self, tmp_path: Path, size: str, steps: list[str]
    ) -> list[tuple[int, dict[str, object]]]:
        """Run each `grk` step (``GRK`` is ``grk --index-dir MNT/index``, ``HOOKS`` the same
        with a checkpoint hook: tests/crash_hooks.py; ``@`` steps are shell commands) on a
        fresh disk of ``size`` at MNT, the working folder, holding ``docs`` (20 granite notes)
        and ``docs2`` (20 obsidian notes); return each `grk` step's exit status and JSON
        output."""
        mnt = tmp_path / "mnt"
        lines = script_lines(mnt, sys.executable, steps)
        script, layer_env = self.layer.command(mnt, size, lines)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")} | layer_env
        done = subprocess.run(script, capture_output=True, text=True, env=env, check=False)
        assert done.returncode == 0, done.stderr
        out: list[tuple[int, dict[str, object]]] = []
        body: list[str] = []
        for line in done.stdout.splitlines():
            if line.startswith("exit "):
                out.append((int(line.split()[1]), json.loads("\n".join(body)) if body else {}))
                body = []
            else:
                body.append(line)
        return out

"""What the hostile round's families share: `grk` in a process of its own, bounded in time and
memory, against whichever groundkit ``PYTHONPATH`` names (so the same tries run on main's code
and on an older checkout), and the ``Try`` each family reports.

A family is a function ``Kit -> list[Try]``; ``hostile_round.FAMILIES`` registers them by name.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the small disks the full-disk tests use

from disk_layers import LAYERS, Layer, script_lines  # noqa: E402

__all__ = ["FULL", "Family", "Kit", "Ran", "Try"]

MEMORY = 2 << 30  # a child that reads /dev/zero whole dies of MemoryError, not the machine
TIMEOUT_S = 25.0  # a try that takes longer is a hang
SETUP_S = 120.0  # for steps that write a collection

# A shell step that fills the file system to its last byte.
FULL = (
    "@dd if=/dev/zero of=MNT/filler bs=65536 2>/dev/null;"
    " dd if=/dev/zero of=MNT/filler2 bs=1 2>/dev/null; true"
)


@dataclass(frozen=True, slots=True)
class Try:
    name: str
    held: bool
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Ran:
    code: int | None  # None: killed after the timeout (it hung)
    out: str
    err: str
    seconds: float

    @property
    def json(self) -> dict[str, Any]:
        try:
            data = json.loads(self.out)
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    @property
    def error_code(self) -> str | None:
        error = self.json.get("error")
        return str(error.get("code")) if isinstance(error, dict) else None

    def said(self) -> str:
        """In a few words, for a try's detail."""
        if self.code is None:
            return f"hung (killed after {self.seconds:.0f} s)"
        if self.code == 135:
            return "SIGBUS (exit 135)"
        tail = (self.err.strip().splitlines() or [""])[-1][:90]
        return (
            f"exit {self.code}"
            + (f" {self.error_code}" if self.error_code else "")
            + (f": {tail}" if tail and self.code else "")
        )


Family = Callable[["Kit"], list[Try]]


class Kit:
    """A work folder, a config home of its own, and `grk` from the groundkit on PYTHONPATH."""

    def __init__(self, root: Path, disk: str = "") -> None:
        """``disk``: the layer small disks are made with (tests/disk_layers.py), by name;
        by default a tmpfs where namespaces work, else the disk-fault shim."""
        self.root = root
        self.disk = _layer(disk)
        root.mkdir(parents=True, exist_ok=True)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
        self.env["XDG_CONFIG_HOME"] = str(root / "config-home")
        self.env["XDG_DATA_HOME"] = str(root / "data-home")
        self.python = sys.executable

    def folder(self, name: str) -> Path:
        path = self.root / name
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
        return path

    def grk_command(self, index: Path, *args: str) -> list[str]:
        return [self.python, "-m", "groundkit.cli.main", "--index-dir", str(index), *args]

    def grk(
        self, index: Path, *args: str, cwd: Path | None = None, timeout: float = TIMEOUT_S
    ) -> Ran:
        return self.run(self.grk_command(index, *args), cwd=cwd, timeout=timeout)

    def run(
        self,
        command: list[str],
        cwd: Path | None = None,
        timeout: float = TIMEOUT_S,
        limit_memory: bool = True,
    ) -> Ran:
        if limit_memory:
            command = ["prlimit", f"--as={MEMORY}", "--", *command]
        started = time.monotonic()
        with subprocess.Popen(
            command,
            cwd=cwd or self.root,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            errors="replace",
            start_new_session=True,
        ) as proc:
            try:
                out, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                out, err = proc.communicate()
                return Ran(None, out, err, time.monotonic() - started)
        code = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
        return Ran(code, out, err, time.monotonic() - started)

    def on_small_disk(self, name: str, size: str, steps: list[str]) -> list[Ran]:
        """Each `grk` step (``GRK``: grk on MNT/index; ``HOOKS``: the same through
        tests/crash_hooks.py; ``@``: a shell command) on a fresh disk of ``size`` at MNT (a
        tmpfs in a private mount namespace, or the disk-fault shim); MNT holds ``docs`` (20
        granite notes) and ``docs2`` (20 obsidian notes)."""
        mnt = self.folder(name)
        # A Qdrant ingest loads its engine: on a loaded machine more than a read's bound.
        lines = script_lines(mnt, self.python, steps, wrap=f"timeout -s KILL {SETUP_S:.0f} ")
        # No memory limit here: Qdrant's engine reserves more address space than it uses.
        script, layer_env = self.disk.command(mnt, size, lines)
        saved, self.env = self.env, self.env | layer_env
        try:
            done = self.run(script, timeout=600, limit_memory=False)
        finally:
            self.env = saved
        out: list[Ran] = []
        body: list[str] = []
        for line in done.out.splitlines():
            if line.startswith("exit "):
                code = int(line.split()[1])
                out.append(Ran(None if code == 137 else code, "\n".join(body), "", 0.0))
                body = []
            else:
                body.append(line)
        return out


def _layer(name: str) -> Layer:
    if name:
        return next(layer for layer in LAYERS if layer.name == name)
    return next((layer for layer in LAYERS if layer.missing() is None), LAYERS[0])

"""Two ways to give a shell script a small disk of its own at a folder MNT, so that the file
system really says ENOSPC there and nothing outside changes:

- ``tmpfs``: a tmpfs of that size mounted in a private mount namespace (``unshare -rm``, no
  root needed where user namespaces are allowed); a mapped page that cannot be backed really
  raises SIGBUS there.
- ``fault``: where namespaces are refused, the folder stays on the machine's disk and every
  process of the script runs with ``tests/diskfault.c`` preloaded, which spends a byte budget on
  the folder's files (short write, then ENOSPC), reports it through statvfs, and plays a
  read-only remount. It is compiled here with ``cc`` on first use.

Shared by the full-disk tests (tests/small_disk.py) and the hostile round's full-disk family
(benchmarks/hostile_disk.py); no pytest here.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LAYERS", "Layer", "script_lines", "size_bytes"]

TESTS = Path(__file__).parent
SHIM = TESTS / "diskfault.c"
# Test seams: a machine without `unshare`, or without a C compiler.
UNSHARE = os.environ.get("GROUNDKIT_TEST_UNSHARE", "unshare")
CC = os.environ.get("GROUNDKIT_TEST_CC", "cc")


def script_lines(mnt: Path, python: str, steps: list[str], wrap: str = "") -> list[str]:
    """The shell lines of a full-disk scenario: MNT gets ``docs`` (20 granite notes) and
    ``docs2`` (20 obsidian notes), then each step runs (``GRK``: grk on MNT/index; ``HOOKS``:
    the same through tests/crash_hooks.py; ``@``: a shell command), a `grk` step printing its
    JSON and then ``exit N``. ``wrap`` goes before each `grk` step (a time limit, say)."""
    grk = f"{python} -m groundkit.cli.main --index-dir {mnt}/index"
    hooks = f"{python} {TESTS / 'crash_hooks.py'}"
    lines = [f"cd {mnt}", "mkdir docs docs2"]
    lines += [f'printf "# Doc {i}\\n\\nGranite note {i}.\\n" > docs/d{i}.md' for i in range(20)]
    lines += [f'printf "# New {i}\\n\\nObsidian note {i}.\\n" > docs2/n{i}.md' for i in range(20)]
    for step in steps:
        if step.startswith("@"):
            lines.append(step[1:].replace("MNT", str(mnt)))
            continue
        run = step.replace("GRK", grk).replace("HOOKS", hooks).replace("MNT", str(mnt))
        lines.append(f'{wrap}{run} --json; echo "exit $?"')
    return lines


def size_bytes(size: str) -> int:
    """A tmpfs ``size=`` (``3m``, ``300m``, ``1g``) in bytes."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    unit = units.get(size[-1].lower(), 1)
    return int(size[:-1] if size[-1].lower() in units else size) * unit


@dataclass(frozen=True, slots=True)
class Layer:
    name: str  # "tmpfs" or "fault"

    def missing(self) -> str | None:
        """Why this layer cannot run here, or None."""
        return _namespaces_missing() if self.name == "tmpfs" else _shim_missing()

    def command(self, mnt: Path, size: str, lines: list[str]) -> tuple[list[str], dict[str, str]]:
        """The command running shell ``lines`` on a disk of ``size`` at ``mnt`` (made empty
        here), and the variables to add to its environment."""
        mnt.mkdir(parents=True, exist_ok=True)
        if self.name == "tmpfs":
            mount = f"mount -t tmpfs -o size={size} tmpfs {mnt} || exit 99"
            return [UNSHARE, "-rm", "sh", "-c", "\n".join([mount, *lines])], {}
        flag = mnt.parent / f"{mnt.name}.read-only"
        flag.unlink(missing_ok=True)
        # `mount -o remount,ro MNT`, the one mount a scenario makes once its disk is there.
        remount = (
            'mount() { case "$*" in *remount,ro*) : > "$DISKFAULT_READONLY";; *) exit 98;; esac; }'
        )
        preload = " ".join(p for p in (str(_shim()), os.environ.get("LD_PRELOAD", "")) if p)
        env = {
            "LD_PRELOAD": preload,
            "DISKFAULT_ROOT": str(mnt),
            "DISKFAULT_BYTES": str(size_bytes(size)),
            "DISKFAULT_READONLY": str(flag),
        }
        return ["sh", "-c", "\n".join([remount, *lines])], env


LAYERS = (Layer("tmpfs"), Layer("fault"))


@functools.cache
def _namespaces_missing() -> str | None:
    if shutil.which(UNSHARE) is None:
        return "needs unshare -rm (user and mount namespaces): no unshare here"
    probe = subprocess.run([UNSHARE, "-rm", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        return "needs unshare -rm (user and mount namespaces): refused here"
    return None


def _shim() -> Path:
    """The compiled shim, built once per version of its source (in the temp dir, shared by
    parallel test workers: each builds under its own name and renames into place)."""
    source = SHIM.read_bytes()
    built = Path(tempfile.gettempdir()) / f"groundkit-diskfault-{_digest(source)}.so"
    if not built.exists():
        partial = built.with_suffix(f".{os.getpid()}.tmp")
        cmd = [CC, "-shared", "-fPIC", "-O2", "-o", str(partial), str(SHIM), "-ldl"]
        subprocess.run(cmd, capture_output=True, text=True, check=True)
        os.replace(partial, built)
    return built


@functools.cache
def _shim_missing() -> str | None:
    if shutil.which(CC) is None:
        return f"needs a C compiler ({CC}) to build the disk-fault shim: none here"
    try:
        _shim()
    except subprocess.CalledProcessError as exc:
        return f"the disk-fault shim did not compile: {exc.stderr.strip()[-300:]}"
    return None


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]

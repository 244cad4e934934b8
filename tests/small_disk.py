"""A full disk for real: a scenario runs `grk` in a private mount namespace (``unshare -rm``,
which needs no root) on a small tmpfs of its own, so the file system really says ENOSPC, a
mapped page really cannot be backed (SIGBUS, exit 135), and nothing outside the test changes.

Imported by name (tests/ is on sys.path) by the disk-full tests of every backend."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

__all__ = ["FULL", "full_disk_tests", "namespaces_work", "scenario"]

TESTS = Path(__file__).parent
UNSHARE = os.environ.get("GROUNDKIT_TEST_UNSHARE", "unshare")
# CI sets it: there a full-disk test that cannot run is a failure, not a skip nobody reads.
NEED = "GRK_NEED_FULL_DISK"

# A shell step that fills the file system to its last byte.
FULL = (
    "@dd if=/dev/zero of=MNT/filler bs=65536 2>/dev/null;"
    " dd if=/dev/zero of=MNT/filler2 bs=1 2>/dev/null; true"
)


def namespaces_work() -> bool:
    if shutil.which(UNSHARE) is None:
        return False
    probe = subprocess.run([UNSHARE, "-rm", "true"], capture_output=True, check=False)
    return probe.returncode == 0


def full_disk_tests() -> pytest.MarkDecorator:
    """The mark of a module of full-disk tests: skipped where namespaces do not work, unless
    ``GRK_NEED_FULL_DISK=1``, where they run and fail saying why (``scenario``)."""
    needed = os.environ.get(NEED) == "1"
    return pytest.mark.skipif(
        not needed and not namespaces_work(),
        reason="needs unshare -rm (user and mount namespaces)",
    )


def scenario(tmp_path: Path, size: str, steps: list[str]) -> list[tuple[int, dict[str, object]]]:
    """Run each `grk` step (``GRK`` is ``grk --index-dir MNT/index``, ``HOOKS`` the same with a
    checkpoint hook: tests/crash_hooks.py; ``@`` steps are shell commands) on a fresh tmpfs at
    MNT, the working folder, holding ``docs`` (20 granite notes) and ``docs2`` (20 obsidian
    notes); return each `grk` step's exit status and JSON output."""
    if not namespaces_work():
        pytest.fail(f"{NEED}=1 but `unshare -rm` does not work here: the full-disk tests need it")
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    grk = f"{sys.executable} -m groundkit.cli.main --index-dir {mnt}/index"
    hooks = f"{sys.executable} {TESTS / 'crash_hooks.py'}"
    lines = [f"mount -t tmpfs -o size={size} tmpfs {mnt} || exit 99", f"cd {mnt}"]
    lines += ["mkdir docs docs2"]
    lines += [f'printf "# Doc {i}\\n\\nGranite note {i}.\\n" > docs/d{i}.md' for i in range(20)]
    lines += [f'printf "# New {i}\\n\\nObsidian note {i}.\\n" > docs2/n{i}.md' for i in range(20)]
    for step in steps:
        if step.startswith("@"):
            lines.append(step[1:].replace("MNT", str(mnt)))
            continue
        command = step.replace("GRK", grk).replace("HOOKS", hooks).replace("MNT", str(mnt))
        lines.append(f'{command} --json; echo "exit $?"')
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    done = subprocess.run(
        [UNSHARE, "-rm", "sh", "-c", "\n".join(lines)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
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

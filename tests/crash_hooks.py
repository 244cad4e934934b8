"""`grk` in a process of its own, with a hook at one named checkpoint: the test-only seam that
groundkit.checkpoints leaves for crash tests.

    python tests/crash_hooks.py POINT ACTION GRK-ARGS...

ACTION ``kill`` sends the process SIGKILL at POINT (as a power cut or kill -9 would stop it);
``interrupt`` sends it SIGINT (Ctrl-C);
``fill=PATH`` writes PATH until the disk is full, then lets the run go on.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from collections.abc import Callable


def action(what: str) -> Callable[[], None]:
    if what == "kill":
        return lambda: os.kill(os.getpid(), signal.SIGKILL)
    if what == "interrupt":  # Ctrl-C, as the terminal delivers it to the process
        return lambda: os.kill(os.getpid(), signal.SIGINT)
    if what.startswith("fill="):
        return lambda: fill(what.removeprefix("fill="))
    raise SystemExit(f"unknown action {what!r}")


def fill(path: str) -> None:
    """Write ``path`` until the file system says it is full."""
    block = b"\0" * (1 << 16)
    with open(path, "ab") as fh:
        try:
            while True:
                fh.write(block)
                fh.flush()
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise


def install(point: str, what: str) -> None:
    from groundkit.checkpoints import set_hook

    act = action(what)
    set_hook(lambda name: act() if name == point else None)


if __name__ == "__main__":
    install(sys.argv[1], sys.argv[2])
    from groundkit.cli.main import main

    sys.exit(main(sys.argv[3:]))

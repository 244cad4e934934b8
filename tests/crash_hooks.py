"""`grk` in a process of its own, with a hook at one named checkpoint: the test-only seam that
groundkit.checkpoints leaves for crash tests.

    python tests/crash_hooks.py POINT ACTION GRK-ARGS...

ACTION ``kill`` sends the process SIGKILL at POINT (as a power cut or kill -9 would stop it);
``tell=FIFO`` writes a byte to FIFO at POINT and goes on, for a test that kills the process
from outside at a moment of its choosing (``aimed_kill``);
``interrupt`` sends it SIGINT (Ctrl-C);
``fill=PATH`` writes PATH until the disk is full, then lets the run go on.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any


def action(what: str) -> Callable[[], None]:
    if what == "kill":
        return lambda: os.kill(os.getpid(), signal.SIGKILL)
    if what == "interrupt":  # Ctrl-C, as the terminal delivers it to the process
        return lambda: os.kill(os.getpid(), signal.SIGINT)
    if what.startswith("tell="):
        return lambda: tell(what.removeprefix("tell="))
    if what.startswith("fill="):
        return lambda: fill(what.removeprefix("fill="))
    raise SystemExit(f"unknown action {what!r}")


def tell(fifo: str) -> None:
    with open(fifo, "wb") as fh:  # blocks until the test reads: the moment is exact
        fh.write(b"!")


def aimed_kill(command: list[str], point: str, delay_s: float, fifo: str, **popen: Any) -> int:
    """Run ``command`` (grk's arguments) with a hook at ``point``, and kill -9 it from outside
    ``delay_s`` after it reaches that point (or let it finish, when it is done by then).
    Returns its exit status."""
    os.mkfifo(fifo)
    reader = -1
    try:
        run = [sys.executable, __file__, point, f"tell={fifo}", *command]
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        with subprocess.Popen(run, **popen) as proc:
            # Wait for the byte, or for the process to end without reaching the point.
            while proc.poll() is None and not select.select([reader], [], [], 0.05)[0]:
                pass
            if proc.poll() is None:
                os.read(reader, 1)
                time.sleep(delay_s)
                proc.send_signal(signal.SIGKILL)
            return proc.wait()
    finally:
        if reader >= 0:
            os.close(reader)
        os.unlink(fifo)


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

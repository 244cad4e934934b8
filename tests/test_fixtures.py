"""The shared fixtures tell this test's processes from other runs on the same machine."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable

_SLEEPER = "import time; time.sleep(60)"


def _start_lookalike(env: dict[str, str]) -> subprocess.Popen[bytes]:
    # Its command line ends as a helper's does (``-m groundkit.pipeline.helper``).
    process = subprocess.Popen(
        [sys.executable, "-c", _SLEEPER, "-m", "groundkit.pipeline.helper"], env=env
    )
    time.sleep(0.2)  # until /proc shows its command line
    return process


def test_helpers_of_an_ingest_run_elsewhere_on_the_machine_are_not_this_tests(
    helper_processes: Callable[[], list[int]],
) -> None:
    other = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDKIT_TEST_")}
    process = _start_lookalike(other)
    try:
        assert process.pid not in helper_processes()
    finally:
        process.kill()
        process.wait()


def test_helpers_started_by_this_test_are_listed(
    helper_processes: Callable[[], list[int]],
) -> None:
    process = _start_lookalike(dict(os.environ))
    try:
        assert process.pid in helper_processes()
    finally:
        process.kill()
        process.wait()

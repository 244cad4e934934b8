"""The browser the web UI's tests drive, and what to say when it is missing.

Debian's chromium, never a browser a tool downloads. On a machine without it the browser tests
fail, each saying how to install it or how to skip them on purpose (``--no-browser``), and the
run's header says so before any test runs: a newcomer's run must not pass while a whole family
of tests was silently left out (``tests/conftest.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

# The variable lets the suite's own test of this check point at a browser that is not there.
CHROMIUM = Path(os.environ.get("GROUNDKIT_TEST_CHROMIUM", "/usr/bin/chromium"))
NO_BROWSER = "--no-browser"


def missing_browser(tests: int, chromium: Path = CHROMIUM) -> str | None:
    """Why ``tests`` browser tests cannot run here, or None when they can."""
    if tests == 0 or chromium.is_file():
        return None
    what = "the web UI's browser tests drive" if tests > 1 else "this test drives"
    return (
        f"{what} Debian's chromium ({chromium}), which is not installed: install it"
        f" (sudo apt-get install chromium), or run pytest with {NO_BROWSER} to skip the browser"
        " tests on purpose"
    )

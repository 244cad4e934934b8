"""The web UI's browser tests never vanish unseen: without Debian's chromium they fail saying
how to install it, and only ``--no-browser`` skips them, saying it was asked for."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent


def run_browser_test(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """pytest on one test that asks for the browser, with this suite's conftests, on a machine
    whose chromium is not where it should be."""
    suite = tmp_path / "suite"
    shutil.copytree(
        TESTS / "ui", suite / "ui", ignore=shutil.ignore_patterns("test_*", "__pycache__")
    )
    # The conftest imports its sibling helper modules (chromium, small_disk, ...): copy them all.
    for helper in TESTS.iterdir():
        if helper.is_file() and not helper.name.startswith("test_"):
            shutil.copy(helper, suite / helper.name)
    (suite / "ui" / "test_one.py").write_text("def test_it_opens_a_page(browser):\n    pass\n")
    env = {**os.environ, "GROUNDKIT_TEST_CHROMIUM": str(tmp_path / "no-chromium")}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-rs", *options]
    return subprocess.run(
        [*command, "--rootdir", str(suite), str(suite / "ui" / "test_one.py")],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_without_chromium_the_browser_tests_fail_saying_how_to_get_it(tmp_path: Path) -> None:
    run = run_browser_test(tmp_path)

    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 error" in run.stdout
    assert "sudo apt-get install chromium" in run.stdout
    assert "--no-browser" in run.stdout
    assert "browser tests will fail" in run.stdout.split("collected")[0]  # said before they run


def test_no_browser_skips_them_on_purpose_and_says_so(tmp_path: Path) -> None:
    run = run_browser_test(tmp_path, "--no-browser")

    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 skipped" in run.stdout
    assert "--no-browser: the browser tests are skipped on purpose" in run.stdout

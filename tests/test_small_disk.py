"""The full-disk tests never vanish unseen in CI: where ``unshare -rm`` does not work they run
over the disk-fault shim; where neither layer can run they are skipped, unless
``GRK_NEED_FULL_DISK=1`` (set by ``.ci/run``) asks for them, and then they fail saying why."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent


def run_disk_test(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """pytest on one full-disk test, on a machine whose ``unshare`` is not there."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    environment |= {"GROUNDKIT_TEST_UNSHARE": str(tmp_path / "no-unshare"), **env}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-rs"]
    return subprocess.run(
        [*command, "-k", "reads_go_on_at_zero_bytes", str(TESTS / "index" / "test_media.py")],
        cwd=TESTS.parent,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_without_namespaces_the_full_disk_tests_run_over_the_fault_layer(tmp_path: Path) -> None:
    run = run_disk_test(tmp_path, GRK_NEED_FULL_DISK="1")

    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed, 1 skipped" in run.stdout
    assert "tmpfs: needs unshare -rm" in run.stdout


def test_with_no_layer_the_full_disk_tests_are_skipped_saying_why(tmp_path: Path) -> None:
    run = run_disk_test(tmp_path, GROUNDKIT_TEST_CC=str(tmp_path / "no-cc"))

    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 skipped" in run.stdout
    assert "unshare -rm" in run.stdout
    assert "C compiler" in run.stdout


def test_when_ci_needs_them_the_full_disk_tests_fail_with_no_layer(tmp_path: Path) -> None:
    run = run_disk_test(tmp_path, GRK_NEED_FULL_DISK="1", GROUNDKIT_TEST_CC=str(tmp_path / "no-cc"))

    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 errors" in run.stdout  # the disk fixture fails
    assert "GRK_NEED_FULL_DISK=1 but no full-disk layer can run here" in run.stdout


def test_a_layer_asked_for_by_name_fails_when_it_cannot_run(tmp_path: Path) -> None:
    run = run_disk_test(tmp_path, GRK_FULL_DISK_LAYER="tmpfs")

    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 error" in run.stdout
    assert "GRK_FULL_DISK_LAYER=tmpfs but this layer cannot run here" in run.stdout

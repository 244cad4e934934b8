"""numpy's BLAS runs one thread in groundkit's processes, unless the user chose otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SHOW = "import os; print(os.environ.get('OPENBLAS_NUM_THREADS'), os.environ.get('MKL_NUM_THREADS'))"


def run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("module", ["groundkit.collection", "groundkit.index.vectors"])
def test_importing_groundkit_before_numpy_asks_for_one_blas_thread(module: str) -> None:
    assert run(f"import {module}, numpy; {SHOW}") == "1 1"


def test_a_thread_count_the_user_set_is_kept() -> None:
    assert run(f"import groundkit.collection; {SHOW}", OPENBLAS_NUM_THREADS="2") == "2 1"


def test_a_program_that_imported_numpy_first_is_left_as_it_is() -> None:
    assert run(f"import numpy, groundkit.collection; {SHOW}") == "None None"

"""A kill -9 in the middle of `grk map` leaves the old map or the new one, never a mixture."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_incremental import snapshot


def _tree(root: Path, version: int) -> None:
    root.mkdir(exist_ok=True)
    for i in range(12):
        callee = f"f{(i + version) % 12}"
        (root / f"m{i}.py").write_text(
            f"from m{(i + 1) % 12} import f{(i + 1) % 12}\n"
            f"def f{i}():\n    return {callee}()\n"
            + (f"def v{version}_{i}(): pass\n" if i % 3 == 0 else "")
        )
    if version == 2:
        (root / "m11.py").unlink()
        (root / "fresh.py").write_text("import m0\ndef g():\n    m0.f0()\n")


HOOKS = Path(__file__).parents[1] / "crash_hooks.py"


def _grk_map(index_dir: Path, tree: Path, crash_at: str | None = None) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRK_", "_GRK_"))}
    grk = ["--index-dir", str(index_dir), "map", "--quiet", "--name", "repo", str(tree)]
    if crash_at:  # killed at the named checkpoint, as the ingest's crash tests are
        run = [sys.executable, str(HOOKS), crash_at, "kill", *grk]
    else:
        run = [sys.executable, "-m", "groundkit.cli.main", *grk]
    return subprocess.run(run, env=env, capture_output=True, check=False).returncode


@pytest.mark.parametrize(
    ("crash_at", "outcome"), [("mid-map", "before"), ("after-map-commit", "after")]
)
def test_kill_9_during_a_mapping_leaves_the_map_before_or_after(
    tmp_path: Path, crash_at: str, outcome: str
) -> None:
    tree, index_dir = tmp_path / "tree", tmp_path / "index"
    ref_tree, ref_index = tmp_path / "ref" / "tree", tmp_path / "ref" / "index"
    _tree(tree, 1)
    assert _grk_map(index_dir, tree) == 0
    before = snapshot(index_dir)

    ref_tree.parent.mkdir()
    _tree(ref_tree, 1)
    _tree(ref_tree, 2)
    assert _grk_map(ref_index, ref_tree) == 0
    after = snapshot(ref_index)
    assert before != after

    _tree(tree, 2)
    assert _grk_map(index_dir, tree, crash_at) == -signal.SIGKILL
    assert snapshot(index_dir) == (before if outcome == "before" else after)

    assert _grk_map(index_dir, tree) == 0  # and the next run completes the change
    assert snapshot(index_dir) == after

"""An open map lists its folder again without walking it while no folder changed, and
sees every change a walk would: files added, edited, removed, ignored, and folders passed over."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from map_helpers import Repo

from groundkit.codemap import sources
from groundkit.codemap.api import open_codemap

START = {
    "app.py": "from pkg.work import run\ndef main():\n    run()\n",
    "pkg/__init__.py": "",
    "pkg/work.py": "def run():\n    pass\n",
    "pkg/deep/__init__.py": "",
    "pkg/deep/inner.py": "def inner():\n    pass\n",
}


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders the map walked, one entry per walk."""
    walked: list[Path] = []
    real = sources.walk_tree

    def counted(root: Path, *args: Any, **kwargs: Any) -> Iterator[Path]:
        walked.append(root)
        return real(root, *args, **kwargs)

    monkeypatch.setattr(sources, "walk_tree", counted)
    return walked


def settle(root: Path) -> None:
    """Every folder under ``root`` last changed a minute ago (a change within the last
    seconds may not move a folder's time, so such a folder is walked again)."""
    past = time.time() - 60
    for folder, _, _ in os.walk(root):
        os.utime(folder, (past, past))


def state(repo: Repo) -> tuple[set[Any], set[Any]]:
    nodes = {(n.key, n.line, n.end_line) for n in repo.map.nodes()}
    edges = {(e.id, e.confidence, e.location, e.flags) for e in repo.map.edges()}
    return nodes, edges


def fresh(repo: Repo, tmp_path: Path) -> tuple[set[Any], set[Any]]:
    index = tmp_path / f"fresh{len(list(tmp_path.glob('fresh*')))}"
    with open_codemap("repo", index_dir=index, create=True) as codemap:
        codemap.update(repo.root, workers=1)
        nodes = {(n.key, n.line, n.end_line) for n in codemap.nodes()}
        edges = {(e.id, e.confidence, e.location, e.flags) for e in codemap.edges()}
    return nodes, edges


def mapped(repo: Repo) -> set[str]:
    return {n.key.path for n in repo.map.nodes() if n.key.path}


def test_a_map_updated_twice_with_no_folder_changed_walks_its_folder_once(
    repo: Repo, walks: list[Path]
) -> None:
    repo.write(START)
    settle(repo.root)
    first = repo.build()
    second = repo.build()
    assert len(walks) == 1
    assert second.files == first.files == len(START)


def test_an_edited_file_in_an_unchanged_folder_is_mapped_again(
    repo: Repo, walks: list[Path], tmp_path: Path
) -> None:
    repo.write(START)
    settle(repo.root)
    repo.build()
    (repo.root / "pkg/deep/inner.py").write_text(
        "from pkg.work import run\ndef inner():\n    run()\n", encoding="utf-8"
    )
    report = repo.build()
    assert len(walks) == 1  # the folder's time did not move: listed again, not walked
    assert report.parsed == 1
    assert ("pkg.deep.inner.inner", "pkg.work.run") in repo.pairs("calls")
    assert state(repo) == fresh(repo, tmp_path)


def test_a_file_added_to_an_unchanged_folder_is_mapped(
    repo: Repo, walks: list[Path], tmp_path: Path
) -> None:
    repo.write(START)
    settle(repo.root)
    repo.build()
    repo.write({"pkg/deep/more.py": "from pkg.work import run\ndef more():\n    run()\n"})
    repo.build()
    assert len(walks) == 2
    assert "pkg/deep/more.py" in mapped(repo)
    assert ("pkg.deep.more.more", "pkg.work.run") in repo.pairs("calls")
    assert state(repo) == fresh(repo, tmp_path)


def test_a_file_removed_from_a_listed_folder_leaves_the_map(
    repo: Repo, walks: list[Path], tmp_path: Path
) -> None:
    repo.write(START)
    settle(repo.root)
    repo.build()
    repo.remove("pkg/deep/inner.py")
    report = repo.build()
    assert report.removed == 1
    assert "pkg/deep/inner.py" not in mapped(repo)
    assert state(repo) == fresh(repo, tmp_path)


def test_an_ignore_file_edited_in_place_is_read_again(repo: Repo, walks: list[Path]) -> None:
    repo.write({**START, ".gitignore": "*.log\n"})
    settle(repo.root)
    repo.build()
    (repo.root / ".gitignore").write_text("*.log\npkg/deep/\n", encoding="utf-8")
    repo.build()
    assert len(walks) == 2
    assert "pkg/deep/inner.py" not in mapped(repo)


def test_a_folder_that_becomes_a_virtualenv_is_passed_over(repo: Repo, walks: list[Path]) -> None:
    repo.write(START)
    settle(repo.root)
    repo.build()
    (repo.root / "pkg/deep/pyvenv.cfg").write_text("home = /usr\n", encoding="utf-8")
    report = repo.build()
    assert "pkg/deep/inner.py" not in mapped(repo)
    assert ("pkg/deep/", "vendored: a virtualenv") in {
        (s.source, s.reason) for s in report.passed_over
    }


def test_a_tree_holding_a_symbolic_link_is_walked_every_time(repo: Repo, walks: list[Path]) -> None:
    repo.write(START)
    (repo.root / "linked.py").symlink_to(repo.root / "pkg/work.py")
    settle(repo.root)
    repo.build()
    repo.build()
    assert len(walks) == 2


def test_a_folder_changed_in_the_last_seconds_is_walked_again(
    repo: Repo, walks: list[Path]
) -> None:
    repo.write(START)  # (its folders were made just now)
    repo.build()
    repo.build()
    assert len(walks) == 2


def test_other_globs_list_the_folder_afresh(repo: Repo, walks: list[Path]) -> None:
    repo.write(START)
    settle(repo.root)
    repo.build()
    repo.build(exclude=["pkg/deep/**"])
    assert len(walks) == 2
    assert "pkg/deep/inner.py" not in mapped(repo)

"""The name a map gets by default: the project's, found the way a user would look for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundkit.codemap.api import check_name
from groundkit.codemap.naming import project_name


def _project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_source_folder_is_named_after_the_pyproject_above_it(tmp_path: Path) -> None:
    root = _project(tmp_path / "click-8.5.1", {"pyproject.toml": '[project]\nname = "click"\n'})
    (root / "src").mkdir()
    assert project_name(root / "src") == "click"
    assert project_name(root) == "click"


def test_another_folder_below_the_project_is_named_apart_so_it_never_overwrites_the_whole(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path / "click-8.5.1", {"pyproject.toml": '[project]\nname = "click"\n'})
    (root / "tests").mkdir()
    assert project_name(root / "tests") == "click-tests"


def test_package_json_names_a_scoped_package_as_a_valid_map_name(tmp_path: Path) -> None:
    root = _project(tmp_path / "ui", {"package.json": json.dumps({"name": "@acme/web-ui"})})
    assert project_name(root) == "acme-web-ui"
    assert check_name(project_name(root))


def test_the_git_top_level_folder_names_a_repository_without_a_manifest(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "shop" / "api").mkdir(parents=True)
    assert project_name(root / "src") == "shop"
    assert project_name(root / "src" / "shop" / "api") == "shop-src-shop-api"


def test_a_manifest_above_the_git_top_level_is_not_looked_at(tmp_path: Path) -> None:
    _project(tmp_path, {"package.json": json.dumps({"name": "home-stuff"})})
    repo = tmp_path / "work" / "repo"
    (repo / ".git").mkdir(parents=True)
    assert project_name(repo) == "repo"


def test_without_git_only_one_folder_up_is_looked_at(tmp_path: Path) -> None:
    _project(tmp_path, {"pyproject.toml": '[project]\nname = "far"\n'})
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert project_name(tmp_path / "a" / "b") == "b"


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        ("[project\nname = ", "my-folder"),  # broken TOML: the folder's name
        ('[tool.poetry]\nname = "poems"\n', "poems"),
        ("[project]\nname = 3\n", "my-folder"),
        ('[project]\nname = "../.."\n', "my-folder"),
    ],
)
def test_a_broken_or_odd_manifest_falls_back_to_the_folder(
    tmp_path: Path, manifest: str, expected: str
) -> None:
    root = _project(tmp_path / "my folder", {"pyproject.toml": manifest})
    assert project_name(root) == expected

"""`grk diff` of code that moved: a function renamed or moved to another module, and a method
extraction, each read as one change (not every edge removed and added again); and no edge
listed twice."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from grk_runner import Grk

CORE = """\
from app.store import load, save, check, log


def process(item):
    load(item)
    check(item)
    save(item)
    log(item)
"""
STORE = "def load(x): pass\ndef save(x): pass\ndef check(x): pass\ndef log(x): pass\n"
CALLER = "from app.core import process\n\n\ndef main():\n    process(1)\n"


@pytest.fixture
def grk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(tmp_path / "index", capsys)


def commit(root: Path, files: dict[str, str], message: str) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    if not (root / ".git").exists():
        subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", message], check=True)


@pytest.fixture
def app(tmp_path: Path) -> Path:
    root = tmp_path / "app"
    commit(
        root,
        {"app/__init__.py": "", "app/core.py": CORE, "app/store.py": STORE, "app/cli.py": CALLER},
        "one",
    )
    return root


def test_a_renamed_function_is_one_change_with_its_edges(grk: Grk, app: Path) -> None:
    commit(
        app,
        {
            "app/core.py": CORE.replace("def process", "def handle"),
            "app/cli.py": CALLER.replace("process", "handle"),
        },
        "rename",
    )
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(app))
    moved = [(m["before"]["name"], m["after"]["name"], m["edges"]) for m in data["nodes"]["moved"]]
    assert moved == [("app.core.process", "app.core.handle", 6)]  # 4 calls, its caller, defines
    assert data["nodes"]["added"] == []
    assert data["nodes"]["removed"] == []
    assert data["edges"]["added"] == []
    assert data["edges"]["removed"] == []
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(app)) == 0
    assert "~ app.core.process -> app.core.handle (function): 6 edge(s) went with it" in grk.out


def test_a_function_moved_to_another_module_is_one_change(grk: Grk, app: Path) -> None:
    commit(
        app,
        {
            "app/core.py": "",
            "app/jobs.py": CORE,
            "app/cli.py": CALLER.replace("app.core", "app.jobs"),
        },
        "move",
    )
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(app)) == 0
    assert (
        "~ app.core.process -> app.jobs.process (function, app/core.py -> app/jobs.py)" in grk.out
    )
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(app))
    calls = [e for e in data["edges"]["added"] + data["edges"]["removed"] if e["kind"] == "calls"]
    assert calls == []


def test_a_function_moved_to_another_module_takes_its_containment_with_it(
    grk: Grk, app: Path
) -> None:
    commit(
        app,
        {"app/jobs.py": CORE, "app/core.py": "", "app/cli.py": CALLER.replace("core", "jobs")},
        "move",
    )
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(app))
    defines = [
        (e["source_name"], e["target_name"])
        for e in data["edges"]["added"] + data["edges"]["removed"]
        if e["kind"] == "defines"
    ]
    assert defines == [("app", "app.jobs")]  # the new module's own; process's went with it
    # the import statement moved between the modules; the containment went with the function
    assert data["code_moved"] == [{"from": "app.core", "to": "app.jobs", "edges": 1}]
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(app)) == 0
    assert "(function, app/core.py -> app/jobs.py): 6 edge(s) went with it" in grk.out


def test_a_method_extraction_is_one_change_not_each_call_removed_and_added(
    grk: Grk, app: Path
) -> None:
    extracted = CORE.replace(
        "def process(item):\n    load(item)\n    check(item)\n    save(item)\n    log(item)\n",
        "def process(item):\n    load(item)\n    _finish(item)\n\n\n"
        "def _finish(item):\n    check(item)\n    save(item)\n    log(item)\n",
    )
    commit(app, {"app/core.py": extracted}, "extract")
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(app))
    assert data["code_moved"] == [
        {"from": "app.core.process", "to": "app.core._finish", "edges": 3}
    ]
    added = [(e["source_name"], e["target_name"]) for e in data["edges"]["added"]]
    assert ("app.core.process", "app.core._finish") in added
    assert not any(source == "app.core._finish" for source, _ in added if _ != "app.core._finish")
    assert [e["target_name"] for e in data["edges"]["removed"]] == []
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(app)) == 0
    assert "~ 3 edge(s) left app.core.process for app.core._finish (new)" in grk.out


def test_an_edge_that_crosses_into_another_area_is_listed_once(grk: Grk, app: Path) -> None:
    commit(
        app,
        {
            "tools/__init__.py": "",
            "tools/run.py": "from app.core import process\n\n\ndef go():\n    process(2)\n",
        },
        "tools",
    )
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(app)) == 0
    line = "calls tools.run.go -> app.core.process"
    assert grk.out.count(line) == 1
    assert "[new: tools -> app.core]" in grk.out  # app holds most modules: split in areas
    assert "new edges between areas: 2 (marked above)\n  tools -> app.core: 2" in grk.out
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(app))
    (row,) = data["new_cross_area_edges"]
    assert (row["from"], row["to"], len(row["edges"])) == ("tools", "app.core", 2)
    assert set(row["edges"]) <= {e["id"] for e in data["edges"]["added"]}


def test_a_package_moved_under_src_is_one_line_per_file(grk: Grk, app: Path) -> None:
    for rel in ("app/__init__.py", "app/core.py", "app/store.py", "app/cli.py"):
        (app / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (app / rel).rename(app / "src" / rel)
    commit(app, {}, "src layout")
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(app)) == 0
    lines = grk.out.splitlines()
    assert lines[0] == "edges: +0 -0 ~0; nodes: +0 -0; code moved: 4"
    assert "  ~ app/core.py -> src/app/core.py: 2 node(s), 6 edge(s) went with it" in lines
    assert "  ~ app/__init__.py -> src/app/__init__.py: 1 node(s), 3 edge(s) went with it" in lines
    assert len(lines) == 7  # the summary, a blank line, the heading, one line per file
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(app))
    assert [(m["before"], m["after"]) for m in data["files_moved"]] == [
        (f"app/{name}", f"src/app/{name}")
        for name in ("__init__.py", "cli.py", "core.py", "store.py")
    ]
    assert data["edges"]["added"] == data["edges"]["removed"] == []
    assert sum(m["edges"] for m in data["files_moved"]) == len(data["edges"]["carried"])


def test_a_module_renamed_is_one_line_naming_both_modules(grk: Grk, app: Path) -> None:
    (app / "app/store.py").rename(app / "app/storage.py")
    commit(app, {"app/core.py": CORE.replace("app.store", "app.storage")}, "rename module")
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(app)) == 0
    assert "  ~ app/store.py -> app/storage.py (app.store -> app.storage): 5 node(s)" in grk.out
    assert "\n  ~ app.store.load" not in grk.out  # its functions went with the file

"""``--min-confidence``, ``--certain`` and ``--exclude GLOB`` on trace, blast and diff: one
filter (``codemap.filters.EdgeFilter``) every surface applies, and every answer says how many
edges it hid."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from grk_runner import Grk
from groundkit.codemap.filters import EdgeFilter
from groundkit.codemap.model import EdgeFlag
from groundkit.codemap.traverse import blast, trace
from groundkit.errors import ErrorCode, UsageError
from groundkit.testing import GraphBuilder


def graph() -> GraphBuilder:
    """app.run calls app.save (certain), app.pick (partial, 0.15) and tests.helper; the test
    and app.main call app.run."""
    g = GraphBuilder()
    g.module("app")
    for name in ("run", "save", "pick", "main"):
        g.function(f"app.{name}")
    g.module("tests.test_app")
    g.function("tests.test_app.test_run")
    g.function("tests.test_app.helper")
    g.calls("app.run", "app.save")
    g.calls("app.run", "app.pick", confidence=0.15, flags=[EdgeFlag.PARTIAL])
    g.calls("app.run", "tests.test_app.helper")
    g.calls("app.main", "app.run")
    g.calls("tests.test_app.test_run", "app.run")
    g.calls("app.pick", "app.save")
    return g


def targets(found: object) -> list[str]:
    return [s.edge.target.qualname for s in found.steps]  # type: ignore[attr-defined]


def test_certain_leaves_partial_edges_out_of_a_trace_and_does_not_walk_through_them() -> None:
    g = graph()
    graph_ = g.memory()
    start = g.node_of("app.run")
    assert "app.pick" in targets(trace(graph_, start))
    found = trace(graph_, start, edge_filter=EdgeFilter(certain=True))
    assert targets(found) == ["app.save", "tests.test_app.helper"]
    assert found.hidden == 1
    assert found.to_dict()["filter"] == {"min_confidence": 0.0, "certain": True, "exclude": []}


def test_min_confidence_and_exclude_each_hide_edges_and_count_them() -> None:
    g = graph()
    start = g.node_of("app.run")
    found = trace(g.memory(), start, edge_filter=EdgeFilter(min_confidence=0.5))
    assert "app.pick" not in targets(found)
    assert found.hidden == 1
    found = trace(g.memory(), start, edge_filter=EdgeFilter(exclude=("tests/**",)))
    assert targets(found) == ["app.save", "app.pick", "app.save"]
    assert found.hidden == 1


def test_blast_leaves_out_dependents_in_excluded_files_but_never_the_symbol_itself() -> None:
    g = graph()
    run = g.node_of("app.run")
    names = [d.node.qualname for d in blast(g.memory(), run).dependents]
    assert "tests.test_app.test_run" in names
    found = blast(g.memory(), run, edge_filter=EdgeFilter(exclude=("tests/**",)))
    assert [d.node.qualname for d in found.dependents] == ["app.main"]
    assert found.hidden == 1
    helper = g.node_of("tests.test_app.helper")
    found = blast(g.memory(), helper, edge_filter=EdgeFilter(exclude=("tests/**",)))
    assert [d.node.qualname for d in found.dependents] == ["app.run", "app.main"]


def test_a_min_confidence_outside_0_to_1_is_a_usage_error() -> None:
    with pytest.raises(UsageError) as caught:
        EdgeFilter(min_confidence=1.5)
    assert caught.value.code == ErrorCode.USAGE


FILES = {
    "app/__init__.py": "",
    "app/core.py": (
        "import random\n"
        "def save():\n    pass\n"
        "def load():\n    pass\n"
        "def run():\n    save()\n    random.choice([save, load])()\n"
    ),
    "tests/test_core.py": "from app.core import run\ndef test_run():\n    run()\n",
}


@pytest.fixture
def grk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(tmp_path / "index", capsys)


@pytest.fixture
def app(tmp_path: Path, grk: Grk) -> Path:
    root = tmp_path / "app"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    assert grk("map", str(root), "--quiet", "--name", "app") == 0
    return root


def test_trace_and_blast_text_say_how_many_edges_the_filter_hid(grk: Grk, app: Path) -> None:
    assert grk("trace", "app.core.run", "--map", "app") == 0
    assert "app.core.load" in grk.out
    assert "hid" not in grk.out  # no filter, no line
    assert grk("trace", "app.core.run", "--map", "app", "--certain") == 0
    assert "app.core.load" not in grk.out
    assert "filter (certain) hid 1 edge(s)" in grk.out  # load: partial (save is also certain)
    assert grk("blast", "app.core.run", "--map", "app", "--exclude", "tests/**") == 0
    assert "0 dependent(s)" in grk.out
    assert "filter (not tests/**) hid 1 edge(s)" in grk.out
    data = grk.json("blast", "app.core.run", "--map", "app", "--exclude", "tests/**")
    assert data["hidden"] == 1
    assert data["filter"]["exclude"] == ["tests/**"]
    assert data["dependents"] == []


def test_diff_leaves_out_what_the_filter_names_and_counts_it(grk: Grk, app: Path) -> None:
    git = ["git", "-C", str(app), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (app / "tests" / "test_core.py").write_text(
        "from app.core import run, save\ndef test_run():\n    run()\n    save()\n"
    )
    (app / "app" / "core.py").write_text(FILES["app/core.py"] + "def more():\n    load()\n")
    subprocess.run([*git, "commit", "-qam", "two"], check=True)
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(app))
    assert len(data["edges"]["added"]) == 3  # more defined, more -> load, test -> save
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(app), "--exclude", "tests/**")
    added = [(e["source_name"], e["target_name"]) for e in data["edges"]["added"]]
    assert ("app.core.more", "app.core.load") in added
    assert all(not source.startswith("tests.") for source, _ in added)
    assert data["hidden"] == 2  # the test's new call, and its import's changed statement
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(app), "--exclude", "tests/**") == 0
    assert "filter (not tests/**) hid 2 edge(s)" in grk.out

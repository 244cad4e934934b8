"""benchmarks/codemap_score.py reads the ground-truth format of benchmarks/codemap/ (checked
here on a case of our own, so the script cannot drift from the format unnoticed)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "codemap_score.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("codemap_score", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_scoring_script_counts_hits_misses_and_unresolved_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = tmp_path / "calls" / "direct_calls" / "one"
    case.mkdir(parents=True)
    (case / "main.py").write_text(
        "def a(): pass\ndef b(): pass\ndef run(f):\n    a()\n    f()  # unresolved\n"
        "run(eval('b'))\n"
    )
    expected = {
        "edges": [
            {"caller": "main.run", "callee": "main.a", "kind": "calls"},
            {"caller": "main", "callee": "main.run", "kind": "calls"},
            {"caller": "main.run", "callee": "main.b", "kind": "calls"},
        ],
        "unresolved_min": 1,
        "notes": "",
    }
    (case / "expected.json").write_text(json.dumps(expected))
    result = _script().score_calls(tmp_path, fit=True)
    assert result["per_category"]["direct_calls"] == {"tp": 2, "fn": 1}
    assert (result["precision"], round(result["recall"], 3)) == (1.0, 0.667)
    assert result["unresolved_ok"] == 1
    assert "FN direct_calls/one: main.run -> main.b" in capsys.readouterr().out


def test_partial_edges_stay_out_of_the_certain_graph_and_are_counted_by_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    score = _script()
    tally = score.CallTally()
    marked = {("main.py", 9)}
    drawn = [
        score.DrawnCall("main", "main.run", "call-local", False, "main.py", 12),
        score.DrawnCall("main.run", "main.a", "call-argument", True, "main.py", 9),
        score.DrawnCall("main.run", "main.b", "call-argument", True, "main.py", 10),
    ]
    want = {("main", "main.run"), ("main.run", "main.b")}
    tally.add("must_stay_unresolved/one", want, drawn, marked, (1, 1))
    result = score._report_calls(tally, fit=False)
    assert result["per_category"]["must_stay_unresolved"] == {"tp": 1, "fn": 1, "partial": 2}
    assert (result["may"]["tp"], result["may"]["fp"], result["may"]["fn"]) == (2, 1, 0)
    assert result["partial"] == {
        "edges": 2,
        "on_marked": 1,
        "elsewhere": 1,
        "expected": 1,
        "not_expected": 1,
    }
    assert result["must_stay_unresolved"] == {"cases": 1, "drawn": []}
    assert "FN must_stay_unresolved/one: main.run -> main.b (drawn as partial)" in (
        capsys.readouterr().out
    )


def test_edge_flags_are_read_from_enums_strings_or_their_absence() -> None:
    score = _script()

    class Edge:
        flags = frozenset({score.NodeKind.EXTERNAL, "partial"})

    assert score.edge_flags(Edge()) == {"external", "partial"}
    assert score.edge_flags(object()) == set()


def test_traced_pairs_are_found_in_the_map_of_the_package_and_its_tests(tmp_path: Path) -> None:
    root = tmp_path / "src" / "demo-1.0"
    (root / "demo").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "demo" / "__init__.py").write_text("")
    (root / "demo" / "core.py").write_text(
        "class Box:\n    @property\n    def size(self):\n        return 1\n\n"
        "def inner():\n    return 1\n\ndef outer():\n    eval('Box().size')\n    return inner()\n"
    )
    (root / "tests" / "test_core.py").write_text(
        "from demo.core import outer\n\ndef test_outer():\n    outer()\n"
    )
    pairs = [
        ["package", "demo.core.outer", "demo.core.inner", True, []],
        ["package", "demo.core.outer", "demo.core.Box.size", True, []],
        ["tests", "tests.test_core.test_outer", "demo.core.outer", True, []],
    ]
    ref = {"project": "demo", "version": "1.0", "root": ".", "pairs": pairs}
    ref["map_include"] = ["demo/**", "tests/**"]
    (tmp_path / "traced").mkdir()
    (tmp_path / "traced" / "demo.json").write_text(json.dumps(ref))
    result = _script().score_traced(tmp_path, tmp_path / "src")["demo"]
    assert (result["package"]["pairs"], result["package"]["found"]) == (2, 1)
    assert result["package"]["missed_by_reason"] == {"property": 1}
    assert (result["tests"]["pairs"], result["tests"]["found"]) == (1, 1)

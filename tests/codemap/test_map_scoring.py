"""benchmarks/codemap_score.py reads the ground-truth format of benchmarks/codemap/ (checked
here on a case of our own, so the script cannot drift from the format unnoticed)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "codemap_score.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("codemap_score", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_scoring_script_counts_hits_misses_and_unresolved_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = tmp_path / "calls" / "direct_calls" / "one"
    case.mkdir(parents=True)
    (case / "main.py").write_text(
        "def a(): pass\ndef b(): pass\ndef run(f):\n    a()\n    f()  # unresolved\nrun(b)\n"
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

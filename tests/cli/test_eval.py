"""`grk eval` end to end: reports on disk, the comparison gate's exit statuses, bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from groundkit.cli.main import main
from small_golden import make_small_golden

REPO = Path(__file__).resolve().parents[2]


def grk(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return make_small_golden(tmp_path / "golden")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    status, out, err = grk(capsys, "eval", *args, "--json")
    assert status == 0, out + err
    summary: dict[str, Any] = json.loads(out)
    return summary


def test_eval_writes_a_json_report_and_a_self_contained_html_page(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = grk(capsys, "eval", "--golden", str(corpus), "--fake-embedder", "--out", "r")
    assert status == 0
    assert "bm25" in out
    assert "nDCG@10 vs bm25" in out
    (report,) = (tmp_path / "r").glob("*.json")
    assert json.loads(report.read_text())["schema"] == "groundkit.eval.run/1"
    page = report.with_suffix(".html").read_text()
    assert "<svg" in page
    assert "how many litres does the alpha pump move" in page
    for outside in ("<script", "<link", "src=", "@import", "url("):
        assert outside not in page  # nothing to fetch: the page opens offline


def test_a_run_gated_on_itself_passes(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "--golden", str(corpus), "--fake-embedder", "--out", "r")
    second = run_json(
        capsys, "--golden", str(corpus), "--fake-embedder", "--out", "r", "--compare", first["json"]
    )
    assert second["regressions"] == []


def test_a_run_below_its_baseline_exits_4_and_names_the_regression(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = run_json(capsys, "--golden", str(corpus), "--fake-embedder", "--out", "r")
    # The baseline had bm25 only; now the dense stages must at least match a perfect baseline.
    baseline = json.loads(Path(first["json"]).read_text())
    for query in baseline["queries"]:
        for scores in query["stages"]["bm25"]["metrics"].values():
            scores.update(dict.fromkeys(scores, 1.0))
    Path("better.json").write_text(json.dumps(baseline))
    status, out, _ = grk(
        capsys, "eval", "--golden", str(corpus), "--stages", "bm25", "--compare", "better.json"
    )
    assert status == 4
    assert "REGRESSED" in out
    assert "missing" in out  # dense and hybrid were in the baseline and did not run


def test_a_stage_asked_for_that_cannot_run_is_a_usage_error(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = grk(capsys, "eval", "--golden", str(corpus), "--stages", "rerank", "--json")
    assert status == 2
    assert json.loads(out)["error"]["code"] == "eval.stage_unavailable"


def test_a_baseline_that_is_not_an_eval_run_fails_before_the_run(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("base.json").write_text("{}")
    status, out, _ = grk(
        capsys, "eval", "--golden", str(corpus), "--compare", "base.json", "--json"
    )
    assert status == 2
    assert json.loads(out)["error"]["code"] == "eval.invalid_results"
    assert not Path("evals").exists()


@pytest.mark.parametrize(
    "damage",
    [
        lambda run: run["dataset"].update(documents="three"),  # once accepted, never read
        lambda run: run["queries"][0]["stages"]["bm25"].pop("metrics"),  # once a KeyError
    ],
    ids=["wrong-type", "missing-key"],
)
def test_a_damaged_baseline_is_refused_before_the_run_naming_the_file(
    corpus: Path, capsys: pytest.CaptureFixture[str], damage: Callable[[dict[str, Any]], object]
) -> None:
    first = run_json(capsys, "--golden", str(corpus), "--no-dense", "--out", "first")
    baseline = json.loads(Path(first["json"]).read_text())
    damage(baseline)
    Path("base.json").write_text(json.dumps(baseline))
    status, out, _ = grk(
        capsys, "eval", "--golden", str(corpus), "--compare", "base.json", "--json"
    )
    assert status == 2, out
    error = json.loads(out)["error"]
    assert error["code"] == "eval.invalid_results"
    assert "base.json" in error["message"]
    assert not Path("evals").exists()


def test_a_missing_golden_corpus_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = grk(capsys, "eval", "--golden", "nowhere", "--json")
    assert status == 2
    assert json.loads(out)["error"]["code"] == "eval.invalid_dataset"


def test_the_golden_corpus_holds_its_committed_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    """The CI gate: bm25 and the fake embedder on the shipped corpus (the default, found from
    the test's own empty folder), compared with the baseline."""
    baseline = REPO / "evals" / "baselines" / "golden-fake-embedder.json"
    status, out, err = grk(
        capsys,
        "eval",
        "--fake-embedder",
        "--compare",
        str(baseline),
    )
    assert status == 0, out + err
    assert "no regression" in out

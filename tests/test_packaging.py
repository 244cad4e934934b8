"""What ships in the wheel: the golden corpus, which `grk eval` finds from any folder, and the
files `/docs` serves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BASELINE = REPO / "evals" / "baselines" / "golden-fake-embedder.json"
CORPUS = "groundkit/eval/golden/"
WHERE = "from groundkit.eval.datasets import golden_corpus as g; print(g())"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel .` would build, made with the project's own build backend."""
    from hatchling.builders.wheel import WheelBuilder

    out = tmp_path_factory.mktemp("dist")
    built = list(WheelBuilder(str(REPO)).build(directory=str(out), versions=["standard"]))
    assert len(built) == 1
    return Path(built[0])


def test_the_wheel_holds_every_file_of_the_golden_corpus(wheel: Path) -> None:
    shipped = REPO / "src" / "groundkit" / "eval" / "golden"
    expected = {
        CORPUS + p.relative_to(shipped).as_posix()
        for p in shipped.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }

    with zipfile.ZipFile(wheel) as archive:
        inside = {name for name in archive.namelist() if name.startswith(CORPUS)}

    assert CORPUS + "judgments.jsonl" in expected
    assert len([n for n in expected if n.startswith(CORPUS + "docs/")]) == 13
    assert inside == expected


def test_grk_eval_from_an_unrelated_folder_uses_the_corpus_in_the_installed_package(
    wheel: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # The unpacked wheel comes first on the path, ahead of the checkout's editable install.
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = [sys.executable, "-m", "groundkit.cli.main"]

    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "from groundkit.eval.datasets import golden_corpus; print(golden_corpus())",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    done = subprocess.run(
        [*run, "eval", "--fake-embedder", "--stages", "bm25", "--out", "reports", "--json"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )

    assert Path(where.stdout.strip()).is_relative_to(site)
    assert done.returncode == 0, done.stdout + done.stderr
    written = elsewhere / json.loads(done.stdout)["json"]
    assert written.is_relative_to(elsewhere / "reports")
    report = json.loads(written.read_text("utf-8"))
    baseline = json.loads(BASELINE.read_text("utf-8"))
    # The very corpus the CI gate's baseline was recorded on.
    assert report["dataset"]["hash"] == baseline["dataset"]["hash"]
    assert report["dataset"]["queries"] == baseline["dataset"]["queries"]


def test_the_wheel_holds_the_api_docs_page_and_its_vendored_licence(wheel: Path) -> None:
    static = "groundkit/serve/static/"

    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())

    for name in ("docs.js", "swagger-ui/swagger-ui-bundle.js", "swagger-ui/swagger-ui.css"):
        assert static + name in names
    assert static + "swagger-ui/LICENSE" in names
    assert static + "swagger-ui/NOTICE" in names

"""Which in-repository functions call which while a real package's own tests run.

Usage (from the repository root, any Python 3.11; each project gets its own venv):
    python benchmarks/codemap/traced/collect.py [--projects httpx,click]

For each project it downloads the sdist (which ships the tests) into /tmp/codemap-bench, runs the
test suite there with the package imported from the sdist, under the call tracer in tracer.py
(`python -m pytest -p tracer`), and writes `benchmarks/codemap/traced/<project>.json`:

    {"project", "version", "source", "root", "package", "tests", "map_include", "command",
     "requirements", "tests_run": {...counts...},
     "columns": ["from", "caller", "callee", "direct", "via"],
     "pairs": [["package", "httpx._client.Client.get", "httpx._client.Client.request", true, []],
               ["tests", "tests.test_api.test_get", "httpx._api.get", true, []], ...]}

`from` says whether the caller is the package's code or the tests'; callees are always the
package's functions. `direct` is true when the caller's frame was seen directly below the
callee's at least once; `via` lists the outside modules (standard library or third-party) whose
frame stood between them on the other occasions. Names are the code map's (see tracer.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from _venv import WORK, ensure_venv, fetch_sdist  # noqa: E402


def _coverage_recipe() -> tuple[str, list[str]]:
    """httpx's venv is the coverage set's (same name, same pins: made once, used by both)."""
    spec = importlib.util.spec_from_file_location(
        "coverage_collect", HERE.parent / "coverage" / "collect.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.VERSION, module.REQUIREMENTS


HTTPX_VERSION, HTTPX_REQUIREMENTS = _coverage_recipe()
CLICK_VERSION = "8.1.8"
JINJA2_VERSION = "3.1.6"
ITSDANGEROUS_VERSION = "2.2.0"
PROJECTS = {
    "httpx": {
        "version": HTTPX_VERSION,
        "venv": "cov",
        "requirements": HTTPX_REQUIREMENTS,
        "package": "httpx",
        "tests": "tests",
        "pythonpath": "",
        # Tests marked `network` need the internet, which this machine does not reach.
        "pytest": ["-m", "not network"],
    },
    "click": {
        "version": CLICK_VERSION,
        "venv": "traced-click",
        # click's requirements/tests.txt of the release; click itself is imported from src/.
        "requirements": ["pytest==8.3.4", "pluggy==1.5.0", "iniconfig==2.0.0", "packaging==24.2"],
        "package": "src/click",
        "tests": "tests",
        "pythonpath": "src",
        "pytest": [],
    },
    "jinja2": {
        "version": JINJA2_VERSION,
        "venv": "traced-jinja2",
        # jinja2's test requirements at the release; jinja2 itself is imported from src/.
        "requirements": ["pytest==8.3.4", "MarkupSafe==3.0.2", "trio==0.29.0"],
        "package": "src/jinja2",
        "tests": "tests",
        "pythonpath": "src",
        "pytest": [],
    },
    "itsdangerous": {
        "version": ITSDANGEROUS_VERSION,
        "venv": "traced-itsdangerous",
        "requirements": ["pytest==8.3.4", "freezegun==1.5.1"],
        "package": "src/itsdangerous",
        "tests": "tests",
        "pythonpath": "src",
        "pytest": [],
    },
}
PYTEST_ARGS = ["-p", "no:cacheprovider", "-p", "tracer", "-q"]


def test_counts(junit: Path) -> dict[str, int]:
    counts = {"passed": 0, "failed": 0, "skipped": 0, "error": 0}
    for case in ET.parse(junit).getroot().iter("testcase"):
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed"}.get(child.tag, child.tag)
        counts[outcome] += 1
    return counts


def collect(name: str) -> None:
    """Run inside the project's venv: trace its test suite and write <name>.json."""
    project = PROJECTS[name]
    root = fetch_sdist(name, project["version"])
    junit, raw = WORK / f"traced-{name}-junit.xml", WORK / f"traced-{name}-pairs.json"
    for stale in (junit, raw):
        stale.unlink(missing_ok=True)
    paths = [str(HERE)] + ([str(root / project["pythonpath"])] if project["pythonpath"] else [])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "TRACED_ROOT": str(root),
        "TRACED_PACKAGE": project["package"],
        "TRACED_TESTS": project["tests"],
        "TRACED_OUT": str(raw),
    }
    cmd = [sys.executable, "-m", "pytest", *project["pytest"], *PYTEST_ARGS, f"--junitxml={junit}"]
    run = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=False)
    (WORK / f"traced-{name}-pytest.log").write_text(run.stdout + run.stderr)
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr[-300:]
    print(f"{name}: pytest exit {run.returncode}: {summary}")
    pairs = json.loads(raw.read_text())["pairs"]
    out = {
        "project": name,
        "version": project["version"],
        "source": f"pip download --no-deps --no-binary :all: {name}=={project['version']}; unpack",
        "root": ".",
        "package": project["package"],
        "tests": project["tests"],
        "map_include": [f"{project['package']}/**", f"{project['tests']}/**"],
        "command": "python -m pytest "
        + shlex.join([*project["pytest"], *PYTEST_ARGS, "--junitxml=JUNIT"])
        + " (PYTHONPATH: this folder"
        + (f", {project['pythonpath']}" if project["pythonpath"] else "")
        + f"; TRACED_PACKAGE={project['package']} TRACED_TESTS={project['tests']})",
        "requirements": project["requirements"],
        "tests_run": test_counts(junit),
        "columns": ["from", "caller", "callee", "direct", "via"],
        "pairs": pairs,
    }
    (HERE / f"{name}.json").write_text(
        "{\n"
        + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in out.items() if k != "pairs")
        + ',\n "pairs": [\n'
        + ",\n".join("  " + json.dumps(row) for row in out["pairs"])
        + "\n ]\n}\n"
    )
    sides = {s: sum(1 for r in out["pairs"] if r[0] == s) for s in ("package", "tests")}
    print(f"{name}: tests {out['tests_run']}; pairs {sides}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", default=",".join(PROJECTS))
    parser.add_argument("--one", help=argparse.SUPPRESS)  # set when re-run inside a venv
    args = parser.parse_args()
    if args.one:
        project = PROJECTS[args.one]
        ensure_venv(project["venv"], project["requirements"])
        collect(args.one)
        return 0
    for name in args.projects.split(","):
        script = [sys.executable, str(Path(__file__).resolve()), "--one", name]
        subprocess.run(script, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
